// The page manager's two editors of one declaration: an edit in the 可视化 forms shows in the JSON tab and an edit
// in the JSON shows in the forms; undo / redo; save sends what both show; built-in pages read-only; a page on an
// external table keeps its field names. Monaco is replaced by a textarea (jsdom runs no editor workers).
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import type { CustomPage } from './api';

const saved: CustomPage[] = [];
const stored: CustomPage[] = [];
vi.mock('./JsonEditor', () => ({
  modelPath: (id: string) => id,
  JsonEditor: ({ value, onChange, readOnly }: { value: string; onChange(v: string): void; readOnly?: boolean }) => (
    <textarea data-testid="json" value={value} readOnly={readOnly} onChange={(e) => onChange(e.target.value)} />
  ),
}));
vi.mock('./api', () => ({
  pagesApi: {
    search: async () => stored,
    get: async () => {
      throw new Error('not stored');
    },
    save: async (p: CustomPage) => {
      saved.push(p);
      return 7;
    },
    remove: async () => true,
    dictTypes: async () => [{ type: 'YES_OR_NO', name: '是否' }],
  },
}));

const { default: PageManager } = await import('./index');

function mount() {
  return render(
    <ConfigProvider locale={zhCN}>
      <App>
        <PageManager />
      </App>
    </ConfigProvider>,
  );
}
const json = () => JSON.parse((screen.getByTestId('json') as HTMLTextAreaElement).value);
const tab = (name: string) => fireEvent.click(screen.getByRole('tab', { name }));
const field = (form: HTMLElement, label: string) => within(form).getByLabelText(label, { selector: 'input' });

