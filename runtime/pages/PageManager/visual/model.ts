// What the visual page editor reads from and writes into a page declaration (issue 24 item 2). Every edit is a
// pure function from one declaration to the next, on a copy, keeping every key it does not edit (and the order of
// keys), so the JSON tab shows the same declaration with only the edited values changed.
import { declaredRuleOf, RULE_KEYS } from '../../../../common/dialog-rules';
import type { ActionDecl, ColumnDecl, FieldSchema, PageDeclaration } from '../../../crud';

export type Decl = PageDeclaration;
type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const blankToUndef = (v: unknown) => (v === '' || v === null ? undefined : v);

/** Sets or (for undefined / '' / false where asked) removes a key, keeping the others where they are. */
function put(o: Obj, key: string, value: unknown, dropFalse = false) {
  const v = blankToUndef(value);
  if (v === undefined || (dropFalse && v === false)) delete o[key];
  else o[key] = v;
}

/** A page on an external table (another part of issue 24 adds `source`): its field names are the table's. */
export const hasSource = (d: Decl) => isObj((d as Obj).source);

export function fieldsOf(d: Decl): Record<string, FieldSchema> {
  return (d.dialog?.schema?.properties ?? {}) as Record<string, FieldSchema>;
}
export const fieldTitle = (d: Decl, name: string) => {
  const t = fieldsOf(d)[name]?.title;
  return typeof t === 'string' && t ? t : name;
};

// ---- columns ----------------------------------------------------------------------------------------------

/** One row of the columns panel: a declared column, or a dialog field that has no column (hidden). */
export interface ColumnRow { key: string; index: number | null; field?: string; column: ColumnDecl | null; label: string }

export const SPECIAL_COLUMNS: Record<'index' | 'actions', ColumnDecl> = {
  index: { title: '序号', type: 'index', width: 60 },
  actions: { title: '操作', type: 'actions', width: 160 },
};

export function columnLabel(c: ColumnDecl, i: number): string {
  return c.title || c.field || (c.type === 'index' ? '序号' : c.type === 'actions' ? '操作' : `第 ${i + 1} 列`);
}

export function columnRows(d: Decl): ColumnRow[] {
  const rows: ColumnRow[] = d.columns.map((c, i) => ({ key: c.field ? `f:${c.field}` : `c:${c.type ?? 'text'}:${i}`, index: i, field: c.field, column: c, label: columnLabel(c, i) }));
  const shown = new Set(d.columns.map((c) => c.field).filter(Boolean));
  for (const name of Object.keys(fieldsOf(d))) {
    if (!shown.has(name)) rows.push({ key: `f:${name}`, index: null, field: name, column: null, label: fieldTitle(d, name) });
  }
  for (const t of ['index', 'actions'] as const) {
    if (!d.columns.some((c) => c.type === t)) rows.push({ key: `c:${t}`, index: null, column: null, label: SPECIAL_COLUMNS[t].title });
  }
  return rows;
}

/** Shows a hidden row: a field's column goes before the actions column, 序号 first, 操作 last. */
export function showColumn(d: Decl, row: ColumnRow): Decl {
  const next = clone(d);
  if (row.index !== null) return next;
  if (row.field) {
    const col: ColumnDecl = { title: fieldTitle(d, row.field), field: row.field };
    const at = next.columns.findIndex((c) => c.type === 'actions');
    next.columns.splice(at < 0 ? next.columns.length : at, 0, col);
  } else if (row.key === 'c:index') next.columns.unshift(clone(SPECIAL_COLUMNS.index));
  else next.columns.push(clone(SPECIAL_COLUMNS.actions));
  return next;
}

/** Hides a column: it leaves the declaration (a field's column stays offered, as hidden, from the dialog fields). */
export function hideColumn(d: Decl, index: number): Decl {
  const next = clone(d);
  next.columns.splice(index, 1);
  return next;
}

export function moveItem<T>(list: T[], from: number, to: number): T[] {
  const out = [...list];
  const [item] = out.splice(from, 1);
  out.splice(Math.max(0, Math.min(to, out.length)), 0, item);
  return out;
}

