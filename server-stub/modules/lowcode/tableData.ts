// The records of a page on an existing table (issue 24 items 1 and 5): search (paging, sort and search in SQL on
// the server), get, insert, update and delete by the primary key, on the page's data source through app.sql.
// Identifiers come only from the catalogue stored with the page (TableSql refuses any other name); values are
// always bound. Counting: the catalogue's estimate when nothing filters the list and the table is large; deep
// pages by a deferred join (the window of keys first, then their rows), or by a keyset cursor (`after`).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { labelFieldOf, valueKindOf, type CatalogueColumn, type DetailDecl, type RelationDecl, type TableCatalogue } from '../../../common/tablePage.js';
import type { DatasourceTable } from '../../core/datasources.js';
import { checkBody, filterFieldsOf, sortableFieldsOf, searchFieldsOf, type PageDeclaration } from '../../core/declarations.js';
import { BizError } from '../../core/envelope.js';
import { MSG_OUT_OF_SCOPE } from '../../core/org.js';
import { TableSql, columnOf, presentValue, storedValue, usableColumns } from '../../core/catalogue.js';

export interface TablePage {
  pageKey: string;
  decl: PageDeclaration;
  cat: TableCatalogue;
  /** the page on a related table that declares a data scope, when there is one (the related select and its checks) */
  scopedOn?: ScopedPageFinder;
}

/** The keys a list query body may hold besides the table's own columns (filters). */
const QUERY_KEYS = new Set(['pageNum', 'pageSize', 'orderByColumn', 'isAsc', 'search', 'after']);

export const TABLE_MSG = {
  readOnly: '该页面建在视图上，只能查看，不能新增、修改或删除',
  notFound: '记录不存在',
  noSource: '页面的数据源不存在或已删除',
  sortOutside: (f: string, t: string) => `不能按字段「${f}」排序：不是表「${t}」的列`,
  sortUndeclared: (f: string) => `字段「${f}」不可排序`,
  filterOutside: (f: string, t: string) => `不能按字段「${f}」查询：不是表「${t}」的列`,
  filterUndeclared: (f: string) => `不能按字段「${f}」查询：页面没有声明该字段的筛选`,
  hasDetails: (n: number, title: string) => `该记录有 ${n} 行「${title}」，不能删除：请先删除这些明细`,
  sourceChanged: (page: string, ds: string) => `页面【${page}】的数据源【${ds}】已变更（类型、地址、端口、数据库或账号）：请页面管理员在页面管理中确认并重新保存该页面后再使用`,
};

/** The data source of a table page (the platform's own store is never one: app.sql's target policy). */
export async function sourceOf(app: FastifyInstance, decl: PageDeclaration): Promise<DatasourceTable> {
  const row = await app.sql.source('datasource', { id: Number(decl.source?.dsId) });
  if (!row) throw new BizError(TABLE_MSG.noSource);
  return row;
}

const keyColumn = (p: TablePage): CatalogueColumn => columnOf(p.cat, p.decl.source!.key);

/* ------------------------------------------------------------------ data scope (issue 34 item 2) */

export const MSG_NEW_OUT_OF_SCOPE = '新记录的所属部门不在您的数据权限范围内，不能保存';

/**
 * Which rows of a page's table the caller may see, when the page declares an owner column and / or a department
 * column (`source.ownerColumn`, `source.deptColumn`): null when it declares neither or the caller sees all.
 * Rows of the scope's departments (by the department column; without one, by the owner's department), and with
 * 仅本人 the caller's own rows (by the owner column). The values are typed as the columns take them.
 */
interface RowScope {
  owner?: CatalogueColumn;
  dept?: CatalogueColumn;
  owners: unknown[];
  depts: unknown[];
}

const typed = (c: CatalogueColumn, v: unknown): unknown => (v === null || v === undefined ? v : valueKindOf(c) === 'integer' ? Number(v) : valueKindOf(c) === 'text' ? String(v) : v);

async function rowScope(app: FastifyInstance, req: FastifyRequest, p: TablePage): Promise<RowScope | null> {
  const src = p.decl.source!;
  const owner = src.ownerColumn ? columnOf(p.cat, src.ownerColumn) : undefined;
  const dept = src.deptColumn ? columnOf(p.cat, src.deptColumn) : undefined;
  if (!owner && !dept) return null;
  const scope = await app.org.scopeOf(req.user);
  if (scope.all) return null;
  const owners: unknown[] = owner && scope.self ? [typed(owner, scope.userId)] : [];
  if (owner && !dept && scope.deptIds.length) {
    // no department column: the rows whose owner belongs to one of the scope's departments
    const users = await app.ctx.db.selectFrom('sys_user').select('id').where('dept_id', 'in', scope.deptIds).execute();
    owners.push(...users.map((u) => typed(owner, u.id)));
  }
  return { owner, dept, owners, depts: dept ? scope.deptIds.map((d) => typed(dept, d)) : [] };
}

/** The scope as one SQL condition (values bound on `s`): never empty, `1 = 0` when the scope holds nothing. */
function scopeSql(rs: RowScope, s: TableSql, alias = ''): string {
  const ors: string[] = [];
  if (rs.dept && rs.depts.length) ors.push(`${alias}${s.id(rs.dept.name)} in (${rs.depts.map((v) => s.bind(v)).join(', ')})`);
  if (rs.owner && rs.owners.length) ors.push(`${alias}${s.id(rs.owner.name)} in (${rs.owners.map((v) => s.bind(v)).join(', ')})`);
  return ors.length ? `(${ors.join(' or ')})` : '1 = 0';
}

