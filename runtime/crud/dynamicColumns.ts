// Columns declared by a call (`type: "dynamic"`): the call answers column declarations (title, field, type,
// format…) that take the dynamic column's place — e.g. a form's entries get one column per form field.
// Until the answer comes (or when it fails) the dynamic column simply adds nothing.
import { useEffect, useMemo, useState } from 'react';
import { useCrudServices } from './services';
import { routeCall } from './template';
import type { ColumnDecl } from './types';

const KEYS: Array<keyof ColumnDecl> = ['title', 'field', 'type', 'width', 'ellipsis', 'dict', 'format', 'template', 'sortable', 'altField', 'options', 'columns'];

/** An answered column, kept to the declaration keys a column may carry (and never another dynamic one). */
function columnOf(raw: unknown): ColumnDecl | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.title !== 'string' || typeof r.field !== 'string') return null;
  const out: Record<string, unknown> = {};
  for (const k of KEYS) if (r[k] !== undefined) out[k] = r[k];
  if (!['text', 'image', 'rows', undefined].includes(out.type as string)) delete out.type;
  return out as unknown as ColumnDecl;
}

export function useDynamicColumns(columns: ColumnDecl[], route: Record<string, string>): ColumnDecl[] {
  const services = useCrudServices();
  const [answered, setAnswered] = useState<Record<number, ColumnDecl[]>>({});
  const routeKey = JSON.stringify(route);
  useEffect(() => {
    let live = true;
    const values = JSON.parse(routeKey) as Record<string, string>;
    columns.forEach((c, i) => {
      const call = c.type === 'dynamic' && c.api ? routeCall(c.api, c.params, values) : null;
      if (!call) return;
      services
        .request<unknown[]>(call.method, call.path, { params: call.params })
        .then((list) => live && setAnswered((a) => ({ ...a, [i]: (Array.isArray(list) ? list : []).map(columnOf).filter((x): x is ColumnDecl => x !== null) })))
        .catch(() => undefined);
    });
    return () => {
      live = false;
    };
  }, [columns, routeKey, services]);
  return useMemo(() => columns.flatMap((c, i) => (c.type === 'dynamic' ? (answered[i] ?? []) : [c])), [columns, answered]);
}
