// Query plans and the cost guard (issue 25 item 3). The plan of an API's SQL as a call would run it — the same
// text, the same bound values — taken with EXPLAIN only (connectors/sql/explain.ts: never the statement, never
// ANALYZE; read-only and rolled back where the dialect has transactions; a time limit of its own), read into one
// shape for every dialect:
//   { dialect, estimatedRows, scanRows, cost, nodes: [{ op, table, rows, cost, detail, children }], raw, warnings }
// with warnings (in Chinese) for a full scan of a large table, a list without LIMIT, and a join without condition.
//
// - estimatedRows: the rows the planner expects the statement to return (PostgreSQL: the top node's Plan Rows;
//   MySQL: the last joined table's rows_produced_per_join; MariaDB: the product of rows × filtered of the joined
//   tables). SQLite has no estimates: null.
// - scanRows: the largest table the plan reads in full (PostgreSQL: pg_class.reltuples; MySQL / MariaDB: the plan's
//   rows for an ALL access; SQLite: sqlite_stat1 when ANALYZE has run, else a count bounded at the guard's
//   threshold + 1).
// - The cost guard compares the larger of the two with PLAN_REASON_ROWS (default 100,000): above it, approving
//   requires a reason, kept in the audit with the estimate.
//
// Secrets: a request parameter marked secret (or named like one: password, token, secret, api key…) is bound for
// the plan as for a call, but its value never leaves: the bound values list it as ******, and when one is bound
// the plan's condition texts and the raw plan (PostgreSQL and MySQL print bound values into them) are left out;
// every string still carrying the value is masked, errors included.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BizError } from '../../core/envelope.js';
import type { DatasourceTable } from '../../core/datasources.js';
import { bindNamed, hasRowLimit, mysqlTables, pgRelKey, textCrossJoins, type DbType, type SqlPlanResult } from '../../connectors/sql/index.js';
import type { ParamRow } from './params.js';
import { assertApiScript } from './script.js';
import type { ApiPlan as SharedPlan, PlanNode, PlanWarning } from '../../../common/apiPlan.js';

export type { PlanNode, PlanWarning, PlanWarningCode } from '../../../common/apiPlan.js';
/** A plan as the server takes it: its dialect one of the connectors'. */
export type ApiPlan = SharedPlan<DbType>;

export const PLAN_MSG = {
  fullScan: (table: string, rows: number, atLeast = false) => `全表扫描大表【${table}】（${atLeast ? `超过 ${fmt(rows - 1)}` : `约 ${fmt(rows)}`} 行）：请为查询条件建立索引，或缩小查询范围`,
  noLimit: '列表查询没有 LIMIT，也没有声明分页：结果可能很大，请加 LIMIT 或分页',
  crossJoin: (a: string, b: string) => `疑似笛卡尔积：【${a}】与【${b}】之间没有连接条件（交叉连接），结果行数为两者之积`,
  secretHidden: '绑定了敏感参数：其值以 ****** 显示，计划中的条件文本和原始计划已隐藏',
  reasonRequired: (rows: number, threshold: number, capped = false) => `执行计划估计行数${capped ? '' : `约 ${fmt(rows)} 行，`}超过阈值 ${fmt(threshold)} 行：审批通过须填写超限理由`,
  reasonTooLong: '超限理由不能超过500个字符',
  noPlan: (why: string) => `无法获取执行计划（${why}）：审批通过须填写理由`,
} as const;

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/**
 * An EXPLAIN gets this long at most (less when the data source's queryTimeout is shorter): planning takes
 * milliseconds, and a plan step that takes longer is evaluating something it should not (issue 40).
 */
export const PLAN_TIMEOUT_MS = 3_000;

/** Parameter names taken as secrets even when not marked. */
const SECRET_NAME = /(password|passwd|pwd|secret|token|api_?key|credential)/i;
export const isSecretParam = (r: Pick<ParamRow, 'paramName'> & { secret?: boolean }) => r.secret === true || SECRET_NAME.test(r.paramName);

const MASK = '******';

// ---------------------------------------------------------------------------------------------------- PostgreSQL

