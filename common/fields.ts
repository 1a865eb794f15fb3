// A designed form's field rules, one copy for browser and server (issue 26; DESIGN §7 "Forms"): given a field's
// view props and a value, what is valid, what is stored and which message a refusal says. The browser's
// Formily validators (widgets/formField/rules.ts) and the server's submission check
// (server-stub/modules/datav/fields.ts) both call checkField(), so the two cannot answer differently.
// Messages are the spec's templates (schemas/messages/zh-CN.json, field*) filled by template.ts; a rule's own
// message (requiredMessage, lengthMessage, patternMessage, rangeMessage) wins when it says anything.
//
// What stays with each side: the server refuses unknown keys, looks every image up among the product's own
// uploads and compiles a field's pattern only once judged safe (ReDoS, off the event loop); the browser draws
// the asterisk and shows the message under the control.
import { fillMessage } from './template';

/** The field kinds, by widget kind. A kind outside this map has no value (titles, the submit button). */
export const FIELD_KINDS = {
  formInput: 'input',
  formTextarea: 'textarea',
  formNumber: 'number',
  formSelect: 'select',
  formRadio: 'radio',
  formCheckbox: 'checkbox',
  formSwitch: 'switch',
  formDate: 'date',
  formDateRange: 'dateRange',
  formImage: 'image',
  formSubTable: 'subTable',
} as const;
export type FieldWidgetName = keyof typeof FIELD_KINDS;
export type FieldKind = (typeof FIELD_KINDS)[FieldWidgetName];

/** The field kind of a widget kind, or null when it holds no value. */
export function fieldKindOf(widgetName: string): FieldKind | null {
  return Object.hasOwn(FIELD_KINDS, widgetName) ? FIELD_KINDS[widgetName as FieldWidgetName] : null;
}

/**
 * The text field's format presets (widgets/formInput/formInput.widget.json offers exactly these, by value):
 * the value of `patternPreset` is the expression itself, `custom` takes `customPattern`.
 */
export const PATTERN_PRESETS = {
  mobile: { title: '手机号码', source: '^1[3-9]\\d{9}$' },
  // linear: no two unbounded runs over the same characters
  email: { title: '电子邮箱', source: '^[^\\s@]+@[^\\s@.]+(\\.[^\\s@.]+)+$' },
  idcard: { title: '身份证号', source: '^(\\d{15}|\\d{17}[\\dXx])$' },
} as const;
export const CUSTOM_PATTERN = 'custom';

/** An image a form stores: one of this product's form uploads (the server also looks it up in its records). */
export const FORM_FILE_URL = /^\/files\/form\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|jpeg|webp|svg)$/;

export interface FieldOption {
  label: string;
  value: string | number;
  /** a cascading option: offered only while the field its options follow has this value (common/formLogic.ts) */
  parent?: string;
}

/** Dictionaries by type, as schemas/dicts holds them. */
export type DictTable = Record<string, { items?: Array<{ value: unknown; label?: unknown }> } | undefined>;

/** One field as the rules read it. */
export interface FieldDef {
  kind: FieldKind;
  /** the name messages use: the label trimmed, else the caller's fallback (the kind's title) */
  label: string;
  /** the widget's view props */
  props: Record<string, unknown>;
  /** select / radio / checkbox: the allowed values */
  options?: FieldOption[];
}

export interface RuleEnv {
  /** the message catalogue (schemas/messages/zh-CN.json's messages; the field* templates are used) */
  messages: Readonly<Record<string, string>>;
  /**
   * How a text field's pattern is compiled. The server refuses one it has not judged safe (it throws); the
   * browser skips one that does not compile (null), since the server refuses such a form when it is saved.
   */
  regExp(source: string, field: FieldDef): RegExp | null;
}

/** What a value comes to: a refusal, nothing to store (empty, not required), or the value to store and its text. */
export type FieldCheck = { fault: string } | { value: unknown; text: string } | null;

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const blank = (v: unknown) => v === undefined || v === null || v === '';

/** The label messages name a field by: its own (trimmed), else the fallback. */
export function fieldLabel(props: Record<string, unknown>, fallback: string): string {
  return str(props.label).trim() || fallback;
}

