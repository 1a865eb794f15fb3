import { act, fireEvent, render, screen, within } from '@testing-library/react';
import type { InteractionProps } from '../../common/interaction';
import { preloadWidgetKinds } from '../registry';
import type { DatasourceProps } from '../types';
import { WidgetView } from '../WidgetView';
import { createInteractionRuntime, InteractionContext, type OpenUrl } from './interaction';
import { VARIABLE_DEBOUNCE_MS } from './useWidgetData';
import { createVariableStore, VariablesContext } from './variables';
import { WidgetDataContext, type ApiDataRequest } from './WidgetDataContext';

const table = (reqParams: Record<string, unknown>): DatasourceProps => ({
  datasourceType: 'API',
  dataMapping: [{ id: '1', prop: 'c1', label: '名称', field: 'name' }],
  dataConfig: { datasource: 'areas', reqParams },
});
const view = { width: 400, height: 300, top: 0, left: 0, pageSize: 10, rowHeight: 30, fontSize: 14, showIndex: false, color: '#fff', headerColor: '#fff', headerBackground: '#000', oddRowBackground: '#111', evenRowBackground: '#222', pagerColor: '#fff' };

/** An API of areas: provinces, a province's cities, a city's districts; `region` filters by name. */
function fetchApiData(req: ApiDataRequest) {
  const p = req.reqParams;
  const names = p.city ? [`${p.city}一区`, `${p.city}二区`] : p.province ? [`${p.province}甲市`, `${p.province}乙市`] : ['浙江', '江苏'];
  return Promise.resolve(names.filter((n) => !p.region || n === p.region).map((name) => ({ name })));
}

describe('clicks in the preview (issue 23 §3–§5)', () => {
  beforeAll(() => preloadWidgetKinds(['pagedTable']));

  it('a row click sets the linked variable (the bound table filters and shows the tag), drills down two levels and back, jumps', async () => {
    vi.useFakeTimers();
    const store = createVariableStore([{ name: 'region', title: '地区', type: 'string' }], {});
    const opened: Array<[string, boolean]> = [];
    const open: OpenUrl = (url, newTab) => opened.push([url, newTab]);
    const rt = createInteractionRuntime(store, open);
    const calls: ApiDataRequest[] = [];
    const services = { fetchApiData: (r: ApiDataRequest) => (calls.push(r), fetchApiData(r)) };
    const source: InteractionProps = {
      linkage: [{ field: 'name', variable: 'region' }],
      drill: [{ title: '省份', field: 'name', param: 'province' }, { title: '城市', field: 'name', param: 'city' }],
      jump: { target: 'screen', to: '5', newTab: true, params: [{ field: 'name', param: 'region' }] },
    };
    render(
      <WidgetDataContext.Provider value={services}>
        <VariablesContext.Provider value={store}>
          <InteractionContext.Provider value={rt}>
            <div data-testid="source">
              <WidgetView widgetName="pagedTable" viewProps={view} datasourceProps={table({})} interactionProps={source} />
            </div>
            <div data-testid="bound">
              <WidgetView widgetName="pagedTable" viewProps={view} datasourceProps={table({ region: '{{region}}' })} />
            </div>
          </InteractionContext.Provider>
        </VariablesContext.Provider>
      </WidgetDataContext.Provider>,
    );
    await act(async () => {});
    const rows = (id: string) => within(screen.getByTestId(id)).queryAllByRole('row').slice(1).map((r) => r.textContent);
    expect(rows('source')).toEqual(['浙江', '江苏']);
    expect(rows('bound')).toEqual(['浙江', '江苏']);

    // click 浙江: region = 浙江 (the bound table filters, shows 筛选：地区=浙江), the source drills to its cities, a jump opens
    fireEvent.click(within(screen.getByTestId('source')).getByText('浙江'));
    await act(async () => vi.advanceTimersByTime(VARIABLE_DEBOUNCE_MS + 10));
    expect(store.get('region')).toBe('浙江');
    expect(rows('bound')).toEqual(['浙江']);
    expect(within(screen.getByTestId('bound')).getByTestId('linked-filters').textContent).toBe('筛选：地区=浙江×');
    expect(rows('source')).toEqual(['浙江甲市', '浙江乙市']);
    expect(calls.map((c) => c.reqParams)).toContainEqual({ province: '浙江' });
    expect(opened).toEqual([['/datav/screen/preview?pageId=5&region=%E6%B5%99%E6%B1%9F', true]]);

    // a second level: the linkage follows the clicked city, the crumbs show the way down
    fireEvent.click(within(screen.getByTestId('source')).getByText('浙江甲市'));
    await act(async () => vi.advanceTimersByTime(VARIABLE_DEBOUNCE_MS + 10));
    expect(rows('source')).toEqual(['浙江甲市一区', '浙江甲市二区']);
    expect(screen.getByTestId('drill-crumbs').textContent).toBe('全部 › 省份：浙江 › 城市：浙江甲市');
    // at the bottom, a click changes no level
    fireEvent.click(within(screen.getByTestId('source')).getByText('浙江甲市一区'));
    await act(async () => vi.advanceTimersByTime(VARIABLE_DEBOUNCE_MS + 10));
    expect(rows('source')).toEqual(['浙江甲市一区', '浙江甲市二区']);
    expect(store.get('region')).toBe('浙江甲市一区');
    // back up with the breadcrumb; the linkage stays on
    fireEvent.click(within(screen.getByTestId('drill-crumbs')).getByText('省份：浙江'));
    await act(async () => vi.advanceTimersByTime(VARIABLE_DEBOUNCE_MS + 10));
    expect(rows('source')).toEqual(['浙江甲市', '浙江乙市']);
    fireEvent.click(within(screen.getByTestId('drill-crumbs')).getByText('全部'));
    await act(async () => vi.advanceTimersByTime(VARIABLE_DEBOUNCE_MS + 10));
    expect(rows('source')).toEqual(['浙江', '江苏']);
    expect(screen.queryByTestId('drill-crumbs')).toBeNull();
    expect(store.get('region')).toBe('浙江甲市一区');

    // the tag's × clears the filter: the bound table shows every row again
    fireEvent.click(within(screen.getByTestId('bound')).getByRole('button', { name: '清除筛选：地区' }));
    await act(async () => vi.advanceTimersByTime(VARIABLE_DEBOUNCE_MS + 10));
    expect(store.get('region')).toBeNull();
    expect(within(screen.getByTestId('bound')).queryByTestId('linked-filters')).toBeNull();
    vi.useRealTimers();
  });

  it('clicking the same item again clears the linkage; a filter that changes the variable removes the tag; no context, no clicks', async () => {
    const store = createVariableStore([{ name: 'region', type: 'string' }], {});
    const rt = createInteractionRuntime(store, () => {});
    const ip: InteractionProps = { linkage: [{ field: 'name', variable: 'region' }] };
    rt.click(ip, { name: '华东' });
    expect(store.get('region')).toBe('华东');
    expect(rt.linkedValue('region')).toBe('华东');
    rt.click(ip, { name: '华东' });
    expect(store.get('region')).toBeNull();
    rt.click(ip, { name: '华南' });
    store.set('region', '西北');
    expect(rt.linkedValue('region')).toBeNull();

    const { container } = render(<WidgetView widgetName="pagedTable" viewProps={view} datasourceProps={{ ...table({}), datasourceType: 'STATIC', dataConfig: { data: [{ name: 'a' }] } }} interactionProps={ip} />);
    await act(async () => {});
    expect(container.querySelector('[data-interactive]')).toBeNull();
    expect(container.querySelector('[data-clickable]')).toBeNull();
  });
});