/** Whether a row with these owner and department values lies in the scope (as scopeSql reads it). */
function scopeHolds(rs: RowScope, row: Record<string, unknown>): boolean {
  const same = (list: unknown[], v: unknown) => v !== null && v !== undefined && list.some((x) => String(x) === String(v));
  return (!!rs.dept && same(rs.depts, row[rs.dept.name])) || (!!rs.owner && same(rs.owners, row[rs.owner.name]));
}

/**
 * A new row's owner and department, stamped from the creator (whatever the body said); refused when the row would
 * then lie outside the creator's own scope (an import writes nothing outside it either).
 */
async function stamp(app: FastifyInstance, req: FastifyRequest, p: TablePage, values: Array<[CatalogueColumn, unknown]>, rs: RowScope | null): Promise<Array<[CatalogueColumn, unknown]>> {
  const src = p.decl.source!;
  if (!src.ownerColumn && !src.deptColumn) return values;
  const set = new Map(values);
  const user = req.user!;
  if (src.ownerColumn) set.set(columnOf(p.cat, src.ownerColumn), typed(columnOf(p.cat, src.ownerColumn), user.id));
  if (src.deptColumn) set.set(columnOf(p.cat, src.deptColumn), typed(columnOf(p.cat, src.deptColumn), (await app.org.deptOf(user.id)).deptId));
  const out = [...set.entries()];
  if (rs && !scopeHolds(rs, Object.fromEntries(out.map(([c, v]) => [c.name, v])))) throw new BizError(MSG_NEW_OUT_OF_SCOPE, 403);
  return out;
}

/** The columns a page reads: the catalogue's usable columns the declaration names, the key always. */
function readColumns(p: TablePage): CatalogueColumn[] {
  const named = new Set<string>([p.decl.source!.key, ...(p.decl.columns ?? []).map((c: any) => c?.field).filter((f: unknown) => typeof f === 'string'), ...Object.keys(p.decl.dialog?.schema?.properties ?? {})]);
  return usableColumns(p.cat).filter((c) => named.has(c.name));
}

function present(cols: CatalogueColumn[], r: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const c of cols) out[c.name] = presentValue(valueKindOf(c), r[c.name]);
  return out;
}

/** A key value from a request, as the key column takes it (an integer key from its text). */
function keyValue(c: CatalogueColumn, v: unknown): unknown {
  if (v === undefined || v === null || v === '') throw new BizError('请指定记录的主键');
  if (typeof v === 'object') throw new BizError('主键不合法');
  if (valueKindOf(c) === 'integer') {
    const n = Number(v);
    if (!Number.isSafeInteger(n)) throw new BizError('主键不合法');
    return n;
  }
  return String(v).slice(0, 1000);
}

