// A chart's question to a dataset, written as one aggregate statement of the data source's dialect (issue 35).
// Identifiers come only from the dataset's stored definition (tables and columns read from the catalogue when it was
// saved) and are quoted by the dialect's rule; every value is bound (named placeholders, bound by the connector);
// calculated fields are expression trees (common/dataset.ts) compiled here, never text from a request.
import { BizError } from '../../core/envelope.js';
import type { DbType } from '../../connectors/sql/index.js';
import {
  DATASET_MAX_POINTS,
  dimensionKey,
  exprFields,
  measureKey,
  parseExpr,
  ExprError,
  type Aggregation,
  type DatasetField,
  type DatasetQuery,
  type DateGroup,
  type Expr,
  type QueryDimension,
  type QueryFilter,
} from '../../../common/dataset.js';

/** A data source's dialect, or DuckDB for a file dataset (duck.ts). */
export type Dialect = DbType | 'duckdb';

/** Where a dataset's rows come from, as saved (names from the catalogue). */
export type DatasetSource =
  | { kind: 'table'; schema?: string | null; table: string }
  | {
      kind: 'join';
      tables: Array<{ alias: string; schema?: string | null; table: string }>;
      joins: Array<{ type: 'inner' | 'left'; left: { alias: string; column: string }; right: { alias: string; column: string } }>;
    }
  | { kind: 'sql'; sql: string; params?: Array<{ name: string; value: unknown }> };

export const DATASET_MSG = {
  unknownField: (f: string) => `数据集中没有字段「${String(f).slice(0, 64)}」`,
  notMeasure: (f: string, agg: string) => `字段「${f}」是文本或日期，不能${agg}`,
  notDate: (f: string) => `字段「${f}」不是日期，不能按年、季度、月、周或日分组`,
  cycle: (f: string) => `计算字段「${f}」引用了自己（循环引用）`,
  badValue: (f: string) => `字段「${f}」的筛选值不合法`,
  tooManyValues: '筛选值最多 1000 个',
  nothing: '请至少选择一个维度或指标',
} as const;

const AGG_LABEL: Record<Aggregation, string> = { sum: '求和', count: '计数', countDistinct: '去重计数', avg: '求平均', max: '求最大', min: '求最小' };

/** SQL text of one statement: identifiers quoted by the dialect, values bound under generated names. */
export class DatasetSql {
  readonly params: Record<string, unknown> = {};
  private n = 0;
  constructor(readonly dialect: Dialect) {}
  get mysql() {
    return this.dialect === 'mysql' || this.dialect === 'mariadb';
  }
  id(name: string): string {
    return this.mysql ? `\`${name.replace(/`/g, '``')}\`` : `"${name.replace(/"/g, '""')}"`;
  }
  /** true where booleans are their own type (PostgreSQL, DuckDB), false where they are 1 and 0 */
  get booleans() {
    return this.dialect === 'postgresql' || this.dialect === 'duckdb';
  }
  bind(v: unknown): string {
    const name = `dsp_${++this.n}`;
    this.params[name] = v;
    // the connectors bind :name; DuckDB binds $name itself
    return this.dialect === 'duckdb' ? `$${name}` : `:${name}`;
  }
  bool(v: boolean): string {
    return this.booleans ? (v ? 'true' : 'false') : v ? '1' : '0';
  }
  text(x: string): string {
    return this.mysql ? `cast(${x} as char)` : this.dialect === 'duckdb' ? `cast(${x} as varchar)` : `cast(${x} as text)`;
  }
  /** A date part as an integer. */
  part(p: 'year' | 'quarter' | 'month' | 'week' | 'day', x: string): string {
    if (this.dialect === 'postgresql' || this.dialect === 'duckdb') return `cast(extract(${p} from cast(${x} as timestamp)) as integer)`;
    if (this.mysql) return p === 'week' ? `week(${x}, 3)` : `${p}(${x})`;
    const f = { year: '%Y', month: '%m', day: '%d', week: '%W', quarter: '%m' }[p];
    const n = `cast(strftime('${f}', ${x}) as integer)`;
    return p === 'quarter' ? `((${n} + 2) / 3)` : n;
  }
  /** A date grouped by year / quarter / month / week / day, as sortable text (2026, 2026-Q1, 2026-03, 2026-W09, 2026-03-05). */
  dateGroup(g: DateGroup, x: string): string {
    if (this.dialect === 'postgresql') {
      const t = `cast(${x} as timestamp)`;
      const fmt = { year: 'YYYY', quarter: 'YYYY-"Q"Q', month: 'YYYY-MM', week: 'IYYY-"W"IW', day: 'YYYY-MM-DD' }[g];
      return `to_char(${t}, '${fmt}')`;
    }
    if (this.dialect === 'duckdb') {
      const t = `cast(${x} as timestamp)`;
      if (g === 'quarter') return `(strftime(${t}, '%Y') || '-Q' || cast(quarter(${t}) as varchar))`;
      const fmt = { year: '%Y', month: '%Y-%m', week: '%G-W%V', day: '%Y-%m-%d' }[g];
      return `strftime(${t}, '${fmt}')`;
    }
    if (this.mysql) {
      if (g === 'quarter') return `concat(year(${x}), '-Q', quarter(${x}))`;
      const fmt = { year: '%Y', month: '%Y-%m', week: '%x-W%v', day: '%Y-%m-%d' }[g];
      return `date_format(${x}, '${fmt}')`;
    }
    if (g === 'quarter') return `(strftime('%Y', ${x}) || '-Q' || ((cast(strftime('%m', ${x}) as integer) + 2) / 3))`;
    const fmt = { year: '%Y', month: '%Y-%m', week: '%Y-W%W', day: '%Y-%m-%d' }[g];
    return `strftime('${fmt}', ${x})`;
  }
}

