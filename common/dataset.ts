// Datasets (issue 35): what browser and server agree on, framework-free. A dataset's fields, the chart query a
// designer builds from them (dimensions, measures, filters, sort, top N), and the small expression language of
// calculated fields, parsed into a tree here (the server compiles the tree into each dialect's SQL; nothing a
// designer types ever reaches the database as text).

export type FieldType = 'text' | 'number' | 'date' | 'boolean';
export type FieldRole = 'dimension' | 'measure';

export interface DatasetField {
  /** the name charts and filters use: letters, digits, _ (unique in the dataset) */
  name: string;
  /** the Chinese label shown */
  label: string;
  type: FieldType;
  role: FieldRole;
  /** display format, e.g. 0,0.00 or YYYY-MM */
  format?: string | null;
  /** a column of the source: for a join, `alias.column` is given by `table` (the alias) and `column` */
  column?: string | null;
  table?: string | null;
  /** a calculated field: an expression over the other fields (no column) */
  expr?: string | null;
}

export const FIELD_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export type Aggregation = 'sum' | 'count' | 'countDistinct' | 'avg' | 'max' | 'min';
export const AGGREGATIONS: Record<Aggregation, string> = { sum: '求和', count: '计数', countDistinct: '去重计数', avg: '平均', max: '最大', min: '最小' };

export type DateGroup = 'year' | 'quarter' | 'month' | 'week' | 'day';
export const DATE_GROUPS: Record<DateGroup, string> = { year: '年', quarter: '季度', month: '月', week: '周', day: '日' };

export type FilterOp = 'eq' | 'ne' | 'in' | 'notIn' | 'gt' | 'gte' | 'lt' | 'lte' | 'between' | 'like' | 'isNull' | 'notNull';
export const FILTER_OPS: Record<FilterOp, string> = {
  eq: '等于',
  ne: '不等于',
  in: '属于',
  notIn: '不属于',
  gt: '大于',
  gte: '大于等于',
  lt: '小于',
  lte: '小于等于',
  between: '介于',
  like: '包含',
  isNull: '为空',
  notNull: '不为空',
};

export interface QueryDimension {
  field: string;
  /** a date field grouped by year, quarter, month, week or day */
  dateGroup?: DateGroup | null;
}
export interface QueryMeasure {
  field: string;
  agg: Aggregation;
}
export interface QueryFilter {
  field: string;
  op: FilterOp;
  value?: unknown;
}
export interface QuerySort {
  /** a dimension's field, or a measure's field (with its aggregation) */
  field: string;
  agg?: Aggregation | null;
  dir: 'asc' | 'desc';
}

/** One chart's question to a dataset. */
export interface DatasetQuery {
  datasetId: number;
  dimensions?: QueryDimension[];
  measures?: QueryMeasure[];
  filters?: QueryFilter[];
  sort?: QuerySort[];
  /** top N groups by the first measure; the rest as 其他 (`rest: 'other'`) or left out */
  top?: { n: number; rest: 'other' | 'drop' } | null;
  /** a table of rows (no aggregation): the page, done in the database */
  page?: { pageNum: number; pageSize: number } | null;
}

/** The column name an answer row carries for a measure: field_agg (count of a dimension too). */
export const measureKey = (m: QueryMeasure) => `${m.field}_${m.agg}`;
/** The column name for a dimension: the field, or field_dateGroup. */
export const dimensionKey = (d: QueryDimension) => (d.dateGroup ? `${d.field}_${d.dateGroup}` : d.field);

/** A chart answer is capped (said on the chart). */
export const DATASET_MAX_POINTS = 10_000;
export const OTHER_LABEL = '其他';

// ------------------------------------------------------------------------------------------- the expression language

export type Expr =
  | { k: 'num'; v: number; at: number }
  | { k: 'str'; v: string; at: number }
  | { k: 'bool'; v: boolean; at: number }
  | { k: 'null'; at: number }
  | { k: 'field'; name: string; at: number }
  | { k: 'neg'; e: Expr; at: number }
  | { k: 'not'; e: Expr; at: number }
  | { k: 'bin'; op: BinOp; l: Expr; r: Expr; at: number }
  | { k: 'call'; fn: ExprFunction; args: Expr[]; at: number }
  | { k: 'case'; whens: Array<{ when: Expr; then: Expr }>; else: Expr | null; at: number };

export type BinOp = '+' | '-' | '*' | '/' | '%' | '=' | '!=' | '<' | '<=' | '>' | '>=' | 'and' | 'or';

