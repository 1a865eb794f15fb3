// What a click on a widget does (issue 23 §3–§5, DESIGN §8 "Interaction"), one copy for the designer, its
// import check, the preview and the server: `widgetProps.interactionProps` (optional) declares
// - linkage: which field of the clicked item goes to which screen variable (a click sets them, clicking the same
//   item again clears them);
// - drill: a path of levels, each naming the clicked field that goes down and the request parameter of the
//   widget's API that receives it (a click goes one level down, the widget's breadcrumb goes back up);
// - jump: another screen, a form, a page of the console or an http(s) URL, opened with clicked fields as URL
//   parameters (a target screen takes them as its variables, common/variables.ts initialValues).
// Safe by construction: a clicked value only ever becomes a variable value (coerced by the variable's type), a
// request parameter of the widget's own API (bound and type-checked by the published API), or a URL parameter.
// Framework-free: both sides import it.
import { coerceValue, isEmptyValue, VALUE_MAX, type ScreenVariable, type VariableValue, type VariableValues } from './variables';

export interface LinkageRule {
  /** the clicked item's field (a column of the widget's rows, or name / series / value) */
  field: string;
  /** the screen variable it sets */
  variable: string;
}

export interface DrillLevel {
  /** what the breadcrumb calls the level (省份) */
  title?: string;
  /** the clicked item's field that goes down */
  field: string;
  /** the request parameter of the widget's API that receives it */
  param: string;
}

export type JumpTarget = '' | 'screen' | 'form' | 'page' | 'url';

export interface JumpParam {
  field: string;
  /** the URL parameter's name (a variable of a target screen) */
  param: string;
}

export interface JumpRule {
  /** '' or absent: no jump */
  target?: JumpTarget;
  /** a screen's or form's id, a page's path (/system/user), or an http(s) URL */
  to?: string;
  newTab?: boolean;
  params?: JumpParam[];
}

export interface InteractionProps {
  linkage?: LinkageRule[];
  drill?: DrillLevel[];
  jump?: JumpRule | null;
}

/** A clicked item: the fields of its row, plus name (category), series and value where the kind has them. */
export type ClickItem = Readonly<Record<string, unknown>>;

