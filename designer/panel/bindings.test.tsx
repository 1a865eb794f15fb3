// Binding UI (issue 23 §1, §2, §6): a filter's variable is picked from the canvas's declared variables (or typed);
// a request parameter is bound to a variable by choosing it, the panel writing `{{name}}`; 查看结果 sends a bound
// parameter with its variable's default.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ScreenVariable } from '../../common/variables';
import { getWidgetKind, type DatasourceProps } from '../../widgets';
import { createWidget } from '../../widgets';
import { SchemaPanel } from './SchemaPanel';

const VARIABLES: ScreenVariable[] = [
  { name: 'province', title: '省份', type: 'string', default: '广东' },
  { name: 'city', title: '城市', type: 'string' },
];

async function pick(trigger: HTMLElement, text: string) {
  fireEvent.mouseDown(trigger);
  const option = await waitFor(() => {
    const el = [...document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].find((o) => o.textContent?.includes(text));
    if (!el) throw new Error(`no option ${text}`);
    return el;
  });
  fireEvent.click(option);
}

describe('choosing a filter’s variable', () => {
  const kind = getWidgetKind('filterSelect')!;
  it('offers the canvas’s variables with their titles, and takes a typed name', async () => {
    const onChange = vi.fn();
    render(
      <SchemaPanel schema={kind.viewSchema} uiSchema={kind.uiSchema.viewProps} value={createWidget('filterSelect', { pageId: 'p' }).widgetProps.viewProps} onChange={onChange} services={{ variables: VARIABLES }} />,
    );
    const box = screen.getByRole('combobox', { name: '写入变量' });
    await pick(box, '城市（city）');
    expect(onChange.mock.lastCall![0]).toMatchObject({ variable: 'city' });
    // opened again with a value, every variable is still offered
    await pick(box, '省份（province）');
    expect(onChange.mock.lastCall![0]).toMatchObject({ variable: 'province' });
    // a name not declared yet is typed
    fireEvent.change(box, { target: { value: 'district' } });
    await pick(box, '使用输入的变量名：district');
    expect(onChange.mock.lastCall![0]).toMatchObject({ variable: 'district' });
    // not a variable name: the schema's message, nothing applied
    fireEvent.change(box, { target: { value: '9号' } });
    await pick(box, '使用输入的变量名：9号');
    expect(await screen.findByText(/变量名以字母或下划线开头/)).toBeInTheDocument();
    expect(onChange.mock.lastCall![0]).toMatchObject({ variable: 'district' });
  });

  it('the reset button lists several', async () => {
    const reset = getWidgetKind('filterReset')!;
    const onChange = vi.fn();
    render(<SchemaPanel schema={reset.viewSchema} uiSchema={reset.uiSchema.viewProps} value={createWidget('filterReset', { pageId: 'p' }).widgetProps.viewProps} onChange={onChange} services={{ variables: VARIABLES }} />);
    const box = screen.getByLabelText('重置的变量').closest('.ant-select') as HTMLElement;
    await pick(box.querySelector('.ant-select-selector')!, '省份（province）');
    expect(onChange.mock.lastCall![0]).toMatchObject({ variables: ['province'] });
  });
});

describe('binding a request parameter', () => {
  const kind = getWidgetKind('barChart')!;
  const value = (reqParams: Record<string, unknown>): DatasourceProps => ({
    ...structuredClone(kind.defaults.datasourceProps),
    datasourceType: 'API',
    dataConfig: { datasource: 'sales', datasourceLabel: '销售', reqParams },
  });
  const listApis = async () => [{ apiName: 'sales', apiComment: '销售', reqParams: '{"province": "北京", "top": 10}' }];

  it('writes {{name}} for a chosen variable and the API’s default for 常量; 查看结果 sends the variable’s default', async () => {
    const onChange = vi.fn();
    const fetchApiData = vi.fn(async () => []);
    render(<SchemaPanel schema={kind.datasourceSchema} uiSchema={kind.uiSchema.datasourceProps} value={value({ province: '北京', top: 10 })} onChange={onChange} services={{ variables: VARIABLES, listApis, fetchApiData }} />);
    await act(async () => {});
    const bindings = screen.getByTestId('param-bindings');
    expect(within(bindings).getByText('province')).toBeInTheDocument();
    await pick(within(bindings).getByRole('combobox', { name: '参数 province 的取值' }), '省份（province）');
    expect((onChange.mock.lastCall![0] as DatasourceProps).dataConfig.reqParams).toEqual({ province: '{{province}}', top: 10 });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: '查看结果' })));
    expect(fetchApiData).toHaveBeenCalledWith({ datasource: 'sales', reqParams: { province: '广东', top: 10 } });
    await pick(within(bindings).getByRole('combobox', { name: '参数 province 的取值' }), '常量');
    expect((onChange.mock.lastCall![0] as DatasourceProps).dataConfig.reqParams).toEqual({ province: '北京', top: 10 });
  });

  it('is not shown when the canvas declares no variables and nothing is bound', async () => {
    render(<SchemaPanel schema={kind.datasourceSchema} uiSchema={kind.uiSchema.datasourceProps} value={value({ top: 10 })} services={{ listApis }} />);
    await act(async () => {});
    expect(screen.queryByTestId('param-bindings')).toBeNull();
  });
});
