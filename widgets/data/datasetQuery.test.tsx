import { act, render, screen } from '@testing-library/react';
import type { DatasetQuery } from '../../common/dataset';
import type { DatasourceProps } from '../types';
import { answerMapping, datasetQueryOf, slotKey } from './datasetQuery';
import { createFieldFilterStore, FieldFiltersContext } from './fieldFilters';
import { useWidgetData } from './useWidgetData';
import { WidgetDataContext, type DatasetAnswer } from './WidgetDataContext';

const fields = [
  { name: 'province', label: '省份', type: 'text' as const, role: 'dimension' as const },
  { name: 'city', label: '城市', type: 'text' as const, role: 'dimension' as const },
  { name: 'day', label: '日期', type: 'date' as const, role: 'dimension' as const },
  { name: 'amount', label: '销售额', type: 'number' as const, role: 'measure' as const },
];
const bar = (more: Partial<DatasourceProps['dataConfig']['dataset']> = {}): DatasourceProps => ({
  datasourceType: 'DATASET',
  dataMapping: [
    { id: '1', prop: 'x', label: 'X 轴', field: 'province', slot: 'dimension', datasetField: 'province' },
    { id: '2', prop: 'y', label: 'Y 轴', field: 'amount_sum', slot: 'measure', datasetField: 'amount', agg: 'sum' },
  ],
  dataConfig: { dataset: { datasetId: 7, fields, ...more } },
});

describe('a widget fed by a dataset (issue 35)', () => {
  it('asks for its slots: dimensions, measures with their aggregation, dates by their grouping', () => {
    expect(datasetQueryOf(bar())).toEqual({ datasetId: 7, dimensions: [{ field: 'province', dateGroup: null }], measures: [{ field: 'amount', agg: 'sum' }], filters: [], sort: [] });
    const byMonth = bar();
    byMonth.dataMapping[0] = { ...byMonth.dataMapping[0], datasetField: 'day', dateGroup: 'month' };
    expect(datasetQueryOf(byMonth)?.dimensions).toEqual([{ field: 'day', dateGroup: 'month' }]);
    expect(slotKey(byMonth.dataMapping[0])).toBe('day_month');
    expect(slotKey({ slot: 'measure', datasetField: 'city', agg: 'count' })).toBe('city_count');
    // no dataset, or no slot filled: nothing to ask
    expect(datasetQueryOf({ ...bar(), datasourceType: 'STATIC' })).toBeNull();
    expect(datasetQueryOf(bar({ datasetId: undefined }))).toBeNull();
  });

  it('filters by the screen’s field filters the dataset has, and by a drill', () => {
    const q = datasetQueryOf(bar(), { province: ['浙江', '江苏'], region: '华东', city: '' });
    // region is no field of this dataset: ignored; an empty value filters nothing
    expect(q?.filters).toEqual([{ field: 'province', op: 'in', value: ['浙江', '江苏'] }]);
    const drilled = datasetQueryOf(bar(), {}, { field: 'city', filters: [{ field: 'province', op: 'eq', value: '浙江' }] }) as DatasetQuery;
    expect(drilled.dimensions).toEqual([{ field: 'city', dateGroup: null }]);
    expect(drilled.filters).toEqual([{ field: 'province', op: 'eq', value: '浙江' }]);
    expect(answerMapping(bar().dataMapping, { field: 'city', filters: [] }).map((m) => m.field)).toEqual(['city', 'amount_sum']);
  });

  it('leaves out an empty measure slot beside a filled one (an unused series), not a lone empty one', () => {
    const line = [
      { id: '1', prop: 'x', label: 'X 轴', field: 'day_month', slot: 'dimension' as const, datasetField: 'day', dateGroup: 'month' as const },
      { id: '2', prop: 's1', label: '访问量', field: 'amount_sum', slot: 'measure' as const, datasetField: 'amount', agg: 'sum' as const },
      { id: '3', prop: 's2', label: '下单量', field: 'orders', slot: 'measure' as const },
    ];
    expect(answerMapping(line).map((m) => m.prop)).toEqual(['x', 's1']);
    // the series is named by its dataset field, not by the static label
    expect(answerMapping(line, null, fields).map((m) => m.label)).toEqual(['X 轴', '销售额']);
    expect(answerMapping([{ ...line[1], agg: 'avg' as const }], null, fields)[0].label).toBe('销售额（平均）');
    const none = [line[0], { ...line[2] }];
    expect(answerMapping(none).map((m) => `${m.prop}:${m.field}`)).toEqual(['x:day_month', 's2:orders']);
  });

  it('keeps the slots whose field the new dataset has, and leaves out the others', () => {
    const other = bar({ fields: fields.filter((f) => f.name !== 'province') });
    expect(datasetQueryOf(other)).toMatchObject({ dimensions: [], measures: [{ field: 'amount', agg: 'sum' }] });
  });

  it('fetches through the host, maps the answer, and asks again when a field filter changes', async () => {
    const asked: DatasetQuery[] = [];
    const fetchDataset = async (q: DatasetQuery): Promise<DatasetAnswer> => {
      asked.push(q);
      const all = [
        { province: '浙江', amount_sum: 220.5 },
        { province: '江苏', amount_sum: 120 },
      ];
      const f = q.filters?.find((x) => x.field === 'province');
      return { rows: f ? all.filter((r) => r.province === f.value) : all };
    };
    const filters = createFieldFilterStore();
    function Probe() {
      const d = useWidgetData(bar(), undefined, { self: 'w1' });
      return <div data-testid="p">{d.loading ? '…' : d.rows.map((r) => `${String(r.x)}=${String(r.y)}`).join(',') + (d.notice ?? '')}</div>;
    }
    render(
      <WidgetDataContext.Provider value={{ fetchDataset }}>
        <FieldFiltersContext.Provider value={filters}>
          <Probe />
        </FieldFiltersContext.Provider>
      </WidgetDataContext.Provider>,
    );
    expect(await screen.findByText('浙江=220.5,江苏=120')).toBeTruthy();
    await act(async () => filters.set('province', '江苏', 'w2'));
    expect(await screen.findByText('江苏=120')).toBeTruthy();
    // a filter this widget's own click set does not filter itself
    await act(async () => filters.set('province', '浙江', 'w1'));
    expect(await screen.findByText('浙江=220.5,江苏=120')).toBeTruthy();
    expect(asked.length).toBe(3);
  });
});