/** A dataset as the compiler needs it. */
export interface CompiledDataset {
  dialect: Dialect;
  source: DatasetSource;
  fields: DatasetField[];
}

/** The FROM clause of a dataset's source (the SQL dataset's own parameters bound under their names). */
export function fromClause(q: DatasetSql, d: CompiledDataset): string {
  const s = d.source;
  const table = (schema: string | null | undefined, name: string) => (schema && q.dialect === 'postgresql' ? `${q.id(schema)}.${q.id(name)}` : q.id(name));
  if (s.kind === 'table') return `${table(s.schema, s.table)} ${q.id('t0')}`;
  if (s.kind === 'join') {
    const [first, ...rest] = s.tables;
    let text = `${table(first.schema, first.table)} ${q.id(first.alias)}`;
    for (const t of rest) {
      const on = s.joins.filter((j) => j.right.alias === t.alias);
      if (!on.length) throw new BizError(`表「${t.table}」没有连接条件`);
      const type = on[0].type === 'left' ? 'left join' : 'inner join';
      text += ` ${type} ${table(t.schema, t.table)} ${q.id(t.alias)} on ${on.map((j) => `${q.id(j.left.alias)}.${q.id(j.left.column)} = ${q.id(j.right.alias)}.${q.id(j.right.column)}`).join(' and ')}`;
    }
    return text;
  }
  for (const p of s.params ?? []) q.params[p.name] = p.value ?? null;
  return `(${s.sql.trim().replace(/;\s*$/, '')}) ${q.id('t0')}`;
}

