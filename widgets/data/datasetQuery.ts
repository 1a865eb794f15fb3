// A widget fed by a dataset (issue 35 §2–3): its question to the server, built from its slots (the data mapping's
// dataset fields, aggregations and date groups), the chart's own settings (top N, sort, fixed filters) and the
// screen's field filters (a filter widget or a click on another dataset chart, by field name: a dataset without a
// field of that name ignores it). Pure: the widget hook and its tests use it alike.
import { AGGREGATIONS, dimensionKey, measureKey, type DatasetField, type DatasetQuery, type QueryFilter } from '../../common/dataset';
import type { DataMappingItem, DatasourceProps } from '../types';

/** A screen's filters by dataset field name: the field → the values kept (one value or several). */
export type FieldFilters = Readonly<Record<string, unknown>>;

/** What a drill puts in place of a chart's first dimension: the field drilled into and the values clicked on the way. */
export interface DatasetDrill {
  field: string;
  /** filters of the levels above (field = clicked value) */
  filters: QueryFilter[];
}

/** The answer key a slot reads. */
export function slotKey(m: Pick<DataMappingItem, 'slot' | 'datasetField' | 'agg' | 'dateGroup'>): string {
  if (!m.datasetField) return '';
  if (m.slot === 'measure') return measureKey({ field: m.datasetField, agg: m.agg ?? 'sum' });
  return dimensionKey({ field: m.datasetField, dateGroup: m.dateGroup ?? null });
}

/** The widget's query, or null when it has no dataset or no slot filled. Rows come back keyed as slotKey says. */
export function datasetQueryOf(ds: DatasourceProps | undefined, fieldFilters: FieldFilters = {}, drill?: DatasetDrill | null): DatasetQuery | null {
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

/**
 * The mapping as the widget reads the answer: each slot's prop from its answer key (a drill renames the first). A
 * measure slot left empty beside a filled one is an unused series (a line chart's second line): left out, so the
 * chart draws no line of zeros and warns of nothing; an empty slot with no filled one of its kind still warns.
 * A filled measure is named by its dataset field (the series name in legend and tooltip: 销售额, 销售额（平均）),
 * not by the kind's label for static rows (访问量).
 */
export function answerMapping(mapping: DataMappingItem[], drill?: DatasetDrill | null, fields: ReadonlyArray<Pick<DatasetField, 'name' | 'label'>> = []): DataMappingItem[] {
  let first = true;
  const anyMeasure = mapping.some((m) => m.slot === 'measure' && m.datasetField);
  return mapping.filter((m) => m.datasetField || m.slot !== 'measure' || !anyMeasure).map((m) => {
    if (!m.datasetField) return m;
    if (m.slot !== 'measure' && first) {
      first = false;
      if (drill) return { ...m, field: drill.field };
    }
    const named = m.slot === 'measure' ? fields.find((f) => f.name === m.datasetField)?.label : undefined;
    const agg = m.agg ?? 'sum';
    return { ...m, field: slotKey(m), ...(named ? { label: agg === 'sum' ? named : `${named}（${AGGREGATIONS[agg]}）` } : {}) };
  });
}
