import { declaredRuleOf, hasValueRules, isEmptyValue, requiredMessageOf, RULE_KEYS, valueFault, type DeclaredRule } from '../../common/dialog-rules';
import type { DialogDecl, DialogMode, FieldSchema, Row } from './types';

const SELECTS = new Set(['Select', 'DictSelect', 'DictRadio', 'Radio.Group', 'Checkbox.Group', 'DatePicker', 'TreeSelect', 'RemoteSelect', 'RemoteTreeSelect']);

/** `x-options` (options from a call) turns these declared components into the renderer's remote ones. */
const REMOTE: Record<string, string> = { Select: 'RemoteSelect', TreeSelect: 'RemoteTreeSelect', Tree: 'CheckTree' };

/**
 * Turns the declared dialog schema into the Formily schema for one mode:
 * default decorator, dictionary selects, placeholders, fields locked in edit and fields hidden in new
 * (hidden, not removed: their defaults still go into the body).
 * The declaration itself stays untouched (the server validates with it too).
 */
export function formSchemaFor(dialog: DialogDecl, mode: DialogMode, row?: Row): DialogDecl['schema'] {
  const locked = new Set(mode === 'edit' ? (dialog.lockedInEdit ?? []) : []);
  const hidden = new Set(mode === 'new' ? (dialog.hiddenInNew ?? []) : []);
  const reenter = reenterFields(dialog, mode, row);
  const requiredList = Array.isArray(dialog.schema.required) ? (dialog.schema.required as string[]) : [];
  const properties: Record<string, FieldSchema> = {};
  for (const [name, src] of Object.entries(dialog.schema.properties)) {
    const f: FieldSchema = { ...src };
    const props: Record<string, unknown> = { ...(src['x-component-props'] ?? {}) };
    if (f['x-dict']) {
      // dictionary options come from the dictionary service, not the declaration
      if (!f['x-component'] || f['x-component'] === 'Select') f['x-component'] = 'DictSelect';
      else if (f['x-component'] === 'Radio.Group') f['x-component'] = 'DictRadio';
      props.dict = f['x-dict'];
    }
    if (f['x-options']) {
      // the options come from the declared call: the field reads them itself (fields/remoteOptions.ts)
      f['x-component'] = REMOTE[(f['x-component'] as string | undefined) ?? 'Select'] ?? f['x-component'];
      props.source = f['x-options'];
      delete f['x-options'];
    }
    if (!f['x-component']) f['x-component'] = f.enum ? 'Select' : f.type === 'number' || f.type === 'integer' ? 'NumberPicker' : 'Input';
    f['x-decorator'] ??= 'FormItem';
    const comp = f['x-component'] as string;
    if (props.placeholder === undefined && f.title && !/CodeEditor|Switch|Radio|Checkbox|CheckTree/.test(comp)) {
      props.placeholder = `${SELECTS.has(comp) ? '请选择' : '请输入'}${f.title}`;
    }
    if (f.maxLength && props.maxLength === undefined && /Input|Password/.test(comp)) props.maxLength = f.maxLength;
    if (comp === 'NumberPicker' && props.style === undefined) props.style = { width: '100%' };
    f['x-component-props'] = props;
    withSharedRules(f, declaredRuleOf(name, src, requiredList));
    if (reenter.has(name)) {
      // a secret the copy does not carry (reenterInCopy): said under the field, and required with the same words
      const message = dialog.reenterInCopy!.message;
      f.description = message;
      const declared = f['x-validator'];
      const rules = (Array.isArray(declared) ? declared : declared === undefined ? [] : [declared]).filter((r) => !(r && typeof r === 'object' && (r as { required?: unknown }).required));
      f['x-validator'] = [{ required: true, message }, ...rules];
      // once the same words stand under the field as its error, the hint steps aside (not said twice)
      const declaredReactions = f['x-reactions'];
      const hintAside = (field: { selfErrors: unknown[]; description?: unknown }) => {
        field.description = field.selfErrors.length ? undefined : message;
      };
      f['x-reactions'] = [...(Array.isArray(declaredReactions) ? declaredReactions : declaredReactions === undefined ? [] : [declaredReactions]), hintAside];
    }
    if (locked.has(name)) f['x-disabled'] = true;
    if (hidden.has(name)) f['x-display'] = 'hidden';
    // Formily takes enum as a list of options; keep the JSON-Schema enum otherwise untouched
    properties[name] = f;
  }
  return { ...dialog.schema, type: 'object', properties };
}

