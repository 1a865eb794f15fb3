import { declaredRuleOf, hasValueRules, isEmptyValue, requiredMessageOf, RULE_KEYS, valueFault, type DeclaredRule } from '../../common/dialog-rules';
import type { DialogDecl, DialogMode, FieldSchema, Row } from './types';

const SELECTS = new Set(['Select', 'DictSelect', 'DictRadio', 'Radio.Group', 'Checkbox.Group', 'DatePicker', 'TreeSelect', 'RemoteSelect', 'RemoteTreeSelect', 'RelationSelect']);

/** `x-options` (options from a call) turns these declared components into the renderer's remote ones. */
const REMOTE: Record<string, string> = { Select: 'RemoteSelect', TreeSelect: 'RemoteTreeSelect', Tree: 'CheckTree' };

/**
 * Turns the declared dialog schema into the Formily schema for one mode:
 * default decorator, dictionary selects, placeholders, fields locked in edit and fields hidden in new
 * (hidden, not removed: their defaults still go into the body).
 * The declaration itself stays untouched (the server validates with it too).
 */
export function formSchemaFor(dialog: DialogDecl, mode: DialogMode, row?: Row, links: DialogCalls = {}): DialogDecl['schema'] {
  const locked = new Set(mode === 'edit' ? (dialog.lockedInEdit ?? []) : []);
  const hidden = new Set(mode === 'new' ? (dialog.hiddenInNew ?? []) : []);
  const reenter = reenterFields(dialog, mode, row);
  const requiredList = Array.isArray(dialog.schema.required) ? (dialog.schema.required as string[]) : [];
  const properties: Record<string, FieldSchema> = {};
  for (const [name, src] of Object.entries(dialog.schema.properties)) {
    const f = fieldSchemaOf(name, src, requiredList, links);
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
  // master–detail: each detail an editable table of its lines (Formily's ArrayTable), its cells checked by the same rules
  for (const d of dialog.details ?? []) properties[d.name] = detailTableOf(d, links);
  return { ...dialog.schema, type: 'object', properties };
}

/** The calls a dialog's fields may read: the page's related-record options (RelationSelect). */
export interface DialogCalls {
  options?: string;
}

/**
 * One declared field as the form renders it: dictionary selects, remote options, the component from the type,
 * placeholders, lengths, and the shared rules (the server's). A related record's select gets the page's call.
 */
function fieldSchemaOf(name: string, src: FieldSchema, requiredList: string[], links: DialogCalls): FieldSchema {
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
  if (f['x-explain']) {
    // the value is explained by the declared call as it is typed (fields/ExplainedInput.tsx)
    f['x-component'] = 'ExplainedInput';
    props.explain = f['x-explain'];
    delete f['x-explain'];
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
  if (comp === 'RelationSelect' && links.options) f['x-component-props'] = { ...props, call: links.options };
  return f;
}

/**
 * A settings page's section (runtime/crud/SettingsPage.tsx): each field as a dialog's field, nested objects kept as
 * objects (their paths are the value's paths: ldap.url).
 */
export function settingsSchemaFor(schema: { type: 'object'; properties: Record<string, FieldSchema>; required?: unknown }): FieldSchema {
  const requiredList = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const properties: Record<string, FieldSchema> = {};
  for (const [name, src] of Object.entries(schema.properties)) {
    properties[name] = src.type === 'object' && src.properties ? settingsSchemaFor(src as Parameters<typeof settingsSchemaFor>[0]) : fieldSchemaOf(name, src, requiredList, {});
  }
  return { type: 'object', properties };
}

type DetailDecl = NonNullable<DialogDecl['details']>[number];

const hasRequired = (f: FieldSchema) => (Array.isArray(f['x-validator']) ? f['x-validator'] : []).some((r) => !!r && typeof r === 'object' && (r as { required?: unknown }).required === true);

/** A detail's lines as an editable table: a column per declared field, 删除 per line, 添加一行 below. */
function detailTableOf(d: DetailDecl, links: DialogCalls): FieldSchema {
  const fields = (d.schema.properties ?? {}) as Record<string, FieldSchema>;
  const declaredRequired = (d.schema as { required?: unknown }).required;
  const requiredList = Array.isArray(declaredRequired) ? (declaredRequired as string[]) : [];
  const columns: Record<string, FieldSchema> = {};
  for (const [name, src] of Object.entries(fields)) {
    const f = fieldSchemaOf(name, src, requiredList, links);
    const props = { ...(f['x-component-props'] as Record<string, unknown>) };
    delete props.placeholder;
    columns[`column_${name}`] = {
      type: 'void',
      'x-component': 'ArrayTable.Column',
      'x-component-props': { title: `${requiredList.includes(name) || hasRequired(f) ? '* ' : ''}${src.title ?? name}`, width: f['x-component'] === 'NumberPicker' ? 120 : 160 },
      // the column's header names the cell: no label beside each input; the message pops over the cell
      properties: { [name]: { ...f, title: undefined, 'x-component-props': { ...props, placeholder: String(src.title ?? name) }, 'x-decorator-props': { feedbackLayout: 'popover' } } },
    };
  }
  columns.column_ops = {
    type: 'void',
    'x-component': 'ArrayTable.Column',
    'x-component-props': { title: '操作', width: 64, align: 'center' },
    properties: { remove: { type: 'void', 'x-component': 'ArrayTable.Remove' } },
  };
  return {
    type: 'array',
    title: d.title,
    'x-decorator': 'FormItem',
    'x-decorator-props': { labelCol: 24, wrapperCol: 24, layout: 'vertical' },
    'x-component': 'ArrayTable',
    // every line at once (a detail holds at most maxRows), scrolling inside the dialog past a dozen
    'x-component-props': { pagination: false, scroll: { x: 'max-content', y: 420 }, size: 'small', 'data-testid': `detail-${d.name}` },
    items: { type: 'object', properties: columns },
    properties: { add: { type: 'void', title: '添加一行', 'x-component': 'ArrayTable.Addition' } },
  };
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
  if (mode === 'new' || !row) return { ...Object.fromEntries((dialog.details ?? []).map((d) => [d.name, []])), ...(dialog.defaults ?? {}), ...(preset ?? {}) };
  const values: Row = { ...row };
  if (mode === 'copy') {
    delete values[rowKey];
    for (const f of [...(dialog.clearInCopy ?? []), ...(dialog.reenterInCopy?.fields ?? [])]) delete values[f];
  }
  // only declared fields (plus the key in edit) go into the form, so the body stays what the server validates
  const out: Row = {};
  for (const k of Object.keys(dialog.schema.properties)) if (k in values) out[k] = values[k];
  // a detail's lines: with their keys in edit (updated, not added again), without them in a copy (new lines)
  for (const d of dialog.details ?? []) {
    const lines = Array.isArray(values[d.name]) ? (values[d.name] as Row[]) : [];
    out[d.name] = mode === 'copy' ? lines.map(({ [d.key]: _key, ...rest }) => rest) : lines;
  }
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
