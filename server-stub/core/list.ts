// The spec's list query: { pageNum, pageSize, orderByColumn, isAsc, search }, answered as { records, total }.
// Sorting only ever uses a column from the route's own whitelist: never a spliced name.
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import { likePattern } from './declarations.js';

export const PAGE_SIZES = [10, 20, 50, 100];

/** JSON Schema of a list query body; `extra` adds module-specific filters. */
export function listQuerySchema(extra: Record<string, object> = {}) {
  return {
    type: 'object',
    properties: {
      pageNum: { type: 'integer', minimum: 1, maximum: 100000, title: '页码' },
      pageSize: { type: 'integer', minimum: 1, maximum: 500, title: '每页条数' },
      orderByColumn: { type: ['string', 'null'], maxLength: 64, title: '排序字段' },
      isAsc: { type: ['string', 'null'], enum: ['asc', 'desc', 'ascending', 'descending', '', null], title: '排序方向' },
      search: { type: ['string', 'null'], maxLength: 20, title: '搜索' },
      ...extra,
    },
  } as const;
}

export interface PageWindow {
  limit: number;
  offset: number;
  order: { column: string; dir: 'asc' | 'desc' } | null;
}

/** Paging and a whitelisted ORDER BY from a list query. `sortable` maps API field → column. */
export function pageOf(q: { pageNum?: number; pageSize?: number; orderByColumn?: string | null; isAsc?: string | null }, sortable: Record<string, string>): PageWindow {
  const pageSize = q.pageSize ?? 10;
  const pageNum = q.pageNum ?? 1;
  // own keys only: 'constructor', '__proto__', 'toString'… are not columns
  const column = q.orderByColumn && Object.hasOwn(sortable, q.orderByColumn) ? sortable[q.orderByColumn] : undefined;
  const dir = q.isAsc === 'desc' || q.isAsc === 'descending' ? 'desc' : 'asc';
  return { limit: pageSize, offset: (pageNum - 1) * pageSize, order: column && q.isAsc ? { column, dir } : null };
}

/**
 * A list's search box over several columns: `lower(column) like '%text%'` on any of them, case-insensitive on
 * every store, the % and _ typed in the box matching themselves (likePattern). For `.where(...)`.
 */
export function matchesAny(text: string, columns: string[]) {
  const like = likePattern(text.toLowerCase());
  return <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>) => eb.or(columns.map((c) => sql<boolean>`lower(${sql.ref(c)}) like ${like} escape '\\'`));
}

/**
 * One page of a hand-written list query: the total of `base`, and the rows `select` picks from it, in the
 * requested sortable order followed by the `then` columns, or without one in the `fallback` columns' order.
 */
export async function pageRows<DB, TB extends keyof DB, O, R>(
  base: SelectQueryBuilder<DB, TB, O>,
  q: Parameters<typeof pageOf>[0],
  opts: { sortable: Record<string, string>; select: (b: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, R>; then?: string[]; fallback: string[] },
): Promise<{ records: R[]; total: number }> {
  const { limit, offset, order } = pageOf(q, opts.sortable);
  const [{ total }] = (await base.select(sql<number>`count(*)`.as('total')).execute()) as unknown as Array<{ total: number | string }>;
  let rows = opts.select(base);
  if (order) rows = rows.orderBy(sql.ref(order.column), order.dir);
  for (const c of order ? (opts.then ?? []) : opts.fallback) rows = rows.orderBy(sql.ref(c));
  return { records: await rows.limit(limit).offset(offset).execute(), total: Number(total) };
}