export async function tableSearch(app: FastifyInstance, req: FastifyRequest, p: TablePage, q: Record<string, any>, opts: { count?: boolean } = {}) {
  const row = await sourceOf(app, p.decl);
  const { cat } = p;
  const key = keyColumn(p);
  const cols = readColumns(p);
  // every name a request gives is looked up in the catalogue first, then among the page's declared filters
  const declared = new Set(filterFieldsOf(p.decl));
  for (const k of Object.keys(q)) {
    if (QUERY_KEYS.has(k)) continue;
    if (!cat.columns.some((c) => c.name === k)) throw new BizError(TABLE_MSG.filterOutside(k, cat.table));
    if (!declared.has(k)) throw new BizError(TABLE_MSG.filterUndeclared(k));
  }
  let order: { col: CatalogueColumn; dir: 'asc' | 'desc' } | null = null;
  if (q.orderByColumn) {
    const col = cat.columns.find((c) => c.name === q.orderByColumn);
    if (!col) throw new BizError(TABLE_MSG.sortOutside(String(q.orderByColumn), cat.table));
    if (!sortableFieldsOf(p.decl).includes(col.name)) throw new BizError(TABLE_MSG.sortUndeclared(col.name));
    if (q.isAsc) order = { col, dir: q.isAsc === 'desc' || q.isAsc === 'descending' ? 'desc' : 'asc' };
  }
  const pageSize = Math.min(500, Math.max(1, Number(q.pageSize ?? p.decl.pageSize ?? 10) | 0));
  const pageNum = Math.max(1, Number(q.pageNum ?? 1) | 0);
  const rs = await rowScope(app, req, p);

  const where = (s: TableSql): string[] => {
    const parts: string[] = rs ? [scopeSql(rs, s)] : [];
    const text = typeof q.search === 'string' ? q.search.trim().toLowerCase() : '';
    const fields = searchFieldsOf(p.decl).filter((f) => cat.columns.some((c) => c.name === f));
    // a related column is searched by the related row's label (a sub-query on the related table's catalogue)
    if (text && fields.length) parts.push(`(${fields.map((f) => (relationOf(p, f) ? relatedLike(p, f, s, text) : s.like(f, text))).join(' or ')})`);
    for (const c of cat.columns) {
      const v = q[c.name];
      if (v === undefined || v === null || v === '' || (Array.isArray(v) && !v.length)) continue;
      const values = (Array.isArray(v) ? v : [v]).map((x) => storedValue(cat, c, x));
      parts.push(`${s.id(c.name)} in (${values.map((x) => s.bind(x)).join(', ')})`);
    }
    return parts;
  };

  // the count: the catalogue's estimate for a large table that nothing filters, else counted; under a data scope
  // alone (nothing else filters), on PostgreSQL, the planner's estimate of the scoped rows (issue 34: a page under
  // the scope costs about what it costs without, bench/data-scope)
  const probe = new TableSql(cat);
  const filtered = where(probe).length > (rs ? 1 : 0);
  let total: number | null = opts.count === false ? -1 : null;
  let totalEstimated = false;
  if (total === null && !filtered && (cat.dialect === 'postgresql' || cat.dialect === 'mysql' || cat.dialect === 'mariadb')) {
    const est = await estimateRows(app, row, cat, req);
    if (est !== null && est > app.ctx.config.tableCountEstimateRows) {
      if (!rs) [total, totalEstimated] = [est, true];
      else if (cat.dialect === 'postgresql') {
        const scoped = await planRows(app, row, cat, rs, req);
        if (scoped !== null && scoped > app.ctx.config.tableCountEstimateRows) [total, totalEstimated] = [scoped, true];
      }
    }
  }
  if (total === null) {
    const s = new TableSql(cat);
    const w = where(s);
    const r = await app.sql.run('datasource', row, `select count(*) as n from ${s.table()}${w.length ? ` where ${w.join(' and ')}` : ''}`, s.params, req);
    total = Number(r.rows[0]?.n ?? 0);
  }

  // the rows: ordered by the sort column (if any) then the key, so that every page is stable
  const s = new TableSql(cat);
  const w = where(s);
  const dir = order?.dir ?? 'desc';
  const keyDir = order ? 'asc' : 'desc';
  const orderBy = (alias: string) => [...(order ? [`${alias}${s.id(order.col.name)} ${order.dir}`] : []), `${alias}${s.id(key.name)} ${keyDir}`].join(', ');
  const list = cols.map((c) => `t.${s.id(c.name)}`).join(', ');
  let text: string;
  const after = q.after;
  if (after !== undefined && after !== null && after !== '' && !order) {
    // keyset: the next page after the last key seen (no OFFSET at all)
    w.push(`${s.id(key.name)} ${dir === 'desc' ? '<' : '>'} ${s.bind(keyValue(key, after))}`);
    text = `select ${list} from ${s.table()} t${w.length ? ` where ${w.map((x) => x).join(' and ')}` : ''} order by ${orderBy('t.')} limit ${pageSize}`;
  } else {
    const offset = (pageNum - 1) * pageSize;
    if (offset === 0) text = `select ${list} from ${s.table()} t${w.length ? ` where ${w.join(' and ')}` : ''} order by ${orderBy('t.')} limit ${pageSize}`;
    else {
      // deferred join: the window is found over the key (and sort column) alone, then only its rows are read
      const inner = `select ${s.id(key.name)}${order && order.col !== key ? `, ${s.id(order.col.name)}` : ''} from ${s.table()}${w.length ? ` where ${w.join(' and ')}` : ''} order by ${orderBy('')} limit ${pageSize} offset ${offset}`;
      text = `select ${list} from ${s.table()} t join (${inner}) k on t.${s.id(key.name)} = k.${s.id(key.name)} order by ${orderBy('k.')}`;
    }
  }
  const r = await app.sql.run('datasource', row, text, s.params, req);
  const records = await withLabels(app, req, row, p, r.rows.map((x) => present(cols, x)));
  const last = records[records.length - 1];
  return { records, total, ...(totalEstimated ? { totalEstimated: true } : {}), ...(last && !order && records.length === pageSize ? { next: last[key.name] } : {}) };
}

/**
 * Planner estimates of scoped counts, kept a minute per data source, table and scope: an estimate moves only with
 * the table's statistics (ANALYZE), and asking the planner costs more than the page itself.
 */
const planned = new Map<string, { n: number | null; at: number }>();
const PLANNED_MS = 60_000;

/** PostgreSQL's estimate of the rows a data scope holds (EXPLAIN of the scoped count, never run), null when unknown. */
async function planRows(app: FastifyInstance, row: DatasourceTable, cat: TableCatalogue, rs: RowScope, req: FastifyRequest): Promise<number | null> {
  const s = new TableSql(cat);
  const text = `select 1 from ${s.table()} where ${scopeSql(rs, s)}`;
  const key = JSON.stringify([row.id, text, s.params]);
  const held = planned.get(key);
  if (held && Date.now() - held.at < PLANNED_MS) return held.n;
  const n = await explainRows(app, row, text, s.params, req);
  if (planned.size >= 1000) planned.delete(planned.keys().next().value!);
  planned.set(key, { n, at: Date.now() });
  return n;
}

async function explainRows(app: FastifyInstance, row: DatasourceTable, text: string, params: unknown[], req: FastifyRequest): Promise<number | null> {
  try {
    const r = await app.sql.explain('datasource', row, text, params, { timeoutMs: 3000, countCap: 0 }, req);
    const n = Number((r.plan as Array<{ Plan?: { 'Plan Rows'?: number } }> | undefined)?.[0]?.Plan?.['Plan Rows']);
    return Number.isFinite(n) && n >= 0 ? Math.round(n) : null;
  } catch {
    return null; // counted instead
  }
}

