// A form's fields and the check of a submission against them (issue 11, DESIGN §7 "Forms"): the schema is
// derived from the form's own widgets, kind by kind, and every refusal is the field's own Chinese message
// from the templates the browser builds its Formily rules from (schemas/messages/zh-CN.json, field*), a
// rule's own message winning when set. Pure: no store, no request. The image URLs a submission carries
// are checked here for their shape only; the caller looks them up in file_image (fill.ts).
import { fillMessage as fillTemplate } from '../../../common/template.js';
import { BizError } from '../../core/envelope.js';
import { patternFault } from '../../core/patterns.js';

/** A widget as the validator reads it (a stored or a presented one). */
export interface FormWidget {
  widgetName: string;
  widgetTitle?: string;
  viewProps: Record<string, unknown>;
}

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
} as const;
export type FieldKind = (typeof FIELD_KINDS)[keyof typeof FIELD_KINDS];

/** Keys of a record in the entries list: a field may not take them. */
export const RESERVED_FIELDS = ['id', 'formId', 'createUser', 'createTime', 'createIp'];
export const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;
/** The bucket form uploads are stored in; a submitted image must be one of its recorded files. */
export const FORM_BUCKET = 'form';
export const FORM_FILE_URL = /^\/files\/form\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|jpeg|webp|svg)$/;

/**
 * A name a field may not have: the record's own keys (any case), and the names objects inherit
 * ('__proto__', 'constructor', 'toString'…), which would turn a record's key into its prototype.
 */
export function isReservedField(name: string): boolean {
  const lower = name.toLowerCase();
  return RESERVED_FIELDS.some((r) => r.toLowerCase() === lower) || name in Object.prototype || name === 'prototype';
}

/** The name `widget/add` gives a new field: the kind minus `form`, lower-cased, then the smallest free number. */
export function newFieldName(widgetName: string, taken: Iterable<string>): string {
  const base = widgetName.replace(/^form(?=[A-Z])/, '').toLowerCase().replace(/[^a-z0-9_]/g, '') || 'field';
  const used = new Set(taken);
  let n = 1;
  while (used.has(`${base}_${n}`)) n++;
  return `${base}_${n}`;
}

export interface Option {
  label: string;
  value: string | number;
}

/** One field of a form, as derived from its widget. */
export interface FieldSpec {
  field: string;
  label: string;
  widgetName: string;
  kind: FieldKind;
  props: Record<string, unknown>;
  /** select / radio / checkbox: the allowed values (typed in, or the dictionary's) */
  options?: Option[];
}

export interface ValidationEnv {
  /** schemas/messages/zh-CN.json's messages */
  messages: Record<string, string>;
  /** schemas/dicts by type */
  dicts: Record<string, { items?: Array<{ value: unknown; label?: unknown }> }>;
  /** verdicts on the fields' patterns, judged off the event loop before (core/patterns.ts judgePatterns) */
  verdicts?: ReadonlyMap<string, string | null>;
}