/** JSON-Schema keywords Formily would turn into rules of its own wording; the shared rules check them instead. */
const RULE_KEYWORDS = ['maxLength', 'minLength', 'pattern', 'format', 'minimum', 'maximum'];

/** A compiled declared pattern (the server refuses to save a page whose pattern is not safe). */
const patterns = new Map<string, RegExp>();
function regExp(source: string): RegExp {
  if (!patterns.has(source)) patterns.set(source, new RegExp(source));
  return patterns.get(source)!;
}

/**
 * A field's validators: the rules the server checks the body with (common/dialog-rules.ts), so the dialog says
 * what the server would — required with its message (and Formily's asterisk), then one validator for the rest.
 * Declared Formily validators these rules do not read (an expression, enum, len…) stay as declared.
 */
function withSharedRules(f: FieldSchema, rule: DeclaredRule): void {
  for (const k of RULE_KEYWORDS) delete f[k];
  const declared = f['x-validator'];
  const own = (Array.isArray(declared) ? declared : declared == null ? [] : [declared]).flatMap((v): unknown[] => {
    if (typeof v === 'string') return []; // a format name: a shared rule
    if (!v || typeof v !== 'object') return [v]; // a function: the browser's own
    const rest = Object.fromEntries(Object.entries(v).filter(([k]) => !RULE_KEYS.includes(k)));
    return Object.keys(rest).length ? [{ ...rest, ...('message' in v ? { message: (v as { message?: unknown }).message } : {}) }] : [];
  });
  const rules: unknown[] = [];
  if (rule.required) rules.push({ required: true, message: requiredMessageOf(rule) });
  if (hasValueRules(rule)) rules.push({ validator: (v: unknown) => (isEmptyValue(v) ? '' : (valueFault(rule, v, { regExp }) ?? '')) });
  rules.push(...own);
  if (rules.length) f['x-validator'] = rules;
  else delete f['x-validator'];
}

/** Initial form values for a mode (spec §4: copy clears the id; new starts from the defaults). */
export function initialValuesFor(dialog: DialogDecl, mode: DialogMode, row: Row | undefined, rowKey: string, preset?: Row): Row {
  if (mode === 'new' || !row) return { ...(dialog.defaults ?? {}), ...(preset ?? {}) };
  const values: Row = { ...row };
  if (mode === 'copy') {
    delete values[rowKey];
    for (const f of [...(dialog.clearInCopy ?? []), ...(dialog.reenterInCopy?.fields ?? [])]) delete values[f];
  }
  // only declared fields (plus the key in edit) go into the form, so the body stays what the server validates
  const out: Row = {};
  for (const k of Object.keys(dialog.schema.properties)) if (k in values) out[k] = values[k];
  if (mode === 'edit' && rowKey in values) out[rowKey] = values[rowKey];
  return out;
}

/**
 * The secret fields a copy must have typed again (dialog.reenterInCopy): those the copied record had a value for
 * (a masked ****** counts). A record without one (an anonymous FTP account, a SQLite file) asks for nothing.
 */
export function reenterFields(dialog: DialogDecl, mode: DialogMode, row: Row | undefined): Set<string> {
  if (mode !== 'copy' || !dialog.reenterInCopy) return new Set();
  return new Set(dialog.reenterInCopy.fields.filter((f) => row === undefined || (row[f] !== undefined && row[f] !== null && row[f] !== '')));
}

export function dialogTitle(dialog: DialogDecl, mode: DialogMode, pageTitle: string): string {
  const fallback = { new: `新增${pageTitle}`, copy: `复制${pageTitle}`, edit: `修改${pageTitle}` }[mode];
  return dialog.titles?.[mode] ?? fallback;
}