/** The catalogue's row estimate (PostgreSQL: pg_class.reltuples; MySQL / MariaDB: TABLE_ROWS), null when unknown. */
async function estimateRows(app: FastifyInstance, row: DatasourceTable, cat: TableCatalogue, req: FastifyRequest): Promise<number | null> {
  const s = new TableSql(cat);
  const r =
    cat.dialect === 'postgresql'
      ? await app.sql.run('datasource', row, `select c.reltuples as n from pg_catalog.pg_class c where c.oid = to_regclass($1)`, [s.table()], req)
      : await app.sql.run('datasource', row, `select table_rows as n from information_schema.tables where table_schema = database() and table_name = ?`, [cat.table], req);
  const n = Number(r.rows[0]?.n);
  return Number.isFinite(n) && n >= 0 ? Math.round(n) : null;
}

export async function tableGet(app: FastifyInstance, req: FastifyRequest, p: TablePage, id: unknown) {
  const row = await sourceOf(app, p.decl);
  const key = keyColumn(p);
  const cols = readColumns(p);
  const rs = await rowScope(app, req, p);
  const s = new TableSql(p.cat);
  const r = await app.sql.run('datasource', row, `select ${cols.map((c) => s.id(c.name)).join(', ')} from ${s.table()} where ${s.id(key.name)} = ${s.bind(keyValue(key, id))}${rs ? ` and ${scopeSql(rs, s)}` : ''}`, s.params, req);
  if (!r.rows.length) throw new BizError(TABLE_MSG.notFound);
  const [rec] = await withLabels(app, req, row, p, [present(cols, r.rows[0])]);
  // each detail's rows (dialog.details), by their key, at most the detail's maxRows
  for (const d of detailsOf(p)) {
    const dc = detailCat(p, d);
    const ds = new TableSql(dc);
    const dcols = detailColumns(p, d);
    const lines = await app.sql.run('datasource', row, `select ${dcols.map((c) => ds.id(c.name)).join(', ')} from ${ds.table()} where ${ds.id(d.foreignKey)} = ${ds.bind(rec[key.name])} order by ${ds.id(d.key)} limit ${maxLines(d)}`, ds.params, req);
    rec[d.name] = lines.rows.map((x) => present(dcols, x));
  }
  return rec;
}

/* ------------------------------------------------------------------ related records (issue 34 item 3) */

/** A column's relation (source.relations) with the related table's catalogue kept with the page, or null. */
function relationOf(p: TablePage, column: string): { rel: RelationDecl; cat: TableCatalogue } | null {
  const rel = p.decl.source?.relations?.[column] as RelationDecl | undefined;
  const cat = p.cat.related?.[column];
  return rel && cat ? { rel, cat } : null;
}

/** `column in (select key from related where lower(label) like %text%)`, on `s`'s bound values. */
function relatedLike(p: TablePage, column: string, s: TableSql, text: string): string {
  const { rel, cat } = relationOf(p, column)!;
  const o = new TableSql(cat, s.params);
  return `${s.id(column)} in (select ${o.id(rel.key)} from ${o.table()} where ${o.like(rel.label, text)})`;
}

/**
 * Records with each related column's label beside it (labelFieldOf), read in one statement per relation; a related
 * row outside the scope of the page on the related table shows no label (its key only).
 */
async function withLabels(app: FastifyInstance, req: FastifyRequest, row: DatasourceTable, p: TablePage, records: Array<Record<string, unknown>>) {
  for (const column of Object.keys(p.decl.source?.relations ?? {})) {
    const r = relationOf(p, column);
    if (!r || !records.length || !(column in records[0])) continue;
    const values = [...new Set(records.map((x) => x[column]).filter((v) => v !== null && v !== undefined))];
    if (!values.length) continue;
    const scoped = p.scopedOn ? await p.scopedOn(p, column) : null;
    const rs = scoped ? await rowScope(app, req, scoped) : null;
    const o = new TableSql(r.cat);
    const key = columnOf(r.cat, r.rel.key);
    const label = columnOf(r.cat, r.rel.label);
    const keys = `${o.id(key.name)} in (${values.map((v) => o.bind(storedValue(r.cat, key, v))).join(', ')})`;
    const found = await app.sql.run('datasource', row, `select ${o.id(key.name)} as k, ${o.id(label.name)} as l from ${o.table()} where ${keys}${rs ? ` and ${scopeSql(rs, o)}` : ''}`, o.params, req);
    const labels = new Map(found.rows.map((x) => [String(presentValue(valueKindOf(key), x.k)), presentValue(valueKindOf(label), x.l)]));
    for (const rec of records) if (rec[column] !== null && rec[column] !== undefined) rec[labelFieldOf(column)] = labels.get(String(rec[column])) ?? null;
  }
  return records;
}

/** What the related-record select asks: a page of the related table's rows, searched by label, or the rows of `values`. */
export interface OptionsQuery {
  field: string;
  search?: string | null;
  pageNum?: number;
  pageSize?: number;
  values?: unknown[];
}

/**
 * A page of the rows a related column may take (value = the related key, label = its label column), searched by
 * the label, under the data scope of the page on the related table (`scoped`: a page that declares a scope there).
 */