/** Compiles fields and expressions of one dataset into SQL for one statement. */
export class FieldCompiler {
  private readonly byName: Map<string, DatasetField>;
  private readonly trees = new Map<string, Expr>();
  constructor(
    readonly q: DatasetSql,
    readonly d: CompiledDataset,
  ) {
    this.byName = new Map(d.fields.map((f) => [f.name, f]));
  }
  field(name: string): DatasetField {
    const f = this.byName.get(name);
    if (!f) throw new BizError(DATASET_MSG.unknownField(name));
    return f;
  }
  /** The tree of a calculated field (parsed once; names resolved against this dataset, by name or label). */
  tree(f: DatasetField): Expr {
    let t = this.trees.get(f.name);
    if (!t) {
      t = parseFieldExpr(f, this.d.fields);
      this.trees.set(f.name, t);
    }
    return t;
  }
  /** A field's SQL expression. */
  sql(name: string, seen: string[] = []): string {
    const f = this.field(name);
    if (f.expr) {
      if (seen.includes(f.name)) throw new BizError(DATASET_MSG.cycle(f.name));
      return `(${this.expr(this.tree(f), [...seen, f.name])})`;
    }
    const alias = this.d.source.kind === 'join' ? (f.table ?? 't0') : 't0';
    return `${this.q.id(alias)}.${this.q.id(f.column ?? f.name)}`;
  }
  expr(e: Expr, seen: string[]): string {
    const q = this.q;
    const r = (x: Expr) => this.expr(x, seen);
    switch (e.k) {
      case 'num':
        return String(e.v);
      case 'str':
        return q.bind(e.v);
      case 'bool':
        return q.bool(e.v);
      case 'null':
        return 'null';
      case 'field':
        return this.sql(e.name, seen);
      case 'neg':
        return `(-${r(e.e)})`;
      case 'not':
        return `(not ${r(e.e)})`;
      case 'bin': {
        const op = { '+': '+', '-': '-', '*': '*', '/': '/', '%': '%', '=': '=', '!=': '<>', '<': '<', '<=': '<=', '>': '>', '>=': '>=', and: 'and', or: 'or' }[e.op];
        // division is never integer division, and never by zero (null instead)
        if (e.op === '/') return `(${r(e.l)} * 1.0 / nullif(${r(e.r)}, 0))`;
        return `(${r(e.l)} ${op} ${r(e.r)})`;
      }
      case 'case':
        return `(case ${e.whens.map((w) => `when ${r(w.when)} then ${r(w.then)}`).join(' ')}${e.else ? ` else ${r(e.else)}` : ''} end)`;
      case 'call': {
        const a = e.args.map(r);
        switch (e.fn) {
          case 'if':
            return `(case when ${a[0]} then ${a[1]} else ${a[2]} end)`;
          case 'coalesce':
            return `coalesce(${a.join(', ')})`;
          case 'concat':
            return q.mysql ? `concat(${a.map((x) => `coalesce(${q.text(x)}, '')`).join(', ')})` : `(${a.map((x) => `coalesce(${q.text(x)}, '')`).join(' || ')})`;
          case 'year':
          case 'quarter':
          case 'month':
          case 'week':
          case 'day':
            return q.part(e.fn, a[0]);
          case 'abs':
            return `abs(${a[0]})`;
          case 'round':
            return q.dialect === 'postgresql' ? `round(cast(${a[0]} as numeric), ${a[1] ?? '0'})` : `round(${a[0]}, ${a[1] ?? '0'})`;
          case 'floor':
          case 'ceil':
            if (q.dialect === 'sqlite') return e.fn === 'floor' ? `(cast(${a[0]} as integer) - (${a[0]} < cast(${a[0]} as integer)))` : `(cast(${a[0]} as integer) + (${a[0]} > cast(${a[0]} as integer)))`;
            return `${e.fn === 'ceil' && q.mysql ? 'ceiling' : e.fn}(${a[0]})`;
        }
      }
    }
    throw new BizError('表达式不合法');
  }
  /** The SQL of a filter on a field, values bound. */
  filter(f: QueryFilter): string {
    const field = this.field(f.field);
    const x = this.sql(f.field);
    const q = this.q;
    const one = (v: unknown) => {
      if (v === null || v === undefined || typeof v === 'object') throw new BizError(DATASET_MSG.badValue(field.label || field.name));
      return q.bind(typeof v === 'boolean' && !q.booleans ? (v ? 1 : 0) : v);
    };
    const list = (v: unknown) => {
      const arr = Array.isArray(v) ? v : [v];
      if (!arr.length) throw new BizError(DATASET_MSG.badValue(field.label || field.name));
      if (arr.length > 1000) throw new BizError(DATASET_MSG.tooManyValues);
      return arr.map(one).join(', ');
    };
    switch (f.op) {
      case 'eq':
        return `${x} = ${one(f.value)}`;
      case 'ne':
        return `(${x} <> ${one(f.value)} or ${x} is null)`;
      case 'in':
        return `${x} in (${list(f.value)})`;
      case 'notIn':
        return `(${x} not in (${list(f.value)}) or ${x} is null)`;
      case 'gt':
        return `${x} > ${one(f.value)}`;
      case 'gte':
        return `${x} >= ${one(f.value)}`;
      case 'lt':
        return `${x} < ${one(f.value)}`;
      case 'lte':
        return `${x} <= ${one(f.value)}`;
      case 'between': {
        if (!Array.isArray(f.value) || f.value.length !== 2) throw new BizError(DATASET_MSG.badValue(field.label || field.name));
        return `${x} between ${one(f.value[0])} and ${one(f.value[1])}`;
      }
      case 'like': {
        const text = String(f.value ?? '').toLowerCase();
        const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        return `lower(${q.text(x)}) like ${q.bind(pattern)}${q.mysql ? '' : " escape '\\'"}`;
      }
      case 'isNull':
        return `${x} is null`;
      case 'notNull':
        return `${x} is not null`;
    }
    throw new BizError(DATASET_MSG.badValue(field.label || field.name));
  }
}

/** Parses a calculated field's expression against the dataset's fields (names or labels). Throws BizError. */
export function parseFieldExpr(f: Pick<DatasetField, 'name' | 'label' | 'expr'>, fields: DatasetField[]): Expr {
  const byName = new Map(fields.map((x) => [x.name, x.name]));
  const byLabel = new Map(fields.map((x) => [x.label, x.name]));
  try {
    const tree = parseExpr(String(f.expr ?? ''), (n) => byName.get(n) ?? byLabel.get(n));
    if (exprFields(tree).has(f.name)) throw new BizError(DATASET_MSG.cycle(f.name));
    return tree;
  } catch (err) {
    if (err instanceof ExprError) throw new BizError(`计算字段「${f.label || f.name}」：${err.message}`);
    throw err;
  }
}

/** One statement and how to read its rows. */
export interface Statement {
  sql: string;
  params: Record<string, unknown>;
  /** the answer's column keys, in order */
  keys: string[];
}

