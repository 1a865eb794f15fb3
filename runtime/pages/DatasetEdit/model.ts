// The dataset editor's draft and the pure edits on it (issue 35 §1): what the screen holds, what the save, fields
// and preview calls are sent, what is missing before any call, how proposed fields merge with the edited ones, and
// a calculated field's expression checked here with the same parser the server runs (common/dataset.ts), so its
// fault shows at the field before anything is sent. No React here: model.test.ts tests it alone.
import { FIELD_NAME_RE, parseExpr, exprFields, ExprError, type DatasetField, type FieldRole, type FieldType } from '../../../common/dataset';
import type { ParamRow } from '../../editors';

export type DatasetKind = 'table' | 'join' | 'sql' | 'file';

export interface TablePick {
  /** as /source/tables names it (schema.table outside PostgreSQL's public, else the table) */
  name: string;
  schema: string | null;
  table: string;
}

export interface JoinTable extends TablePick {
  alias: string;
}

export interface JoinStep {
  type: 'inner' | 'left';
  /** a column of an earlier table */
  left: { alias: string; column: string } | null;
  /** a column of the table this step joins */
  right: { alias: string; column: string } | null;
}

export interface RowRule {
  subject: 'role' | 'user';
  key: string;
  field: string;
  /** 'values': the field equals one of `values`; else an attribute of the signed-in user (account, department) */
  mode: 'values' | 'username' | 'department' | 'departmentTree';
  values: string[];
}

export interface Draft {
  name: string;
  groupId: number | null;
  dsId: number | null;
  kind: DatasetKind;
  table: TablePick | null;
  /** a join: tables[0] first, tables[i] joined by steps[i - 1] */
  tables: Array<JoinTable | null>;
  steps: JoinStep[];
  sql: string;
  params: ParamRow[];
  fields: DatasetField[];
  rules: RowRule[];
  cacheTtl: number;
  /** a file dataset: the upload it holds (made and changed by uploads, FileSource.tsx) */
  file: { fileName: string; sheet: string; rows: number } | null;
}

export const KIND_LABELS: Record<DatasetKind, string> = { table: '表', join: '关联', sql: 'SQL', file: 'Excel / CSV' };
export const TYPE_LABELS: Record<FieldType, string> = { text: '文本', number: '数字', date: '日期时间', boolean: '布尔' };
export const ROLE_LABELS: Record<FieldRole, string> = { dimension: '维度', measure: '指标' };
export const JOIN_LABELS: Record<JoinStep['type'], string> = { inner: '内连接', left: '左连接' };

export const emptyStep = (): JoinStep => ({ type: 'inner', left: null, right: null });

export const emptyDraft = (): Draft => ({
  name: '',
  groupId: null,
  dsId: null,
  kind: 'table',
  table: null,
  tables: [null, null],
  steps: [emptyStep()],
  sql: '',
  params: [],
  fields: [],
  rules: [],
  cacheTtl: 60,
  file: null,
});

export const aliasOf = (i: number) => `t${i}`;
const nameOf = (schema: string | null | undefined, table: string) => (schema && schema !== 'public' ? `${schema}.${table}` : table);

/** What info/get answers (the parts the editor reads). */
export interface DatasetInfo {
  id: number;
  groupId: number | null;
  name: string;
  kind: DatasetKind;
  dsId: number | null;
  cacheTtl: number;
  definition: any;
  fields: DatasetField[];
  rowRules: Array<{ subject: 'role' | 'user'; key: string; field: string; values?: Array<string | number>; attribute?: string }>;
}

const paramType = (v: unknown) => (typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v === 'boolean' ? 'boolean' : 'string');

/** A stored dataset → the editor's draft. */
export function draftOf(info: DatasetInfo): Draft {
  const d = emptyDraft();
  const def = info.definition ?? {};
  d.name = info.name;
  d.groupId = info.groupId || null;
  d.dsId = info.dsId;
  d.kind = info.kind;
  d.cacheTtl = info.cacheTtl ?? 60;
  d.fields = (info.fields ?? []).map((f) => ({ ...f }));
  if (info.kind === 'table' && def.table) d.table = { name: nameOf(def.table.schema, def.table.table), schema: def.table.schema ?? null, table: def.table.table };
  if (info.kind === 'join') {
    const tables = (def.tables ?? []) as Array<{ alias: string; schema: string | null; table: string }>;
    d.tables = tables.map((t) => ({ alias: t.alias, name: nameOf(t.schema, t.table), schema: t.schema ?? null, table: t.table }));
    const joins = (def.joins ?? []) as Array<{ type: 'inner' | 'left'; left: { alias: string; column: string }; right: { alias: string; column: string } }>;
    // step i joins tables[i + 1]: the join whose right side is that table
    d.steps = tables.slice(1).map((t) => {
      const j = joins.find((x) => x.right.alias === t.alias);
      return j ? { type: j.type, left: { ...j.left }, right: { ...j.right } } : emptyStep();
    });
  }
  if (info.kind === 'file' && def.file) d.file = { fileName: String(def.file.fileName ?? ''), sheet: String(def.file.sheet ?? ''), rows: Number(def.file.rows ?? 0) };
  if (info.kind === 'sql') {
    d.sql = String(def.sql ?? '');
    d.params = ((def.params ?? []) as Array<{ name: string; value?: unknown }>).map((p) => ({ paramName: p.name, paramType: paramType(p.value), paramValue: p.value === undefined || p.value === null ? '' : String(p.value) }));
  }
  d.rules = (info.rowRules ?? []).map((r) => ({ subject: r.subject, key: r.key, field: r.field, mode: r.attribute === 'username' || r.attribute === 'department' || r.attribute === 'departmentTree' ? r.attribute : 'values', values: (r.values ?? []).map(String) }));
  return d;
}