export async function tableOptions(app: FastifyInstance, req: FastifyRequest, p: TablePage, q: OptionsQuery, scoped: TablePage | null) {
  const r = relationOf(p, q.field);
  if (!r) throw new BizError(`字段「${q.field}」不是关联字段`);
  const row = await sourceOf(app, p.decl);
  const key = columnOf(r.cat, r.rel.key);
  const label = columnOf(r.cat, r.rel.label);
  const pageSize = Math.min(50, Math.max(1, Number(q.pageSize ?? 20) | 0));
  const pageNum = Math.min(10_000, Math.max(1, Number(q.pageNum ?? 1) | 0));
  const rs = scoped ? await rowScope(app, req, scoped) : null;
  const where = (o: TableSql) => {
    const parts = rs ? [scopeSql(rs, o)] : [];
    const text = typeof q.search === 'string' ? q.search.trim().toLowerCase().slice(0, 100) : '';
    if (text) parts.push(o.like(label.name, text));
    if (q.values?.length) parts.push(`${o.id(key.name)} in (${q.values.slice(0, 50).map((v) => o.bind(storedValue(r.cat, key, keyValue(key, v)))).join(', ')})`);
    return parts.length ? ` where ${parts.join(' and ')}` : '';
  };
  const c = new TableSql(r.cat);
  const total = Number((await app.sql.run('datasource', row, `select count(*) as n from ${c.table()}${where(c)}`, c.params, req)).rows[0]?.n ?? 0);
  const o = new TableSql(r.cat);
  const w = where(o);
  const list = await app.sql.run('datasource', row, `select ${o.id(key.name)} as v, ${o.id(label.name)} as l from ${o.table()}${w} order by ${o.id(label.name)}, ${o.id(key.name)} limit ${pageSize} offset ${(pageNum - 1) * pageSize}`, o.params, req);
  const records = list.rows.map((x) => ({ value: presentValue(valueKindOf(key), x.v), label: String(presentValue(valueKindOf(label), x.l) ?? presentValue(valueKindOf(key), x.v)) }));
  return { records, total };
}

/** Refuses a related value the caller could not pick (outside the related page's scope) or that does not exist. */
async function checkRelated(app: FastifyInstance, req: FastifyRequest, p: TablePage, values: Array<[CatalogueColumn, unknown]>, scopedOn: ScopedPageFinder) {
  for (const [c, v] of values) {
    const r = relationOf(p, c.name);
    if (!r || v === null || v === undefined || v === '') continue;
    const scoped = await scopedOn(p, c.name);
    const got = await tableOptions(app, req, p, { field: c.name, values: [v], pageSize: 1 }, scoped);
    if (!got.records.length) throw new BizError(`${p.decl.dialog?.schema?.properties?.[c.name]?.title ?? c.name}：所选的记录不存在或不在您的数据权限范围内`);
  }
}

/** Finds the page on a related table that declares a data scope (null when none). */
export type ScopedPageFinder = (p: TablePage, column: string) => Promise<TablePage | null>;

/* ------------------------------------------------------------------ master–detail (issue 34 item 4) */

const detailsOf = (p: TablePage): DetailDecl[] => (Array.isArray(p.decl.dialog?.details) ? p.decl.dialog.details : []).filter((d: DetailDecl) => p.cat.details?.[d.name]);
const detailCat = (p: TablePage, d: DetailDecl): TableCatalogue => p.cat.details![d.name];
const maxLines = (d: DetailDecl & { maxRows?: number }) => Math.min(500, Math.max(1, d.maxRows ?? 200));
/** A detail's columns read and written: its key, its declared fields (never its foreign key, which the server sets). */
function detailColumns(p: TablePage, d: DetailDecl): CatalogueColumn[] {
  const named = new Set([d.key, ...Object.keys(d.schema?.properties ?? {})]);
  return usableColumns(detailCat(p, d)).filter((c) => named.has(c.name) && c.name !== d.foreignKey);
}

/** Where a statement of a save came from: the parent (null) or a detail's line (1-based). */
type Origin = { detail: DetailDecl; line: number } | null;

/**
 * The statements that write every detail's lines of a parent (key `parentKey`, a value or an earlier statement's
 * answer): lines checked with the detail's field rules first (the first fault names its detail, line and field),
 * lines gone from the list deleted, lines with a key of this parent updated, the others inserted.
 */