/**
 * The aggregate statement of a chart query (or a page of rows when the query asks for a page and no measure).
 * `extra` are conditions added by the server (row rules), already compiled by the same compiler.
 */
export function buildQuery(d: CompiledDataset, query: DatasetQuery, rowRules: (c: FieldCompiler) => string | null, opts: { cap?: number; exclude?: { dim: QueryDimension; values: unknown[] } } = {}): Statement & { count?: Statement } {
  const q = new DatasetSql(d.dialect);
  const c = new FieldCompiler(q, d);
  const from = fromClause(q, d);
  const dims = query.dimensions ?? [];
  const measures = query.measures ?? [];
  if (!dims.length && !measures.length) throw new BizError(DATASET_MSG.nothing);
  const select: string[] = [];
  const groups: string[] = [];
  const keys: string[] = [];
  const dimSql = new Map<string, string>();
  for (const dim of dims) {
    const f = c.field(dim.field);
    let x = c.sql(dim.field);
    if (dim.dateGroup) {
      if (f.type !== 'date') throw new BizError(DATASET_MSG.notDate(f.label || f.name));
      x = q.dateGroup(dim.dateGroup, x);
    }
    const key = dimensionKey(dim);
    if (keys.includes(key)) continue;
    dimSql.set(key, x);
    select.push(`${x} as ${q.id(key)}`);
    groups.push(x);
    keys.push(key);
  }
  const measureSql = new Map<string, string>();
  for (const m of measures) {
    const f = c.field(m.field);
    if ((m.agg === 'sum' || m.agg === 'avg') && f.type !== 'number') throw new BizError(DATASET_MSG.notMeasure(f.label || f.name, AGG_LABEL[m.agg]));
    const x = c.sql(m.field);
    const agg = { sum: `sum(${x})`, count: `count(${x})`, countDistinct: `count(distinct ${x})`, avg: `avg(${x})`, max: `max(${x})`, min: `min(${x})` }[m.agg];
    if (!agg) throw new BizError('聚合方式不合法');
    const key = measureKey(m);
    if (keys.includes(key)) continue;
    measureSql.set(key, agg);
    select.push(`${agg} as ${q.id(key)}`);
    keys.push(key);
  }
  const where: string[] = [];
  for (const f of query.filters ?? []) where.push(c.filter(f));
  const rules = rowRules(c);
  if (rules) where.push(rules);
  if (opts.exclude && opts.exclude.values.length) {
    // the rest of a top N: every row whose group is not one of the top ones
    const dim = opts.exclude.dim;
    const x = dim.dateGroup ? q.dateGroup(dim.dateGroup, c.sql(dim.field)) : c.sql(dim.field);
    where.push(`(${x} not in (${opts.exclude.values.map((v) => q.bind(v)).join(', ')}) or ${x} is null)`);
  }
  const order: string[] = [];
  for (const s of query.sort ?? []) {
    const dir = s.dir === 'desc' ? 'desc' : 'asc';
    const key = s.agg ? measureKey({ field: s.field, agg: s.agg }) : (dims.find((x) => x.field === s.field) ? dimensionKey(dims.find((x) => x.field === s.field)!) : s.field);
    const x = measureSql.get(key) ?? dimSql.get(key);
    if (!x) throw new BizError(`不能按「${String(s.field).slice(0, 64)}」排序：它不在图表的维度或指标中`);
    order.push(`${x} ${dir}`);
  }
  const cap = Math.max(1, opts.cap ?? DATASET_MAX_POINTS);
  const whereText = where.length ? ` where ${where.join(' and ')}` : '';
  // a table of rows: no measure, a page asked for: rows in the database's order, paged there
  if (!measures.length && query.page) {
    const size = Math.min(500, Math.max(1, Math.floor(query.page.pageSize)));
    const offset = (Math.max(1, Math.floor(query.page.pageNum)) - 1) * size;
    const rows = `select ${select.join(', ')} from ${from}${whereText}${order.length ? ` order by ${order.join(', ')}` : ''} limit ${size} offset ${offset}`;
    const count = { sql: `select count(*) as ${q.id('n')} from ${from}${whereText}`, params: q.params, keys: ['n'] };
    return { sql: rows, params: q.params, keys, count };
  }
  const top = query.top && measures.length && dims.length ? Math.min(cap, Math.max(1, Math.floor(query.top.n))) : null;
  if (top && !order.length) order.push(`${measureSql.get(measureKey(measures[0]))} desc`);
  const limit = top ?? cap + 1;
  const sqlText = `select ${select.join(', ')} from ${from}${whereText}${groups.length ? ` group by ${groups.join(', ')}` : ''}${order.length ? ` order by ${order.join(', ')}` : ''} limit ${limit}`;
  return { sql: sqlText, params: q.params, keys };
}