type PgNode = Record<string, unknown> & { Plans?: PgNode[] };
const PG_CONDS = ['Index Name', 'Index Cond', 'Recheck Cond', 'TID Cond', 'Hash Cond', 'Merge Cond', 'Join Filter', 'Filter', 'Sort Key', 'Group Key', 'Subplan Name', 'CTE Name'];
const PG_REFS = ['Index Cond', 'Recheck Cond', 'TID Cond', 'Filter', 'Join Filter', 'Hash Cond', 'Merge Cond'];

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() && Number.isFinite(Number(v)) ? Number(v) : null);

function pgNode(n: PgNode): PlanNode {
  const type = String(n['Node Type'] ?? '');
  const join = typeof n['Join Type'] === 'string' && n['Join Type'] !== 'Inner' ? ` (${n['Join Type']})` : '';
  const rel = typeof n['Relation Name'] === 'string' ? n['Relation Name'] : null;
  const alias = typeof n.Alias === 'string' && n.Alias !== rel ? n.Alias : null;
  const detail = PG_CONDS.filter((k) => n[k] != null).map((k) => `${k}: ${Array.isArray(n[k]) ? (n[k] as unknown[]).join(', ') : String(n[k])}`);
  return {
    op: type + join,
    table: rel ? (alias ? `${rel} ${alias}` : rel) : alias,
    rows: num(n['Plan Rows']),
    cost: num(n['Total Cost']),
    detail: detail.join('；') || null,
    children: (n.Plans ?? []).map(pgNode),
  };
}

function pgWalk(n: PgNode | undefined, visit: (n: PgNode) => void) {
  if (!n) return;
  visit(n);
  for (const c of n.Plans ?? []) pgWalk(c, visit);
}

function pgAliases(n: PgNode): string[] {
  const out: string[] = [];
  pgWalk(n, (x) => {
    if (typeof x.Alias === 'string') out.push(x.Alias);
  });
  return out;
}

function pgConditions(n: PgNode): string {
  const out: string[] = [];
  pgWalk(n, (x) => {
    for (const k of PG_REFS) if (typeof x[k] === 'string') out.push(x[k] as string);
  });
  return out.join(' ');
}

const mentions = (text: string, name: string) => new RegExp(`(^|[^\\w$])["\`]?${name.replace(/[$.*+?^(){}|[\]\\]/g, '\\$&')}["\`]?\\.`, 'i').test(text);

function normalisePg(doc: unknown, tableRows: Record<string, number | null>, large: number) {
  const top = (doc as Array<{ Plan?: PgNode }>)?.[0]?.Plan;
  const warnings: PlanWarning[] = [];
  const seen = new Set<string>();
  // every node's rows count, not only the root's: count(*) over a cross join or a set-returning function plans at
  // one row at the top
  let peakRows = 0;
  pgWalk(top, (n) => {
    const type = String(n['Node Type']);
    const rel = typeof n['Relation Name'] === 'string' ? n['Relation Name'] : '';
    const key = pgRelKey(n);
    const size = tableRows[key];
    if (type.endsWith('Seq Scan') && size != null && size > large && !seen.has(key)) {
      seen.add(key);
      warnings.push({ code: 'fullScan', message: PLAN_MSG.fullScan(n.Schema && n.Schema !== 'public' ? `${String(n.Schema)}.${rel}` : rel, size) });
    }
    peakRows = Math.max(peakRows, num(n['Plan Rows']) ?? 0);
    // a nested loop with no join filter whose inner side never refers to the outer side: every pair is joined
    if (type === 'Nested Loop' && n['Join Filter'] == null && n.Plans?.length === 2) {
      const [outer, inner] = n.Plans;
      const outerNames = pgAliases(outer);
      const conds = pgConditions(inner);
      const joined = outerNames.some((a) => mentions(conds, a));
      if (!joined && (num(outer['Plan Rows']) ?? 0) > 1 && (num(inner['Plan Rows']) ?? 0) > 1) {
        warnings.push({ code: 'crossJoin', message: PLAN_MSG.crossJoin(outerNames.join('、') || '外层', pgAliases(inner).join('、') || '内层') });
      }
    }
  });
  return { nodes: top ? [pgNode(top)] : [], estimatedRows: num(top?.['Plan Rows']), peakRows, cost: num(top?.['Total Cost']), warnings };
}

// ---------------------------------------------------------------------------------------------- MySQL / MariaDB