/** A typed parameter value, as the API configuration screen types them. */
function typedValue(p: ParamRow): unknown {
  const v = p.paramValue ?? '';
  if ((p.paramType === 'integer' || p.paramType === 'number') && v !== '' && Number.isFinite(Number(v))) return Number(v);
  if (p.paramType === 'boolean' && (v === 'true' || v === 'false')) return v === 'true';
  return v;
}

/** The definition the server takes for the draft's kind. */
export function definitionOf(d: Draft): Record<string, unknown> {
  if (d.kind === 'file') return {}; // the server keeps a file dataset's definition
  if (d.kind === 'table') return { table: d.table ? { schema: d.table.schema, table: d.table.table } : undefined };
  if (d.kind === 'join') {
    const tables = d.tables.filter((t): t is JoinTable => !!t).map((t) => ({ alias: t.alias, schema: t.schema, table: t.table }));
    const joins = d.steps.filter((s) => s.left && s.right).map((s) => ({ type: s.type, left: s.left!, right: s.right! }));
    return { tables, joins };
  }
  return { sql: d.sql, params: d.params.filter((p) => p.paramName).map((p) => ({ name: p.paramName, value: typedValue(p) })) };
}

/** What the source lacks before fields can be read (null when complete). */
export function sourceMissing(d: Draft): string | null {
  if (d.kind === 'file') return d.file ? null : '请上传 Excel 或 CSV 文件';
  if (!d.dsId) return '请选择数据源';
  if (d.kind === 'table' && !d.table) return '请选择数据表';
  if (d.kind === 'join') {
    if (d.tables.length < 2) return '关联数据集至少要有两张表';
    const empty = d.tables.findIndex((t) => !t);
    if (empty >= 0) return `请选择第 ${empty + 1} 张表`;
    const open = d.steps.findIndex((s) => !s.left || !s.right);
    if (open >= 0) return `请选择第 ${open + 2} 张表的连接条件（两边的列）`;
  }
  if (d.kind === 'sql') {
    if (!d.sql.trim()) return '请输入 SQL';
    const bad = d.params.find((p) => !p.paramName || !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(p.paramName));
    if (bad) return bad.paramName ? `参数名不合法：${bad.paramName}` : '参数名不能为空';
  }
  return null;
}

/** The fault of a calculated field's expression against the draft's fields, as the server words it; null when it parses. */
export function exprFault(f: Pick<DatasetField, 'name' | 'label' | 'expr'>, fields: DatasetField[]): string | null {
  const byName = new Map(fields.map((x) => [x.name, x.name]));
  const byLabel = new Map(fields.map((x) => [x.label, x.name]));
  try {
    const tree = parseExpr(String(f.expr ?? ''), (n) => byName.get(n) ?? byLabel.get(n));
    if (exprFields(tree).has(f.name)) return `计算字段「${f.name}」引用了自己（循环引用）`;
    return null;
  } catch (err) {
    if (err instanceof ExprError) return err.message;
    throw err;
  }
}

/** A field's own fault (name, label, expression), or null. */
export function fieldFault(f: DatasetField, fields: DatasetField[]): string | null {
  if (!FIELD_NAME_RE.test(f.name)) return '字段名只能包含字母、数字和下划线，且不以数字开头';
  if (fields.filter((x) => x.name === f.name).length > 1) return `字段名「${f.name}」重复`;
  if (!f.label.trim()) return '请输入标签';
  if (f.expr) return exprFault(f, fields);
  return null;
}

/** What is missing or wrong before a save (or a preview): the first fault, in Chinese, or null. */
export function missing(d: Draft, forPreview = false): string | null {
  if (!forPreview && !d.name.trim()) return '请输入数据集名称';
  const src = sourceMissing(d);
  if (src) return src;
  if (!d.fields.length) return '请先读取字段（数据集至少要有一个字段）';
  for (const f of d.fields) {
    const fault = fieldFault(f, d.fields);
    if (fault) return `字段「${f.label || f.name}」：${fault}`;
  }
  if (forPreview) return null;
  for (const [i, r] of d.rules.entries()) {
    if (!r.key.trim()) return `第 ${i + 1} 条行权限规则：请输入${r.subject === 'role' ? '角色标识' : '账号'}`;
    if (!r.field) return `第 ${i + 1} 条行权限规则：请选择字段`;
    if (!d.fields.some((f) => f.name === r.field)) return `第 ${i + 1} 条行权限规则：字段「${r.field}」不在数据集中`;
    if (r.mode === 'values' && !r.values.length) return `第 ${i + 1} 条行权限规则：请填写允许的取值`;
  }
  if (!Number.isInteger(d.cacheTtl) || d.cacheTtl < 0 || d.cacheTtl > 86400) return '缓存秒数只能是 0 到 86400 之间的整数';
  return null;
}