async function detailStatements(app: FastifyInstance, req: FastifyRequest, row: DatasourceTable, p: TablePage, body: Record<string, unknown>, parentKey: unknown, isNew: boolean, dicts: Record<string, unknown>) {
  const out: Array<{ sql: string; params: unknown[]; origin: Origin }> = [];
  for (const d of detailsOf(p)) {
    const given = body[d.name];
    if (given === undefined && !isNew) continue; // not sent: the lines stay as they are
    if (given !== undefined && given !== null && !Array.isArray(given)) throw new BizError(`「${d.title}」应为明细行的列表`);
    const lines = (given ?? []) as unknown[];
    if (lines.length > maxLines(d)) throw new BizError(`「${d.title}」最多 ${maxLines(d)} 行`);
    const dc = detailCat(p, d);
    const dkey = columnOf(dc, d.key);
    const fk = columnOf(dc, d.foreignKey);
    const cols = detailColumns(p, d);
    const page = { dialog: { schema: d.schema } } as PageDeclaration;
    const titles = Object.entries(d.schema?.properties ?? {}).map(([f, v]: [string, any]) => [f, typeof v?.title === 'string' ? v.title : f] as const);
    // the lines this parent has now: only those may be updated (a key of another parent's line is refused)
    let existing = new Set<string>();
    if (!isNew) {
      const e = new TableSql(dc);
      const r = await app.sql.run('datasource', row, `select ${e.id(dkey.name)} as k from ${e.table()} where ${e.id(fk.name)} = ${e.bind(parentKey)}`, e.params, req);
      existing = new Set(r.rows.map((x) => String(x.k)));
      // the dialog shows at most maxRows lines: a save of more would delete those it never showed
      if (existing.size > maxLines(d)) throw new BizError(`该记录有 ${existing.size} 行「${d.title}」，超过对话框可编辑的 ${maxLines(d)} 行，不能在此保存明细`);
    }
    const kept: unknown[] = [];
    const writes: Array<{ sql: string; params: unknown[]; origin: Origin }> = [];
    lines.forEach((raw, i) => {
      const origin = { detail: d, line: i + 1 };
      const at = `「${d.title}」第 ${i + 1} 行`;
      if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new BizError(`${at}：应为对象`);
      const line = raw as Record<string, unknown>;
      const k = line[dkey.name];
      const update = k !== undefined && k !== null && k !== '' && existing.has(String(k));
      if (k !== undefined && k !== null && k !== '' && !update && dkey.autoIncrement) throw new BizError(`${at}：不是该记录的明细`);
      let rec: Record<string, unknown>;
      try {
        rec = checkBody(page, line, { dicts, applyDefaults: !update });
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        const field = titles.find(([, t]) => reason.includes(t));
        throw new BizError(`${at}${field ? `「${field[1]}」` : ''}：${reason}`);
      }
      const values: Array<[CatalogueColumn, unknown]> = [];
      for (const c of cols) if (c !== dkey && Object.hasOwn(rec, c.name)) values.push([c, storedValue(dc, c, rec[c.name])]);
      const s = new TableSql(dc);
      if (update) {
        kept.push(keyValue(dkey, k));
        if (!values.length) return;
        writes.push({ sql: `update ${s.table()} set ${values.map(([c, v]) => `${s.id(c.name)} = ${s.bind(v)}`).join(', ')} where ${s.id(dkey.name)} = ${s.bind(keyValue(dkey, k))} and ${s.id(fk.name)} = ${s.bind(parentKey)}`, params: s.params, origin });
        return;
      }
      if (!dkey.autoIncrement) {
        if (k === undefined || k === null || k === '') throw new BizError(`${at}：请输入${titles.find(([f]) => f === dkey.name)?.[1] ?? dkey.name}`);
        values.push([dkey, keyValue(dkey, k)]);
      }
      values.push([fk, parentKey]);
      writes.push({ sql: `insert into ${s.table()} (${values.map(([c]) => s.id(c.name)).join(', ')}) values (${values.map(([, v]) => s.bind(v)).join(', ')})`, params: s.params, origin });
    });
    if (!isNew) {
      const s = new TableSql(dc);
      // placeholders bound in the order they stand in the text ('?' dialects)
      const parent = `${s.id(fk.name)} = ${s.bind(parentKey)}`;
      const keep = kept.length ? ` and ${s.id(dkey.name)} not in (${kept.map((v) => s.bind(v)).join(', ')})` : '';
      out.push({ sql: `delete from ${s.table()} where ${parent}${keep}`, params: s.params, origin: null });
    }
    out.push(...writes);
  }
  return out;
}

/** Runs a save's statements in one transaction; a failing detail statement is told by its detail and line. */
async function runSave(app: FastifyInstance, req: FastifyRequest, row: DatasourceTable, statements: Array<{ sql: string; params: unknown[]; origin?: Origin }>) {
  try {
    return await app.sql.transaction('datasource', row, statements, req);
  } catch (err) {
    const at = (err as { statement?: number }).statement;
    const origin = typeof at === 'number' ? statements[at]?.origin : null;
    if (origin && err instanceof BizError) throw new BizError(`「${origin.detail.title}」第 ${origin.line} 行：${err.message}`);
    throw err;
  }
}

/** The values of a record to write: the page's field rules checked, only catalogue columns, never the identity key. */
function writeValues(p: TablePage, body: Record<string, unknown>, isNew: boolean, dicts: Record<string, unknown>) {
  const rec = checkBody(p.decl, body, { dicts, applyDefaults: isNew });
  const key = keyColumn(p);
  const out: Array<[CatalogueColumn, unknown]> = [];
  for (const [f, v] of Object.entries(rec)) {
    const c = usableColumns(p.cat).find((x) => x.name === f);
    if (!c) continue;
    if (c === key && (key.autoIncrement || !isNew)) continue;
    if (!isNew && (p.decl.dialog?.lockedInEdit ?? []).includes(f)) continue;
    out.push([c, storedValue(p.cat, c, v)]);
  }
  return out;
}

export async function tableInsert(app: FastifyInstance, req: FastifyRequest, p: TablePage, body: Record<string, unknown>, dicts: Record<string, unknown>) {
  if (p.cat.kind !== 'table') throw new BizError(TABLE_MSG.readOnly);
  const row = await sourceOf(app, p.decl);
  const key = keyColumn(p);
  const values = await stamp(app, req, p, writeValues(p, body, true, dicts), await rowScope(app, req, p));
  if (!key.autoIncrement && !values.some(([c]) => c === key)) throw new BizError(`请输入${p.decl.dialog?.schema?.properties?.[key.name]?.title ?? key.name}`);
  if (p.scopedOn) await checkRelated(app, req, p, values, p.scopedOn);
  const s = new TableSql(p.cat);
  const cols = values.map(([c]) => s.id(c.name)).join(', ');
  const marks = values.map(([, v]) => s.bind(v)).join(', ');
  const insert = values.length ? `insert into ${s.table()} (${cols}) values (${marks})` : p.cat.dialect === 'mysql' || p.cat.dialect === 'mariadb' ? `insert into ${s.table()} () values ()` : `insert into ${s.table()} default values`;
  const mysqlLike = p.cat.dialect === 'mysql' || p.cat.dialect === 'mariadb';
  const statements = mysqlLike ? [{ sql: insert, params: s.params }, ...(key.autoIncrement ? [{ sql: 'select last_insert_id() as k', params: [] }] : [])] : [{ sql: `${insert} returning ${s.id(key.name)} as k`, params: s.params }];
  const given = values.find(([c]) => c === key)?.[1];
  // the details' lines go in the same transaction, keyed by the parent's new key (an earlier statement's answer)
  const parentKey = key.autoIncrement ? { $earlier: statements.length - 1, column: 'k' } : given;
  const lines = await detailStatements(app, req, row, p, body, parentKey, true, dicts);
  const results = await runSave(app, req, row, [...statements, ...lines]);
  const k = key.autoIncrement ? results[statements.length - 1]?.rows[0]?.k : (results[0]?.rows[0]?.k ?? given);
  return presentValue(valueKindOf(key), k);
}