/** What a valid submission stores. */
export interface Submission {
  /** the non-empty values by field, as checked (choice values in their option's own type) */
  data: Record<string, unknown>;
  /** every field's label at submit time */
  labels: Record<string, string>;
  /** every field's widget kind at submit time */
  kinds: Record<string, string>;
  /** each stored value as it reads (option labels, 是/否, 'a ~ b', lists joined with 、) */
  texts: Record<string, string>;
  /** the image URLs the values name (the caller checks they were recorded) */
  images: Array<{ field: string; url: string }>;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** A template with its {placeholders} filled in: the browser's way (common/messages.ts). */
export { fillTemplate };

/** The options of a choice field: the dictionary's when one is named, else the typed-in ones. */
function optionsOf(props: Record<string, unknown>, env: ValidationEnv): Option[] {
  const dict = str(props.dict);
  if (dict) {
    const items = Object.hasOwn(env.dicts, dict) && Array.isArray(env.dicts[dict]?.items) ? env.dicts[dict].items! : [];
    return items.filter((i) => typeof i.value === 'string' || typeof i.value === 'number').map((i) => ({ value: i.value as string | number, label: String(i.label ?? i.value) }));
  }
  const typed = Array.isArray(props.options) ? props.options : [];
  return typed.filter(isObject).filter((o) => typeof o.value === 'string').map((o) => ({ value: o.value as string, label: str(o.label) || String(o.value) }));
}

/**
 * The fields of a form, in the order given (layer order, bottom first): widgets of a field kind with a
 * field name. A name met twice counts once (widget/update refuses that; a stored list is trusted no further).
 */
export function fieldsOf(widgets: FormWidget[], env: ValidationEnv): FieldSpec[] {
  const out: FieldSpec[] = [];
  const seen = new Set<string>();
  for (const w of widgets) {
    if (!Object.hasOwn(FIELD_KINDS, w.widgetName)) continue;
    const kind = FIELD_KINDS[w.widgetName as keyof typeof FIELD_KINDS];
    const props = isObject(w.viewProps) ? w.viewProps : {};
    const field = str(props.field);
    if (!FIELD_NAME.test(field) || isReservedField(field) || seen.has(field)) continue;
    seen.add(field);
    const label = str(props.label).trim() || w.widgetTitle || field;
    const spec: FieldSpec = { field, label, widgetName: w.widgetName, kind, props };
    if (kind === 'select' || kind === 'radio' || kind === 'checkbox') spec.options = optionsOf(props, env);
    out.push(spec);
  }
  return out;
}

/** Empty, as a required rule reads it. */
export const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** A real calendar date written YYYY-MM-DD. */
export function isDate(v: unknown): v is string {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const [y, m, d] = v.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** Decimal places of a finite number as written (1.25 → 2, 1e-7 → 7, 3 → 0). */
export function decimalsOf(n: number): number {
  const [mantissa, exp] = Math.abs(n).toString().split('e');
  const frac = (mantissa.split('.')[1] ?? '').length;
  return Math.max(0, frac - Number(exp ?? 0));
}

/** Characters as a reader counts them (code points, so an emoji is one). */
const charCount = (s: string) => [...s].length;

/** The kinds whose required message is 请选择…; the others (text and number boxes) say 请输入…. */
const CHOOSE: ReadonlySet<FieldKind> = new Set(['select', 'radio', 'checkbox', 'switch', 'date', 'dateRange', 'image']);

/** The own (custom) patterns of some fields' viewProps, trimmed as they run: what judgePatterns() is given first. */
export function customPatternsOf(viewProps: unknown[]): string[] {
  return viewProps
    .map((v) => (v as { customPattern?: unknown } | undefined)?.customPattern)
    .filter((p): p is string => typeof p === 'string')
    .map((p) => p.trim());
}

/** The pattern an input field checks: a preset, or its own (only ever compiled once judged safe). */
function patternOf(f: FieldSpec, verdicts?: ReadonlyMap<string, string | null>): RegExp | null {
  const preset = str(f.props.patternPreset);
  // trimmed, as the browser reads it (widgets/formField/rules.ts)
  const source = preset === 'custom' ? str(f.props.customPattern).trim() : preset;
  if (!source) return null;
  const fault = verdicts?.has(source) ? verdicts.get(source)! : patternFault(source);
  // widget/update refuses such a pattern; one stored before that rule is not run either
  if (fault) throw new BizError(`表单配置有误：部件【${f.label}】的格式校验${fault}`);
  return new RegExp(source);
}

/** One option value, matched by its text (a dictionary's numbers may arrive as digits); undefined when none. */
function optionFor(f: FieldSpec, v: unknown): Option | undefined {
  if (typeof v !== 'string' && !(typeof v === 'number' && Number.isFinite(v))) return undefined;
  return f.options!.find((o) => String(o.value) === String(v));
}

export function formValidator(widgets: FormWidget[], env: ValidationEnv) {
  const fields = fieldsOf(widgets, env);
  const byName = new Map(fields.map((f) => [f.field, f]));
  const t = (key: string, vars: Record<string, string | number>) => fillTemplate(env.messages[key] ?? key, vars);

  /** The checked value of one field (undefined when empty), its display text, or the refusal. */
  function check(f: FieldSpec, v: unknown): { value: unknown; text: string } | undefined {
    const p = f.props;
    const label = f.label;
    // a rule's own message wins when it says anything (sent as written, as the browser shows it)
    const own = (key: string) => (str(p[key]).trim() ? str(p[key]) : '');
    const fail = (message: string): never => {
      throw new BizError(message);
    };
    const wrongType = () => fail(t('fieldType', { label }));
    if (f.kind === 'switch') {
      // a switch is always on or off: "required" does not apply
      if (v === undefined || v === null) return undefined;
      if (typeof v !== 'boolean') wrongType();
      return { value: v, text: v ? '是' : '否' };
    }
    if (isEmpty(v)) {
      if (p.required === true) fail(own('requiredMessage') || t(CHOOSE.has(f.kind) ? 'fieldChoose' : 'fieldRequired', { label }));
      return undefined;
    }
    switch (f.kind) {
      case 'input':
      case 'textarea': {
        if (typeof v !== 'string') return wrongType();
        const min = num(p.minLength) ?? 0;
        const max = num(p.maxLength);
        const n = charCount(v);
        if (n < min || (max !== undefined && n > max)) fail(own('lengthMessage') || t('fieldLength', { label, min, max: max ?? '不限' }));
        const re = patternOf(f, env.verdicts);
        if (re && !re.test(v)) fail(own('patternMessage') || t('fieldPattern', { label }));
        return { value: v, text: v };
      }
      case 'number': {
        if (typeof v !== 'number' || !Number.isFinite(v)) return wrongType();
        const min = num(p.minimum);
        const max = num(p.maximum);
        const range = own('rangeMessage');
        if ((min !== undefined && v < min) || (max !== undefined && v > max)) {
          if (range) fail(range);
          if (min !== undefined && max !== undefined) fail(t('fieldRange', { label, min, max }));
          fail(min !== undefined ? t('fieldMin', { label, min }) : t('fieldMax', { label, max: max! }));
        }
        const precision = num(p.precision) ?? 0;
        if (decimalsOf(v) > precision) fail(t('fieldPrecision', { label, precision }));
        return { value: v, text: String(v) };
      }
      case 'select':
      case 'radio': {
        if (typeof v !== 'string' && typeof v !== 'number') return wrongType();
        const o = optionFor(f, v) ?? fail(t('fieldOption', { label }));
        return { value: o.value, text: o.label };
      }
      case 'checkbox': {
        if (!Array.isArray(v)) return wrongType();
        const chosen: Option[] = [];
        for (const item of v) {
          if (typeof item !== 'string' && typeof item !== 'number') wrongType();
          const o = optionFor(f, item) ?? fail(t('fieldOption', { label }));
          if (chosen.includes(o)) wrongType(); // the same option twice
          chosen.push(o);
        }
        const min = num(p.minItems) ?? 0;
        const max = num(p.maxItems);
        if (chosen.length < min) fail(t('fieldMinItems', { label, min }));
        if (max !== undefined && chosen.length > max) fail(t('fieldMaxItems', { label, max }));
        return { value: chosen.map((o) => o.value), text: chosen.map((o) => o.label).join('、') };
      }
      case 'date':
        if (typeof v !== 'string') return wrongType();
        if (!isDate(v)) fail(t('fieldDate', { label }));
        return { value: v, text: v as string };
      case 'dateRange': {
        if (!Array.isArray(v) || v.length !== 2 || v.some((x) => typeof x !== 'string')) return wrongType();
        const [a, b] = v as string[];
        if (!isDate(a) || !isDate(b)) fail(t('fieldDate', { label }));
        if (a > b) fail(t('fieldDateOrder', { label }));
        return { value: [a, b], text: `${a} ~ ${b}` };
      }
      case 'image': {
        if (!Array.isArray(v)) return wrongType();
        const max = num(p.maxCount) ?? 1;
        if (v.length > max) fail(t('fieldImages', { label, max }));
        if (v.some((u) => typeof u !== 'string' || !FORM_FILE_URL.test(u)) || new Set(v).size !== v.length) wrongType();
        return { value: [...v], text: v.join('、') };
      }
    }
  }

  return {
    fields,
    /** The submission's values checked against the form's fields; BizError with the field's message. */
    validate(values: unknown): Submission {
      if (!isObject(values)) throw new BizError('提交内容格式不正确：values 应为对象');
      for (const key of Object.keys(values)) {
        if (!byName.has(key)) throw new BizError(t('fieldUnknown', { field: key.length > 40 ? `${key.slice(0, 40)}…` : key }));
      }
      const out: Submission = { data: {}, labels: {}, kinds: {}, texts: {}, images: [] };
      for (const f of fields) {
        out.labels[f.field] = f.label;
        out.kinds[f.field] = f.widgetName;
        const got = check(f, Object.hasOwn(values, f.field) ? values[f.field] : undefined);
        if (!got) continue;
        out.data[f.field] = got.value;
        out.texts[f.field] = got.text;
        if (f.kind === 'image') for (const url of got.value as string[]) out.images.push({ field: f.field, url });
      }
      return out;
    },
    /** The refusal of an image the store does not know (the caller looked it up). */
    unknownImage(field: string): BizError {
      return new BizError(t('fieldType', { label: byName.get(field)?.label ?? field }));
    },
  };
}

export type FormValidator = ReturnType<typeof formValidator>;