/** The fields as the server stores them: a calculated one has no column, a column has no expression. */
function cleanFields(d: Draft): DatasetField[] {
  return d.fields.map((f) => {
    const base = { name: f.name, label: f.label.trim(), type: f.type, role: f.role, format: f.format?.trim() || null };
    if (f.expr) return { ...base, expr: f.expr };
    return { ...base, column: f.column ?? f.name, ...(d.kind === 'join' ? { table: f.table ?? null } : {}) };
  });
}

/** The save call's body. */
export function saveBody(d: Draft, id: number | null) {
  return {
    id,
    groupId: d.groupId ?? 0,
    name: d.name.trim(),
    kind: d.kind,
    dsId: d.kind === 'file' ? null : d.dsId,
    definition: definitionOf(d),
    fields: cleanFields(d),
    rowRules: d.rules.map((r) => ({ subject: r.subject, key: r.key.trim(), field: r.field, ...(r.mode !== 'values' ? { attribute: r.mode } : { values: r.values }) })),
    cacheTtl: d.cacheTtl,
  };
}

/** The preview call's body for the draft (as the editor shows it, before saving); a file dataset's by its id. */
export const previewBody = (d: Draft, id: number | null = null) => (d.kind === 'file' ? { id, fields: cleanFields(d) } : { kind: d.kind, dsId: d.dsId, definition: definitionOf(d), fields: cleanFields(d) });

/**
 * Fields just proposed by the server merged with the edited ones: a column that stays keeps its label, type, role
 * and format; calculated fields stay (after the columns); columns that left the source go.
 */
export function mergeFields(current: DatasetField[], proposed: DatasetField[]): DatasetField[] {
  const key = (f: DatasetField) => `${f.table ?? ''}.${f.column ?? f.name}`;
  const old = new Map(current.filter((f) => !f.expr).map((f) => [key(f), f]));
  const columns = proposed.map((p) => {
    const o = old.get(key(p));
    return o ? { ...p, name: o.name, label: o.label, type: o.type, role: o.role, format: o.format ?? null } : { ...p };
  });
  return [...columns, ...current.filter((f) => f.expr)];
}

/** A free field name for a new calculated field: calc_1, calc_2, … */
export function freeName(fields: DatasetField[], stem = 'calc'): string {
  for (let i = 1; ; i++) if (!fields.some((f) => f.name === `${stem}_${i}`)) return `${stem}_${i}`;
}

/** The calculated field a server refusal names (计算字段「标签」：…), so its message shows at that field. */
export function faultedField(msg: string, fields: DatasetField[]): DatasetField | undefined {
  const m = /^计算字段「([^」]+)」/.exec(msg);
  if (!m) return undefined;
  return fields.find((f) => f.expr && (f.label === m[1] || f.name === m[1]));
}

/** A join: a table slot added at the end with an open step (its alias comes when it is picked); removing one drops its step and the fields and steps that used it. */
export function addJoinTable(d: Draft): Draft {
  return { ...d, tables: [...d.tables, null], steps: [...d.steps, emptyStep()] };
}

export function removeJoinTable(d: Draft, index: number): Draft {
  if (index === 0 || d.tables.length <= 2) return d;
  const gone = d.tables[index]?.alias;
  const tables = d.tables.filter((_, i) => i !== index);
  const steps = d.steps.filter((_, i) => i !== index - 1).map((s) => (gone && s.left?.alias === gone ? { ...s, left: null } : s));
  return { ...d, tables, steps, fields: gone ? d.fields.filter((f) => f.expr || f.table !== gone) : d.fields };
}

/** A join: the table at `index` picked (or changed): its alias is kept or made, the steps that named its columns are reopened. */
export function pickJoinTable(d: Draft, index: number, pick: TablePick): Draft {
  const prev = d.tables[index];
  const taken = new Set(d.tables.filter((t, i) => t && i !== index).map((t) => t!.alias));
  let alias = prev?.alias ?? aliasOf(index);
  for (let i = index; taken.has(alias); i++) alias = aliasOf(i + 1);
  const tables = d.tables.map((t, i) => (i === index ? { ...pick, alias } : t));
  const changed = prev && (prev.table !== pick.table || prev.schema !== pick.schema);
  const steps = d.steps.map((s) => (changed ? { ...s, left: s.left?.alias === alias ? null : s.left, right: s.right?.alias === alias ? null : s.right } : s));
  return { ...d, tables, steps };
}