type Obj = Record<string, unknown>;
const SUBQUERY_KEYS = /subquer|materialized_from|union_result|query_specifications/i;

/** The tables of the outermost join (not those of subqueries), in join order. */
function mysqlTopTables(node: unknown): Obj[] {
  if (!node || typeof node !== 'object') return [];
  const o = node as Obj;
  if (Array.isArray(o.nested_loop)) {
    return (o.nested_loop as Obj[]).map((x) => (x.table as Obj) ?? ((x['block-nl-join'] as Obj)?.table as Obj) ?? ((x['hash-join'] as Obj)?.table as Obj)).filter(Boolean);
  }
  if (o.table && typeof o.table === 'object') return [o.table as Obj];
  for (const [k, v] of Object.entries(o)) {
    if (SUBQUERY_KEYS.test(k) || !v || typeof v !== 'object' || Array.isArray(v)) continue;
    const found = mysqlTopTables(v);
    if (found.length) return found;
  }
  return [];
}

/** The conditions that may join table `t` to those before it: its own, its ref, and (MariaDB) its join buffer's. */
function mysqlCondition(plan: unknown, t: Obj): string {
  const parts: unknown[] = [t.attached_condition, Array.isArray(t.ref) ? t.ref.join(' ') : null];
  // MariaDB keeps a buffered join's condition beside the table: { "block-nl-join": { table, attached_condition } }
  const holderOf = (n: unknown): Obj | null => {
    if (!n || typeof n !== 'object') return null;
    if (!Array.isArray(n) && (n as Obj).table === t) return n as Obj;
    for (const v of Object.values(n as Obj)) {
      const r = holderOf(v);
      if (r) return r;
    }
    return null;
  };
  parts.push(holderOf(plan)?.attached_condition);
  return parts.filter((x): x is string => typeof x === 'string').join(' ');
}

function normaliseMysql(plan: unknown, tableRows: Record<string, number | null>, large: number) {
  const warnings: PlanWarning[] = [];
  const block = ((plan as Obj)?.query_block ?? {}) as Obj;
  const all = mysqlTables(plan);
  const nodes: PlanNode[] = all.map((t) => {
    const cost = t.cost_info as Obj | undefined;
    const detail = [
      t.key ? `key: ${t.key}` : null,
      Array.isArray(t.ref) ? `ref: ${(t.ref as unknown[]).join(', ')}` : null,
      t.using_join_buffer ? `join buffer: ${t.using_join_buffer}` : null,
      t.attached_condition ? `condition: ${t.attached_condition}` : null,
      t.using_index ? 'using index' : null,
    ].filter(Boolean);
    return {
      op: String(t.access_type ?? ''),
      table: String(t.table_name),
      rows: num(t.rows_examined_per_scan ?? t.rows),
      cost: num(cost?.prefix_cost ?? cost?.read_cost),
      detail: detail.join('；') || null,
    };
  });
  const seen = new Set<string>();
  for (const t of all) {
    const name = String(t.table_name);
    const size = tableRows[name];
    if (t.access_type === 'ALL' && size != null && size > large && !seen.has(name)) {
      seen.add(name);
      warnings.push({ code: 'fullScan', message: PLAN_MSG.fullScan(name, size) });
    }
  }
  const tops = mysqlTopTables(block);
  let estimatedRows: number | null = null;
  if (tops.length) {
    const last = tops[tops.length - 1];
    if (last.rows_produced_per_join != null) estimatedRows = num(last.rows_produced_per_join);
    else estimatedRows = tops.reduce((p, t) => p * (num(t.rows) ?? 1) * ((num(t.filtered) ?? 100) / 100), 1);
  }
  tops.forEach((t, i) => {
    if (i === 0 || !['ALL', 'index', 'range'].includes(String(t.access_type))) return;
    const before = tops.slice(0, i).map((x) => String(x.table_name));
    const cond = mysqlCondition(plan, t);
    const joined = before.some((name) => mentions(cond, name));
    const outerRows = tops.slice(0, i).reduce((p, x) => p * (num(x.rows_produced_per_join ?? x.rows) ?? 1), 1);
    if (!joined && outerRows > 1 && (num(t.rows_examined_per_scan ?? t.rows) ?? 0) > 1) warnings.push({ code: 'crossJoin', message: PLAN_MSG.crossJoin(before.join('、'), String(t.table_name)) });
  });
  const cost = num((block.cost_info as Obj | undefined)?.query_cost ?? block.cost);
  // every table's output counts (subqueries' too), not only the outermost join's
  const peakRows = all.reduce((p, t) => Math.max(p, num(t.rows_produced_per_join) ?? (num(t.rows) ?? 0) * ((num(t.filtered) ?? 100) / 100)), 0);
  return { nodes: [{ op: 'query_block', rows: estimatedRows, cost, children: nodes }], estimatedRows, peakRows, cost, warnings };
}

