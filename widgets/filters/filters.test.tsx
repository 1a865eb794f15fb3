// The filter kinds (issue 23 §2): each writes its screen variable, typed as the variable is declared; options
// STATIC or from an API; a cascading filter drops a value its new options no longer offer; reset; on the
// designer's canvas (no variables given) a filter takes no input.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useMemo } from 'react';
import type { ScreenVariable } from '../../common/variables';
import { createVariableStore, VariablesContext, type VariableStore } from '../data/variables';
import { VARIABLE_DEBOUNCE_MS } from '../data/useWidgetData';
import { WidgetDataContext, type ApiDataRequest } from '../data/WidgetDataContext';
import { createWidget, preloadWidgetKinds } from '../registry';
import type { DatasourceProps } from '../types';
import { WidgetView } from '../WidgetView';

const KINDS = ['filterSelect', 'filterButtons', 'filterDate', 'filterDateRange', 'filterSearch', 'filterReset'];
beforeAll(() => preloadWidgetKinds(KINDS), 60_000);

interface Placed {
  name: string;
  view?: Record<string, unknown>;
  ds?: Partial<DatasourceProps>;
  testId?: string;
}

function Screen({ store, widgets, fetchApiData }: { store?: VariableStore; widgets: Placed[]; fetchApiData?: (q: ApiDataRequest) => Promise<unknown[]> }) {
  const services = useMemo(() => ({ fetchApiData: fetchApiData as never }), [fetchApiData]);
  const drawn = widgets.map((p, i) => {
    const w = createWidget(p.name, { pageId: 'p' });
    return (
      <div key={i} data-testid={p.testId ?? p.name} style={{ width: 300, height: 40 }}>
        <WidgetView widgetName={p.name} viewProps={{ ...w.widgetProps.viewProps, ...p.view }} datasourceProps={{ ...w.widgetProps.datasourceProps, ...p.ds }} />
      </div>
    );
  });
  return <WidgetDataContext.Provider value={services}>{store ? <VariablesContext.Provider value={store}>{drawn}</VariablesContext.Provider> : drawn}</WidgetDataContext.Provider>;
}

const storeOf = (vars: ScreenVariable[], initial: Record<string, string | null> = {}) => createVariableStore(vars, initial);

/** Opens an antd select inside `within` and clicks the option titled `label`. */
async function choose(within: HTMLElement, label: string) {
  fireEvent.mouseDown(within.querySelector('.ant-select-selector')!);
  const option = await waitFor(() => {
    const el = [...document.querySelectorAll('.ant-select-item-option')].find((o) => o.getAttribute('title') === label);
    if (!el) throw new Error(`no option ${label}`);
    return el;
  });
  fireEvent.click(option);
}

const api = (datasource: string, reqParams: Record<string, unknown> = {}): Partial<DatasourceProps> => ({
  datasourceType: 'API',
  dataMapping: [
    { id: '1', prop: 'label', label: '显示文字', field: 'name' },
    { id: '2', prop: 'value', label: '值', field: 'code' },
  ],
  dataConfig: { datasource, reqParams },
});

