// Paging and caps of published APIs (issue 25 §4). A list API may declare paging: the caller sends pageNum and
// pageSize (at most the API's pageSizeMax) and gets { records, total, pageNum, pageSize }, the total counted by
// the server (SELECT COUNT(*) over the API's statement). Every API has a row cap (default and most: API_MAX_ROWS)
// and the connectors' response-size cap (connectors/sql/rows.ts); an answer cut by either says so in its msg and in
// the header X-Result-Truncated. The page's LIMIT / OFFSET are integers the server checked, appended to the
// statement (so its ORDER BY holds in every dialect); nothing the caller sends is spliced.
import { BizError } from '../../core/envelope.js';
import { MAX_ROWS } from '../../connectors/sql/index.js';
import { MAX_RESULT_BYTES } from '../../connectors/sql/rows.js';
import type { ApiPaging } from './tables.js';

/** The most rows any API answers in one call (the connectors stop reading there). */
export const API_MAX_ROWS = MAX_ROWS;
export const PAGE_SIZE_MAX_DEFAULT = 100;
export const PAGE_SIZE_MAX_LIMIT = 1000;
export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_NUM_MAX = 1_000_000;
/** The request parameters a paged API takes besides its own. */
export const PAGING_PARAMS = ['pageNum', 'pageSize'] as const;

export interface Paging {
  pageable: boolean;
  pageSizeMax: number;
  maxRows: number;
}

export function pagingOf(r: ApiPaging): Paging {
  return {
    pageable: Number(r.pageable ?? 0) === 1,
    pageSizeMax: r.page_size_max ?? PAGE_SIZE_MAX_DEFAULT,
    maxRows: r.max_rows ?? API_MAX_ROWS,
  };
}

/** As the config screen shows them. */
export const presentPaging = (r: ApiPaging) => {
  const p = pagingOf(r);
  return { pageable: p.pageable ? 1 : 0, pageSizeMax: r.page_size_max ?? null, maxRows: r.max_rows ?? null };
};

export const PAGING_MSG = {
  pageSizeMax: `每页最大条数只能是 1 到 ${PAGE_SIZE_MAX_LIMIT} 之间的整数`,
  maxRows: `最大返回行数只能是 1 到 ${API_MAX_ROWS} 之间的整数`,
  reserved: (name: string) => `分页接口由平台接收 pageNum 和 pageSize，请求参数中不能再有【${name}】`,
  hasLimit: '分页接口的 SQL 不要写 LIMIT / OFFSET：平台在语句末尾追加分页',
  pageNum: `pageNum 应为 1 到 ${PAGE_NUM_MAX} 之间的整数`,
  pageSize: (max: number) => `pageSize 应为 1 到 ${max} 之间的整数`,
  cutRows: (n: number) => `结果超过 ${n} 行，只返回了前 ${n} 行`,
  cutBytes: `结果超过 ${Math.round(MAX_RESULT_BYTES / 1024 / 1024)} MB，只返回了前面的部分行`,
} as const;

const intIn = (v: unknown, min: number, max: number): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d{1,10}\s*$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
};

/** The SQL text without string literals, quoted names and comments (to look for keywords in it). */
function codeOnly(sql: string): string {
  return sql.replace(/'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.)*"|`[^`]*`|--[^\n]*|\/\*[\s\S]*?\*\//g, ' ');
}

/** The paging columns a config save sets, checked (Chinese messages). */
export function checkPagingConfig(b: { pageable?: unknown; pageSizeMax?: unknown; maxRows?: unknown }, script: string, paramNames: readonly string[]): Required<ApiPaging> {
  const pageable = b.pageable === true || b.pageable === 1 || b.pageable === '1' ? 1 : 0;
  let pageSizeMax: number | null = null;
  if (b.pageSizeMax != null && b.pageSizeMax !== '') {
    pageSizeMax = intIn(b.pageSizeMax, 1, PAGE_SIZE_MAX_LIMIT) ?? null;
    if (pageSizeMax === null) throw new BizError(PAGING_MSG.pageSizeMax);
  }
  let maxRows: number | null = null;
  if (b.maxRows != null && b.maxRows !== '') {
    maxRows = intIn(b.maxRows, 1, API_MAX_ROWS) ?? null;
    if (maxRows === null) throw new BizError(PAGING_MSG.maxRows);
  }
  if (pageable) {
    for (const name of PAGING_PARAMS) if (paramNames.includes(name)) throw new BizError(PAGING_MSG.reserved(name));
    if (/\b(limit|offset|fetch\s+first)\b/i.test(codeOnly(script))) throw new BizError(PAGING_MSG.hasLimit);
  }
  return { pageable, page_size_max: pageSizeMax, max_rows: maxRows };
}

/** A paged call's pageNum and pageSize (400 with the reason when out of range), and the body without them. */
export function pageRequest(paging: Paging, body: unknown): { rest: unknown; pageNum: number; pageSize: number } {
  if (body == null || typeof body !== 'object' || Array.isArray(body)) return { rest: body, pageNum: 1, pageSize: Math.min(PAGE_SIZE_DEFAULT, paging.pageSizeMax) };
  const { pageNum: rawNum, pageSize: rawSize, ...rest } = body as Record<string, unknown>;
  const pageNum = rawNum == null ? 1 : intIn(rawNum, 1, PAGE_NUM_MAX);
  if (pageNum === undefined) throw new BizError(PAGING_MSG.pageNum, 400);
  const pageSize = rawSize == null ? Math.min(PAGE_SIZE_DEFAULT, paging.pageSizeMax) : intIn(rawSize, 1, paging.pageSizeMax);
  if (pageSize === undefined) throw new BizError(PAGING_MSG.pageSize(paging.pageSizeMax), 400);
  return { rest, pageNum, pageSize };
}

const statementOf = (script: string) => script.replace(/[\s;]+$/, '');

/** The page's statement: the API's own with LIMIT / OFFSET appended (checked integers). */
export function pageScript(script: string, pageNum: number, pageSize: number): string {
  if (!Number.isInteger(pageNum) || !Number.isInteger(pageSize) || pageNum < 1 || pageSize < 1) throw new Error('bad page');
  return `${statementOf(script)}\nLIMIT ${pageSize} OFFSET ${(pageNum - 1) * pageSize}`;
}

/** The count of every row the API's statement gives. */
export function countScript(script: string): string {
  return `SELECT COUNT(*) AS total FROM (\n${statementOf(script)}\n) dsc_count`;
}

/** Rows within the API's cap, and what to tell the caller when the answer was cut (by the cap or the size). */
export function capRows<T>(rows: T[], truncatedBySink: boolean, paging: Paging): { rows: T[]; cut?: string } {
  if (rows.length > paging.maxRows) return { rows: rows.slice(0, paging.maxRows), cut: PAGING_MSG.cutRows(paging.maxRows) };
  if (!truncatedBySink) return { rows };
  return { rows, cut: rows.length >= API_MAX_ROWS ? PAGING_MSG.cutRows(API_MAX_ROWS) : PAGING_MSG.cutBytes };
}
