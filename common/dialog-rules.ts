// The field rules of a declared page's dialog (schemas/pages/*.page.json, or a page an admin wrote), read one
// way with one message each: the browser's CRUD dialogs run them as their Formily validators
// (runtime/crud/dialog-schema.ts) and the server checks request bodies with them (server-stub/core/declarations.ts),
// so a declaration means the same on both sides (issue 26).
//
// What a field declares: JSON Schema keywords (type, maxLength, minLength, pattern, format, minimum, maximum, enum),
// `required` (on the field or in the schema's list), `x-dict`, a number picker's min / max in x-component-props,
// and Formily `x-validator` entries (a format name, or objects with required, whitespace, maxLength / max,
// minLength / min, pattern, format, minimum, maximum and their `message`). A declared message wins; the others are
// the ones below. Formily validators these rules do not read (a `validator` expression, `enum`, `len`…) stay the
// browser's own. What stays the server's: the dictionary check needs the server's dictionaries, and an admin's
// pattern runs only once judged safe (the caller compiles each pattern: `regExp`).
import { PATTERN_PRESETS } from './fields';

/** The formats a field may name (`format`, or an x-validator format), the same expressions on both sides. */
export const FORMATS: Readonly<Record<string, RegExp>> = {
  phone: new RegExp(PATTERN_PRESETS.mobile.source),
  mobile: new RegExp(PATTERN_PRESETS.mobile.source),
  email: new RegExp(PATTERN_PRESETS.email.source),
  url: /^(https?|ftp):\/\/[^\s/$.?#].[^\s]*$/i,
  idcard: new RegExp(PATTERN_PRESETS.idcard.source),
  ipv4: /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/,
  integer: /^-?\d+$/,
  number: /^-?\d+(\.\d+)?$/,
  password: /^.{8,16}$/,
  zip: /^\d{6}$/,
  qq: /^(\+?[1-9]\d*|0)$/,
  zh: /^[\u4e00-\u9fa5]+$/,
};

/** One declared field's rules, in declaration order of its checks. */
export interface DeclaredRule {
  field: string;
  title: string;
  type?: string;
  required: boolean;
  requiredMessage?: string;
  /** a value of spaces only counts as missing (Formily's `whitespace`) */
  whitespace?: { message?: string };
  maxLength?: { limit: number; message?: string };
  minLength?: { limit: number; message?: string };
  /** pattern sources as declared: the caller compiles them (the server only once judged safe) */
  patterns: Array<{ source: string; message?: string }>;
  formats: Array<{ format: string; message?: string }>;
  enum?: unknown[];
  dict?: string;
  minimum?: number;
  maximum?: number;
  minimumMessage?: string;
  maximumMessage?: string;
}

/** The Formily validator keys these rules read: an x-validator entry holding only these is fully theirs. */
export const RULE_KEYS: readonly string[] = ['required', 'whitespace', 'maxLength', 'max', 'minLength', 'min', 'pattern', 'format', 'minimum', 'maximum', 'message'];

const isObj = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A field's x-validator entries as objects (a string names a format; functions are the browser's own). */
export function validatorEntries(prop: Record<string, any>): Array<Record<string, any>> {
  const v = prop['x-validator'];
  if (v == null) return [];
  const list = Array.isArray(v) ? v : [v];
  return list.map((item) => (typeof item === 'string' ? { format: item } : item)).filter(isObj);
}

const isNumberType = (t: unknown) => t === 'integer' || t === 'number';

