// A widget fed by a dataset (issue 35 §2–3): its question to the server, built from its slots (the data mapping's
// dataset fields, aggregations and date groups), the chart's own settings (top N, sort, fixed filters) and the
// screen's field filters (a filter widget or a click on another dataset chart, by field name: a dataset without a
// field of that name ignores it). Pure: the widget hook and its tests use it alike.
import { AGGREGATIONS, type DatasetField } from '../../common/dataset';
import { slotKey, type DatasetDrill } from '../../common/datasetQuery';
import type { DataMappingItem } from '../types';

export { datasetQueryOf, slotKey, type DatasetDrill, type FieldFilters } from '../../common/datasetQuery';

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
