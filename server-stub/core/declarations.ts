// Page declarations (schemas/pages/*.page.json) used on the server: the same field rules the dialog shows
// validate request bodies here, with the declared Chinese messages; search fields and sortable columns
// come from the declaration too, so a list never sorts or filters on a column that was not declared.
// Tables, their typed store and migrations are core/tables.ts (the declared-table service).
import { BizError } from './envelope.js';
import { safeRegExp } from './patterns.js';

/* ------------------------------------------------------------------ declarations */

export type PageDeclaration = any;

export interface FieldRule {
  field: string;
  title: string;
  type?: string;
  required: boolean;
  requiredMessage?: string;
  maxLength?: { limit: number; message?: string };
  minLength?: { limit: number; message?: string };
  patterns: Array<{ pattern: RegExp; message?: string }>;
  formats: Array<{ format: string; message?: string }>;
  enum?: unknown[];
  dict?: string;
  minimum?: number;
  maximum?: number;
}

export const FORMATS: Record<string, RegExp> = {
  phone: /^1[3-9]\d{9}$/,
  mobile: /^1[3-9]\d{9}$/,
  email: /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/, // linear: no two unbounded runs over the same characters
  url: /^(https?|ftp):\/\/[^\s/$.?#].[^\s]*$/i,
  idcard: /^(\d{15}|\d{17}[\dXx])$/,
  ipv4: /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/,
  integer: /^-?\d+$/,
  number: /^-?\d+(\.\d+)?$/,
  password: /^.{8,16}$/,
};

/** A declared pattern, refused (as the caller's error, never a hang) when it could backtrack catastrophically. */
function declaredPattern(source: string): RegExp {
  try {
    return safeRegExp(source);
  } catch (err) {
    throw new BizError(`页面声明有误：${(err as Error).message}`);
  }
}

function validatorsOf(prop: any): any[] {
  const v = prop['x-validator'];
  if (v == null) return [];
  const list = Array.isArray(v) ? v : [v];
  return list.map((item) => (typeof item === 'string' ? { format: item } : item)).filter((x) => x && typeof x === 'object');
}

/** The field rules of a page's dialog, in declaration order. */
export function fieldRulesOf(page: PageDeclaration): FieldRule[] {
  const schema = page?.dialog?.schema;
  const props: Record<string, any> = schema?.properties ?? {};
  const requiredList: string[] = Array.isArray(schema?.required) ? schema.required : [];
  return Object.entries(props).map(([field, prop]) => {
    const rule: FieldRule = {
      field,
      title: typeof prop.title === 'string' ? prop.title : field,
      type: typeof prop.type === 'string' ? prop.type : undefined,
      required: prop.required === true || requiredList.includes(field),
      patterns: [],
      formats: [],
    };
    if (typeof prop.maxLength === 'number') rule.maxLength = { limit: prop.maxLength };
    if (typeof prop.minLength === 'number') rule.minLength = { limit: prop.minLength };
    if (typeof prop.minimum === 'number') rule.minimum = prop.minimum;
    if (typeof prop.maximum === 'number') rule.maximum = prop.maximum;
    // a number picker's declared bounds hold on the server too
    const cp = prop['x-component-props'];
    if (cp && (prop.type === 'integer' || prop.type === 'number')) {
      if (rule.minimum === undefined && typeof cp.min === 'number') rule.minimum = cp.min;
      if (rule.maximum === undefined && typeof cp.max === 'number') rule.maximum = cp.max;
    }
    if (typeof prop.pattern === 'string') rule.patterns.push({ pattern: declaredPattern(prop.pattern) });
    if (typeof prop.format === 'string') rule.formats.push({ format: prop.format });
    if (Array.isArray(prop.enum)) rule.enum = prop.enum.map((e: any) => (e && typeof e === 'object' && 'value' in e ? e.value : e));
    if (typeof prop['x-dict'] === 'string') rule.dict = prop['x-dict'];
    for (const v of validatorsOf(prop)) {
      if (v.required === true) {
        rule.required = true;
        if (typeof v.message === 'string') rule.requiredMessage = v.message;
      }
      if (typeof v.maxLength === 'number' || typeof v.max === 'number') {
        const limit = typeof v.maxLength === 'number' ? v.maxLength : v.max;
        if (!rule.maxLength || limit <= rule.maxLength.limit || v.message) rule.maxLength = { limit: Math.min(limit, rule.maxLength?.limit ?? limit), message: v.message };
      }
      if (typeof v.minLength === 'number') rule.minLength = { limit: v.minLength, message: v.message };
      if (typeof v.pattern === 'string') rule.patterns.push({ pattern: declaredPattern(v.pattern), message: v.message });
      if (typeof v.format === 'string') rule.formats.push({ format: v.format, message: v.message });
    }
    return rule;
  });
}

/** JSON Schema of a save body from the declaration: types (nullable), lengths, enums; extra properties allowed. */
export function bodySchemaOf(page: PageDeclaration, extra: Record<string, object> = {}): object {
  const properties: Record<string, object> = {};
  for (const r of fieldRulesOf(page)) {
    const p: Record<string, unknown> = { title: r.title };
    if (r.type && ['string', 'number', 'integer', 'boolean'].includes(r.type)) p.type = [r.type, 'null'];
    properties[r.field] = p;
  }
  return { type: 'object', properties: { ...properties, ...extra } };
}

const TYPE_ZH: Record<string, string> = { string: '文本', number: '数字', integer: '整数', boolean: '布尔值', array: '数组', object: '对象' };

function typeOk(type: string | undefined, v: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    default:
      return true;
  }
}