/** The options of a choice field: the dictionary's when one is named, else the typed-in ones. */
export function fieldOptions(props: Record<string, unknown>, dicts: DictTable): FieldOption[] {
  const dict = str(props.dict);
  if (dict) {
    const items = Object.hasOwn(dicts, dict) && Array.isArray(dicts[dict]?.items) ? dicts[dict]!.items! : [];
    return items.filter((i) => typeof i.value === 'string' || typeof i.value === 'number').map((i) => ({ value: i.value as string | number, label: String(i.label ?? i.value) }));
  }
  const typed = Array.isArray(props.options) ? props.options : [];
  return typed
    .filter(isObject)
    .filter((o) => typeof o.value === 'string')
    .map((o) => ({ value: o.value as string, label: str(o.label) || String(o.value), ...(str(o.parent) ? { parent: str(o.parent) } : {}) }));
}

/** A field of a widget: its kind, the label messages use, its options. Null for a kind that holds no value. */
export function fieldDefOf(widgetName: string, viewProps: unknown, fallbackLabel: string, dicts: DictTable): FieldDef | null {
  const kind = fieldKindOf(widgetName);
  if (!kind) return null;
  const props = isObject(viewProps) ? viewProps : {};
  const def: FieldDef = { kind, label: fieldLabel(props, fallbackLabel), props };
  if (kind === 'select' || kind === 'radio' || kind === 'checkbox') def.options = fieldOptions(props, dicts);
  return def;
}

/** The kinds whose required message is 请选择…; the others (text and number boxes) say 请输入…. */
const CHOOSE: ReadonlySet<FieldKind> = new Set(['select', 'radio', 'checkbox', 'switch', 'date', 'dateRange', 'image']);

/** A sub-table's column kinds, and the field kind whose rules check each cell. */
export const SUB_COLUMN_KINDS = { text: 'input', number: 'number', select: 'select', date: 'date' } as const;
export type SubColumnKind = keyof typeof SUB_COLUMN_KINDS;

/** One column of a sub-table as its view props declare it (formSubTable.widget.json, `columns`). */
export interface SubColumn {
  name: string;
  label: string;
  kind: SubColumnKind;
  /** the cell's rules: the field kind's own props (required, maxLength, minimum, maximum, precision, options) */
  def: FieldDef;
}

/** The columns of a sub-table (a column without a name or of an unknown kind is left out; a name met twice counts once). */
export function subTableColumnsOf(props: Record<string, unknown>): SubColumn[] {
  const list = Array.isArray(props.columns) ? props.columns : [];
  const out: SubColumn[] = [];
  const seen = new Set<string>();
  for (const c of list) {
    if (!isObject(c)) continue;
    const name = str(c.name);
    const kind = str(c.kind) as SubColumnKind;
    if (!name || seen.has(name) || !Object.hasOwn(SUB_COLUMN_KINDS, kind)) continue;
    seen.add(name);
    const label = str(c.label).trim() || name;
    // a number column keeps two decimals unless it says otherwise (a price, a weight)
    const cellProps: Record<string, unknown> = { ...c, label, ...(kind === 'number' && num(c.precision) === undefined ? { precision: 2 } : {}) };
    const def: FieldDef = { kind: SUB_COLUMN_KINDS[kind], label, props: cellProps };
    if (kind === 'select') def.options = fieldOptions(cellProps, {});
    out.push({ name, label, kind, def });
  }
  return out;
}

/**
 * Empty, as a required rule reads it: nothing, '', an empty list, and a date range with neither end chosen
 * (the range picker's cleared value).
 */
export function isEmptyValue(kind: FieldKind, v: unknown): boolean {
  if (blank(v) || (Array.isArray(v) && v.length === 0)) return true;
  return kind === 'dateRange' && Array.isArray(v) && v.every(blank);
}

