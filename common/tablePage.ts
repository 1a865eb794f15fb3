// Pages on existing tables (issue 24 item 1): a table's catalogue, as the server introspects it on a registered
// data source, turned into a page declaration the runtime already renders. Framework-free (no node, no React):
// the server generates with it, and its tests run it directly. The server keeps the catalogue with the page and
// takes every identifier of the page's SQL from it, never from a request.
import type { PageDeclaration } from '../schemas/generated/page';

export type TableDialect = 'postgresql' | 'mysql' | 'mariadb' | 'sqlite';

/** One column of a table as the data source's catalogue describes it. */
export interface CatalogueColumn {
  name: string;
  /** the catalogue's type, lower-cased: varchar, integer, numeric, timestamp without time zone, tinyint(1)… */
  dataType: string;
  nullable: boolean;
  maxLength: number | null;
  precision: number | null;
  scale: number | null;
  /** the default as the catalogue writes it (an expression's text), null when none */
  defaultValue: string | null;
  primaryKey: boolean;
  /** identity / serial / auto_increment / SQLite's INTEGER PRIMARY KEY */
  autoIncrement: boolean;
  /** the column's comment (PostgreSQL COMMENT ON COLUMN, MySQL COMMENT), first line: the page labels it so */
  comment?: string | null;
  /** a single-column foreign key: the table and column it references (issue 34 item 3) */
  references?: ForeignKeyTarget | null;
}

/** The other end of a foreign key: a table (PostgreSQL: with its schema) and its column. */
export interface ForeignKeyTarget {
  schema: string | null;
  table: string;
  column: string;
}

/** One table or view of a data source, as introspected. */
export interface TableCatalogue {
  dialect: TableDialect;
  /** PostgreSQL: the table's schema; otherwise null */
  schema: string | null;
  table: string;
  kind: 'table' | 'view';
  columns: CatalogueColumn[];
  /** a page's related tables (source.relations), by the column that references them: labels and selects read them */
  related?: Record<string, TableCatalogue>;
  /** a page's detail tables (dialog.details), by the detail's name: its sub-list reads and writes them */
  details?: Record<string, TableCatalogue>;
}

/** What a column holds, for the page: the kind of cell, dialog field and value. */
export type ValueKind = 'text' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'time' | 'other';

