// The query-support calls (spec part 1 §7 "SQL query"), paths relative to /api.
import { get, post } from '../../core/request';
import type { ParamRow } from '../../editors';

export interface SavedQuery {
  id: number;
  queryName: string;
  queryType: 'SQL' | 'API';
  dsName?: string | null;
  script?: string | null;
  api?: string | null;
  apiMethod?: string | null;
  requestParams?: unknown;
  responseBody?: unknown;
}

/** The server keeps parameter rows as { name, type, value, comment }. */
interface StoredParam {
  name?: string;
  type?: string;
  value?: unknown;
  comment?: string;
}

export function rowsOf(stored: unknown): ParamRow[] {
  if (Array.isArray(stored)) {
    return (stored as StoredParam[]).map((p) => ({ paramName: String(p?.name ?? ''), paramType: String(p?.type ?? 'string'), paramValue: p?.value == null ? '' : String(p.value), paramComment: p?.comment ?? '' }));
  }
  if (stored && typeof stored === 'object') return Object.entries(stored).map(([k, v]) => ({ paramName: k, paramType: 'string', paramValue: v == null ? '' : String(v), paramComment: '' }));
  return [];
}

export function storedOf(rows: ParamRow[]): StoredParam[] {
  return rows.filter((r) => r.paramName).map((r) => ({ name: r.paramName, type: r.paramType, value: r.paramValue ?? '', comment: r.paramComment ?? '' }));
}

export const queryApi = {
  /** One page of the saved queries, by name; search matches the name. */
  async list(q: { pageNum: number; pageSize: number; search?: string }): Promise<{ records: SavedQuery[]; total: number }> {
    const d = await post<{ records: SavedQuery[]; total: number }>('/gemini/sqlQuery/search', { ...q, search: q.search || undefined, orderByColumn: 'queryName', isAsc: 'ascending' });
    return { records: d?.records ?? [], total: d?.total ?? 0 };
  },
  get: (id: number) => get<SavedQuery>('/gemini/sqlQuery/info/get', { id }),
  add: (q: { queryName: string; queryType: string }) => post<number>('/gemini/sqlQuery/info/add', q),
  save: (q: Partial<SavedQuery>) => post<number>('/gemini/sqlQuery/info/save', q),
  remove: (id: number) => get('/gemini/sqlQuery/delete', { id }),
  execute: (q: Partial<SavedQuery>) => post<unknown>('/gemini/sqlQuery/execute', q),
  dataSources: () => get<Array<{ value: string; label: string; dbType?: string }>>('/gemini/datasource/select'),
};