export function moveColumn(d: Decl, from: number, to: number): Decl {
  const next = clone(d);
  next.columns = moveItem(next.columns, from, to);
  return next;
}

/** The keys the column panel edits (schemas/page-editor/column.panel.json). */
export const COLUMN_KEYS = ['title', 'width', 'format', 'dict', 'fixed', 'sortable', 'ellipsis'] as const;

export function updateColumn(d: Decl, index: number, values: Partial<ColumnDecl>): Decl {
  const next = clone(d);
  const c = next.columns[index] as Obj;
  for (const k of COLUMN_KEYS) if (k in values) put(c, k, (values as Obj)[k], k === 'sortable' || k === 'ellipsis');
  if (c.title === undefined) c.title = '';
  return next;
}

// ---- search -------------------------------------------------------------------------------------------------

export function searchable(d: Decl): string[] {
  const names = new Set([...Object.keys(fieldsOf(d)), ...d.columns.map((c) => c.field).filter((f): f is string => !!f && !['index', 'actions', 'selection'].includes(f))]);
  return [...names];
}

export function updateSearch(d: Decl, values: { fields?: string[]; placeholder?: string; maxLength?: number }): Decl {
  const next = clone(d);
  const s: Obj = { ...(next.search ?? {}) };
  if ('fields' in values) put(s, 'fields', values.fields?.length ? values.fields : undefined);
  if ('placeholder' in values) put(s, 'placeholder', values.placeholder);
  if ('maxLength' in values) put(s, 'maxLength', values.maxLength);
  if (Object.keys(s).length) next.search = s;
  else delete next.search;
  return next;
}

// ---- dialog fields -------------------------------------------------------------------------------------------

export type FieldKind = 'text' | 'textarea' | 'number' | 'integer' | 'select' | 'radio' | 'switch' | 'date' | 'datetime' | 'password' | 'custom';

export function kindOf(p: FieldSchema): FieldKind {
  const comp = p['x-component'] as string | undefined;
  const cp = isObj(p['x-component-props']) ? p['x-component-props'] : {};
  if (comp === 'Switch') return 'switch';
  if (comp === 'Input.TextArea') return 'textarea';
  if (comp === 'Password') return 'password';
  if (comp === 'DatePicker') return cp.showTime ? 'datetime' : 'date';
  if (p['x-dict'] && comp === 'Radio.Group') return 'radio';
  if (p['x-dict'] && (!comp || comp === 'Select')) return 'select';
  if (p['x-options'] || p.enum) return 'custom';
  if (!comp || comp === 'Input' || comp === 'NumberPicker') {
    if (p.type === 'integer') return 'integer';
    if (p.type === 'number') return 'number';
    if (p.type === 'boolean') return 'switch';
    if (p.type === 'string' || p.type === undefined) return comp === 'NumberPicker' ? 'number' : 'text';
  }
  return 'custom';
}

const TEXT_KINDS: FieldKind[] = ['text', 'textarea', 'password'];
const NUMBER_KINDS: FieldKind[] = ['number', 'integer'];

/** The flat form of one field the field panel edits (schemas/page-editor/field.panel.json). */
export interface FieldForm {
  name: string;
  kind: FieldKind;
  title?: string;
  dict?: string;
  placeholder?: string;
  required?: boolean;
  requiredMessage?: string;
  maxLength?: number;
  maxLengthMessage?: string;
  minimum?: number;
  minimumMessage?: string;
  maximum?: number;
  maximumMessage?: string;
  pattern?: string;
  patternMessage?: string;
  default?: string;
  lockedInEdit?: boolean;
}