export async function tableUpdate(app: FastifyInstance, req: FastifyRequest, p: TablePage, body: Record<string, unknown>, dicts: Record<string, unknown>) {
  if (p.cat.kind !== 'table') throw new BizError(TABLE_MSG.readOnly);
  const row = await sourceOf(app, p.decl);
  const key = keyColumn(p);
  const id = keyValue(key, body[key.name]);
  const values = writeValues(p, body, false, dicts);
  const rs = await rowScope(app, req, p);
  if (rs && values.some(([c]) => c === rs.owner || c === rs.dept)) {
    // the owner or department edited: the row as it would be saved must still lie in the caller's scope
    const s0 = new TableSql(p.cat);
    const scoped = [rs.owner, rs.dept].filter((c): c is CatalogueColumn => !!c);
    const before = await app.sql.run('datasource', row, `select ${scoped.map((c) => s0.id(c.name)).join(', ')} from ${s0.table()} where ${s0.id(key.name)} = ${s0.bind(id)} and ${scopeSql(rs, s0)}`, s0.params, req);
    if (!before.rows.length) throw new BizError(TABLE_MSG.notFound);
    const after = { ...before.rows[0], ...Object.fromEntries(values.map(([c, v]) => [c.name, v])) };
    if (!scopeHolds(rs, after)) throw new BizError(MSG_OUT_OF_SCOPE, 403);
  }
  if (p.scopedOn) await checkRelated(app, req, p, values, p.scopedOn);
  if (detailsOf(p).length) {
    // the parent in the caller's scope before any of its lines is read or written
    const e = new TableSql(p.cat);
    const there = await app.sql.run('datasource', row, `select 1 as one from ${e.table()} where ${e.id(key.name)} = ${e.bind(id)}${rs ? ` and ${scopeSql(rs, e)}` : ''}`, e.params, req);
    if (!there.rows.length) throw new BizError(TABLE_MSG.notFound);
  }
  const lines = await detailStatements(app, req, row, p, body, id, false, dicts);
  const s = new TableSql(p.cat);
  if (!values.length && !lines.length) throw new BizError('没有可保存的字段');
  const set = values.map(([c, v]) => `${s.id(c.name)} = ${s.bind(v)}`).join(', ');
  const parent = values.length ? [{ sql: `update ${s.table()} set ${set} where ${s.id(key.name)} = ${s.bind(id)}${rs ? ` and ${scopeSql(rs, s)}` : ''}`, params: s.params }] : [];
  const [r] = await runSave(app, req, row, [...parent, ...lines]);
  if (parent.length && !r.rowCount) throw new BizError(TABLE_MSG.notFound);
  return presentValue(valueKindOf(key), id);
}

export async function tableDelete(app: FastifyInstance, req: FastifyRequest, p: TablePage, id: unknown) {
  if (p.cat.kind !== 'table') throw new BizError(TABLE_MSG.readOnly);
  const row = await sourceOf(app, p.decl);
  const key = keyColumn(p);
  const rs = await rowScope(app, req, p);
  const k = keyValue(key, id);
  if (detailsOf(p).length) {
    // the parent in the caller's scope before its lines are counted (nothing said of a row they cannot see)
    const e = new TableSql(p.cat);
    const there = await app.sql.run('datasource', row, `select 1 as one from ${e.table()} where ${e.id(key.name)} = ${e.bind(k)}${rs ? ` and ${scopeSql(rs, e)}` : ''}`, e.params, req);
    if (!there.rows.length) throw new BizError(TABLE_MSG.notFound);
  }
  // a parent with detail lines: refused, or its lines deleted first in the same transaction (dialog.details onDelete)
  const before: Array<{ sql: string; params: unknown[] }> = [];
  for (const d of detailsOf(p)) {
    const c = new TableSql(detailCat(p, d));
    const n = Number((await app.sql.run('datasource', row, `select count(*) as n from ${c.table()} where ${c.id(d.foreignKey)} = ${c.bind(k)}`, c.params, req)).rows[0]?.n ?? 0);
    if (!n) continue;
    if (d.onDelete !== 'cascade') throw new BizError(TABLE_MSG.hasDetails(n, d.title));
    const e = new TableSql(p.cat);
    const x = new TableSql(detailCat(p, d), e.params);
    // only the lines of a parent the caller may delete (its scope)
    before.push({ sql: `delete from ${x.table()} where ${x.id(d.foreignKey)} = ${x.bind(k)} and exists (select 1 from ${e.table()} where ${e.id(key.name)} = ${e.bind(k)}${rs ? ` and ${scopeSql(rs, e)}` : ''})`, params: e.params });
  }
  const s = new TableSql(p.cat);
  const results = await app.sql.transaction('datasource', row, [...before, { sql: `delete from ${s.table()} where ${s.id(key.name)} = ${s.bind(k)}${rs ? ` and ${scopeSql(rs, s)}` : ''}`, params: s.params }], req);
  if (!results[results.length - 1].rowCount) throw new BizError(TABLE_MSG.notFound);
}