describe('filter kinds (issue 23 §2)', () => {
  it('下拉筛选 writes the chosen value to its variable, and shows the variable’s value', async () => {
    const store = storeOf([{ name: 'province', type: 'string' }]);
    render(<Screen store={store} widgets={[{ name: 'filterSelect', view: { variable: 'province', label: '省份' } }]} />);
    expect(screen.getByTestId('filterSelect')).toHaveTextContent('省份');
    await choose(screen.getByTestId('filterSelect'), '广东');
    expect(store.get('province')).toBe('广东');
    act(() => store.set('province', '浙江'));
    expect(screen.getByTestId('filterSelect').querySelector('.ant-select-selection-item')).toHaveTextContent('浙江');
  });

  it('a number variable gets a number, a multiple select a list', async () => {
    const store = storeOf([
      { name: 'year', type: 'number' },
      { name: 'cities', type: 'list' },
    ]);
    const years: Partial<DatasourceProps> = { dataConfig: { data: [{ name: '2025 年', code: 2025 }, { name: '2026 年', code: 2026 }] } };
    render(
      <Screen
        store={store}
        widgets={[
          { name: 'filterSelect', view: { variable: 'year' }, ds: years, testId: 'year' },
          { name: 'filterSelect', view: { variable: 'cities', multiple: true }, testId: 'cities' },
        ]}
      />,
    );
    await choose(screen.getByTestId('year'), '2026 年');
    expect(store.get('year')).toBe(2026);
    await choose(screen.getByTestId('cities'), '北京');
    await choose(screen.getByTestId('cities'), '上海');
    expect(store.get('cities')).toEqual(['北京', '上海']);
  });

  it('cascading: the city options follow {{province}}, a city no longer offered is cleared, and what is bound to the city fetches again', async () => {
    const CITIES: Record<string, string[]> = { 广东: ['广州', '深圳'], 浙江: ['杭州', '宁波'] };
    const calls: ApiDataRequest[] = [];
    const fetchApiData = vi.fn(async (q: ApiDataRequest) => {
      calls.push(q);
      if (q.datasource === 'cities') return (CITIES[String(q.reqParams.province)] ?? []).map((c) => ({ name: c, code: c }));
      return [{ name: `${q.reqParams.city ?? '不限城市'}`, code: 'x' }];
    });
    const store = storeOf(
      [
        { name: 'province', type: 'string' },
        { name: 'city', type: 'string' },
      ],
      { province: '广东', city: '深圳' },
    );
    render(
      <Screen
        store={store}
        fetchApiData={fetchApiData}
        widgets={[
          { name: 'filterSelect', view: { variable: 'city' }, ds: api('cities', { province: '{{province}}' }), testId: 'city' },
          // a second filter standing for a widget bound to the city: it shows which city its rows were fetched for
          { name: 'filterButtons', view: { variable: '', allOption: false }, ds: api('rows', { city: '{{city}}' }), testId: 'rows' },
        ]}
      />,
    );
    await waitFor(() => expect(screen.getByTestId('city').querySelector('.ant-select-selection-item')).toHaveTextContent('深圳'));
    await waitFor(() => expect(screen.getByTestId('rows')).toHaveTextContent('深圳'));
    // the URL's city is among the options: kept
    expect(store.get('city')).toBe('深圳');
    const before = calls.length;

    act(() => store.set('province', '浙江'));
    await waitFor(() => expect(store.get('city')).toBeNull(), { timeout: VARIABLE_DEBOUNCE_MS * 10 });
    await waitFor(() => expect(screen.getByTestId('rows')).toHaveTextContent('不限城市'), { timeout: VARIABLE_DEBOUNCE_MS * 10 });
    const after = calls.slice(before);
    expect(after.filter((c) => c.datasource === 'cities').map((c) => c.reqParams)).toEqual([{ province: '浙江' }]);
    expect(after.filter((c) => c.datasource === 'rows').map((c) => c.reqParams)).toEqual([{}]);
    await choose(screen.getByTestId('city'), '杭州');
    expect(store.get('city')).toBe('杭州');
  });

  it('a failed options call keeps the value', async () => {
    const store = storeOf([{ name: 'city', type: 'string' }], { city: '深圳' });
    const fetchApiData = vi.fn(async () => {
      throw new Error('断网');
    });
    render(<Screen store={store} fetchApiData={fetchApiData} widgets={[{ name: 'filterSelect', view: { variable: 'city' }, ds: api('cities') }]} />);
    await waitFor(() => expect(screen.getByTestId('widget-notice')).toHaveTextContent('断网'));
    expect(store.get('city')).toBe('深圳');
  });

  it('按钮组筛选: a button sets the variable, 全部 clears it; as tabs too', () => {
    const store = storeOf([{ name: 'province', type: 'string' }], { province: '北京' });
    render(
      <Screen
        store={store}
        widgets={[
          { name: 'filterButtons', view: { variable: 'province' }, testId: 'buttons' },
          { name: 'filterButtons', view: { variable: 'province', mode: 'tabs', allOption: false }, testId: 'tabs' },
        ]}
      />,
    );
    const buttons = screen.getByTestId('buttons');
    expect((buttons.querySelector('input[value="北京"]') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(buttons.querySelector('input[value="上海"]')!);
    expect(store.get('province')).toBe('上海');
    fireEvent.click(buttons.querySelector('input[value=""]')!);
    expect(store.get('province')).toBeNull();
    const tabs = screen.getByTestId('tabs');
    expect(tabs).not.toHaveTextContent('全部');
    fireEvent.click([...tabs.querySelectorAll('[role="tab"]')].find((t) => t.textContent === '浙江')!);
    expect(store.get('province')).toBe('浙江');
  });

  it('文本搜索 writes once typing pauses, at once on Enter, and follows a reset', () => {
    vi.useFakeTimers();
    try {
      const store = storeOf([{ name: 'q', type: 'string' }]);
      const seen: unknown[] = [];
      store.subscribe(() => seen.push(store.get('q')));
      render(<Screen store={store} widgets={[{ name: 'filterSearch', view: { variable: 'q', debounceMs: 300 } }]} />);
      const input = screen.getByRole('textbox');
      fireEvent.change(input, { target: { value: '朝' } });
      fireEvent.change(input, { target: { value: '朝阳' } });
      act(() => void vi.advanceTimersByTime(299));
      expect(seen).toEqual([]);
      act(() => void vi.advanceTimersByTime(1));
      expect(seen).toEqual(['朝阳']);
      fireEvent.change(input, { target: { value: '海淀' } });
      fireEvent.keyDown(input, { key: 'Enter', keyCode: 13 });
      expect(seen).toEqual(['朝阳', '海淀']);
      act(() => void vi.advanceTimersByTime(1000));
      expect(seen).toEqual(['朝阳', '海淀']);
      act(() => store.reset());
      expect(input).toHaveValue('');
    } finally {
      vi.useRealTimers();
    }
  });

  it('重置按钮 resets the listed variables to their start values (all when none is listed)', () => {
    const store = storeOf(
      [
        { name: 'a', type: 'string' },
        { name: 'b', type: 'string' },
      ],
      { a: '1', b: '2' },
    );
    render(
      <Screen
        store={store}
        widgets={[
          { name: 'filterReset', view: { variables: ['a'] }, testId: 'onlyA' },
          { name: 'filterReset', view: { text: '全部重置' }, testId: 'all' },
        ]}
      />,
    );
    act(() => store.setMany({ a: 'x', b: 'y' }));
    fireEvent.click(screen.getByTestId('onlyA').querySelector('button')!);
    expect(store.values()).toEqual({ a: '1', b: 'y' });
    fireEvent.click(screen.getByRole('button', { name: /全部重置/ }));
    expect(store.values()).toEqual({ a: '1', b: '2' });
  });

  it('日期 and 日期范围 show their variables’ dates; a range writes both ends in one change', async () => {
    const store = storeOf(
      [
        { name: 'day', type: 'date' },
        { name: 'start', type: 'date' },
        { name: 'end', type: 'date' },
      ],
      { day: '2026-11-03', start: '2026-11-01', end: '2026-11-05' },
    );
    render(
      <Screen
        store={store}
        widgets={[
          { name: 'filterDate', view: { variable: 'day' } },
          { name: 'filterDateRange', view: { variable: 'start', endVariable: 'end' } },
        ]}
      />,
    );
    expect(screen.getByTestId('filterDate').querySelector('input')).toHaveValue('2026-11-03');
    const [from, to] = screen.getByTestId('filterDateRange').querySelectorAll('input');
    expect(from).toHaveValue('2026-11-01');
    expect(to).toHaveValue('2026-11-05');
    let notified = 0;
    store.subscribe(() => notified++);
    // the clear button empties both ends at once
    fireEvent.mouseDown(screen.getByTestId('filterDateRange').querySelector('.ant-picker-clear')!);
    fireEvent.mouseUp(screen.getByTestId('filterDateRange').querySelector('.ant-picker-clear')!);
    fireEvent.click(screen.getByTestId('filterDateRange').querySelector('.ant-picker-clear')!);
    await waitFor(() => expect(store.values()).toMatchObject({ start: null, end: null }));
    expect(notified).toBe(1);
  });

  it('on the designer’s canvas (no screen variables) a filter is drawn but takes no input', async () => {
    render(<Screen widgets={[{ name: 'filterSelect', view: { variable: 'province', label: '省份' } }]} />);
    const el = screen.getByTestId('filterSelect').querySelector('[data-widget="filterSelect"]') as HTMLElement;
    expect(el.style.pointerEvents).toBe('none');
    expect(el.getAttribute('aria-disabled')).toBe('true');
    expect(el).toHaveTextContent('请选择');
  });
});
