// Screen variables (issue 23 §1, §8), one copy for the designer, the preview and the server.
// A screen declares variables (name, type, default). Their values come from the preview URL
// (`?pageId=…&region=east`), from filter widgets and from clicks on other widgets. An API data source binds a
// request parameter to a variable by writing `{{name}}` as the parameter's value; the preview sends the
// variable's current value as that parameter of the published API, where it is validated against the API's
// declared parameter type and bound, never spliced. A variable with no value leaves its parameter out, so the
// API's own default applies (a filter on 全部).
// Framework-free: both sides import it.

export type VariableType = 'string' | 'number' | 'date' | 'list';

export interface ScreenVariable {
  /** letters, digits and _, starting with a letter or _, at most 40 characters; unique on the screen */
  name: string;
  /** what the designer and the inspector show beside the name (optional) */
  title?: string;
  type: VariableType;
  /** the value a preview starts with, as text ('' or absent: none); a list is comma separated */
  default?: string;
}

/** A variable's value: text, a number, a list of texts (multi-select), or null (no value). */
export type VariableValue = string | number | string[] | null;
export type VariableValues = Readonly<Record<string, VariableValue>>;

export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;
export const VARIABLES_MAX = 50;
export const VARIABLE_TYPES: ReadonlyArray<{ value: VariableType; label: string }> = [
  { value: 'string', label: '文本' },
  { value: 'number', label: '数字' },
  { value: 'date', label: '日期' },
  { value: 'list', label: '列表（多选）' },
];
/** The longest text a value may have (a URL parameter or a default). */
export const VALUE_MAX = 200;
/** The most items a list value may have. */
export const LIST_MAX = 100;
/** URL parameters the preview itself uses: never variables. */
export const RESERVED_NAMES = new Set(['pageId', 'formId', 'id', 'fit']);

const BINDING = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,39})\s*\}\}$/;
const DATE = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/;

/** The variable a request parameter's value is bound to (`{{region}}` → 'region'), or null for a constant. */
export function bindingOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = BINDING.exec(value.trim());
  return m ? m[1] : null;
}

/** The variables a data source's request parameters are bound to, each once, in parameter order. */
export function boundVariables(reqParams: Readonly<Record<string, unknown>> | undefined | null): string[] {
  const out: string[] = [];
  for (const v of Object.values(reqParams ?? {})) {
    const name = bindingOf(v);
    if (name && !out.includes(name)) out.push(name);
  }
  return out;
}

/** Whether a value counts as none (the parameter is left out). */
export function isEmptyValue(v: VariableValue | undefined): boolean {
  return v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
}

/**
 * The request parameters with each binding replaced by its variable's current value; a binding whose
 * variable has no value (or is not declared) leaves the parameter out. Constants pass as they are.
 */
export function resolveParams(reqParams: Readonly<Record<string, unknown>> | undefined | null, values: VariableValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(reqParams ?? {})) {
    const name = bindingOf(raw);
    if (!name) {
      out[key] = raw;
      continue;
    }
    const v = values[name];
    if (!isEmptyValue(v)) out[key] = Array.isArray(v) ? v.join(',') : v;
  }
  return out;
}

/**
 * A value of `type` from text (a URL parameter, a default, a filter's choice), or undefined when the text is
 * not a value of that type. '' is null (no value).
 */
export function coerceValue(type: VariableType, raw: unknown): VariableValue | undefined {
  if (raw === null || raw === undefined) return null;
  if (type === 'list') {
    const items = Array.isArray(raw) ? raw.map((x) => (typeof x === 'number' ? String(x) : x)) : typeof raw === 'string' ? (raw.trim() ? raw.split(',') : []) : null;
    if (!items || items.length > LIST_MAX || items.some((x) => typeof x !== 'string' || x.length > VALUE_MAX)) return undefined;
    const list = (items as string[]).map((x) => x.trim()).filter(Boolean);
    return list.length ? list : null;
  }
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return undefined;
    return type === 'number' ? raw : type === 'string' ? String(raw) : undefined;
  }
  if (typeof raw !== 'string' || raw.length > VALUE_MAX) return undefined;
  const s = raw.trim();
  if (!s) return null;
  if (type === 'number') {
    const n = Number(s);
    return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s) && Number.isFinite(n) ? n : undefined;
  }
  if (type === 'date') return DATE.test(s) && !Number.isNaN(Date.parse(s.slice(0, 10))) ? s : undefined;
  return s;
}

/**
 * The values a preview starts with: each declared variable's default, replaced by a URL parameter of the same
 * name when that parameter is a value of the variable's type. A URL parameter that names no declared variable,
 * or does not fit its type, is ignored: it can reach no API.
 */
export function initialValues(vars: readonly ScreenVariable[] | undefined | null, search?: URLSearchParams | string): Record<string, VariableValue> {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const out: Record<string, VariableValue> = {};
  for (const v of vars ?? []) {
    const fromDefault = coerceValue(v.type, v.default ?? '');
    out[v.name] = fromDefault === undefined ? null : fromDefault;
    if (!params || RESERVED_NAMES.has(v.name)) continue;
    const all = params.getAll(v.name);
    if (all.length === 0) continue;
    const fromUrl = coerceValue(v.type, v.type === 'list' && all.length > 1 ? all : all[0]);
    if (fromUrl !== undefined) out[v.name] = fromUrl;
  }
  return out;
}

/** Text a value shows as (the inspector, a filter's tag). */
export function valueText(v: VariableValue | undefined): string {
  if (isEmptyValue(v)) return '（无）';
  return Array.isArray(v) ? v.join('，') : String(v);
}

/** A list of declared variables as stored: what is wrong with it, in Chinese, or null. */
export function variablesFault(list: unknown): string | null {
  if (list === null || list === undefined) return null;
  if (!Array.isArray(list)) return '变量应为列表';
  if (list.length > VARIABLES_MAX) return `变量至多 ${VARIABLES_MAX} 个`;
  const seen = new Set<string>();
  for (const [i, item] of list.entries()) {
    const at = `第 ${i + 1} 个变量`;
    if (!item || typeof item !== 'object' || Array.isArray(item)) return `${at}不合法`;
    const { name, title, type, default: def, ...rest } = item as Record<string, unknown>;
    if (Object.keys(rest).length) return `${at}有未知的属性：${Object.keys(rest).slice(0, 3).join('、')}`;
    if (typeof name !== 'string' || !VARIABLE_NAME.test(name)) return `${at}的名称不合法：以字母或下划线开头，只含字母、数字和下划线，至多 40 个字符`;
    if (RESERVED_NAMES.has(name)) return `${at}的名称【${name}】是预览地址自用的参数名，请换一个`;
    if (seen.has(name)) return `变量名称【${name}】重复`;
    seen.add(name);
    if (title !== undefined && title !== null && (typeof title !== 'string' || title.length > 50)) return `变量【${name}】的标题至多 50 个字符`;
    if (!VARIABLE_TYPES.some((t) => t.value === type)) return `变量【${name}】的类型不正确`;
    if (def !== undefined && def !== null) {
      if (typeof def !== 'string' || def.length > VALUE_MAX) return `变量【${name}】的默认值至多 ${VALUE_MAX} 个字符`;
      if (coerceValue(type as VariableType, def) === undefined) return `变量【${name}】的默认值不是${VARIABLE_TYPES.find((t) => t.value === type)!.label}`;
    }
  }
  return null;
}

/** The declared variables of a stored list (malformed: none). */
export function variablesOf(list: unknown): ScreenVariable[] {
  return variablesFault(list) === null && Array.isArray(list) ? (list as ScreenVariable[]) : [];
}