/** The rules of one declared field. */
export function declaredRuleOf(field: string, prop: Record<string, any>, requiredList: readonly string[] = []): DeclaredRule {
  const rule: DeclaredRule = {
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
  // a number picker's declared bounds hold as rules too
  const cp = prop['x-component-props'];
  if (isObj(cp) && isNumberType(prop.type)) {
    if (rule.minimum === undefined && typeof cp.min === 'number') rule.minimum = cp.min;
    if (rule.maximum === undefined && typeof cp.max === 'number') rule.maximum = cp.max;
  }
  if (typeof prop.pattern === 'string') rule.patterns.push({ source: prop.pattern });
  if (typeof prop.format === 'string') rule.formats.push({ format: prop.format });
  if (Array.isArray(prop.enum)) rule.enum = prop.enum.map((e: any) => (isObj(e) && 'value' in e ? e.value : e));
  if (typeof prop['x-dict'] === 'string') rule.dict = prop['x-dict'];
  const numeric = isNumberType(prop.type);
  for (const v of validatorEntries(prop)) {
    const message = typeof v.message === 'string' ? v.message : undefined;
    if (v.required === true) {
      rule.required = true;
      if (message !== undefined) rule.requiredMessage = message;
    }
    if (v.whitespace === true) rule.whitespace = { message };
    // Formily's max / min bound a number's value and a text's length
    const maxLen = typeof v.maxLength === 'number' ? v.maxLength : !numeric && typeof v.max === 'number' ? v.max : undefined;
    if (maxLen !== undefined && (!rule.maxLength || maxLen <= rule.maxLength.limit || message)) rule.maxLength = { limit: Math.min(maxLen, rule.maxLength?.limit ?? maxLen), message };
    const minLen = typeof v.minLength === 'number' ? v.minLength : !numeric && typeof v.min === 'number' ? v.min : undefined;
    if (minLen !== undefined) rule.minLength = { limit: minLen, message };
    const maxValue = typeof v.maximum === 'number' ? v.maximum : numeric && typeof v.max === 'number' ? v.max : undefined;
    if (maxValue !== undefined) [rule.maximum, rule.maximumMessage] = [maxValue, message];
    const minValue = typeof v.minimum === 'number' ? v.minimum : numeric && typeof v.min === 'number' ? v.min : undefined;
    if (minValue !== undefined) [rule.minimum, rule.minimumMessage] = [minValue, message];
    if (typeof v.pattern === 'string') rule.patterns.push({ source: v.pattern, message });
    if (typeof v.format === 'string') rule.formats.push({ format: v.format, message });
  }
  return rule;
}

/** The field rules of a page's dialog, in declaration order. */
export function declaredRulesOf(page: any): DeclaredRule[] {
  const schema = page?.dialog?.schema;
  const props: Record<string, any> = isObj(schema?.properties) ? schema.properties : {};
  const requiredList: string[] = Array.isArray(schema?.required) ? schema.required : [];
  return Object.entries(props).map(([field, prop]) => declaredRuleOf(field, isObj(prop) ? prop : {}, requiredList));
}

/** Empty, as a required rule reads it. */
export const isEmptyValue = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** The message of a missing required value. */
export function requiredMessageOf(rule: DeclaredRule): string {
  return rule.requiredMessage ?? `请输入${rule.title}`;
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
      return isObj(v);
    default:
      return true;
  }
}

export interface DeclaredEnv {
  /** compiles a declared pattern (the server refuses one that could backtrack catastrophically) */
  regExp(source: string): RegExp;
  /** a dictionary's values, when the caller has the dictionaries (the server); undefined skips the check */
  dictValues?(dict: string): unknown[] | undefined;
}

/** The refusal of a present (non-empty) value, or null: type, text rules, number bounds, enum, dictionary. */
export function valueFault(rule: DeclaredRule, v: unknown, env: DeclaredEnv): string | null {
  const title = rule.title;
  if (!typeOk(rule.type, v)) return `${title}类型错误，应为${TYPE_ZH[rule.type!] ?? rule.type}`;
  if (typeof v === 'string') {
    if (rule.whitespace && !v.trim()) return rule.whitespace.message ?? requiredMessageOf(rule);
    const len = [...v].length;
    if (rule.maxLength && len > rule.maxLength.limit) return rule.maxLength.message ?? `${title}长度不能超过${rule.maxLength.limit}个字符`;
    if (rule.minLength && len < rule.minLength.limit) return rule.minLength.message ?? `${title}长度不能少于${rule.minLength.limit}个字符`;
    for (const p of rule.patterns) if (!env.regExp(p.source).test(v)) return p.message ?? `${title}格式不正确`;
    for (const f of rule.formats) {
      const re = Object.hasOwn(FORMATS, f.format) ? FORMATS[f.format] : undefined;
      if (re && !re.test(v)) return f.message ?? `${title}格式不正确`;
    }
  }
  if (typeof v === 'number') {
    if (rule.minimum !== undefined && v < rule.minimum) return rule.minimumMessage ?? `${title}不能小于${rule.minimum}`;
    if (rule.maximum !== undefined && v > rule.maximum) return rule.maximumMessage ?? `${title}不能大于${rule.maximum}`;
  }
  if (rule.enum && !rule.enum.includes(v)) return `${title}取值不合法`;
  if (rule.dict && env.dictValues) {
    const values = env.dictValues(rule.dict);
    if (values && !values.some((x) => x === v)) return `${title}取值不合法，请从字典 ${rule.dict} 中选择`;
  }
  return null;
}

/** The refusal of a value, required included, or null. */
export function declaredFault(rule: DeclaredRule, v: unknown, env: DeclaredEnv): string | null {
  if (isEmptyValue(v)) return rule.required ? requiredMessageOf(rule) : null;
  return valueFault(rule, v, env);
}

/** Does the field check anything beyond "required"? (a browser field then gets a validator) */
export function hasValueRules(rule: DeclaredRule): boolean {
  return Boolean(
    (rule.type && rule.type in TYPE_ZH) ||
      rule.whitespace ||
      rule.maxLength ||
      rule.minLength ||
      rule.patterns.length ||
      rule.formats.length ||
      rule.minimum !== undefined ||
      rule.maximum !== undefined ||
      rule.enum ||
      rule.dict,
  );
}