/**
 * Every row a list query matches, in batches of at most 500, for an export: by the keyset cursor when the list is
 * not sorted, else window after window (the deferred join); nothing counted. Names in `q` are checked as for a search.
 */
export async function* tableRows(app: FastifyInstance, req: FastifyRequest, p: TablePage, q: Record<string, any>, batch = 500): AsyncGenerator<Record<string, unknown>[]> {
  const size = Math.min(500, Math.max(1, batch));
  const sorted = Boolean(q.orderByColumn && q.isAsc);
  const { pageNum: _n, pageSize: _s, after: _a, ...rest } = q;
  let after: unknown;
  for (let pageNum = 1; ; pageNum++) {
    const r = await tableSearch(app, req, p, { ...rest, pageSize: size, ...(sorted ? { pageNum } : after !== undefined ? { after } : {}) }, { count: false });
    if (r.records.length) yield r.records;
    if (r.records.length < size) return;
    after = r.records[r.records.length - 1][keyColumn(p).name];
  }
}

/** One refused row of an import: its number (1 = the first data row), the field when known, the reason in Chinese. */
export interface ImportFault {
  row: number;
  field?: string;
  reason: string;
}

/**
 * Inserts rows into a page's table all or nothing: every row checked with the page's field rules first (every
 * fault reported, nothing written when there is one), then one transaction of bound INSERTs (app.sql.transaction:
 * a failure in the database, such as a duplicate key, also leaves nothing written).
 */
export async function tableImport(app: FastifyInstance, req: FastifyRequest, p: TablePage, rows: Array<Record<string, unknown>>, dicts: Record<string, unknown>): Promise<{ inserted: number; faults: ImportFault[] }> {
  if (p.cat.kind !== 'table') throw new BizError(TABLE_MSG.readOnly);
  const key = keyColumn(p);
  const faults: ImportFault[] = [];
  const statements: Array<{ sql: string; params: unknown[] }> = [];
  const titles = Object.entries(p.decl.dialog?.schema?.properties ?? {}).map(([f, v]: [string, any]) => [f, typeof v?.title === 'string' ? v.title : f] as const);
  // every row stamped with the importer and their department, and refused outside their scope (stamp)
  const rs = await rowScope(app, req, p);
  const stamped = await stamp(app, req, p, [], rs).then(
    (v) => v,
    (err: unknown) => err as Error,
  );
  // each row's related values must be rows the importer could pick (under the related page's scope): the distinct
  // values of each related column looked up 500 at a time
  const related = new Map<number, string>();
  if (p.scopedOn) {
    const row = await sourceOf(app, p.decl);
    for (const column of Object.keys(p.decl.source?.relations ?? {})) {
      const r = relationOf(p, column);
      if (!r) continue;
      const key = columnOf(r.cat, r.rel.key);
      const given = [...new Set(rows.map((b) => b[column]).filter((v) => v !== null && v !== undefined && v !== ''))];
      if (!given.length) continue;
      const scoped = await p.scopedOn(p, column);
      const rs = scoped ? await rowScope(app, req, scoped) : null;
      const allowed = new Set<string>();
      for (let i = 0; i < given.length; i += 500) {
        const o = new TableSql(r.cat);
        const keys = given.slice(i, i + 500).map((v) => o.bind(storedValue(r.cat, key, v)));
        const found = await app.sql.run('datasource', row, `select ${o.id(key.name)} as k from ${o.table()} where ${o.id(key.name)} in (${keys.join(', ')})${rs ? ` and ${scopeSql(rs, o)}` : ''}`, o.params, req);
        for (const x of found.rows) allowed.add(String(presentValue(valueKindOf(key), x.k)));
      }
      const title = p.decl.dialog?.schema?.properties?.[column]?.title ?? column;
      rows.forEach((b, i) => {
        const v = b[column];
        if (v !== null && v !== undefined && v !== '' && !allowed.has(String(v)) && !related.has(i)) related.set(i, `${title}：所选的记录不存在或不在您的数据权限范围内`);
      });
    }
  }
  rows.forEach((body, i) => {
    try {
      if (stamped instanceof Error) throw stamped;
      if (related.has(i)) throw new BizError(related.get(i)!);
      const given = writeValues(p, body, true, dicts);
      const values = [...given.filter(([c]) => !stamped.some(([x]) => x === c)), ...stamped];
      if (!key.autoIncrement && !values.some(([c]) => c === key)) throw new BizError(`请输入${titles.find(([f]) => f === key.name)?.[1] ?? key.name}`);
      const s = new TableSql(p.cat);
      statements.push({ sql: `insert into ${s.table()} (${values.map(([c]) => s.id(c.name)).join(', ')}) values (${values.map(([, v]) => s.bind(v)).join(', ')})`, params: s.params });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      // the field whose title the message names (messages name the field: 请输入名称, 名称不能超过…)
      const field = titles.find(([, t]) => reason.includes(t))?.[0];
      faults.push({ row: i + 1, ...(field ? { field } : {}), reason });
    }
  });
  if (faults.length || !statements.length) return { inserted: 0, faults };
  const row = await sourceOf(app, p.decl);
  await app.sql.transaction('datasource', row, statements, req);
  return { inserted: statements.length, faults };
}