// ------------------------------------------------------------------------------------------------------ SQLite

function normaliseSqlite(rows: Array<{ id: number; parent: number; detail: string }>, tableRows: Record<string, number | null>, large: number, sql: string, countCap: number) {
  const warnings: PlanWarning[] = [];
  const byId = new Map<number, PlanNode>();
  const roots: PlanNode[] = [];
  for (const r of rows) {
    const scan = /^(SCAN|SEARCH) (?:TABLE )?([^\s]+)(?: AS ([^\s]+))?/.exec(r.detail);
    const shown = scan ? (scan[3] ?? scan[2]) : null;
    const op = scan ? (scan[1] === 'SCAN' && !/USING (?:COVERING )?INDEX/.test(r.detail) ? 'SCAN（全表扫描）' : scan[1]) : r.detail.split(/\s+/).slice(0, 2).join(' ');
    const node: PlanNode = { op, table: shown, rows: shown && shown in tableRows ? tableRows[shown] : null, detail: r.detail, children: [] };
    byId.set(r.id, node);
    (byId.get(r.parent)?.children ?? roots).push(node);
  }
  for (const [table, size] of Object.entries(tableRows)) if (size != null && size > large) warnings.push({ code: 'fullScan', message: PLAN_MSG.fullScan(table, size, size >= countCap) });
  const pairs = new Set<string>();
  // SQLite gives no estimates: a join without condition between tables read in full yields their product
  let peakRows = 0;
  for (const [a, b] of textCrossJoins(sql)) {
    const key = `${a}|${b}`;
    if (pairs.has(key)) continue;
    pairs.add(key);
    warnings.push({ code: 'crossJoin', message: PLAN_MSG.crossJoin(a, b) });
    const sizeOf = (x: string) => tableRows[x] ?? (x === '…' ? Math.max(0, ...Object.values(tableRows).map((v) => v ?? 0)) : 0);
    peakRows = Math.max(peakRows, sizeOf(a) * sizeOf(b));
  }
  return { nodes: roots, estimatedRows: null, peakRows, cost: null, warnings };
}

// ------------------------------------------------------------------------------------------------------ the plan

export interface PlanContext {
  largeTableRows: number;
  reasonRows: number;
  /** the API declares paging (its answer is cut to pages whatever the SQL says) */
  paged?: boolean;
}

/** SQLite without sqlite_stat1 counts a table's rows up to one past the guard's threshold, no further. */
export const countCapOf = (reasonRows: number) => reasonRows + 1;

/** Reads what EXPLAIN answered into the one shape (no secret handling here: see planFor). */
export function readPlan(result: SqlPlanResult, sql: string, ctx: PlanContext): Omit<ApiPlan, 'sql' | 'boundValues'> {
  const { dialect, plan, tableRows } = result;
  const read =
    dialect === 'postgresql'
      ? normalisePg(plan, tableRows, ctx.largeTableRows)
      : dialect === 'sqlite'
        ? normaliseSqlite(plan as Array<{ id: number; parent: number; detail: string }>, tableRows, ctx.largeTableRows, sql, countCapOf(ctx.reasonRows))
        : normaliseMysql(plan, tableRows, ctx.largeTableRows);
  const sizes = Object.values(tableRows).filter((n): n is number => n != null);
  const scanRows = sizes.length ? Math.max(...sizes) : null;
  const warnings = [...read.warnings];
  // every API answers a list of rows: one whose SQL has no LIMIT and which declares no paging is warned of, even
  // when the planner expects few rows today (the table grows; the SQL stays)
  if (!ctx.paged && !hasRowLimit(sql)) warnings.push({ code: 'noLimit', message: PLAN_MSG.noLimit });
  const guardRows = Math.max(read.estimatedRows ?? 0, read.peakRows, scanRows ?? 0);
  const guardCapped = dialect === 'sqlite' && guardRows >= countCapOf(ctx.reasonRows);
  return { dialect, estimatedRows: read.estimatedRows, scanRows, cost: read.cost, nodes: read.nodes, raw: plan, warnings, guardRows, guardCapped, threshold: ctx.reasonRows, reasonRequired: guardRows > ctx.reasonRows };
}