describe('页面管理：可视化与 JSON 同步', () => {
  beforeEach(() => {
    saved.length = 0;
  });

  it('edits in the forms show in the JSON, edits in the JSON show in the forms, and undo / redo step through them', async () => {
    mount();
    fireEvent.click(screen.getByRole('button', { name: /新建页面/ }));
    const ve = await screen.findByTestId('visual-editor');
    // 列: the 名称 column's title and width
    fireEvent.click(within(ve).getByTestId('ve-col-f:name'));
    const colForm = screen.getByTestId('ve-column-form');
    fireEvent.change(field(colForm, '标题'), { target: { value: '供应商名称' } });
    fireEvent.change(field(colForm, '宽度'), { target: { value: '180' } });
    // 表单字段: the 名称 field's length rule and its message
    tab('表单字段');
    fireEvent.click(screen.getByTestId('ve-field-name'));
    const fieldForm = screen.getByTestId('ve-field-form');
    fireEvent.change(field(fieldForm, '最大长度'), { target: { value: '30' } });
    fireEvent.change(field(screen.getByTestId('ve-field-form'), '超长提示'), { target: { value: '名称不能超过30个字' } });

    tab('JSON');
    const d = json();
    expect(d.columns[1]).toEqual({ title: '供应商名称', field: 'name', sortable: true, width: 180 });
    expect(d.dialog.schema.properties.name).toEqual({ type: 'string', title: '名称', maxLength: 30, 'x-validator': [{ required: true, message: '请输入名称' }, { maxLength: 30, message: '名称不能超过30个字' }] });

    // the JSON edited by hand: the forms show it after switching back
    const next = { ...d, columns: d.columns.map((c: { field?: string }) => (c.field === 'name' ? { ...c, title: '公司名称' } : c)) };
    fireEvent.change(screen.getByTestId('json'), { target: { value: JSON.stringify(next, null, 2) } });
    tab('可视化');
    tab('列');
    expect(within(screen.getByTestId('ve-col-f:name')).getByText('公司名称')).toBeInTheDocument();

    // undo goes back over the hand edit and the message, redo forward again
    fireEvent.click(screen.getByTestId('ve-undo'));
    tab('JSON');
    expect(json().columns[1].title).toBe('供应商名称');
    expect(json().dialog.schema.properties.name['x-validator']).toEqual([{ required: true, message: '请输入名称' }]);
    tab('可视化');
    fireEvent.click(screen.getByTestId('ve-redo'));
    tab('JSON');
    expect(json().columns[1].title).toBe('公司名称');
    expect(json().dialog.schema.properties.name['x-validator'][1]).toEqual({ maxLength: 30, message: '名称不能超过30个字' });

    // save sends the declaration both tabs show
    fireEvent.click(screen.getByTestId('pm-save'));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0].declaration.columns[1].title).toBe('公司名称');
  }, 120_000);

  it('a bad value is named in Chinese, and the save is refused', async () => {
    mount();
    fireEvent.click(screen.getByRole('button', { name: /新建页面/ }));
    await screen.findByTestId('visual-editor');
    fireEvent.click(screen.getByTestId('ve-col-f:name'));
    fireEvent.change(field(screen.getByTestId('ve-column-form'), '标题'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('pm-save'));
    expect(await screen.findByText('列「name」的标题不能为空')).toBeInTheDocument();
    expect(saved).toHaveLength(0);
  });

  it('JSON that does not parse leaves the forms waiting, nothing lost', async () => {
    mount();
    fireEvent.click(screen.getByRole('button', { name: /新建页面/ }));
    await screen.findByTestId('visual-editor');
    tab('JSON');
    fireEvent.change(screen.getByTestId('json'), { target: { value: '{ "id": "x", ' } });
    tab('可视化');
    expect(screen.getByText('JSON 不完整，无法用表单编辑')).toBeInTheDocument();
    tab('JSON');
    expect((screen.getByTestId('json') as HTMLTextAreaElement).value).toBe('{ "id": "x", ');
  });

  it('a page on an external table (`source`) keeps its field names: no rename, add or remove', async () => {
    const declaration = {
      id: 'vendorTable', title: '外部供应商', source: { dsId: 1, dsName: 'demo', table: 'vendor', kind: 'table', key: 'id' },
      columns: [{ title: '名称', field: 'name' }],
      dialog: { schema: { type: 'object', properties: { name: { type: 'string', title: '名称' }, city: { type: 'string', title: '城市' } } } },
    };
    stored.push({ id: 3, pageKey: 'vendorTable', title: '外部供应商', declaration: declaration as never, published: false, roles: [] });
    try {
      mount();
      await waitFor(() => expect(screen.getByText(/外部供应商（vendorTable）/)).toBeInTheDocument(), { timeout: 10_000 });
      await act(async () => fireEvent.click(screen.getByText(/外部供应商（vendorTable）/)));
      const ve = await screen.findByTestId('visual-editor');
      // the table's other field is offered as a column, unticked
      expect(within(screen.getByTestId('ve-col-f:city')).getByRole('checkbox')).not.toBeChecked();
      tab('表单字段');
      expect(within(ve).getByText('外部数据表的页面：字段来自表结构，字段名不能修改，也不能增删字段')).toBeInTheDocument();
      expect(screen.queryByTestId('ve-add-field')).toBeNull();
      fireEvent.click(screen.getByTestId('ve-field-city'));
      expect(within(ve).getByLabelText('字段名')).toBeDisabled();
      // its label still changes, and the source block stays as it was
      fireEvent.change(field(screen.getByTestId('ve-field-form'), '标签'), { target: { value: '所在城市' } });
      tab('JSON');
      expect(json().source).toEqual(declaration.source);
      expect(json().dialog.schema.properties.city.title).toBe('所在城市');
    } finally {
      stored.length = 0;
    }
  });

  it('a built-in page opens in its JSON and its forms are read-only', async () => {
    mount();
    await act(async () => fireEvent.click(screen.getByTestId('page-item-builtin-ftp')));
    expect(screen.getByTestId('json')).toHaveAttribute('readonly');
    tab('可视化');
    const ve = screen.getByTestId('visual-editor');
    expect(within(ve).getByLabelText('页面标题')).toBeDisabled();
    expect(screen.queryByTestId('ve-undo')).toBeNull();
  });
});