/** The functions of the language, with their argument counts [min, max]. */
export const EXPR_FUNCTIONS = {
  if: [3, 3],
  coalesce: [2, 8],
  concat: [2, 8],
  year: [1, 1],
  quarter: [1, 1],
  month: [1, 1],
  week: [1, 1],
  day: [1, 1],
  abs: [1, 1],
  round: [1, 2],
  floor: [1, 1],
  ceil: [1, 1],
} as const satisfies Record<string, readonly [number, number]>;
export type ExprFunction = keyof typeof EXPR_FUNCTIONS;

export class ExprError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(`表达式第 ${at + 1} 个字符处：${message}`);
  }
}

type Tok = { t: 'num' | 'str' | 'id' | 'op' | 'end'; v: string; at: number };

const KEYWORDS = new Set(['and', 'or', 'not', 'case', 'when', 'then', 'else', 'end', 'true', 'false', 'null']);

function lex(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(src.slice(i))!;
      out.push({ t: 'num', v: m[0], at: i });
      i += m[0].length;
      continue;
    }
    if (c === "'") {
      let j = i + 1;
      let text = '';
      for (;;) {
        if (j >= src.length) throw new ExprError('字符串没有结束（缺少单引号）', i);
        if (src[j] === "'" && src[j + 1] === "'") {
          text += "'";
          j += 2;
        } else if (src[j] === "'") break;
        else text += src[j++];
      }
      out.push({ t: 'str', v: text, at: i });
      i = j + 1;
      continue;
    }
    if (c === '[') {
      // [字段名] : a field by name (or by its label), spaces allowed
      const j = src.indexOf(']', i + 1);
      if (j < 0) throw new ExprError('字段引用没有结束（缺少 ]）', i);
      out.push({ t: 'id', v: `[${src.slice(i + 1, j).trim()}`, at: i });
      i = j + 1;
      continue;
    }
    if (/[A-Za-z_\u4e00-\u9fff]/.test(c)) {
      const m = /^[A-Za-z_\u4e00-\u9fff][A-Za-z0-9_\u4e00-\u9fff]*/.exec(src.slice(i))!;
      out.push({ t: 'id', v: m[0], at: i });
      i += m[0].length;
      continue;
    }
    const two = src.slice(i, i + 2);
    if (two === '--' || two === '/*') throw new ExprError('不允许 SQL 注释：表达式不是 SQL', i);
    if (['<=', '>=', '!=', '<>', '=='].includes(two)) {
      out.push({ t: 'op', v: two === '<>' ? '!=' : two === '==' ? '=' : two, at: i });
      i += 2;
      continue;
    }
    if ('+-*/%=<>(),'.includes(c)) {
      out.push({ t: 'op', v: c, at: i });
      i++;
      continue;
    }
    if (c === ';' || c === '"' || c === '`' || c === '-' || c === '#') throw new ExprError(`不允许的字符「${c}」：表达式不是 SQL`, i);
    throw new ExprError(`不认识的字符「${c}」`, i);
  }
  out.push({ t: 'end', v: '', at: src.length });
  return out;
}

/**
 * Parses an expression. `fieldOf` resolves a name (a field's name, or its label in [ ]) to the field's name, or
 * undefined when the dataset has no such field. Throws ExprError (Chinese, with the position) for anything else:
 * an unknown function or field, SQL keywords, a wrong number of arguments.
 */