/** A field or parameter name: a letter (any script) or _, then letters, digits or _, at most 64 characters. */
export const FIELD_NAME = /^[\p{L}_][\p{L}\p{N}_]{0,63}$/u;
export const LINKAGE_MAX = 10;
export const DRILL_MAX = 5;
export const JUMP_PARAMS_MAX = 10;
export const JUMP_TO_MAX = 2000;
export const LEVEL_TITLE_MAX = 20;
export const JUMP_TARGETS: ReadonlyArray<{ value: JumpTarget; label: string }> = [
  { value: '', label: '不跳转' },
  { value: 'screen', label: '大屏' },
  { value: 'form', label: '表单' },
  { value: 'page', label: '系统页面' },
  { value: 'url', label: '网址' },
];
const ID = /^[1-9][0-9]{0,9}$/;
/** A path of this console: starts with one /, no scheme, no //, no backslash, no control characters. */
const PAGE_PATH = /^\/(?![/\\])[A-Za-z0-9\-._~/%]*(?:\?[^\s#\\]*)?$/;

/** What a URL string is, if it is an http(s) URL (null otherwise, javascript:, data: and the like included). */
export function httpUrl(raw: string): URL | null {
  if (!/^https?:\/\//i.test(raw.trim())) return null;
  try {
    const u = new URL(raw.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : null;
  } catch {
    return null;
  }
}

/** Whether a widget's interaction does anything (a click must be listened to). */
export function isInteractive(p: InteractionProps | null | undefined): boolean {
  return Boolean(p && ((p.linkage?.length ?? 0) > 0 || (p.drill?.length ?? 0) > 0 || (p.jump?.target && p.jump.to)));
}

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
const unknownKeys = (o: Record<string, unknown>, known: readonly string[]) => Object.keys(o).filter((k) => !known.includes(k));
const fieldOk = (v: unknown): v is string => typeof v === 'string' && FIELD_NAME.test(v);
const FIELD_RULE = '以字母或下划线开头，只含字母、数字和下划线，至多 64 个字符';

/**
 * What is wrong with a widget's interactionProps, in Chinese, or null. `declared` are the page's variables: a
 * linkage names one of them.
 */
export function interactionFault(raw: unknown, declared: readonly ScreenVariable[]): string | null {
  if (raw === undefined || raw === null) return null;
  if (!isObject(raw)) return '交互设置应为对象';
  const extra = unknownKeys(raw, ['linkage', 'drill', 'jump']);
  if (extra.length) return `交互设置有未知的属性：${extra.slice(0, 3).join('、')}`;
  const { linkage, drill, jump } = raw;
  if (linkage !== undefined && linkage !== null) {
    if (!Array.isArray(linkage)) return '联动应为列表';
    if (linkage.length > LINKAGE_MAX) return `联动至多 ${LINKAGE_MAX} 条`;
    const names = new Set(declared.map((v) => v.name));
    const seen = new Set<string>();
    for (const [i, r] of linkage.entries()) {
      const at = `联动第 ${i + 1} 条`;
      if (!isObject(r) || unknownKeys(r, ['field', 'variable']).length) return `${at}不合法：应为 { field, variable }`;
      if (!fieldOk(r.field)) return `${at}的字段名不合法：${FIELD_RULE}`;
      if (typeof r.variable !== 'string' || !r.variable) return `${at}未选择变量`;
      if (!names.has(r.variable)) return `${at}的变量【${r.variable.slice(0, 40)}】未在画布的变量中声明`;
      if (seen.has(r.variable)) return `联动中变量【${r.variable}】重复`;
      seen.add(r.variable);
    }
  }
  if (drill !== undefined && drill !== null) {
    if (!Array.isArray(drill)) return '下钻应为列表';
    if (drill.length > DRILL_MAX) return `下钻至多 ${DRILL_MAX} 层`;
    const params = new Set<string>();
    for (const [i, l] of drill.entries()) {
      const at = `下钻第 ${i + 1} 层`;
      if (!isObject(l) || unknownKeys(l, ['title', 'field', 'param']).length) return `${at}不合法：应为 { title, field, param }`;
      if (l.title !== undefined && l.title !== null && (typeof l.title !== 'string' || l.title.length > LEVEL_TITLE_MAX)) return `${at}的名称至多 ${LEVEL_TITLE_MAX} 个字符`;
      if (!fieldOk(l.field)) return `${at}的字段名不合法：${FIELD_RULE}`;
      if (!fieldOk(l.param)) return `${at}的请求参数名不合法：${FIELD_RULE}`;
      if (params.has(l.param)) return `下钻中请求参数【${l.param}】重复`;
      params.add(l.param);
    }
  }
  if (jump !== undefined && jump !== null) {
    if (!isObject(jump) || unknownKeys(jump, ['target', 'to', 'newTab', 'params']).length) return '跳转不合法：应为 { target, to, newTab, params }';
    const { target, to, newTab, params } = jump;
    if (target !== undefined && target !== null && !JUMP_TARGETS.some((t) => t.value === target)) return '跳转的目标类型不正确';
    if (to !== undefined && to !== null && (typeof to !== 'string' || to.length > JUMP_TO_MAX)) return `跳转的目标至多 ${JUMP_TO_MAX} 个字符`;
    if (newTab !== undefined && newTab !== null && typeof newTab !== 'boolean') return '跳转的“新标签页打开”应为是或否';
    const dest = typeof to === 'string' ? to.trim() : '';
    if (target) {
      if (!dest) return '跳转未填写目标';
      if ((target === 'screen' || target === 'form') && !ID.test(dest)) return `跳转的${target === 'screen' ? '大屏' : '表单'}编号应为正整数`;
      if (target === 'page' && !PAGE_PATH.test(dest)) return '跳转的系统页面应为本系统的路径，以 / 开头（如 /datav/screen）';
      if (target === 'url' && !httpUrl(dest)) return '跳转的网址只能是 http:// 或 https:// 开头的地址';
    }
    if (params !== undefined && params !== null) {
      if (!Array.isArray(params)) return '跳转参数应为列表';
      if (params.length > JUMP_PARAMS_MAX) return `跳转参数至多 ${JUMP_PARAMS_MAX} 个`;
      const seen = new Set<string>();
      for (const [i, p] of params.entries()) {
        const at = `跳转参数第 ${i + 1} 个`;
        if (!isObject(p) || unknownKeys(p, ['field', 'param']).length) return `${at}不合法：应为 { field, param }`;
        if (!fieldOk(p.field)) return `${at}的字段名不合法：${FIELD_RULE}`;
        if (!fieldOk(p.param)) return `${at}的参数名不合法：${FIELD_RULE}`;
        if (seen.has(p.param)) return `跳转参数【${p.param}】重复`;
        seen.add(p.param);
      }
    }
  }
  return null;
}

/** A widget's interaction as stored (malformed: none, so a bad stored value does nothing). */
export function interactionOf(raw: unknown, declared: readonly ScreenVariable[]): InteractionProps | null {
  return raw && interactionFault(raw, declared) === null ? (raw as InteractionProps) : null;
}

/** A clicked field's value as text or a number (anything else, or too long: none). */
export function clickedValue(item: ClickItem, field: string): string | number | null {
  if (!Object.hasOwn(item, field)) return null;
  const v = item[field];
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return v.length <= VALUE_MAX && v.trim() ? v : null;
  return null;
}

/** The variable values a click sets by the linkage, each coerced by its variable's type (a value that does not fit: none). */
export function linkageValues(rules: readonly LinkageRule[] | undefined, item: ClickItem, declared: readonly ScreenVariable[]): Record<string, VariableValue> {
  const out: Record<string, VariableValue> = {};
  for (const r of rules ?? []) {
    const v = declared.find((d) => d.name === r.variable);
    if (!v) continue;
    const raw = clickedValue(item, r.field);
    const value = raw === null ? null : coerceValue(v.type, v.type === 'list' ? [String(raw)] : raw);
    out[r.variable] = value === undefined ? null : value;
  }
  return out;
}

const sameValue = (a: VariableValue | undefined, b: VariableValue | undefined) =>
  (isEmptyValue(a) && isEmptyValue(b)) || JSON.stringify(a) === JSON.stringify(b);

/**
 * What a click does to the variables: the linkage's values, or — when the same item is clicked again (`sameItem`,
 * the widget's last click) and the variables still hold exactly its values — none of them (cleared). Another item
 * that gives the same values (a city of the province already chosen, after a drill-down) keeps them.
 */
export function toggleLinkage(
  rules: readonly LinkageRule[] | undefined,
  item: ClickItem,
  declared: readonly ScreenVariable[],
  current: VariableValues,
  sameItem = true,
): Record<string, VariableValue> {
  const next = linkageValues(rules, item, declared);
  const keys = Object.keys(next);
  if (keys.length === 0) return next;
  const again = sameItem && keys.every((k) => sameValue(current[k], next[k])) && keys.some((k) => !isEmptyValue(next[k]));
  return again ? Object.fromEntries(keys.map((k) => [k, null])) : next;
}

/** Where a widget is on its drill path: the value taken at each level gone down (empty: the top). */
export type DrillPath = ReadonlyArray<string | number>;

/** The path one level further down for a click, or null (at the bottom, or the item lacks the level's field). */
export function drillDown(levels: readonly DrillLevel[] | undefined, path: DrillPath, item: ClickItem): DrillPath | null {
  const level = levels?.[path.length];
  if (!level) return null;
  const v = clickedValue(item, level.field);
  return v === null ? null : [...path, v];
}

/** The request parameters the path adds to the widget's own (each level's param = the value taken there). */
export function drillParams(levels: readonly DrillLevel[] | undefined, path: DrillPath): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  path.forEach((v, i) => {
    const l = levels?.[i];
    if (l) out[l.param] = v;
  });
  return out;
}

/** The breadcrumb: 全部 then each level gone down (its title and the value taken). */
export function drillCrumbs(levels: readonly DrillLevel[] | undefined, path: DrillPath): string[] {
  return ['全部', ...path.map((v, i) => (levels?.[i]?.title ? `${levels[i].title}：${v}` : String(v)))];
}

/**
 * The address a jump opens for a click (same-origin paths for screens, forms and pages; the URL itself for an
 * http(s) URL), each declared parameter the clicked field's value; null when the rule opens nothing.
 */
export function jumpUrl(rule: JumpRule | null | undefined, item: ClickItem): string | null {
  if (!rule?.target || !rule.to) return null;
  const to = rule.to.trim();
  const query = new URLSearchParams();
  for (const p of rule.params ?? []) {
    const v = clickedValue(item, p.field);
    if (v !== null) query.append(p.param, String(v));
  }
  const add = (base: string, first: boolean) => {
    const q = query.toString();
    return q ? `${base}${first ? '?' : '&'}${q}` : base;
  };
  switch (rule.target) {
    case 'screen':
      return ID.test(to) ? add(`/datav/screen/preview?pageId=${to}`, false) : null;
    case 'form':
      return ID.test(to) ? add(`/form/fill?pageId=${to}`, false) : null;
    case 'page':
      return PAGE_PATH.test(to) ? add(to, !to.includes('?')) : null;
    case 'url': {
      const u = httpUrl(to);
      if (!u) return null;
      for (const [k, v] of query) u.searchParams.append(k, v);
      return u.toString();
    }
    default:
      return null;
  }
}