function stripDetails(nodes: PlanNode[]): PlanNode[] {
  return nodes.map((n) => ({ ...n, detail: null, children: n.children ? stripDetails(n.children) : undefined }));
}

/** Every string in v with each secret text replaced by ******. */
export function maskStrings<T>(v: T, secrets: string[]): T {
  if (!secrets.length) return v;
  const walk = (x: unknown): unknown => {
    if (typeof x === 'string') return secrets.reduce((s, t) => s.split(t).join(MASK), x);
    if (Array.isArray(x)) return x.map(walk);
    if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, walk(y)]));
    return x;
  };
  return walk(v) as T;
}

/** The texts a secret parameter's value may show as: as typed, and as SQL quotes it (3 characters and more). */
export function secretTextsOf(rows: ParamRow[], values: Record<string, unknown>): string[] {
  const texts = rows
    .filter(isSecretParam)
    .map((r) => values[r.paramName])
    .filter((v) => v != null && v !== '')
    .flatMap((v) => [String(v), String(v).replace(/'/g, "''"), String(v).replace(/'/g, "\\'"), JSON.stringify(String(v)).slice(1, -1)]);
  return [...new Set(texts)].filter((t) => t.length >= 3).sort((a, b) => b.length - a.length);
}

/**
 * The plan of `script` on `ds` with `values` bound as a call binds them; `rows` are the request parameters (which
 * are secrets). Answers the plan, or throws 获取执行计划失败：… (secrets masked in the reason too).
 */
export async function planFor(app: FastifyInstance, req: FastifyRequest, ds: DatasourceTable, script: string, rows: ParamRow[], values: Record<string, unknown>, opts: { paged?: boolean } = {}): Promise<ApiPlan> {
  const dialect = String(ds.db_type).toLowerCase() as DbType;
  assertApiScript(ds, script);
  const secretNames = new Set(rows.filter(isSecretParam).map((r) => r.paramName));
  let bound: { sql: string; values: unknown[] };
  let names: unknown[];
  try {
    bound = bindNamed(script, values, dialect);
    // which placeholder carries which parameter: the same binding with each value replaced by its name
    names = bindNamed(script, Object.fromEntries(Object.keys(values).map((k) => [k, k])), dialect).values;
  } catch (err) {
    throw new BizError(`获取执行计划失败：${(err as Error).message}`);
  }
  const secretBound = names.some((n, i) => secretNames.has(String(n)) && bound.values[i] != null && bound.values[i] !== '');
  const secretTexts = secretTextsOf(rows, values);
  let result: SqlPlanResult;
  try {
    result = await app.sql.explain('datasource', ds, script, values, { timeoutMs: PLAN_TIMEOUT_MS, countCap: countCapOf(app.ctx.config.planReasonRows) }, req);
  } catch (err) {
    if (err instanceof BizError) throw new BizError(maskStrings(err.message, secretTexts));
    throw err;
  }
  const plan = readPlan(result, bound.sql, { largeTableRows: app.ctx.config.planLargeTableRows, reasonRows: app.ctx.config.planReasonRows, paged: opts.paged });
  const boundValues = bound.values.map((v, i) => (secretNames.has(String(names[i])) ? MASK : v));
  const out: ApiPlan = { ...plan, sql: bound.sql, boundValues };
  if (secretBound) {
    if (dialect !== 'sqlite') {
      // PostgreSQL and MySQL print bound values into conditions and the raw plan; SQLite prints ? only
      out.nodes = stripDetails(out.nodes);
      out.raw = null;
    }
    out.warnings.push({ code: 'secretHidden', message: PLAN_MSG.secretHidden });
  }
  return maskStrings(out, secretTexts);
}
