// A form's fields and the check of a submission against them (issue 11, DESIGN §7 "Forms"): the fields are
// derived from the form's own widgets, and each value is checked by the rules the browser's Formily form runs
// too (common/fields.ts: one copy, the field* message templates, a rule's own message winning when set).
// What is the server's own: unknown keys refused, field names checked, a field's own pattern compiled only
// once judged safe (verdicts from core/patterns.ts, judged off the event loop), and the image URLs a
// submission carries handed to the caller, who looks them up in file_image (fill.ts). Pure: no store, no request.
import { checkField, fieldDefOf, type DictTable, type FieldDef, type FieldOption } from '../../../common/fields.js';
import { evaluateLogic } from '../../../common/formLogic.js';
import { fillMessage as fillTemplate } from '../../../common/template.js';
import { BizError } from '../../core/envelope.js';
import { patternFault } from '../../core/patterns.js';

export { decimalsOf, FIELD_KINDS, FORM_FILE_URL, isDate, type FieldKind } from '../../../common/fields.js';

/** A widget as the validator reads it (a stored or a presented one). */
export interface FormWidget {
  widgetName: string;
  widgetTitle?: string;
  viewProps: Record<string, unknown>;
}

/** Keys of a record in the entries list: a field may not take them. */
export const RESERVED_FIELDS = ['id', 'formId', 'createUser', 'createTime', 'createIp'];
export const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;
/** The bucket form uploads are stored in; a submitted image must be one of its recorded files. */
export const FORM_BUCKET = 'form';

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

export type Option = FieldOption;

/** One field of a form, as derived from its widget (select / radio / checkbox carry their allowed values). */
export interface FieldSpec extends FieldDef {
  field: string;
  widgetName: string;
}

export interface ValidationEnv {
  /** schemas/messages/zh-CN.json's messages */
  messages: Record<string, string>;
  /** the dictionaries by type as the store holds them (app.dicts.current()) */
  dicts: DictTable;
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

/** A template with its {placeholders} filled in: the browser's way (common/template.ts). */
export { fillTemplate };

/**
 * The fields of a form, in the order given (layer order, bottom first): widgets of a field kind with a
 * field name. A name met twice counts once (widget/update refuses that; a stored list is trusted no further).
 */
export function fieldsOf(widgets: FormWidget[], env: ValidationEnv): FieldSpec[] {
  const out: FieldSpec[] = [];
  const seen = new Set<string>();
  for (const w of widgets) {
    const props = isObject(w.viewProps) ? w.viewProps : {};
    const field = str(props.field);
    const def = fieldDefOf(w.widgetName, props, w.widgetTitle || field, env.dicts);
    if (!def || !FIELD_NAME.test(field) || isReservedField(field) || seen.has(field)) continue;
    seen.add(field);
    out.push({ ...def, field, widgetName: w.widgetName });
  }
  return out;
}

/** The own (custom) patterns of some fields' viewProps, trimmed as they run: what judgePatterns() is given first. */
export function customPatternsOf(viewProps: unknown[]): string[] {
  return viewProps
    .map((v) => (v as { customPattern?: unknown } | undefined)?.customPattern)
    .filter((p): p is string => typeof p === 'string')
    .map((p) => p.trim());
}

/**
 * How the server compiles a text field's pattern: a preset, or its own only once judged safe (the verdicts
 * judged off the event loop before, else the cached or blocking check). One judged unsafe is refused:
 * widget/update refuses such a pattern, and one stored before that rule is not run either.
 */
function judgedRegExp(verdicts?: ReadonlyMap<string, string | null>) {
  return (source: string, f: FieldDef): RegExp => {
    const fault = verdicts?.has(source) ? verdicts.get(source)! : patternFault(source);
    if (fault) throw new BizError(`表单配置有误：部件【${f.label}】的格式校验${fault}`);
    return new RegExp(source);
  };
}

export function formValidator(widgets: FormWidget[], env: ValidationEnv) {
  const fields = fieldsOf(widgets, env);
  const byName = new Map(fields.map((f) => [f.field, f]));
  const t = (key: string, vars: Record<string, string | number>) => fillTemplate(env.messages[key] ?? key, vars);

  const rules = { messages: env.messages, regExp: judgedRegExp(env.verdicts) };

  /** The checked value of one field (undefined when empty) and its display text; BizError with its refusal. */
  function check(f: FieldSpec, v: unknown): { value: unknown; text: string } | undefined {
    const got = checkField(f, v, rules);
    if (got && 'fault' in got) throw new BizError(got.fault);
    return got ?? undefined;
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
      // the form's logic (common/formLogic.ts, the browser's own): a hidden field's value is dropped and never
      // required, a shown one is required as its rules say, a cascade offers only its parent value's options
      const logic = evaluateLogic(fields, values);
      for (const f of fields) {
        out.labels[f.field] = f.label;
        out.kinds[f.field] = f.widgetName;
        const state = logic.states[f.field];
        if (!state.visible) continue;
        const def: FieldSpec = { ...f, props: { ...f.props, required: state.required }, ...(state.options ? { options: state.options } : {}) };
        const got = check(def, Object.hasOwn(logic.values, f.field) ? logic.values[f.field] : undefined);
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