const empty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

export interface CheckOptions {
  /** dictionaries (app.ctx.schemas.dicts) for x-dict values */
  dicts?: Record<string, any>;
  /** apply dialog.defaults to absent fields (new records) */
  applyDefaults?: boolean;
  /** fields whose required check is skipped (e.g. a masked password on edit) */
  skipRequired?: string[];
}

/**
 * Validates a body against the page's declared fields; throws BizError with the declared message.
 * Returns the declared fields only (undeclared keys dropped), defaults applied when asked.
 */
export function checkBody(page: PageDeclaration, body: unknown, opts: CheckOptions = {}): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new BizError('请求体必须是对象');
  const input = body as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const defaults: Record<string, unknown> = page?.dialog?.defaults ?? {};
  for (const r of fieldRulesOf(page)) {
    let v = input[r.field];
    if (empty(v) && opts.applyDefaults && defaults[r.field] !== undefined) v = defaults[r.field];
    if (empty(v)) {
      if (r.required && !opts.skipRequired?.includes(r.field)) throw new BizError(r.requiredMessage ?? `请输入${r.title}`);
      if (v !== undefined) out[r.field] = v === '' && r.type !== 'string' ? null : v;
      continue;
    }
    if (!typeOk(r.type, v)) throw new BizError(`${r.title}类型错误，应为${TYPE_ZH[r.type!] ?? r.type}`);
    if (typeof v === 'string') {
      const len = [...v].length;
      if (r.maxLength && len > r.maxLength.limit) throw new BizError(r.maxLength.message ?? `${r.title}长度不能超过${r.maxLength.limit}个字符`);
      if (r.minLength && len < r.minLength.limit) throw new BizError(r.minLength.message ?? `${r.title}长度不能少于${r.minLength.limit}个字符`);
      for (const p of r.patterns) if (!p.pattern.test(v)) throw new BizError(p.message ?? `${r.title}格式不正确`);
      for (const f of r.formats) {
        const re = FORMATS[f.format];
        if (re && !re.test(v)) throw new BizError(f.message ?? `${r.title}格式不正确`);
      }
    }
    if (typeof v === 'number') {
      if (r.minimum !== undefined && v < r.minimum) throw new BizError(`${r.title}不能小于${r.minimum}`);
      if (r.maximum !== undefined && v > r.maximum) throw new BizError(`${r.title}不能大于${r.maximum}`);
    }
    if (r.enum && !r.enum.includes(v)) throw new BizError(`${r.title}取值不合法`);
    if (r.dict && opts.dicts) {
      const items: any[] | undefined = opts.dicts[r.dict]?.items;
      if (items && !dictValues(items).some((x) => x === v)) throw new BizError(`${r.title}取值不合法，请从字典 ${r.dict} 中选择`);
    }
    out[r.field] = v;
  }
  return out;
}

function dictValues(items: any[]): unknown[] {
  return items.flatMap((i) => [i.value, ...(Array.isArray(i.children) ? dictValues(i.children) : [])]);
}

/** Fields the server searches (fuzzy) for a page. */
export function searchFieldsOf(page: PageDeclaration): string[] {
  return Array.isArray(page?.search?.fields) ? page.search.fields.filter((f: unknown) => typeof f === 'string') : [];
}

/** Fields a list may be ordered by (columns declared sortable). */
export function sortableFieldsOf(page: PageDeclaration): string[] {
  return (page?.columns ?? []).filter((c: any) => c.sortable && typeof c.field === 'string').map((c: any) => c.field);
}

/** A page declaration by id, or an error at start (a module must not run without its declaration). */
export function requirePage(pages: Record<string, PageDeclaration>, id: string): PageDeclaration {
  const p = pages[id];
  if (!p) throw new Error(`缺少页面声明 schemas/pages/${id}.page.json`);
  return p;
}

/* ------------------------------------------------------------------ small helpers of every store */

export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Is this a unique-constraint violation (SQLite or PostgreSQL)? */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/i.test(e?.message ?? '');
}

/** JSON schema of `?id=` query strings. */
/** A body field holding a row id (or nothing): an integer within the store's id range, named for messages. */
export function optionalId(title: string, minimum = 1) {
  return { type: ['integer', 'null'], minimum, maximum: 2147483647, title } as const;
}

export const idQuery = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647, title: '编号' } },
} as const;
