// The dataset editor on a stored table dataset: SQL offered only with datav:dataset:sql, a label edited in place, a
// calculated field refused by the server with its Chinese message kept in the dialog, then accepted; 保存 sends the
// draft; 预览 shows the row count.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { MemoryRouter } from 'react-router-dom';
import { sessionStore } from '../../core/session';
import type { DatasetInfo } from './model';

const saved: any[] = [];
const previews: any[] = [];
const SQL_FAULT = '计算字段「坏」：表达式第 7 个字符处：不允许的字符「;」：表达式不是 SQL';
const info: DatasetInfo = {
  id: 5,
  groupId: 0,
  name: '区县销售',
  kind: 'table',
  dsId: 1,
  cacheTtl: 60,
  definition: { table: { schema: null, table: 'district_sales' } },
  fields: [
    { name: 'district', label: 'district', type: 'text', role: 'dimension', column: 'district' },
    { name: 'amount', label: 'amount', type: 'number', role: 'measure', column: 'amount' },
  ],
  rowRules: [],
};
vi.mock('./api', () => ({
  datasetCalls: {
    info: async () => info,
    groups: async () => [{ id: 3, parentId: 0, name: '销售组' }],
    sources: async () => [{ id: 1, label: 'demo_sqlite', dbType: 'sqlite' }],
    tables: async () => [{ name: 'district_sales', schema: null, table: 'district_sales', kind: 'table' }],
    columns: async () => [],
    fields: async () => info.fields,
    preview: async (body: any) => {
      previews.push(body);
      if (body.fields.some((f: any) => f.expr?.includes(';'))) throw new Error(SQL_FAULT);
      return { fields: body.fields, rows: [{ district: '朝阳区', amount: 857 }], total: 49 };
    },
    save: async (body: any) => {
      saved.push(body);
      return 5;
    },
  },
}));

const { default: DatasetEdit } = await import('./index');

function mount(perms: string[]) {
  sessionStore.set({ user: null, roles: [], permissions: perms, permissionSwitch: true });
  return render(
    <ConfigProvider locale={zhCN}>
      <App>
        <MemoryRouter initialEntries={['/datav/dataset/edit?id=5']}>
          <DatasetEdit />
        </MemoryRouter>
      </App>
    </ConfigProvider>,
  );
}

const DESIGNER = ['datav:dataset:list', 'datav:dataset:add', 'datav:dataset:edit'];

describe('数据集编辑', () => {
  it('offers SQL only to holders of datav:dataset:sql', async () => {
    const { unmount } = mount(DESIGNER);
    await screen.findByDisplayValue('区县销售');
    expect(screen.getByRole('radio', { name: '表' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: '关联' })).toBeTruthy();
    expect(screen.queryByRole('radio', { name: 'SQL' })).toBeNull();
    unmount();
    mount([...DESIGNER, 'datav:dataset:sql']);
    await screen.findByDisplayValue('区县销售');
    expect(screen.getByRole('radio', { name: 'SQL' })).toBeTruthy();
  }, 90_000);

  it('edits a label, keeps the server’s refusal of a calculated field at the field, previews and saves the draft', async () => {
    saved.length = 0;
    mount(DESIGNER);
    await screen.findByDisplayValue('区县销售');
    expect(screen.queryByText('（未保存）')).toBeNull();
    fireEvent.change(screen.getByLabelText('标签-district'), { target: { value: '区县' } });
    expect(await screen.findByText('（未保存）')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /新增计算字段/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('计算字段标签'), { target: { value: '坏' } });
    fireEvent.change(within(dialog).getByLabelText('表达式'), { target: { value: 'amount; drop table district_sales' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    // the server's message, naming the field and the position, stays in the dialog
    await waitFor(() => expect(within(dialog).getByTestId('calc-fault').textContent).toBe(SQL_FAULT));
    fireEvent.change(within(dialog).getByLabelText('表达式'), { target: { value: 'round([amount] / 2, 1)' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(screen.getByText('round([amount] / 2, 1)')).toBeTruthy());

    fireEvent.click(screen.getByRole('button', { name: /预\s*览/ }));
    expect((await screen.findByTestId('preview-total')).textContent).toBe('共 49 行，显示前 1 行');

    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(saved.length).toBe(1));
    expect(saved[0]).toMatchObject({ id: 5, name: '区县销售', kind: 'table', dsId: 1, definition: { table: { schema: null, table: 'district_sales' } }, cacheTtl: 60 });
    expect(saved[0].fields.map((f: any) => [f.name, f.label, f.expr ?? null])).toEqual([
      ['district', '区县', null],
      ['amount', 'amount', null],
      ['calc_1', '坏', 'round([amount] / 2, 1)'],
    ]);
    await waitFor(() => expect(screen.queryByText('（未保存）')).toBeNull());
  }, 90_000); // antd tables in jsdom, on a machine shared with other runs
});
