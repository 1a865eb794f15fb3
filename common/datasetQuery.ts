// A chart fed by a dataset (issue 35 §2–3): its question to the server, built from its slots (the data mapping's
// dataset fields, aggregations and date groups), the chart's own settings (top N, sort, fixed filters) and the
// screen's field filters (a filter widget or a click on another dataset chart, by field name: a dataset without a
// field of that name ignores it). Pure and framework-free: the widget hook, its tests and the server (a scheduled
// refresh asks what each chart asks) use it alike.
import { dimensionKey, measureKey, type Aggregation, type DateGroup, type DatasetField, type DatasetQuery, type QueryFilter, type QuerySort } from './dataset';

/** What a chart's data settings hold that its query reads (the widget's DatasourceProps has this shape). */
export interface DatasetSlots {
  datasourceType?: string;
  dataMapping?: Array<{ slot?: 'dimension' | 'measure' | 'column'; datasetField?: string; agg?: Aggregation; dateGroup?: DateGroup }>;
  dataConfig?: {
    dataset?: {
      datasetId?: number;
      fields?: Array<Pick<DatasetField, 'name'> & { label?: string }>;
      top?: { n: number; rest: 'other' | 'drop' } | null;
      sort?: QuerySort[];
      filters?: QueryFilter[];
    };
  };
}

/** A screen's filters by dataset field name: the field → the values kept (one value or several). */
export type FieldFilters = Readonly<Record<string, unknown>>;

/** What a drill puts in place of a chart's first dimension: the field drilled into and the values clicked on the way. */
export interface DatasetDrill {
  field: string;
  /** filters of the levels above (field = clicked value) */
  filters: QueryFilter[];
}

/** The answer key a slot reads. */
export function slotKey(m: { slot?: string; datasetField?: string; agg?: Aggregation; dateGroup?: DateGroup | null }): string {
  if (!m.datasetField) return '';
  if (m.slot === 'measure') return measureKey({ field: m.datasetField, agg: m.agg ?? 'sum' });
  return dimensionKey({ field: m.datasetField, dateGroup: m.dateGroup ?? null });
}

/** The widget's query, or null when it has no dataset or no slot filled. Rows come back keyed as slotKey says. */
export function datasetQueryOf(ds: DatasetSlots | undefined, fieldFilters: FieldFilters = {}, drill?: DatasetDrill | null): DatasetQuery | null {
  const cfg = ds?.dataConfig?.dataset;
  if (ds?.datasourceType !== 'DATASET' || !cfg?.datasetId) return null;
  const names = new Set((cfg.fields ?? []).map((f) => f.name));
  // a slot whose field the (new) dataset lacks is left out until the designer picks another
  const mapping = (ds.dataMapping ?? []).filter((m) => m.datasetField && (!names.size || names.has(m.datasetField)));
  if (!mapping.length) return null;
  const q: DatasetQuery = { datasetId: cfg.datasetId, dimensions: [], measures: [], filters: [...(cfg.filters ?? [])], sort: [...(cfg.sort ?? [])] };
  let firstDimension = true;
  for (const m of mapping) {
    if (m.slot === 'measure') q.measures!.push({ field: m.datasetField!, agg: m.agg ?? 'sum' });
    else {
      // a drill replaces the first dimension with the field drilled into
      const field = firstDimension && drill ? drill.field : m.datasetField!;
      q.dimensions!.push({ field, dateGroup: firstDimension && drill ? null : (m.dateGroup ?? null) });
      firstDimension = false;
    }
  }
  if (mapping.some((m) => m.slot === 'column')) q.page = { pageNum: 1, pageSize: 500 };
  if (cfg.top) q.top = cfg.top;
  for (const [field, value] of Object.entries(fieldFilters)) {
    if (!names.has(field) || value === null || value === undefined || value === '' || (Array.isArray(value) && !value.length)) continue;
    q.filters!.push(Array.isArray(value) ? { field, op: 'in', value } : { field, op: 'eq', value });
  }
  if (drill) q.filters!.push(...drill.filters);
  return q;
}

/** A stored widget's question (its properties as JSON text), with its data settings; null when it asks no dataset. */
export function storedWidgetQuery(propsText: string): { query: DatasetQuery; slots: DatasetSlots } | null {
  let props: { datasourceProps?: DatasetSlots } | null = null;
  try {
    props = JSON.parse(propsText) as { datasourceProps?: DatasetSlots } | null;
  } catch {
    return null;
  }
  const slots = props?.datasourceProps;
  const query = datasetQueryOf(slots);
  return query && slots ? { query, slots } : null;
}