export function valueKindOf(c: Pick<CatalogueColumn, 'dataType' | 'precision' | 'scale'>): ValueKind {
  const t = c.dataType.toLowerCase().trim();
  if (/^(tinyint\(1\)|bool|boolean|bit\(1\)|bit)$/.test(t)) return 'boolean';
  if (/^(smallint|integer|int|int\d|bigint|mediumint|tinyint|serial|bigserial|smallserial)(\s*\(\d+\))?(\s+unsigned)?$/.test(t)) return 'integer';
  if (/^(numeric|decimal|real|double|double precision|float\d?|float|money)/.test(t)) return c.scale === 0 && /^(numeric|decimal)/.test(t) ? 'integer' : 'number';
  if (/^(timestamp|datetime)/.test(t)) return 'datetime';
  if (/^date$/.test(t)) return 'date';
  if (/^time(\s|$|\()/.test(t)) return 'time';
  if (/^(character varying|varchar|character|char|nchar|nvarchar|text|tinytext|mediumtext|longtext|citext|uuid|enum|set|clob|string|name)/.test(t) || t === '') return 'text';
  return 'other';
}

/** The largest absolute value a numeric column holds (precision and scale), or a type's own range. */
export function numericRange(c: Pick<CatalogueColumn, 'dataType' | 'precision' | 'scale'>): { minimum?: number; maximum?: number } {
  const t = c.dataType.toLowerCase();
  const unsigned = /unsigned/.test(t);
  if (/^tinyint/.test(t)) return unsigned ? { minimum: 0, maximum: 255 } : { minimum: -128, maximum: 127 };
  if (/^smallint|^smallserial/.test(t)) return unsigned ? { minimum: 0, maximum: 65535 } : { minimum: -32768, maximum: 32767 };
  if (/^mediumint/.test(t)) return unsigned ? { minimum: 0, maximum: 16777215 } : { minimum: -8388608, maximum: 8388607 };
  if (/^(integer|int|int4|serial)\b/.test(t) && c.precision !== 64) return unsigned ? { minimum: 0, maximum: 4294967295 } : { minimum: -2147483648, maximum: 2147483647 };
  if (/^(numeric|decimal)/.test(t) && c.precision && c.precision < 16) {
    const max = Number((10 ** (c.precision - (c.scale ?? 0)) - 10 ** -(c.scale ?? 0)).toFixed(c.scale ?? 0));
    return unsigned ? { minimum: 0, maximum: max } : { minimum: -max, maximum: max };
  }
  return unsigned ? { minimum: 0 } : {};
}

/** A field name the platform's declarations accept (and the only column names a page may use). */
export const COLUMN_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Short text whose distinct values (at most this many) may become a select when the admin asks. */
export const MAX_SELECT_OPTIONS = 20;

export interface GenerateOptions {
  /** the page's key (id), e.g. from the table's name */
  pageKey: string;
  title?: string;
  /** the data source the table lives in */
  dsId: number;
  dsName: string;
  /** columns to show as a select, with their distinct values (at most MAX_SELECT_OPTIONS each) */
  selects?: Record<string, Array<string | number>>;
  /** the catalogues of the tables the table's foreign keys reference, by the referencing column: related records */
  related?: Record<string, TableCatalogue>;
  /** child tables (with their column referencing this table's key) to edit as sub-lists of the dialog */
  details?: Array<{ cat: TableCatalogue; foreignKey: string }>;
}

/** The record field a page's list answers with the label of a related row (the column's value stays the key). */
export const labelFieldOf = (column: string) => `${column}__label`;

/** A column of a page's table that references another table: the row there shown by its label (source.relations). */
export type RelationDecl = NonNullable<NonNullable<PageDeclaration['source']>['relations']>[string];

/** A sub-list of the page's dialog: the rows of a child table joined by a foreign key (dialog.details). */
export type DetailDecl = NonNullable<NonNullable<PageDeclaration['dialog']>['details']>[number] & { schema: { type?: 'object'; properties: Record<string, any> } };

/** The column a table's rows are named by: name / title / label, then a *name column, then the first text column. */
export function labelColumnOf(cat: TableCatalogue): CatalogueColumn {
  const usable = cat.columns.filter((c) => COLUMN_NAME_RE.test(c.name));
  const text = usable.filter((c) => valueKindOf(c) === 'text' && !c.primaryKey && !c.references);
  return (
    text.find((c) => /^(name|title|label)$/i.test(c.name)) ??
    text.find((c) => /(_name|name|_title)$/i.test(c.name)) ??
    text[0] ??
    usable.find((c) => c.primaryKey) ??
    usable[0]
  );
}

export type GenerateResult = { ok: true; declaration: Record<string, any>; notes: string[] } | { ok: false; reason: string };

/** A page key from a table's name: lower-case start, letters, digits, _ and -, at most 50. */
export function pageKeyOf(table: string): string {
  const base = table.replace(/[^A-Za-z0-9_-]/g, '_').replace(/^[^a-z]+/i, '');
  const key = (base ? base[0].toLowerCase() + base.slice(1) : 'table').slice(0, 44);
  return `t_${key}`.slice(0, 50);
}

/** The calls of a table-backed page: the record calls of any custom page, plus add (insert only), export and import. */
export function tablePageCalls(pageKey: string, writable: boolean) {
  const base = `/lowcode/data/${pageKey}`;
  return {
    api: {
      search: `POST ${base}/search`,
      get: `GET ${base}/get`,
      ...(writable ? { save: `POST ${base}/save`, add: `POST ${base}/add`, delete: `GET ${base}/delete`, import: `POST ${base}/import`, options: `POST ${base}/options` } : {}),
      export: `GET ${base}/export`,
    },
  };
}

/** The per-page permissions of custom page `pageKey` (issue 24 item 3). */
export function pagePermissions(pageKey: string) {
  const p = (a: string) => `lowcode:${pageKey}:${a}`;
  return { list: p('list'), add: p('add'), edit: p('edit'), remove: p('remove'), export: p('export'), import: p('import') };
}

/** The Chinese label of each per-page permission. */
export const PAGE_PERMISSION_LABELS: Record<keyof ReturnType<typeof pagePermissions>, string> = { list: '查看', add: '新增', edit: '修改', remove: '删除', export: '导出', import: '导入' };

/** A column's label: its comment when the catalogue holds one, else its name. */
export const columnLabel = (c: Pick<CatalogueColumn, 'name' | 'comment'>): string => c.comment || c.name;

/**
 * Whether a text column is long enough for several lines: a length above 255, a long text type, or an unbounded text
 * whose name says it holds prose (remark, note, description, content …). Names, codes and cities stay single-line.
 */
export function isLongText(c: Pick<CatalogueColumn, 'name' | 'dataType' | 'maxLength' | 'comment'>): boolean {
  if (/^(long|medium)text$|clob/i.test(c.dataType)) return true;
  // PostgreSQL's and SQLite's text have no length, MySQL's 64 KB: what they hold is told by the name
  const unbounded = c.maxLength === null || /^(tiny)?text$/i.test(c.dataType);
  if (!unbounded) return (c.maxLength ?? 0) > 255;
  return /(remark|note|desc|description|content|memo|comment|detail|body|summary|address)s?$/i.test(c.name) || /备注|描述|说明|内容|详情|地址/.test(c.comment ?? '');
}

function fieldOf(c: CatalogueColumn, kind: ValueKind, options: Array<string | number> | undefined): Record<string, any> {
  const title = columnLabel(c);
  const f: Record<string, any> = { title };
  const rules: Array<Record<string, any>> = [];
  const required = !c.nullable && c.defaultValue === null && !c.autoIncrement;
  if (required) rules.push({ required: true, message: kind === 'boolean' || kind === 'date' || kind === 'datetime' || kind === 'time' || options ? `请选择${title}` : `请输入${title}` });
  switch (kind) {
    case 'integer':
    case 'number': {
      f.type = kind;
      f['x-component'] = 'NumberPicker';
      const range = numericRange(c);
      if (range.minimum !== undefined) {
        f.minimum = range.minimum;
        rules.push({ minimum: range.minimum, message: `${title}不能小于${range.minimum}` });
      }
      if (range.maximum !== undefined) {
        f.maximum = range.maximum;
        rules.push({ maximum: range.maximum, message: `${title}不能大于${range.maximum}` });
      }
      if (kind === 'number' && c.scale) f['x-component-props'] = { precision: c.scale };
      break;
    }
    case 'boolean':
      f.type = 'boolean';
      f['x-component'] = 'Switch';
      break;
    case 'date':
      f.type = 'string';
      f['x-component'] = 'DatePicker';
      f['x-component-props'] = { format: 'YYYY-MM-DD' };
      break;
    case 'datetime':
      f.type = 'string';
      f['x-component'] = 'DatePicker';
      f['x-component-props'] = { showTime: true, format: 'YYYY-MM-DD HH:mm:ss' };
      break;
    default:
      f.type = 'string';
      if (options) {
        f.enum = options.map((v) => ({ label: String(v), value: v }));
        f['x-component'] = 'Select';
      } else if (isLongText(c)) f['x-component'] = 'Input.TextArea';
      if (c.maxLength !== null && c.maxLength > 0) {
        f.maxLength = c.maxLength;
        rules.push({ maxLength: c.maxLength, message: `${title}不能超过${c.maxLength}个字符` });
      }
  }
  if (rules.length) f['x-validator'] = rules;
  return f;
}

/**
 * The page declaration for a table or view: columns with formats from the types, dialog fields with kinds, rules
 * and Chinese messages, the primary key as rowKey, text columns as search fields. A table without a primary key
 * (or with one of several columns) is refused with the reason; a view answers a read-only page.
 */
export function generateTablePage(cat: TableCatalogue, opts: GenerateOptions): GenerateResult {
  const label = cat.schema && cat.schema !== 'public' ? `${cat.schema}.${cat.table}` : cat.table;
  if (!cat.columns.length) return { ok: false, reason: `表「${label}」没有可读取的列` };
  const keys = cat.columns.filter((c) => c.primaryKey);
  const writable = cat.kind === 'table';
  if (writable && !keys.length) return { ok: false, reason: `表「${label}」没有主键，无法生成可编辑页面` };
  if (writable && keys.length > 1) return { ok: false, reason: `表「${label}」的主键由多列组成（${keys.map((k) => k.name).join('、')}），暂不支持生成可编辑页面` };
  const notes: string[] = [];
  const usable = cat.columns.filter((c) => {
    if (COLUMN_NAME_RE.test(c.name)) return true;
    notes.push(`列「${c.name}」的名称含有字母、数字、下划线以外的字符，未放入页面`);
    return false;
  });
  const key = writable ? keys[0] : (usable.find((c) => c.primaryKey) ?? usable.find((c) => /^id$/i.test(c.name)) ?? usable[0]);
  if (!key || !COLUMN_NAME_RE.test(key.name)) return { ok: false, reason: `表「${label}」的主键列「${keys[0]?.name ?? ''}」名称不合规，无法生成页面` };
  if (writable) {
    const lost = cat.columns.filter((c) => !usable.includes(c) && !c.nullable && c.defaultValue === null && !c.autoIncrement);
    if (lost.length) return { ok: false, reason: `表「${label}」的必填列「${lost.map((c) => c.name).join('、')}」名称不合规，无法生成可编辑页面` };
  }
  const selects = opts.selects ?? {};
  for (const name of Object.keys(selects)) {
    const c = usable.find((x) => x.name === name);
    if (!c) return { ok: false, reason: `列「${name}」不在表「${label}」中` };
    if (valueKindOf(c) !== 'text') return { ok: false, reason: `列「${name}」不是文本列，不能作为下拉选择` };
    if (selects[name].length > MAX_SELECT_OPTIONS) return { ok: false, reason: `列「${name}」的不同取值超过${MAX_SELECT_OPTIONS}个，不能作为下拉选择` };
  }

  // a foreign key to a table whose catalogue was read: shown by the related row's label, picked from a remote select
  const relations: Record<string, RelationDecl> = {};
  for (const c of usable) {
    const other = c.references && opts.related?.[c.name];
    if (!other || c === key) continue;
    const target = other.columns.find((x) => x.name === c.references!.column);
    if (!target || !COLUMN_NAME_RE.test(target.name)) continue;
    relations[c.name] = { table: other.table, ...(other.schema ? { schema: other.schema } : {}), key: target.name, label: labelColumnOf(other).name };
    notes.push(`列「${columnLabel(c)}」引用表「${other.table}」：列表显示其「${columnLabel(labelColumnOf(other))}」，编辑时从下拉列表中搜索选择`);
  }

  const columns: Array<Record<string, any>> = [];
  const properties: Record<string, any> = {};
  const search: string[] = [];
  const searchLabels: string[] = [];
  for (const c of usable) {
    const kind = valueKindOf(c);
    const col: Record<string, any> = { title: columnLabel(c), field: c.name };
    if (relations[c.name]) {
      columns.push({ ...col, textField: labelFieldOf(c.name), ellipsis: true });
      if (search.length < 5) {
        search.push(c.name);
        searchLabels.push(columnLabel(c));
      }
      const f = fieldOf(c, kind === 'other' ? 'text' : kind, undefined);
      delete f.minimum;
      delete f.maximum;
      properties[c.name] = { ...f, 'x-component': 'RelationSelect', 'x-component-props': { field: c.name }, 'x-validator': (f['x-validator'] ?? []).filter((r: any) => r.required).map((r: any) => ({ ...r, message: `请选择${columnLabel(c)}` })) };
      if (!properties[c.name]['x-validator'].length) delete properties[c.name]['x-validator'];
      continue;
    }
    if (kind === 'datetime') col.format = 'datetime';
    else if (kind === 'date') col.format = 'date';
    else if (kind === 'boolean') col.format = 'yesno';
    if (kind !== 'other') col.sortable = true;
    if (kind === 'text' && (c.maxLength === null || c.maxLength > 100)) col.ellipsis = true;
    const options = selects[c.name];
    if (options) Object.assign(col, { options: options.map((v) => ({ label: String(v), value: v })), filter: 'options' });
    columns.push(col);
    if (kind === 'text' && !options && search.length < 5) search.push(c.name);
    if (kind === 'text' && !options && searchLabels.length < 5) searchLabels.push(columnLabel(c));
    // an identity key is the database's to fill; any other column is a dialog field
    if (writable && !(c === key && c.autoIncrement)) properties[c.name] = fieldOf(c, kind === 'other' ? 'text' : kind, options);
    if (!writable) properties[c.name] = fieldOf({ ...c, nullable: true }, kind === 'other' ? 'text' : kind, options);
  }
  const details: DetailDecl[] = [];
  for (const d of writable ? (opts.details ?? []) : []) {
    const dk = d.cat.columns.filter((c) => c.primaryKey);
    const fk = d.cat.columns.find((c) => c.name === d.foreignKey);
    if (dk.length !== 1 || !fk || !COLUMN_NAME_RE.test(dk[0].name) || !COLUMN_NAME_RE.test(fk.name)) {
      notes.push(`表「${d.cat.table}」没有单列主键或关联列：未作为明细`);
      continue;
    }
    const props: Record<string, any> = {};
    for (const c of d.cat.columns) {
      if (!COLUMN_NAME_RE.test(c.name) || c === fk || (c === dk[0] && c.autoIncrement)) continue;
      const k = valueKindOf(c);
      props[c.name] = fieldOf(c, k === 'other' ? 'text' : k, undefined);
      if (props[c.name]['x-component'] === 'Input.TextArea') delete props[c.name]['x-component'];
    }
    const name = d.cat.table.replace(/[^A-Za-z0-9_]/g, '_').replace(/^[^A-Za-z_]+/, '') || `detail${details.length + 1}`;
    details.push({ name, title: d.cat.table, table: d.cat.table, ...(d.cat.schema ? { tableSchema: d.cat.schema } : {}), key: dk[0].name, foreignKey: fk.name, onDelete: 'refuse', schema: { type: 'object', properties: props } });
    notes.push(`表「${d.cat.table}」作为明细：在对话框中与主记录一起编辑、一起保存`);
  }
  const title = opts.title?.trim() || label;
  const perms = pagePermissions(opts.pageKey);
  const declaration: Record<string, any> = {
    id: opts.pageKey,
    title,
    rowKey: key.name,
    nameField: usable.find((c) => c !== key && valueKindOf(c) === 'text')?.name ?? key.name,
    source: { dsId: opts.dsId, dsName: opts.dsName, table: cat.table, ...(cat.schema ? { schema: cat.schema } : {}), kind: cat.kind, key: key.name, ...(Object.keys(relations).length ? { relations } : {}) },
    ...tablePageCalls(opts.pageKey, writable),
    perms: writable ? { list: perms.list, add: perms.add, edit: perms.edit, remove: perms.remove, export: perms.export } : { list: perms.list, export: perms.export },
    ...(search.length ? { search: { placeholder: `请输入${searchLabels.join('、')}`, fields: search } } : {}),
    // a table's page may show up to the server's 500 rows (above 100 the list is virtual)
    pageSizes: [10, 20, 50, 100, 200, 500],
    columns: [...columns, ...(writable ? [{ title: '操作', type: 'actions', width: 160 }] : [])],
    toolbar: writable ? [{ action: 'add', label: '新增' }] : [],
    rowActions: writable ? [{ action: 'edit', label: '编辑' }, { action: 'delete', label: '删除' }] : [],
    dialog: {
      titles: { new: `新增${title}`, edit: `修改${title}`, copy: `复制${title}` },
      ...(writable && !key.autoIncrement ? { lockedInEdit: [key.name] } : {}),
      schema: { type: 'object', properties },
      ...(details.length ? { width: 900, details } : {}),
    },
  };
  if (!writable) notes.push(`「${label}」是视图：生成只读页面（不能新增、修改、删除）`);
  return { ok: true, declaration, notes };
}

/** The column names a declaration uses (columns, dialog fields, search fields, rowKey), to check against a catalogue. */
export function columnsNamedBy(decl: any): string[] {
  const names = new Set<string>();
  for (const c of Array.isArray(decl?.columns) ? decl.columns : []) if (typeof c?.field === 'string') names.add(c.field);
  for (const c of Array.isArray(decl?.columns) ? decl.columns : []) if (typeof c?.filterField === 'string') names.add(c.filterField);
  for (const f of Object.keys(decl?.dialog?.schema?.properties ?? {})) names.add(f);
  for (const f of Array.isArray(decl?.search?.fields) ? decl.search.fields : []) if (typeof f === 'string') names.add(f);
  if (typeof decl?.rowKey === 'string') names.add(decl.rowKey);
  if (typeof decl?.nameField === 'string') names.add(decl.nameField);
  return [...names];
}