export function parseExpr(src: string, fieldOf: (name: string) => string | undefined): Expr {
  if (src.length > 2000) throw new ExprError('表达式过长（最多 2000 个字符）', 0);
  const toks = lex(src);
  let p = 0;
  let depth = 0;
  const peek = () => toks[p];
  const next = () => toks[p++];
  const isOp = (v: string) => peek().t === 'op' && peek().v === v;
  const isKw = (v: string) => peek().t === 'id' && peek().v.toLowerCase() === v;
  const expect = (v: string, what: string) => {
    if (!isOp(v) && !isKw(v)) throw new ExprError(`此处应为 ${what}`, peek().at);
    next();
  };
  const deeper = <T>(f: () => T): T => {
    if (++depth > 64) throw new ExprError('表达式嵌套过深', peek().at);
    try {
      return f();
    } finally {
      depth--;
    }
  };

  const expr = (): Expr => deeper(orExpr);
  const orExpr = (): Expr => {
    let l = andExpr();
    while (isKw('or')) {
      const at = next().at;
      l = { k: 'bin', op: 'or', l, r: andExpr(), at };
    }
    return l;
  };
  const andExpr = (): Expr => {
    let l = notExpr();
    while (isKw('and')) {
      const at = next().at;
      l = { k: 'bin', op: 'and', l, r: notExpr(), at };
    }
    return l;
  };
  const notExpr = (): Expr => {
    if (isKw('not')) {
      const at = next().at;
      return { k: 'not', e: deeper(notExpr), at };
    }
    return cmpExpr();
  };
  const cmpExpr = (): Expr => {
    const l = addExpr();
    const t = peek();
    if (t.t === 'op' && ['=', '!=', '<', '<=', '>', '>='].includes(t.v)) {
      next();
      return { k: 'bin', op: t.v as BinOp, l, r: addExpr(), at: t.at };
    }
    return l;
  };
  const addExpr = (): Expr => {
    let l = mulExpr();
    while (isOp('+') || isOp('-')) {
      const t = next();
      l = { k: 'bin', op: t.v as BinOp, l, r: mulExpr(), at: t.at };
    }
    return l;
  };
  const mulExpr = (): Expr => {
    let l = unary();
    while (isOp('*') || isOp('/') || isOp('%')) {
      const t = next();
      l = { k: 'bin', op: t.v as BinOp, l, r: unary(), at: t.at };
    }
    return l;
  };
  const unary = (): Expr => {
    if (isOp('-')) {
      const at = next().at;
      return { k: 'neg', e: deeper(unary), at };
    }
    return primary();
  };
  const primary = (): Expr => {
    const t = next();
    if (t.t === 'num') {
      const v = Number(t.v);
      if (!Number.isFinite(v)) throw new ExprError(`数字「${t.v}」不合法`, t.at);
      return { k: 'num', v, at: t.at };
    }
    if (t.t === 'str') return { k: 'str', v: t.v, at: t.at };
    if (t.t === 'op' && t.v === '(') {
      const e = expr();
      expect(')', '右括号 )');
      return e;
    }
    if (t.t === 'id') {
      if (t.v.startsWith('[')) {
        const name = fieldOf(t.v.slice(1));
        if (!name) throw new ExprError(`数据集中没有字段「${t.v.slice(1)}」`, t.at);
        return { k: 'field', name, at: t.at };
      }
      const lower = t.v.toLowerCase();
      if (lower === 'true' || lower === 'false') return { k: 'bool', v: lower === 'true', at: t.at };
      if (lower === 'null') return { k: 'null', at: t.at };
      if (lower === 'case') return caseExpr(t.at);
      if (isOp('(')) {
        if (!Object.hasOwn(EXPR_FUNCTIONS, lower)) throw new ExprError(`未知函数「${t.v}」（可用：${Object.keys(EXPR_FUNCTIONS).join('、')}）`, t.at);
        next();
        const args: Expr[] = [];
        if (!isOp(')')) {
          args.push(expr());
          while (isOp(',')) {
            next();
            args.push(expr());
          }
        }
        expect(')', '右括号 )');
        const [min, max] = EXPR_FUNCTIONS[lower as ExprFunction];
        if (args.length < min || args.length > max) throw new ExprError(`函数 ${lower} 需要 ${min === max ? min : `${min}–${max}`} 个参数，给了 ${args.length} 个`, t.at);
        return { k: 'call', fn: lower as ExprFunction, args, at: t.at };
      }
      if (KEYWORDS.has(lower)) throw new ExprError(`此处不能是「${t.v}」`, t.at);
      const name = fieldOf(t.v);
      if (!name) throw new ExprError(`数据集中没有字段「${t.v}」（不是 SQL：表、列和关键字都不能写）`, t.at);
      return { k: 'field', name, at: t.at };
    }
    if (t.t === 'end') throw new ExprError('表达式不完整', t.at);
    throw new ExprError(`此处不能是「${t.v}」`, t.at);
  };
  const caseExpr = (at: number): Expr => {
    const whens: Array<{ when: Expr; then: Expr }> = [];
    while (isKw('when')) {
      next();
      const when = expr();
      expect('then', 'then');
      whens.push({ when, then: expr() });
    }
    if (!whens.length) throw new ExprError('case 后应为 when … then …', peek().at);
    let otherwise: Expr | null = null;
    if (isKw('else')) {
      next();
      otherwise = expr();
    }
    expect('end', 'end');
    return { k: 'case', whens, else: otherwise, at };
  };

  if (!src.trim()) throw new ExprError('表达式为空', 0);
  const tree = expr();
  if (peek().t !== 'end') throw new ExprError(`多余的「${peek().v}」`, peek().at);
  return tree;
}

/** The field names an expression refers to. */
export function exprFields(e: Expr, out = new Set<string>()): Set<string> {
  switch (e.k) {
    case 'field':
      out.add(e.name);
      break;
    case 'neg':
    case 'not':
      exprFields(e.e, out);
      break;
    case 'bin':
      exprFields(e.l, out);
      exprFields(e.r, out);
      break;
    case 'call':
      e.args.forEach((a) => exprFields(a, out));
      break;
    case 'case':
      e.whens.forEach((w) => (exprFields(w.when, out), exprFields(w.then, out)));
      if (e.else) exprFields(e.else, out);
      break;
    default:
  }
  return out;
}