export function readField(d: Decl, name: string): FieldForm {
  const p = fieldsOf(d)[name] ?? {};
  const requiredList = Array.isArray(d.dialog?.schema?.required) ? (d.dialog!.schema.required as string[]) : [];
  const r = declaredRuleOf(name, p, requiredList);
  const cp = isObj(p['x-component-props']) ? p['x-component-props'] : {};
  const def = d.dialog?.defaults?.[name];
  return {
    name,
    kind: kindOf(p),
    title: typeof p.title === 'string' ? p.title : undefined,
    dict: typeof p['x-dict'] === 'string' ? p['x-dict'] : undefined,
    placeholder: typeof cp.placeholder === 'string' ? cp.placeholder : undefined,
    required: r.required,
    requiredMessage: r.requiredMessage,
    maxLength: r.maxLength?.limit,
    maxLengthMessage: r.maxLength?.message,
    minimum: r.minimum,
    minimumMessage: r.minimumMessage,
    maximum: r.maximum,
    maximumMessage: r.maximumMessage,
    pattern: r.patterns[0]?.source,
    patternMessage: r.patterns[0]?.message,
    default: def === undefined || def === null ? undefined : String(def),
    lockedInEdit: (d.dialog?.lockedInEdit ?? []).includes(name),
  };
}

/** What a kind declares: the value type and the component (the rest of the field is kept). */
const KIND_SHAPE: Record<Exclude<FieldKind, 'custom'>, { type: string; component?: string; showTime?: boolean }> = {
  text: { type: 'string' },
  textarea: { type: 'string', component: 'Input.TextArea' },
  number: { type: 'number' },
  integer: { type: 'integer' },
  select: { type: 'string', component: 'Select' },
  radio: { type: 'string', component: 'Radio.Group' },
  switch: { type: 'boolean', component: 'Switch' },
  date: { type: 'string', component: 'DatePicker' },
  datetime: { type: 'string', component: 'DatePicker', showTime: true },
  password: { type: 'string', component: 'Password' },
};

/** A dictionary's value type: integer when every value is an integer (status 0 / 1), else text. */
export function dictValueType(items: { value: unknown }[] | undefined): 'integer' | 'string' {
  return items?.length && items.every((i) => Number.isInteger(i.value)) ? 'integer' : 'string';
}

