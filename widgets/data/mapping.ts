// Turns data rows into what a widget shows, via its data mapping (prop ← field).
import type { DataMappingItem, DataRow, MappedData } from '../types';

export interface MappingProblem {
  prop: string;
  label: string;
  field: string;
  reason: 'empty' | 'missing';
}

export function applyMapping(rows: DataRow[], mapping: DataMappingItem[]): MappedData & { problems: MappingProblem[] } {
  const problems: MappingProblem[] = [];
  for (const m of mapping) {
    if (!m.field) problems.push({ prop: m.prop, label: m.label, field: m.field, reason: 'empty' });
    // Only judge "missing" when there is data to look in; no rows is its own state.
    else if (rows.length > 0 && !rows.some((r) => r != null && m.field in r))
      problems.push({ prop: m.prop, label: m.label, field: m.field, reason: 'missing' });
  }
  const mapped = rows.map((row) => {
    const out: DataRow = {};
    for (const m of mapping) if (m.field && row != null && m.field in row) out[m.prop] = row[m.field];
    return out;
  });
  return { rows: mapped, mapping, problems, source: rows };
}

export function describeProblem(p: MappingProblem): string {
  return p.reason === 'empty' ? `「${p.label}」未设置字段` : `字段「${p.field}」在数据中不存在（${p.label}）`;
}