/** A real calendar date written YYYY-MM-DD. */
export function isDate(v: unknown): v is string {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const [y, m, d] = v.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** Decimal places of a finite number as JavaScript writes it (1.25 → 2, 1e-7 → 7, 3 → 0). */
export function decimalsOf(n: number): number {
  const [mantissa, exp] = Math.abs(n).toString().split('e');
  const frac = (mantissa.split('.')[1] ?? '').length;
  return Math.max(0, frac - Number(exp ?? 0));
}

/** Characters as a reader counts them (code points, so an emoji is one). */
const charCount = (s: string) => [...s].length;

/** The expression a text field is checked with (a preset's, or its own trimmed), or null. */
export function fieldPatternSource(props: Record<string, unknown>): string | null {
  const preset = str(props.patternPreset);
  const source = preset === CUSTOM_PATTERN ? str(props.customPattern).trim() : preset;
  return source || null;
}

/** The message of an empty required field. */
export function requiredMessageOf(def: FieldDef, env: Pick<RuleEnv, 'messages'>): string {
  const own = str(def.props.requiredMessage);
  return own.trim() ? own : fillMessage(env.messages[CHOOSE.has(def.kind) ? 'fieldChoose' : 'fieldRequired'] ?? '', { label: def.label });
}

/** Is the field required? (a switch is always on or off: "required" does not apply) */
export function isRequired(def: FieldDef): boolean {
  return def.props.required === true && def.kind !== 'switch';
}

/** One option value, matched by its text (a dictionary's numbers arrive as digits from a select); undefined when none. */
function optionFor(def: FieldDef, v: unknown): FieldOption | undefined {
  if (typeof v !== 'string' && !(typeof v === 'number' && Number.isFinite(v))) return undefined;
  return (def.options ?? []).find((o) => String(o.value) === String(v));
}

/** A field's value checked: its refusal, null when empty and not required, else what is stored and how it reads. */
export function checkField(def: FieldDef, v: unknown, env: RuleEnv): FieldCheck {
  const p = def.props;
  const label = def.label;
  const t = (key: string, vars: Record<string, string | number>) => fillMessage(env.messages[key] ?? key, vars);
  // a rule's own message wins when it says anything (shown as written)
  const own = (key: string) => (str(p[key]).trim() ? str(p[key]) : '');
  const fault = (message: string) => ({ fault: message });
  const wrongType = () => fault(t('fieldType', { label }));
  if (def.kind === 'switch') {
    if (v === undefined || v === null) return null;
    if (typeof v !== 'boolean') return wrongType();
    return { value: v, text: v ? '是' : '否' };
  }
  if (def.kind === 'subTable') return checkSubTable(def, v, env);
  if (isEmptyValue(def.kind, v)) return isRequired(def) ? fault(requiredMessageOf(def, env)) : null;
  switch (def.kind) {
    case 'input':
    case 'textarea': {
      if (typeof v !== 'string') return wrongType();
      const min = num(p.minLength) ?? 0;
      const max = num(p.maxLength);
      const n = charCount(v);
      if (n < min || (max !== undefined && n > max)) return fault(own('lengthMessage') || t('fieldLength', { label, min, max: max ?? '不限' }));
      const source = def.kind === 'input' ? fieldPatternSource(p) : null;
      const re = source ? env.regExp(source, def) : null;
      if (re && !re.test(v)) return fault(own('patternMessage') || t('fieldPattern', { label }));
      return { value: v, text: v };
    }
    case 'number': {
      if (typeof v !== 'number' || !Number.isFinite(v)) return wrongType();
      const min = num(p.minimum);
      const max = num(p.maximum);
      if ((min !== undefined && v < min) || (max !== undefined && v > max)) {
        const range = own('rangeMessage');
        if (range) return fault(range);
        if (min !== undefined && max !== undefined) return fault(t('fieldRange', { label, min, max }));
        return fault(min !== undefined ? t('fieldMin', { label, min }) : t('fieldMax', { label, max: max! }));
      }
      const precision = num(p.precision) ?? 0;
      if (decimalsOf(v) > precision) return fault(t('fieldPrecision', { label, precision }));
      return { value: v, text: String(v) };
    }
    case 'select':
    case 'radio': {
      if (typeof v !== 'string' && typeof v !== 'number') return wrongType();
      const o = optionFor(def, v);
      return o ? { value: o.value, text: o.label } : fault(t('fieldOption', { label }));
    }
    case 'checkbox': {
      if (!Array.isArray(v)) return wrongType();
      const chosen: FieldOption[] = [];
      for (const item of v) {
        if (typeof item !== 'string' && typeof item !== 'number') return wrongType();
        const o = optionFor(def, item);
        if (!o) return fault(t('fieldOption', { label }));
        if (chosen.includes(o)) return wrongType(); // the same option twice
        chosen.push(o);
      }
      const min = num(p.minItems) ?? 0;
      const max = num(p.maxItems);
      if (chosen.length < min) return fault(t('fieldMinItems', { label, min }));
      if (max !== undefined && chosen.length > max) return fault(t('fieldMaxItems', { label, max }));
      return { value: chosen.map((o) => o.value), text: chosen.map((o) => o.label).join('、') };
    }
    case 'date':
      if (typeof v !== 'string') return wrongType();
      if (!isDate(v)) return fault(t('fieldDate', { label }));
      return { value: v, text: v };
    case 'dateRange': {
      // one end left empty (the picker gives nothing for it) is a date missing, not a wrong type
      if (!Array.isArray(v) || v.length !== 2 || v.some((x) => !blank(x) && typeof x !== 'string')) return wrongType();
      const [a, b] = v as Array<string | null | undefined>;
      if (!isDate(a) || !isDate(b)) return fault(t('fieldDate', { label }));
      if (a > b) return fault(t('fieldDateOrder', { label }));
      return { value: [a, b], text: `${a} ~ ${b}` };
    }
    case 'image': {
      if (!Array.isArray(v)) return wrongType();
      const max = num(p.maxCount) ?? 1;
      if (v.length > max) return fault(t('fieldImages', { label, max }));
      if (v.some((u) => typeof u !== 'string' || !FORM_FILE_URL.test(u)) || new Set(v).size !== v.length) return wrongType();
      return { value: [...v], text: v.join('、') };
    }
  }
}

/**
 * A sub-table's rows: a list of objects keyed by column name, each cell checked by its column's kind rules
 * (the message says which row), at least `minRows` (once any row is given, or always when required) and at
 * most `maxRows` rows. Stored: each row's non-empty cells as checked. Its text: one line per row,
 * `[1] 名称：苹果；数量：3` (the column labels and option labels, as the other fields read).
 */
function checkSubTable(def: FieldDef, v: unknown, env: RuleEnv): FieldCheck {
  const p = def.props;
  const label = def.label;
  const t = (key: string, vars: Record<string, string | number>) => fillMessage(env.messages[key] ?? key, vars);
  if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) return isRequired(def) ? { fault: requiredMessageOf(def, env) } : null;
  if (!Array.isArray(v) || v.some((r) => !isObject(r))) return { fault: t('fieldType', { label }) };
  const min = Math.max(num(p.minRows) ?? 0, isRequired(def) ? 1 : 0);
  const max = num(p.maxRows);
  if (v.length < min) return { fault: t('subTableMinRows', { label, min }) };
  if (max !== undefined && v.length > max) return { fault: t('subTableMaxRows', { label, max }) };
  const cols = subTableColumnsOf(p);
  const byName = new Map(cols.map((c) => [c.name, c]));
  const rows: Array<Record<string, unknown>> = [];
  const lines: string[] = [];
  for (let i = 0; i < v.length; i++) {
    const row = v[i] as Record<string, unknown>;
    const unknown = Object.keys(row).find((k) => !byName.has(k));
    if (unknown !== undefined) return { fault: t('subTableColumn', { label, row: i + 1, column: unknown.length > 40 ? `${unknown.slice(0, 40)}…` : unknown }) };
    const stored: Record<string, unknown> = {};
    const cells: string[] = [];
    for (const c of cols) {
      const got = checkField(c.def, Object.hasOwn(row, c.name) ? row[c.name] : undefined, env);
      if (got && 'fault' in got) return { fault: t('subTableCell', { label, row: i + 1, message: got.fault }) };
      if (!got) continue;
      stored[c.name] = got.value;
      cells.push(`${c.label}：${got.text}`);
    }
    rows.push(stored);
    lines.push(`[${i + 1}] ${cells.join('；')}`);
  }
  return { value: rows, text: lines.join('\n') };
}

/** The refusal of a value, or null when it passes (empty and not required included). */
export function fieldFault(def: FieldDef, v: unknown, env: RuleEnv): string | null {
  const r = checkField(def, v, env);
  return r && 'fault' in r ? r.fault : null;
}