/** A default value typed the way the field's kind stores it. */
export function typedDefault(kind: FieldKind, type: unknown, text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  if (kind === 'switch') return text === 'true' || text === '1' || text === '是';
  if (type === 'integer' || type === 'number') {
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  return text;
}

// x-validator keys the field panel owns (rebuilt from the form); entries with other keys too are kept as written
const MANAGED = new Set(['required', 'maxLength', 'max', 'minimum', 'maximum', 'pattern', 'message']);

export function writeField(d: Decl, name: string, f: FieldForm, dicts: Record<string, { value: unknown }[]> = {}): Decl {
  let next = clone(d);
  if (f.name !== name && f.name) next = renameField(next, name, f.name);
  const key = f.name || name;
  const dialog = next.dialog!;
  const props = dialog.schema.properties as Record<string, Obj>;
  const p: Obj = props[key];
  const oldKind = kindOf(p);
  const kind = f.kind;
  // the kind: type and component (a custom field keeps what the JSON says)
  if (kind !== 'custom' && kind !== oldKind) {
    const shape = KIND_SHAPE[kind];
    p.type = shape.type;
    if (shape.component) p['x-component'] = shape.component;
    else delete p['x-component'];
    const cp: Obj = isObj(p['x-component-props']) ? { ...p['x-component-props'] } : {};
    if (shape.showTime) cp.showTime = true;
    else delete cp.showTime;
    if (kind !== 'textarea') delete cp.rows;
    p['x-component-props'] = cp;
  }
  if (kind === 'select' || kind === 'radio') {
    // a newly chosen dictionary (or kind) decides the value type: integer for status 0 / 1, else text
    const fresh = f.dict !== p['x-dict'] || kind !== oldKind;
    put(p, 'x-dict', f.dict);
    if (f.dict && fresh && dicts[f.dict]) p.type = dictValueType(dicts[f.dict]);
  } else if (kind !== 'custom') delete p['x-dict'];
  put(p, 'title', f.title);
  // placeholder lives in the component's props
  const cp: Obj = isObj(p['x-component-props']) ? { ...p['x-component-props'] } : {};
  put(cp, 'placeholder', f.placeholder);
  if (Object.keys(cp).length) p['x-component-props'] = cp;
  else delete p['x-component-props'];
  // rules: JSON-Schema keywords where Formily and the inputs read them, messages as x-validator entries
  const numeric = p.type === 'number' || p.type === 'integer';
  const textual = TEXT_KINDS.includes(kind) || (kind === 'custom' && p.type === 'string');
  const numberKind = NUMBER_KINDS.includes(kind) || (kind === 'custom' && numeric);
  const before = declaredRuleOf(key, p);
  const kept = (Array.isArray(p['x-validator']) ? p['x-validator'] : p['x-validator'] === undefined ? [] : [p['x-validator']]).filter((v: unknown) => {
    if (!isObj(v)) return true;
    const keys = Object.keys(v).filter((k) => !(k === 'min' && !numeric));
    return !(keys.every((k) => MANAGED.has(k) || !RULE_KEYS.includes(k)) && keys.some((k) => MANAGED.has(k) && k !== 'message'));
  });
  for (const k of ['maxLength', 'minimum', 'maximum', 'pattern', 'required']) delete p[k];
  if (isObj(p['x-component-props'])) {
    delete p['x-component-props'].min;
    delete p['x-component-props'].max;
    if (!Object.keys(p['x-component-props']).length) delete p['x-component-props'];
  }
  const rules: Obj[] = [];
  if (f.required) rules.push(f.requiredMessage ? { required: true, message: f.requiredMessage } : { required: true });
  if (textual && f.maxLength !== undefined) {
    p.maxLength = f.maxLength;
    if (f.maxLengthMessage) rules.push({ maxLength: f.maxLength, message: f.maxLengthMessage });
  }
  if (numberKind && f.minimum !== undefined) {
    p.minimum = f.minimum;
    if (f.minimumMessage) rules.push({ minimum: f.minimum, message: f.minimumMessage });
  }
  if (numberKind && f.maximum !== undefined) {
    p.maximum = f.maximum;
    if (f.maximumMessage) rules.push({ maximum: f.maximum, message: f.maximumMessage });
  }
  if (textual && f.pattern) rules.push(f.patternMessage ? { pattern: f.pattern, message: f.patternMessage } : { pattern: f.pattern });
  if (textual) for (const extra of before.patterns.slice(1)) rules.push(extra.message ? { pattern: extra.source, message: extra.message } : { pattern: extra.source });
  const all = [...rules, ...kept];
  if (all.length) p['x-validator'] = all;
  else delete p['x-validator'];
  // a required listed in the schema's own list goes with the form's choice
  if (Array.isArray(dialog.schema.required)) {
    const list = (dialog.schema.required as string[]).filter((n) => n !== key);
    if (list.length) dialog.schema.required = list;
    else delete dialog.schema.required;
  }
  // default and read-only in edit belong to the dialog
  const defaults: Obj = { ...(dialog.defaults ?? {}) };
  put(defaults, key, typedDefault(kind, p.type, f.default));
  if (Object.keys(defaults).length) dialog.defaults = defaults;
  else delete dialog.defaults;
  const locked = (dialog.lockedInEdit ?? []).filter((n) => n !== key);
  if (f.lockedInEdit) locked.push(key);
  if (locked.length) dialog.lockedInEdit = locked;
  else delete dialog.lockedInEdit;
  return next;
}

const renameIn = (list: string[] | undefined, from: string, to: string) => list?.map((n) => (n === from ? to : n));

/** Renames a field everywhere the declaration names it: the dialog, its lists and defaults, columns, search. */
export function renameField(d: Decl, from: string, to: string): Decl {
  const next = clone(d);
  const dialog = next.dialog!;
  dialog.schema.properties = Object.fromEntries(Object.entries(dialog.schema.properties).map(([k, v]) => [k === from ? to : k, v]));
  if (Array.isArray(dialog.schema.required)) dialog.schema.required = renameIn(dialog.schema.required as string[], from, to);
  for (const k of ['lockedInEdit', 'hiddenInNew', 'clearInCopy'] as const) if (dialog[k]) dialog[k] = renameIn(dialog[k], from, to);
  if (dialog.defaults && from in dialog.defaults) dialog.defaults = Object.fromEntries(Object.entries(dialog.defaults).map(([k, v]) => [k === from ? to : k, v]));
  for (const c of next.columns) if (c.field === from) c.field = to;
  if (next.search?.fields) next.search.fields = renameIn(next.search.fields, from, to);
  if (next.nameField === from) next.nameField = to;
  return next;
}

/** A new text field with a free name (字段1, field1…), at the end of the dialog; a page without a dialog gets one. */
export function addField(d: Decl): { decl: Decl; name: string } {
  const next = clone(d);
  next.dialog ??= { schema: { type: 'object', properties: {} } };
  const props = next.dialog.schema.properties;
  let n = Object.keys(props).length + 1;
  while (`field${n}` in props) n++;
  const name = `field${n}`;
  props[name] = { type: 'string', title: `字段${n}`, maxLength: 50 };
  return { decl: next, name };
}

/** Removes a field and every mention of it (its column too). */
export function removeField(d: Decl, name: string): Decl {
  const next = clone(d);
  const dialog = next.dialog!;
  delete dialog.schema.properties[name];
  if (Array.isArray(dialog.schema.required)) dialog.schema.required = (dialog.schema.required as string[]).filter((n) => n !== name);
  for (const k of ['lockedInEdit', 'hiddenInNew', 'clearInCopy'] as const) if (dialog[k]) dialog[k] = dialog[k]!.filter((n) => n !== name);
  if (dialog.defaults) delete dialog.defaults[name];
  next.columns = next.columns.filter((c) => c.field !== name);
  if (next.search?.fields) next.search.fields = next.search.fields.filter((n) => n !== name);
  return next;
}

export function moveField(d: Decl, from: number, to: number): Decl {
  const next = clone(d);
  const entries = moveItem(Object.entries(next.dialog!.schema.properties), from, to);
  next.dialog!.schema.properties = Object.fromEntries(entries);
  return next;
}

// ---- buttons -------------------------------------------------------------------------------------------------

export type ActionList = 'toolbar' | 'rowActions';
export const LIST_NAME: Record<ActionList, string> = { toolbar: '工具栏按钮', rowActions: '行按钮' };
export const ACTION_KEYS = ['action', 'label', 'confirm', 'danger'] as const;

export function updateAction(d: Decl, list: ActionList, index: number, values: Partial<ActionDecl>): Decl {
  const next = clone(d);
  const a = next[list]![index] as Obj;
  for (const k of ACTION_KEYS) if (k in values) put(a, k, (values as Obj)[k], k === 'danger');
  if (!a.action) a.action = 'add';
  return next;
}

export function addAction(d: Decl, list: ActionList): Decl {
  const next = clone(d);
  const own = next[list] ?? [];
  const taken = new Set(own.map((a) => a.action));
  const choice: ActionDecl = list === 'toolbar'
    ? taken.has('add') ? { action: 'import', label: '导入' } : { action: 'add', label: '新增' }
    : !taken.has('edit') ? { action: 'edit', label: '编辑' } : !taken.has('copy') ? { action: 'copy', label: '复制' } : { action: 'delete', label: '删除', confirm: '确定要删除【{{name}}】吗？' };
  next[list] = [...own, choice];
  return next;
}

export function removeAction(d: Decl, list: ActionList, index: number): Decl {
  const next = clone(d);
  next[list] = next[list]!.filter((_a, i) => i !== index);
  if (!next[list]!.length) delete next[list];
  return next;
}

export function moveAction(d: Decl, list: ActionList, from: number, to: number): Decl {
  const next = clone(d);
  next[list] = moveItem(next[list] ?? [], from, to);
  return next;
}

// ---- permissions ----------------------------------------------------------------------------------------------

/** The data scope's columns of a page on a table (issue 34): which column holds a row's owner and department. */
export const SCOPE_KEYS = ['ownerColumn', 'deptColumn'] as const;

export function updateScope(d: Decl, values: Partial<Record<(typeof SCOPE_KEYS)[number], string>>): Decl {
  const next = clone(d);
  if (!next.source) return next;
  const src: Obj = { ...next.source };
  for (const k of SCOPE_KEYS) if (k in values) put(src, k, values[k]);
  next.source = src as Decl['source'];
  return next;
}

export const PERM_KEYS = ['list', 'add', 'edit', 'remove', 'export'] as const;

export function updatePerms(d: Decl, values: Partial<Record<(typeof PERM_KEYS)[number], string>>): Decl {
  const next = clone(d);
  const p: Obj = { ...(next.perms ?? {}) };
  for (const k of PERM_KEYS) if (k in values) put(p, k, values[k]);
  if (Object.keys(p).length) next.perms = p;
  else delete next.perms;
  return next;
}

// ---- related records and details (a page on a table, issue 34 items 3 and 4) --------------------------------

/** The record field a list answers with a related row's label (as the server names it: common/tablePage.ts). */
const labelField = (column: string) => `${column}__label`;

export interface RelationForm { table?: string; schema?: string; key?: string; label?: string }

export const readRelation = (d: Decl, field: string): RelationForm => ({ ...((d as Obj).source?.relations?.[field] ?? {}) });

/**
 * Declares (or, without a table, removes) the related table of a field: source.relations, the column shown by the
 * related label (textField), the field edited with the related select, searched by the label. A relation is only
 * written once its table, key and label are all chosen.
 */
export function updateRelation(d: Decl, field: string, r: RelationForm): Decl {
  const next = clone(d) as Obj;
  if (!next.source) return next as Decl;
  const relations: Obj = { ...(next.source.relations ?? {}) };
  const complete = !!(r.table && r.key && r.label);
  if (complete) relations[field] = { table: r.table, ...(r.schema ? { schema: r.schema } : {}), key: r.key, label: r.label };
  else delete relations[field];
  put(next.source, 'relations', Object.keys(relations).length ? relations : undefined);
  for (const c of (next.columns ?? []) as Obj[]) {
    if (c.field !== field) continue;
    put(c, 'textField', complete ? labelField(field) : undefined);
  }
  const f = next.dialog?.schema?.properties?.[field] as Obj | undefined;
  if (f) {
    if (complete) {
      f['x-component'] = 'RelationSelect';
      f['x-component-props'] = { ...(isObj(f['x-component-props']) ? f['x-component-props'] : {}), field };
    } else if (f['x-component'] === 'RelationSelect') {
      delete f['x-component'];
      const props = { ...(f['x-component-props'] ?? {}) };
      delete props.field;
      put(f, 'x-component-props', Object.keys(props).length ? props : undefined);
    }
  }
  return next as Decl;
}

export const DETAIL_KEYS = ['title', 'onDelete', 'maxRows'] as const;

/** The dialog's details (sub-lists of child tables). */
export const detailsOf = (d: Decl): Obj[] => ((d.dialog as Obj | undefined)?.details ?? []) as Obj[];

export function updateDetail(d: Decl, index: number, values: Partial<Record<(typeof DETAIL_KEYS)[number], unknown>>): Decl {
  const next = clone(d) as Obj;
  const detail = next.dialog?.details?.[index];
  if (!detail) return next as Decl;
  for (const k of DETAIL_KEYS) if (k in values) put(detail, k, values[k]);
  return next as Decl;
}

/** Removes a detail from the dialog (its table stays as it is: only the page stops editing it). */
export function removeDetail(d: Decl, index: number): Decl {
  const next = clone(d) as Obj;
  const list = [...(next.dialog?.details ?? [])];
  list.splice(index, 1);
  if (next.dialog) put(next.dialog, 'details', list.length ? list : undefined);
  return next as Decl;
}
