// Pages without code (DESIGN §1): an admin stores a page declaration, publishes it to roles (a menu entry
// `page:<pageKey>` with the page's permissions as buttons), and its records live in one generic store, validated by
// the page's own field rules — or, for a page generated on a table of a registered data source (declaration.source,
// issue 24), in that table: tables.ts reads the catalogue, tableData.ts runs the bound SQL, and the catalogue kept
// with the page (lowcode_page.source_catalogue) is the only source of identifiers. Every custom page exports (CSV /
// XLSX) and imports (core/sheets.ts), a page on a view only exports.
//   /api/lowcode/page/{search, get, save, delete}               (admin: lowcode:page:*)
//   /api/lowcode/source/{tables, generate}                      (lowcode:page:edit)
//   /api/lowcode/data/<pageKey>/{search, get, add, save, delete, export, import} (the page's own
//     lowcode:<pageKey>:list|add|edit|remove|export|import, checked in the handler by the route and the decoded
//     pageKey; a page on the generic store also takes the old lowcode:data:list / lowcode:data:edit)
import type { DictMap } from '../../core/dicts.js';
import { registerPageWorkspace } from './workspace.js';
import { lowcodePageCalls, lowcodeSheetActions } from '../../../common/lowcode.js';
import { MSG_NO_PERMISSION } from '../../core/auth.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { BizError, ok } from '../../core/envelope.js';
import { jsonObjectField } from '../../core/input.js';
import { listQuerySchema, pageOf } from '../../core/list.js';
import type { ServerModule } from '../../core/module.js';
import { hasPermission } from '../../core/permissions.js';
import { describeAjvErrors, describeAt } from '../../../common/ajv-messages.js';
import { expressionFaultsIn } from '../../core/expressions.js';
import { patternFault, patternsIn, pinPatterns } from '../../core/patterns.js';
import { checkBody, fieldRulesOf, idQuery, likePattern, searchFieldsOf, sortableFieldsOf, type PageDeclaration } from '../../core/declarations.js';
import { isEmptyValue } from '../../../common/dialog-rules.js';
import { columnsNamedBy, generateTablePage, labelFieldOf, MAX_SELECT_OPTIONS, PAGE_PERMISSION_LABELS, pageKeyOf, pagePermissions, type DetailDecl, type RelationDecl, type TableCatalogue } from '../../../common/tablePage.js';
import { distinctValues, findTable, foreignKeys, introspect, listTables, TableSql, usableColumns } from '../../core/catalogue.js';

/** Rows the page manager's preview of a page on a table shows. */
const PREVIEW_ROWS = 10;
import { sourceOf, tableDelete, tableGet, tableImport, tableInsert, tableOptions, tableRows, tableSearch, tableUpdate, TABLE_MSG, type ScopedPageFinder, type TablePage } from './tableData.js';
import { datasourceTarget } from '../../core/datasources.js';
import { tableTopic } from '../../core/invalidation.js';
import { now, type Dialect } from '../../store/columns.js';
import { declareTable, exportColumnsOf, migration, type TableRow, timestamps } from '../../core/tables.js';
import { acceptSheets, importSheet, pagedRows, sendSheet, type SheetFormat } from '../../core/sheets.js';

/** The stored page declarations (published: 0 / 1; roles: JSON text, the role keys it is published to). */
export const lowcodePages = declareTable({
  name: 'lowcode_page',
  columns: {
    id: { type: 'id' },
    pageKey: { type: 'varchar(50)', notNull: true, unique: true },
    title: { type: 'varchar(100)', notNull: true },
    declaration: { type: 'text', notNull: true },
    published: { type: 'integer', notNull: true, default: 0 },
    roles: { type: 'text', notNull: true, default: '[]' },
    createUser: { type: 'varchar(100)' },
    ...timestamps,
  },
});
/** The records of every low-code page (data: JSON text, validated by the page's field rules). */
export const lowcodeData = declareTable({
  name: 'lowcode_data',
  columns: {
    id: { type: 'id' },
    pageKey: { type: 'varchar(50)', notNull: true },
    data: { type: 'text', notNull: true },
    createUser: { type: 'varchar(100)' },
    ...timestamps,
  },
  indexes: [{ name: 'ix_lowcode_data_page', columns: ['pageKey'] }],
});
/** A stored page as declared, with the column 20261203_10_lowcode_page_catalogue added. */
export interface LowcodePageTable extends TableRow<typeof lowcodePages> {
  /** a page on a table (declaration.source): the table's catalogue as introspected when the page was saved (JSON) */
  source_catalogue: string | null;
  /** a page on a table: the identity of its data source when the page was last saved (datasourceTarget; issue 34) */
  source_target: string | null;
  /** set when the page was deleted: it waits in the recycle bin, out of every list and call (issue 37) */
  deleted_time: string | null;
}
declare module '../../store/schema.js' {
  interface Database {
    lowcode_page: LowcodePageTable;
    lowcode_data: TableRow<typeof lowcodeData>;
  }
}

const KEY_RE = /^[a-z][a-zA-Z0-9_-]{0,49}$/;
/** A record's key in the query string: the generic store's integer id, or a table's key (text, checked by its column). */
const keyQuery = { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 200, title: '编号' } } } as const;
const isId = (v: unknown) => Number.isSafeInteger(Number(v)) && Number(v) > 0;
const FIELD_RE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
export const menuKeyOf = (pageKey: string) => `lowcode-${pageKey}`;
const DENIED = MSG_NO_PERMISSION;

const pageBody = {
  type: 'object',
  required: ['declaration'],
  properties: {
    id: { type: ['integer', 'null'], title: '编号' },
    pageKey: { type: ['string', 'null'], maxLength: 50, title: '页面标识' },
    title: { type: ['string', 'null'], maxLength: 100, title: '标题' },
    declaration: { type: ['object', 'string'], title: '页面声明' },
    published: { type: ['boolean', 'integer', 'null'], title: '发布' },
    roles: { type: ['array', 'null'], maxItems: 20, items: { type: 'string', maxLength: 32 }, title: '可见角色' },
    icon: { type: ['string', 'null'], maxLength: 50, title: '图标' },
    note: { type: ['string', 'null'], maxLength: 200, title: '版本说明' },
  },
} as const;

/**
 * The server fills the calls and permissions of a custom page: the generic store's, or its table's (source). A
 * toolbar without 导出 / 导入 / 订阅 gets them (every list page exports and imports, issue 24; a view only exports).
 */
function withGenericApi(decl: PageDeclaration, pageKey: string): PageDeclaration {
  // the calls and permissions the page manager's preview fills a draft with too (common/lowcode.ts)
  const toolbar: any[] = Array.isArray(decl?.toolbar) ? decl.toolbar : [];
  const offered = decl.source?.kind === 'view' ? lowcodeSheetActions.filter((a) => a.action !== 'import') : lowcodeSheetActions;
  const missing = offered.filter((a) => !toolbar.some((t) => t?.action === a.action && (t?.page ?? null) === ('page' in a ? a.page : null)));
  return { ...decl, id: pageKey, ...lowcodePageCalls(pageKey, decl.source), ...(decl.source ? { rowKey: decl.source.key } : {}), toolbar: [...toolbar, ...missing.map((a) => JSON.parse(JSON.stringify(a)))] };
}

/** The menu entry of a published page, with its permissions as buttons (type F) for 角色管理. */
function menuEntryOf(pageKey: string, title: string, icon: string, decl: PageDeclaration) {
  const perms = pagePermissions(pageKey);
  const actions = (decl.source?.kind === 'view' ? ['list', 'export'] : ['list', 'add', 'edit', 'remove', 'export', 'import']) as Array<keyof typeof perms>;
  const children = actions.map((a) => ({ key: `${menuKeyOf(pageKey)}-${a}`, name: PAGE_PERMISSION_LABELS[a], type: 'F' as const, perms: perms[a] }));
  return { key: menuKeyOf(pageKey), name: title, type: 'C' as const, path: `/custom/${pageKey}`, component: `page:${pageKey}`, icon, perms: perms.list, children };
}

/** Checks the server relies on beyond the meta-schema; each fault naming its field (字段「…」). */
function semanticFaults(decl: PageDeclaration, dicts: Record<string, unknown>, tableColumns: string[] = []): string[] {
  const faults: string[] = [];
  const props: Record<string, any> = decl?.dialog?.schema?.properties ?? {};
  // a page on a table may also search and sort on its table's columns that are not dialog fields (an identity key)
  const known = (f: unknown) => typeof f === 'string' && (Object.hasOwn(props, f) || tableColumns.includes(f));
  const at = (pointer: string, text: string) => faults.push(describeAt(pointer, text));
  if (!decl?.dialog?.schema) at('/dialog/schema', '缺少必填属性（记录的字段从这里来）');
  for (const [f, p] of Object.entries(props)) {
    const here = `/dialog/schema/properties/${f.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!FIELD_RE.test(f)) at(here, '的名称只能包含字母、数字和下划线，且不能以数字开头');
    if (!p || typeof p !== 'object') {
      at(here, '类型应为对象');
      continue;
    }
    if (p.type !== undefined && !['string', 'number', 'integer', 'boolean'].includes(p.type)) at(`${here}/type`, '取值不在允许范围内（可选：string、number、integer、boolean）');
    if (p['x-dict'] !== undefined && !(typeof p['x-dict'] === 'string' && dicts[p['x-dict']])) at(`${here}/x-dict`, `引用的字典 ${p['x-dict']} 不存在`);
  }
  // every pattern anywhere (field, validator, component props, nested schemas) and every Formily
  // expression of the dialog: checked where it stands, whatever key holds it
  walk(decl, '', (pointer, key, value) => {
    if (key === 'pattern' && typeof value === 'string') {
      const why = patternFault(value);
      if (why) at(pointer, `：${why}`);
    }
    if (typeof value === 'string' && pointer.startsWith('/dialog')) for (const why of expressionFaultsIn(value)) at(pointer, `：${why}`);
  });
  (decl?.search?.fields ?? []).forEach((f: string, i: number) => {
    if (!known(f)) at(`/search/fields/${i}`, `引用的字段 ${f} 未在表单（dialog.schema.properties）中声明`);
  });
  (decl?.columns ?? []).forEach((c: any, i: number) => {
    if (c?.sortable && !(typeof c.field === 'string' && (known(c.field) || (!decl.source && ['createTime', 'updateTime', 'id'].includes(c.field))))) at(`/columns/${i}/field`, `是可排序列，引用的字段 ${c?.field} 未在表单（dialog.schema.properties）中声明`);
  });
  return faults;
}

/** Calls `visit` with the JSON pointer, key and value of every member of a declaration. */
function walk(node: unknown, at: string, visit: (at: string, key: string, value: unknown) => void, depth = 0): void {
  if (!node || typeof node !== 'object' || depth > 64) return;
  for (const [k, v] of Object.entries(node)) {
    const here = `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    visit(here, k, v);
    walk(v, here, visit, depth + 1);
  }
}

interface PageRow {
  id: number;
  page_key: string;
  title: string;
  declaration: string;
  published: number;
  roles: string;
  create_time: string;
  update_time: string;
  source_catalogue: string | null;
  /** a page on a table: the identity of its data source when the page was last saved (datasourceTarget; issue 34) */
  source_target: string | null;
}

/** A page as the page manager sees it; `recordCount` is how many records a delete would take with it. */
function presentPage(r: PageRow, withDeclaration: boolean, recordCount = 0, sourceChanged = false) {
  return {
    // a page on a table whose data source changed since it was saved: it refuses to run until saved again
    sourceChanged,
    id: r.id,
    pageKey: r.page_key,
    title: r.title,
    published: r.published === 1,
    roles: JSON.parse(r.roles) as string[],
    menuKey: menuKeyOf(r.page_key),
    recordCount,
    createTime: r.create_time,
    updateTime: r.update_time,
    ...(withDeclaration ? { declaration: withGenericApi(JSON.parse(r.declaration), r.page_key) } : {}),
  };
}

/* ---------- JSON fields in SQL: json_extract on SQLite, ->> on PostgreSQL; paths always bound ---------- */

function jsonText(dialect: Dialect, field: string) {
  return dialect === 'postgres' ? sql`(data::jsonb ->> ${field})` : sql`json_extract(data, ${'$.' + field})`;
}
function jsonSortKey(dialect: Dialect, field: string, type: string | undefined) {
  if (dialect === 'postgres' && (type === 'integer' || type === 'number')) return sql`(data::jsonb ->> ${field})::numeric`;
  return jsonText(dialect, field);
}

export const lowcodeModule: ServerModule = {
  name: 'lowcode',
  prefix: '/api/lowcode',
  service: 'platform',
  needs: ['menus', 'org', 'versions', 'recycle', 'workspace'],
  migrations: {
    // both tables in the one migration they always had
    '20261122_15_lowcode': migration(async (db, dialect) => {
      await lowcodePages.create(db, dialect);
      await lowcodeData.create(db, dialect);
    }),
    // pages on existing tables keep the catalogue they were saved with (their SQL's only source of identifiers)
    '20261203_10_lowcode_page_catalogue': migration(async (db) => {
      await db.schema.alterTable('lowcode_page').addColumn('source_catalogue', 'text').execute();
    }),
    // ... and the identity of the data source they were saved on: a page refuses to run where nobody looked
    '20261204_10_lowcode_page_source_target': migration(async (db) => {
      await db.schema.alterTable('lowcode_page').addColumn('source_target', 'varchar(64)').execute();
    }),
    // a deleted page waits in the recycle bin (issue 37): marked, its records and key kept until purged
    '20261206_10_lowcode_page_deleted': migration(async (db) => {
      await db.schema.alterTable('lowcode_page').addColumn('deleted_time', 'varchar(19)').execute();
    }),
  },
  plugin: async (app: FastifyInstance) => {
    const { db } = app.ctx;
    const { dialect } = app.ctx;
    const builtIn = () => app.ctx.schemas.pages as Record<string, unknown>;
    // the roles as the store holds them now: one made a moment ago in 角色管理, on any instance, is one (issue 34)
    const roleKeys = async (): Promise<string[]> => (await db.selectFrom('sys_role').select('role_key').execute()).map((r) => r.role_key);
    const validator = () => {
      const v = app.ctx.schemas.validators['page.schema.json'];
      if (!v) throw new BizError('缺少页面元模式 page.schema.json');
      return v;
    };
    const has = (req: FastifyRequest, perm: string) => !app.ctx.config.permissionSwitch || hasPermission(req.user!.permissions, perm);

    /** How many records each page holds (pages without any are absent). */
    const recordCounts = async (keys: string[]): Promise<Map<string, number>> => {
      if (!keys.length) return new Map();
      const rows = await db.selectFrom('lowcode_data').select(['page_key', (eb: any) => eb.fn.countAll().as('n')]).where('page_key', 'in', keys).groupBy('page_key').execute();
      return new Map(rows.map((r: any) => [r.page_key as string, Number(r.n)]));
    };
    /** The keys of the pages among `rows` whose data source is no longer the one they were saved on. */
    const sourceChanges = async (rows: PageRow[]): Promise<Set<string>> => {
      const out = new Set<string>();
      for (const r of rows) {
        if (!r.source_target) continue;
        const dsId = Number((JSON.parse(r.declaration) as PageDeclaration).source?.dsId);
        const ds = await app.sql.source('datasource', { id: dsId });
        if (!ds || datasourceTarget(ds) !== r.source_target) out.add(r.page_key);
      }
      return out;
    };
    const pageByKey = async (key: string) => (await db.selectFrom('lowcode_page').selectAll().where('page_key', '=', key).where('deleted_time', 'is', null).executeTakeFirst()) as PageRow | undefined;

    // the patterns of every stored page are judged once, off the event loop, and kept for good: a data call
    // (which checks its record against them) never waits for the check, whatever other requests do meanwhile
    app.addHook('onReady', async () => {
      const rows = await db.selectFrom('lowcode_page').select('declaration').execute();
      await pinPatterns(
        rows.flatMap((r) => {
          try {
            return patternsIn(JSON.parse(r.declaration));
          } catch {
            return [];
          }
        }),
      );
    });

    /** A page the user may use: page managers see every page; others only published pages of their roles. */
    const usablePage = async (req: FastifyRequest, key: string): Promise<{ row: PageRow; decl: PageDeclaration }> => {
      if (!KEY_RE.test(key)) throw new BizError('页面不存在');
      const row = await pageByKey(key);
      if (!row) throw new BizError('页面不存在');
      if (!has(req, 'lowcode:page:list')) {
        const roles = JSON.parse(row.roles) as string[];
        if (row.published !== 1 || !req.user!.roles.some((r) => roles.includes(r))) throw new BizError(DENIED, 403);
      }
      return { row, decl: JSON.parse(row.declaration) };
    };

    /**
     * The page's own permission for this call (lowcode:<pageKey>:<action>), checked by the matched route and the
     * pageKey the router decoded, whatever the URL's spelling; a page on the generic store also takes the old
     * lowcode:data:list / lowcode:data:edit that existing roles hold.
     */
    const need = (req: FastifyRequest, pageKey: string, action: 'list' | 'add' | 'edit' | 'remove' | 'export' | 'import', generic: boolean) => {
      if (!KEY_RE.test(pageKey)) throw new BizError('页面不存在');
      if (has(req, `lowcode:${pageKey}:${action}`)) return;
      if (generic && has(req, action === 'list' || action === 'export' ? 'lowcode:data:list' : 'lowcode:data:edit')) return;
      throw new BizError(DENIED, 403);
    };
    /**
     * The page on a related table that declares a data scope (owner or department column), on the same data source:
     * the related select lists, and a save accepts, only the rows that page's scope lets the caller see.
     */
    // the pages on tables that declare a scope, read once and held until any page is written (on any instance): a
    // list of a page with related columns asks for them at every call
    const scopedPages = app.ctx.invalidation.memo<'all', TablePage[]>([tableTopic('lowcode_page')], { max: 1 });
    const scopedOn: ScopedPageFinder = async (p, column) => {
      const rel = p.decl.source?.relations?.[column] as RelationDecl | undefined;
      if (!rel) return null;
      const pages = await scopedPages.get('all', async () => {
        // by age, so that the first match (the select's and the save's check alike) is always the same page
        const rows = await db.selectFrom('lowcode_page').select(['page_key', 'declaration', 'source_catalogue']).where('source_catalogue', 'is not', null).where('deleted_time', 'is', null).orderBy('id').execute();
        return rows
          .map((r) => ({ pageKey: r.page_key, decl: JSON.parse(r.declaration) as PageDeclaration, cat: JSON.parse(r.source_catalogue!) as TableCatalogue }))
          .filter((x) => x.decl.source && (x.decl.source.ownerColumn || x.decl.source.deptColumn));
      });
      return pages.find(({ decl }) => Number(decl.source.dsId) === Number(p.decl.source.dsId) && decl.source.table === rel.table && (decl.source.schema ?? null) === (rel.schema ?? p.decl.source.schema ?? null)) ?? null;
    };

    /** A usable page for a data call: the permission first, then the page (published to the caller's roles). */
    const dataPage = async (req: FastifyRequest, pageKey: string, action: Parameters<typeof need>[2]) => {
      const generic = !(await pageByKey(pageKey).catch(() => undefined))?.source_catalogue;
      need(req, pageKey, action, generic);
      const { row, decl } = await usablePage(req, pageKey);
      const table: TablePage | null = row.source_catalogue && decl.source ? { pageKey, decl, cat: JSON.parse(row.source_catalogue) as TableCatalogue, scopedOn } : null;
      if (table) {
        // the data source still the one the page was saved on (type, address, port, database, account)
        const ds = await sourceOf(app, decl);
        if (row.source_target && row.source_target !== datasourceTarget(ds)) throw new BizError(TABLE_MSG.sourceChanged(row.title, ds.ds_name));
      }
      return { row, decl, table };
    };

    /** Introspects the table a declaration names (source) on its data source, and checks every name it uses. */
    const catalogueFor = async (req: FastifyRequest, decl: PageDeclaration): Promise<TableCatalogue> => {
      const src = decl.source;
      const ds = await sourceOf(app, decl);
      const ref = await findTable(app, ds, src.table, req, src.schema ?? null);
      const cat = await introspect(app, ds, ref, req);
      if (src.kind !== cat.kind) throw new BizError(cat.kind === 'view' ? `「${ref.name}」是视图，只能生成只读页面（source.kind 应为 view）` : `「${ref.name}」是表（source.kind 应为 table）`);
      const key = cat.columns.find((c) => c.name === src.key);
      if (!key) throw new BizError(`主键列「${src.key}」不是表「${ref.name}」的列`);
      if (cat.kind === 'table') {
        const pks = cat.columns.filter((c) => c.primaryKey);
        if (!pks.length) throw new BizError(`表「${ref.name}」没有主键，无法生成可编辑页面`);
        if (pks.length > 1 || !key.primaryKey) throw new BizError(`「${src.key}」不是表「${ref.name}」的主键`);
      }
      const names = new Set(usableColumns(cat).map((c) => c.name));
      // the data scope's owner and department columns (issue 34): columns of the table, never its key
      for (const [k, label] of [['ownerColumn', '所属人列'], ['deptColumn', '所属部门列']] as const) {
        const col = src[k];
        if (col === undefined) continue;
        if (typeof col !== 'string' || !names.has(col)) throw new BizError(`页面声明不合法：${label}「${col}」不是表「${ref.name}」的列`);
        if (col === src.key) throw new BizError(`页面声明不合法：${label}不能是主键列「${col}」`);
      }
      if (src.ownerColumn && src.ownerColumn === src.deptColumn) throw new BizError('页面声明不合法：所属人列与所属部门列不能是同一列');
      const outside = columnsNamedBy(decl).filter((f) => !names.has(f));
      if (outside.length) throw new BizError(`页面声明不合法：${outside.map((f) => `字段「${f}」不是表「${ref.name}」的列`).join('；')}`);
      // related records (issue 34 item 3): each related table read now, its key and label columns checked, kept
      const related: Record<string, TableCatalogue> = {};
      for (const [column, rel] of Object.entries((src.relations ?? {}) as Record<string, RelationDecl>)) {
        const where = `页面声明不合法：关联字段「${column}」`;
        if (!names.has(column)) throw new BizError(`${where}不是表「${ref.name}」的列`);
        if (column === src.key) throw new BizError(`${where}不能是主键列`);
        const other = await introspect(app, ds, await findTable(app, ds, rel.table, req, rel.schema ?? null), req);
        const otherNames = new Set(usableColumns(other).map((c) => c.name));
        if (!otherNames.has(rel.key)) throw new BizError(`${where}引用的列「${rel.key}」不是表「${rel.table}」的列`);
        if (!otherNames.has(rel.label)) throw new BizError(`${where}的名称列「${rel.label}」不是表「${rel.table}」的列`);
        related[column] = other;
      }
      (decl.columns ?? []).forEach((c: any) => {
        if (typeof c?.textField === 'string' && !(related[c.field] && c.textField === labelFieldOf(c.field))) throw new BizError(`页面声明不合法：列「${c.title ?? c.field}」的 textField 只能是关联字段的名称（${labelFieldOf(String(c.field))}）`);
      });
      // master–detail (issue 34 item 4): each child table on the same data source, joined by a column referencing the key
      const details: Record<string, TableCatalogue> = {};
      for (const d of (Array.isArray(decl.dialog?.details) ? decl.dialog.details : []) as DetailDecl[]) {
        const where = `页面声明不合法：明细「${d.title}」`;
        if (cat.kind !== 'table') throw new BizError(`${where}：视图上的页面不能有明细`);
        if (details[d.name] || Object.hasOwn(decl.dialog?.schema?.properties ?? {}, d.name) || names.has(d.name)) throw new BizError(`${where}的名称「${d.name}」与其他字段或明细重复`);
        const child = await introspect(app, ds, await findTable(app, ds, d.table, req, d.tableSchema ?? null), req);
        if (child.kind !== 'table') throw new BizError(`${where}：「${d.table}」是视图`);
        const pks = child.columns.filter((c) => c.primaryKey);
        if (pks.length !== 1 || pks[0].name !== d.key) throw new BizError(`${where}：「${d.key}」不是表「${d.table}」的（单列）主键`);
        const childNames = new Set(usableColumns(child).map((c) => c.name));
        if (!childNames.has(d.foreignKey) || d.foreignKey === d.key) throw new BizError(`${where}：关联列「${d.foreignKey}」不是表「${d.table}」的列`);
        const bad = Object.keys(d.schema?.properties ?? {}).filter((f) => !childNames.has(f) || f === d.foreignKey);
        if (bad.length) throw new BizError(`${where}：${bad.map((f) => (f === d.foreignKey ? `字段「${f}」是关联列（由系统填写）` : `字段「${f}」不是表「${d.table}」的列`)).join('；')}`);
        const required = child.columns.filter((c) => !c.nullable && c.defaultValue === null && !c.autoIncrement && c.name !== d.foreignKey && !Object.hasOwn(d.schema?.properties ?? {}, c.name));
        if (required.length) throw new BizError(`${where}：表「${d.table}」的必填列「${required.map((c) => c.name).join('、')}」不在明细字段中`);
        details[d.name] = child;
      }
      return { ...cat, ...(Object.keys(related).length ? { related } : {}), ...(Object.keys(details).length ? { details } : {}) };
    };

    /* ------------------------------ pages ------------------------------ */

    app.post<{ Body: any }>('/page/search', { config: { perm: 'lowcode:page:list' }, schema: { body: listQuerySchema() } }, async (req) => {
      const q = (req.body ?? {}) as any;
      const win = pageOf(q, { pageKey: 'page_key', title: 'title', updateTime: 'update_time', createTime: 'create_time' });
      const text = typeof q.search === 'string' ? q.search.trim().toLowerCase() : '';
      const filter = (b: any) => {
        const live = b.where('deleted_time', 'is', null);
        return text ? live.where((eb: any) => eb.or([sql<boolean>`lower(page_key) like ${likePattern(text)} escape '\\'`, sql<boolean>`lower(title) like ${likePattern(text)} escape '\\'`])) : live;
      };
      const total = await filter(db.selectFrom('lowcode_page').select((eb: any) => eb.fn.countAll().as('n'))).executeTakeFirst();
      let list = filter(db.selectFrom('lowcode_page').selectAll());
      list = win.order ? list.orderBy(win.order.column, win.order.dir) : list.orderBy('id', 'desc');
      const rows = await list.limit(win.limit).offset(win.offset).execute();
      const counts = await recordCounts(rows.map((r: PageRow) => r.page_key));
      const changed = await sourceChanges(rows as PageRow[]);
      return ok({ records: rows.map((r: PageRow) => presentPage(r, false, counts.get(r.page_key), changed.has(r.page_key))), total: Number(total?.n ?? 0) });
    });

    app.get<{ Querystring: { id?: number; pageKey?: string } }>(
      '/page/get',
      {
        // page managers, or whoever may list the page (its own permission, or the old lowcode:data:list)
        schema: { querystring: { type: 'object', properties: { id: { type: 'integer', minimum: 1, title: '编号' }, pageKey: { type: 'string', maxLength: 50, title: '页面标识' } } } },
      },
      async (req) => {
        const { id, pageKey } = req.query;
        let key = pageKey;
        if (!key && id) key = (await db.selectFrom('lowcode_page').select('page_key').where('id', '=', id).where('deleted_time', 'is', null).executeTakeFirst())?.page_key;
        if (!key) throw new BizError(id || pageKey ? '页面不存在' : '请指定页面编号或页面标识');
        if (!has(req, 'lowcode:page:list')) need(req, key, 'list', !(await pageByKey(key).catch(() => undefined))?.source_catalogue);
        const { row } = await usablePage(req, key);
        return ok(presentPage(row, true, (await recordCounts([row.page_key])).get(row.page_key), (await sourceChanges([row])).has(row.page_key)));
      },
    );

    /**
     * Saves a page (new, or by id) with every check, publishes or withdraws its menu entry, and keeps the declaration
     * as a version (issue 37). The route's and a restore's one way in.
     */
    const savePage = async (req: FastifyRequest, body: any): Promise<number> => writePage(db, await preparePage(req, body), req);
    /** Checks a page to save as every save is checked; answers what writePage writes (a workspace import's check too). */
    const preparePage = async (req: FastifyRequest, body: any, opts: { dicts?: DictMap; roles?: string[] } = {}) => {
      let decl = jsonObjectField(body.declaration, { notJson: '页面声明不是合法的 JSON', notObject: '页面声明必须是对象' }) as any;
      const pageKey = String(body.pageKey ?? decl.id ?? '');
      if (!pageKey) throw new BizError('请输入页面标识');
      if (!KEY_RE.test(pageKey)) throw new BizError('页面标识须以小写字母开头，只能包含字母、数字、下划线和短横线，最长50个字符');
      if (decl.id !== undefined && decl.id !== pageKey) throw new BizError(`页面声明的 id（${decl.id}）必须与页面标识（${pageKey}）一致`);
      if (builtIn()[pageKey]) throw new BizError(`页面标识【${pageKey}】与内置页面冲突`);
      const title = String(body.title ?? decl.title ?? '').trim();
      if (!title) throw new BizError('请输入标题');
      decl = withGenericApi({ ...decl, title: decl.title ?? title }, pageKey);
      const validate = validator();
      if (!validate(decl)) throw new BizError(`页面声明不合法：${describeAjvErrors(validate.errors, { root: '页面声明' }).join('；')}`);
      // every pattern of the declaration judged off the event loop first, and kept (core/patterns.ts)
      await pinPatterns(patternsIn(decl));
      // a page on a table: its table introspected now, every name it uses checked, the catalogue kept with it
      const cat = (decl as PageDeclaration).source ? await catalogueFor(req, decl as PageDeclaration) : null;
      // the dictionaries it names: this deployment's, and those an import brings along with it
      const faults = semanticFaults(decl, { ...(await app.dicts.current()), ...opts.dicts }, cat ? usableColumns(cat).map((c) => c.name) : []);
      if (faults.length) throw new BizError(`页面声明不合法：${faults.join('；')}`);
      const roles: string[] = Array.isArray(body.roles) ? body.roles : [];
      // (an import's roles count too: they are written before its pages)
      const known = [...(await roleKeys()), ...(opts.roles ?? [])];
      const unknown = roles.filter((r) => !known.includes(r));
      if (unknown.length) throw new BizError(`角色不存在：${unknown.join('、')}`);
      const published = body.published === true || body.published === 1 ? 1 : 0;

      const stored = body.id ? await db.selectFrom('lowcode_page').selectAll().where('id', '=', body.id).where('deleted_time', 'is', null).executeTakeFirst() : undefined;
      if (body.id && !stored) throw new BizError('页面不存在');
      if (stored && stored.page_key !== pageKey) throw new BizError('页面标识保存后不能修改');
      const clash = await pageByKey(pageKey);
      if (clash && (!stored || clash.id !== stored.id)) throw new BizError(`页面标识【${pageKey}】已存在`);
      const binned = await db.selectFrom('lowcode_page').select('id').where('page_key', '=', pageKey).where('deleted_time', 'is not', null).executeTakeFirst();
      if (binned) throw new BizError(`页面标识【${pageKey}】已被回收站中的页面使用：请先在回收站中还原或彻底删除它`);
      // saving a page on a table is also its editor's word that its data source is the one meant (issue 34)
      const target = cat ? datasourceTarget(await sourceOf(app, decl as PageDeclaration)) : null;
      const row = { page_key: pageKey, title, declaration: JSON.stringify(decl), published, roles: JSON.stringify(roles), source_catalogue: cat ? JSON.stringify(cat) : null, source_target: target, update_time: now() };
      return { row, stored, pageKey, title, decl, roles, published, icon: body.icon as string | undefined, note: typeof body.note === 'string' ? body.note : null };
    };
    /** Writes a checked page (in `on`: the store, or an import's transaction), its menu entry and its version. */
    const writePage = async (on: typeof db, p: Awaited<ReturnType<typeof preparePage>>, req: FastifyRequest): Promise<number> => {
      const { row, stored, pageKey, title, decl, roles, published } = p;
      let id: number;
      if (stored) {
        await on.updateTable('lowcode_page').set(row).where('id', '=', stored.id).execute();
        id = stored.id;
      } else {
        const r = await on.insertInto('lowcode_page').values({ ...row, create_user: req.user!.username, create_time: now() }).returning('id').executeTakeFirstOrThrow();
        id = Number(r.id);
      }
      if (published) {
        await app.menus.upsert(menuEntryOf(pageKey, title, p.icon || 'FileTextOutlined', decl), roles, on);
      } else {
        await app.menus.remove(menuKeyOf(pageKey), on);
      }
      await app.versions.record('page', pageKey, decl, req, { title, note: p.note, published: published === 1 }, on);
      return id;
    };

    app.post<{ Body: any }>('/page/save', { config: { perm: 'lowcode:page:edit' }, schema: { body: pageBody } }, async (req) => ok(await savePage(req, req.body), '保存成功'));

    // workspace export and import (issue 37 item 3): a page checked and written as this save does
    registerPageWorkspace(app, { prepare: preparePage, write: writePage, perm: { list: 'lowcode:page:list', add: 'lowcode:page:add', edit: 'lowcode:page:edit' } });

    // versions of a page's declaration (core/versions.ts): seen and restored by page managers
    app.versions.register({
      kind: 'page',
      perm: 'lowcode:page:edit',
      current: async (key) => {
        const row = await pageByKey(key);
        return row ? { title: row.title, content: JSON.parse(row.declaration) } : null;
      },
      restore: async (key, content, req, note) => {
        const row = await pageByKey(key);
        if (!row) throw new BizError('页面不存在');
        // saved as a new save of the page: the same checks, its publication and roles as they are now
        await savePage(req, { id: row.id, pageKey: key, declaration: content, published: row.published, roles: JSON.parse(row.roles), note });
      },
    });

    // 删除 moves the page to the recycle bin (issue 37): marked deleted with its records kept, its menu entry and
    // buttons (with their role grants) taken along; 还原 puts them back, 彻底删除 and RECYCLE_DAYS end it
    app.get<{ Querystring: { id: number } }>('/page/delete', { config: { perm: 'lowcode:page:remove' }, schema: { querystring: idQuery } }, async (req) => {
      const row = await db.selectFrom('lowcode_page').selectAll().where('id', '=', req.query.id).where('deleted_time', 'is', null).executeTakeFirst();
      if (!row) throw new BizError('页面不存在');
      const menu = await app.menus.snapshot(menuKeyOf(row.page_key));
      const records = (await recordCounts([row.page_key])).get(row.page_key) ?? 0;
      const took = [
        ...(menu.rows.length ? [`菜单「${row.title}」及其 ${menu.rows.length - 1} 个按钮权限（${[...new Set(menu.grants.map((g) => g.role_key))].length} 个角色可见）`] : []),
        ...(records ? [`${records} 条记录`] : []),
      ];
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('lowcode_page').set({ deleted_time: now() }).where('id', '=', row.id).execute();
        await app.recycle.put('page', row.page_key, row.title, took, { menu }, req, trx);
      });
      await app.menus.remove(menuKeyOf(row.page_key));
      return ok(null, '删除成功');
    });

    app.recycle.register({
      kind: 'page',
      perm: 'lowcode:page:remove',
      restore: async (key, payload) => {
        const notes: string[] = [];
        // the menu first: if it cannot be put back, the page stays in the bin as it was
        if (payload?.menu?.rows?.length) {
          const { movedToTop } = await app.menus.restoreSnapshot(payload.menu);
          if (movedToTop) notes.push(`菜单「${movedToTop}」原来的上级菜单已不存在，已放在顶层`);
        }
        await db.updateTable('lowcode_page').set({ deleted_time: null }).where('page_key', '=', key).execute();
        return notes;
      },
      purge: async (key) => {
        // only a page still marked deleted, with its records, in one transaction
        await db.transaction().execute(async (trx) => {
          const gone = await trx.deleteFrom('lowcode_page').where('page_key', '=', key).where('deleted_time', 'is not', null).executeTakeFirst();
          if (Number(gone.numDeletedRows)) await trx.deleteFrom('lowcode_data').where('page_key', '=', key).execute();
        });
      },
    });

    /* ------------------------------ pages on existing tables ------------------------------ */

    const dsOf = async (dsId: number) => {
      const row = await app.sql.source('datasource', { id: dsId });
      if (!row) throw new BizError('数据源不存在');
      return row;
    };

    app.post<{ Body: { dsId: number } }>('/source/tables', { config: { perm: 'lowcode:page:edit' }, schema: { body: { type: 'object', required: ['dsId'], properties: { dsId: { type: 'integer', minimum: 1, maximum: 2147483647, title: '数据源' } } } } }, async (req) => {
      const records = await listTables(app, await dsOf(req.body.dsId), req);
      return ok({ records: records.map((t) => ({ name: t.name, schema: t.schema, table: t.table, kind: t.kind })), total: records.length });
    });

    app.post<{ Body: { dsId: number; table: string; schema?: string | null; selects?: string[]; pageKey?: string | null; title?: string | null; details?: Array<{ table: string; schema?: string | null; foreignKey?: string }> } }>(
      '/source/generate',
      {
        config: { perm: 'lowcode:page:edit' },
        schema: {
          body: {
            type: 'object',
            required: ['dsId', 'table'],
            properties: {
              dsId: { type: 'integer', minimum: 1, maximum: 2147483647, title: '数据源' },
              table: { type: 'string', minLength: 1, maxLength: 200, title: '数据表' },
              schema: { type: ['string', 'null'], maxLength: 128, title: '模式' },
              selects: { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 128 }, title: '下拉选择列' },
              pageKey: { type: ['string', 'null'], maxLength: 50, title: '页面标识' },
              title: { type: ['string', 'null'], maxLength: 100, title: '标题' },
              details: {
                type: 'array',
                maxItems: 5,
                title: '明细子表',
                items: { type: 'object', required: ['table'], additionalProperties: false, properties: { table: { type: 'string', maxLength: 128 }, schema: { type: ['string', 'null'], maxLength: 128 }, foreignKey: { type: 'string', maxLength: 128 } } },
              },
            },
          },
        },
      },
      async (req) => {
        const b = req.body;
        const ds = await dsOf(b.dsId);
        const ref = await findTable(app, ds, b.table, req, b.schema ?? null);
        const cat = await introspect(app, ds, ref, req);
        const pageKey = b.pageKey || pageKeyOf(ref.table);
        if (!KEY_RE.test(pageKey)) throw new BizError('页面标识须以小写字母开头，只能包含字母、数字、下划线和短横线，最长50个字符');
        const selects: Record<string, Array<string | number>> = {};
        for (const name of b.selects ?? []) {
          // the name is looked up in the catalogue; only then does it reach SQL, as the catalogue spells it
          const c = usableColumns(cat).find((x) => x.name === name);
          if (!c) throw new BizError(`列「${name}」不在表「${ref.name}」中`);
          selects[c.name] = await distinctValues(app, ds, cat, c.name, MAX_SELECT_OPTIONS, req);
        }
        // the tables its foreign keys reference (related records), and the chosen child tables (sub-lists of the dialog)
        const related: Record<string, TableCatalogue> = {};
        for (const c of cat.columns) {
          if (!c.references) continue;
          const other = await findTable(app, ds, c.references.table, req, c.references.schema).catch(() => null);
          if (other) related[c.name] = await introspect(app, ds, other, req);
        }
        const children = cat.kind === 'table' ? await foreignKeys(app, ds, ref, 'in', req) : [];
        const details: Array<{ cat: TableCatalogue; foreignKey: string }> = [];
        for (const want of b.details ?? []) {
          const fk = children.find((c) => c.table === want.table && (want.schema ? c.schema === want.schema : true) && (!want.foreignKey || c.column === want.foreignKey));
          if (!fk) throw new BizError(`表「${want.table}」没有引用表「${ref.name}」的外键，不能作为明细`);
          details.push({ cat: await introspect(app, ds, await findTable(app, ds, fk.table, req, fk.schema), req), foreignKey: fk.column });
        }
        const r = generateTablePage(cat, { pageKey, title: b.title ?? undefined, dsId: ds.id, dsName: ds.ds_name, selects, related, details });
        if (!r.ok) throw new BizError(r.reason);
        return ok({ declaration: r.declaration, notes: r.notes, columns: cat.columns, children: children.map((c) => ({ table: c.table, schema: c.schema, foreignKey: c.column })) });
      },
    );

    // the columns of a table of a data source (the page editor's related-table choice: its key and label columns)
    app.post<{ Body: { dsId: number; table: string; schema?: string | null } }>(
      '/source/columns',
      {
        config: { perm: 'lowcode:page:edit' },
        schema: {
          body: {
            type: 'object',
            required: ['dsId', 'table'],
            additionalProperties: false,
            properties: {
              dsId: { type: 'integer', minimum: 1, maximum: 2147483647, title: '数据源' },
              table: { type: 'string', minLength: 1, maxLength: 200, title: '数据表' },
              schema: { type: ['string', 'null'], maxLength: 128, title: '模式' },
            },
          },
        },
      },
      async (req) => {
        const ds = await dsOf(req.body.dsId);
        const cat = await introspect(app, ds, await findTable(app, ds, req.body.table, req, req.body.schema ?? null), req);
        return ok({ columns: usableColumns(cat).map((c) => ({ name: c.name, dataType: c.dataType, primaryKey: c.primaryKey, comment: c.comment ?? null })) });
      },
    );

    // the page manager's preview of a page on a table: the table's first rows of the declared columns (each looked up in
    // the catalogue before it reaches SQL), never made-up ones; read only, under the page manager's permission
    app.post<{ Body: { dsId: number; table: string; schema?: string | null; columns: string[] } }>(
      '/source/preview',
      {
        config: { perm: 'lowcode:page:edit' },
        schema: {
          body: {
            type: 'object',
            required: ['dsId', 'table', 'columns'],
            properties: {
              dsId: { type: 'integer', minimum: 1, maximum: 2147483647, title: '数据源' },
              table: { type: 'string', minLength: 1, maxLength: 200, title: '数据表' },
              schema: { type: ['string', 'null'], maxLength: 128, title: '模式' },
              columns: { type: 'array', minItems: 1, maxItems: 200, items: { type: 'string', maxLength: 128 }, title: '列' },
            },
          },
        },
      },
      async (req) => {
        const b = req.body;
        const ds = await dsOf(b.dsId);
        const ref = await findTable(app, ds, b.table, req, b.schema ?? null);
        const cat = await introspect(app, ds, ref, req);
        const q = new TableSql(cat);
        const names = [...new Set(b.columns)].filter((n) => cat.columns.some((c) => c.name === n));
        if (!names.length) throw new BizError(`所选的列都不在表「${ref.name}」中`);
        const r = await app.sql.run('datasource', ds, `select ${names.map((n) => q.id(n)).join(', ')} from ${q.table()} limit ${PREVIEW_ROWS}`, [], req);
        return ok({ records: r.rows, total: r.rows.length });
      },
    );

    /* ------------------------------ records ------------------------------ */

    /**
     * The WHERE and ORDER BY of a page's records under a list query (search on declared search fields, dictionary
     * filters, a sortable column); every JSON path bound. `fromQuery`: values came as query-string text.
     */
    const recordQuery = (pageKey: string, decl: PageDeclaration, q: any, fromQuery = false) => {
      const rules = new Map(fieldRulesOf(decl).map((r) => [r.field, r]));
      const sortable = sortableFieldsOf(decl);
      const searchFields = searchFieldsOf(decl).filter((f) => rules.has(f) && FIELD_RE.test(f));
      const text = typeof q.search === 'string' ? q.search.trim().toLowerCase() : '';
      const filterFields: string[] = (decl.columns ?? [])
        .filter((c: any) => c.filter === 'dict' && typeof c.field === 'string' && rules.has(c.filterField ?? c.field))
        .map((c: any) => c.filterField ?? c.field);
      const typed = (f: string, x: unknown) => {
        if (!fromQuery || typeof x !== 'string') return x;
        const t = rules.get(f)?.type;
        if ((t === 'integer' || t === 'number') && x.trim() !== '' && Number.isFinite(Number(x))) return Number(x);
        if (t === 'boolean' && (x === 'true' || x === 'false')) return x === 'true';
        return x;
      };
      const where = (b: any) => {
        b = b.where('page_key', '=', pageKey);
        if (text && searchFields.length) b = b.where((eb: any) => eb.or(searchFields.map((f) => sql<boolean>`lower(${jsonText(dialect, f)}) like ${likePattern(text)} escape '\\'`)));
        for (const f of filterFields) {
          const v = q[f];
          if (v === undefined || v === null || v === '' || (Array.isArray(v) && !v.length)) continue;
          // ->> answers text on PostgreSQL; json_extract answers 1/0 for booleans on SQLite
          const values = (Array.isArray(v) ? v : [v]).map((raw) => typed(f, raw)).map((x) => (dialect === 'postgres' ? String(x) : typeof x === 'boolean' ? Number(x) : x));
          b = b.where(sql<boolean>`${jsonText(dialect, f)} in (${sql.join(values)})`);
        }
        return b;
      };
      const order = (list: any) => {
        const col = q.orderByColumn;
        const dir = q.isAsc === 'desc' || q.isAsc === 'descending' ? 'desc' : 'asc';
        if (col && q.isAsc && sortable.includes(col)) {
          if (col === 'createTime' || col === 'updateTime' || col === 'id') list = list.orderBy(col === 'id' ? 'id' : col === 'createTime' ? 'create_time' : 'update_time', dir);
          else if (rules.has(col)) list = list.orderBy(jsonSortKey(dialect, col, rules.get(col)!.type), dir);
        }
        return list.orderBy('id', 'desc');
      };
      return { where, order };
    };

    const presentRecord = (r: any) => ({ ...JSON.parse(r.data), id: r.id, createTime: r.create_time, updateTime: r.update_time });

    app.post<{ Params: { pageKey: string }; Body: any }>(
      '/data/:pageKey/search',
      { schema: { body: { ...listQuerySchema({ after: { type: ['string', 'number', 'null'], maxLength: 200, title: '上一页最后一条的主键' } }), additionalProperties: { type: ['string', 'number', 'boolean', 'array', 'null'], maxLength: 200, maxItems: 50, items: { type: ['string', 'number', 'boolean'], maxLength: 200 } } } } },
      async (req) => {
        const { decl, table } = await dataPage(req, req.params.pageKey, 'list');
        const q = (req.body ?? {}) as any;
        if (table) return ok(await tableSearch(app, req, table, q));
        const { where, order } = recordQuery(req.params.pageKey, decl, q);
        const pageSize = q.pageSize ?? decl.pageSize ?? 10;
        const win = pageOf({ ...q, pageSize }, {});
        const total = await where(db.selectFrom('lowcode_data').select((eb: any) => eb.fn.countAll().as('n'))).executeTakeFirst();
        const rows = await order(where(db.selectFrom('lowcode_data').selectAll())).limit(win.limit).offset(win.offset).execute();
        return ok({ records: rows.map(presentRecord), total: Number(total?.n ?? 0) });
      },
    );

    // the related-record select (issue 34 item 3): a page of the related table's rows searched by label, or the labels
    // of given keys; for those who may add or edit the page's records, under the related table's page's data scope
    app.post<{ Params: { pageKey: string }; Body: { field: string; search?: string | null; pageNum?: number; pageSize?: number; values?: Array<string | number> } }>(
      '/data/:pageKey/options',
      {
        schema: {
          body: {
            type: 'object',
            required: ['field'],
            additionalProperties: false,
            properties: {
              field: { type: 'string', minLength: 1, maxLength: 64, title: '字段' },
              search: { type: ['string', 'null'], maxLength: 100, title: '搜索' },
              pageNum: { type: 'integer', minimum: 1, maximum: 10000, title: '页码' },
              pageSize: { type: 'integer', minimum: 1, maximum: 50, title: '每页条数' },
              values: { type: 'array', maxItems: 50, items: { type: ['string', 'integer'], maxLength: 200 }, title: '取值' },
            },
          },
        },
      },
      async (req) => {
        const pageKey = req.params.pageKey;
        const may = (a: 'add' | 'edit') => {
          try {
            need(req, pageKey, a, false);
            return true;
          } catch {
            return false;
          }
        };
        const { table } = await dataPage(req, pageKey, may('add') ? 'add' : 'edit');
        if (!table) throw new BizError(`字段「${req.body.field}」不是关联字段`);
        return ok(await tableOptions(app, req, table, req.body, await scopedOn(table, req.body.field)));
      },
    );

    app.get<{ Params: { pageKey: string }; Querystring: { id: number | string } }>('/data/:pageKey/get', { schema: { querystring: keyQuery } }, async (req) => {
      const { table } = await dataPage(req, req.params.pageKey, 'list');
      if (table) return ok(await tableGet(app, req, table, req.query.id));
      if (!isId(req.query.id)) throw new BizError('记录不存在');
      const r = await db.selectFrom('lowcode_data').selectAll().where('page_key', '=', req.params.pageKey).where('id', '=', Number(req.query.id)).executeTakeFirst();
      if (!r) throw new BizError('记录不存在');
      return ok(presentRecord(r));
    });

    /** A new record: insert only (a page on a table, whose key may be typed in; the generic store's save without id). */
    app.post<{ Params: { pageKey: string }; Body: any }>('/data/:pageKey/add', { schema: { body: { type: 'object' } } }, async (req) => {
      const { decl, table } = await dataPage(req, req.params.pageKey, 'add');
      if (table) return ok(await tableInsert(app, req, table, req.body as Record<string, unknown>, await app.dicts.current()), '保存成功');
      const rec = checkBody(decl, req.body, { dicts: await app.dicts.current(), applyDefaults: true });
      const data = JSON.stringify(rec);
      if (data.length > 1_000_000) throw new BizError('记录过大');
      const r = await db.insertInto('lowcode_data').values({ page_key: req.params.pageKey, data, create_user: req.user!.username, create_time: now(), update_time: now() }).returning('id').executeTakeFirstOrThrow();
      return ok(Number(r.id), '保存成功');
    });

    app.post<{ Params: { pageKey: string }; Body: any }>('/data/:pageKey/save', { schema: { body: { type: 'object' } } }, async (req) => {
      const body = req.body as any;
      const probe = await pageByKey(req.params.pageKey).catch(() => undefined);
      if (probe?.source_catalogue) {
        // a page on a table: save updates by the key; a record without one is new (an identity key the database fills)
        const stored = JSON.parse(probe.declaration) as PageDeclaration;
        const isNew = isEmptyValue(body[stored.source?.key]);
        const { table } = await dataPage(req, req.params.pageKey, isNew ? 'add' : 'edit');
        const dicts = await app.dicts.current();
        return ok(isNew ? await tableInsert(app, req, table!, body, dicts) : await tableUpdate(app, req, table!, body, dicts), '保存成功');
      }
      const id = body.id ?? undefined;
      const { decl } = await dataPage(req, req.params.pageKey, id === undefined || id === null ? 'add' : 'edit');
      if (id !== undefined && id !== null && !(Number.isInteger(id) && id > 0)) throw new BizError('编号不合法');
      const stored = id ? await db.selectFrom('lowcode_data').selectAll().where('page_key', '=', req.params.pageKey).where('id', '=', id).executeTakeFirst() : undefined;
      if (id && !stored) throw new BizError('记录不存在');
      const rec = checkBody(decl, body, { dicts: await app.dicts.current(), applyDefaults: !stored });
      if (stored) {
        for (const f of decl.dialog?.lockedInEdit ?? []) if (f in rec) rec[f] = JSON.parse(stored.data)[f];
      }
      const data = JSON.stringify(rec);
      if (data.length > 1_000_000) throw new BizError('记录过大');
      if (stored) {
        await db.updateTable('lowcode_data').set({ data, update_time: now() }).where('id', '=', stored.id).execute();
        return ok(stored.id, '保存成功');
      }
      const r = await db.insertInto('lowcode_data').values({ page_key: req.params.pageKey, data, create_user: req.user!.username, create_time: now(), update_time: now() }).returning('id').executeTakeFirstOrThrow();
      return ok(Number(r.id), '保存成功');
    });

    // 导出 (CSV / Excel) of the records under the list's search and filters, every page of them (core/sheets.ts):
    // the generic store's, or the page's table's (tableRows: keyset batches, bound SQL)
    app.get<{ Params: { pageKey: string }; Querystring: Record<string, unknown> & { format?: SheetFormat } }>(
      '/data/:pageKey/export',
      {
        schema: { querystring: { ...listQuerySchema({ format: { type: 'string', enum: ['csv', 'xlsx'], title: '导出格式' } }), additionalProperties: { type: ['string', 'array'], maxLength: 200, maxItems: 50, items: { type: 'string', maxLength: 200 } } } },
      },
      async (req, reply) => {
        const { decl, table } = await dataPage(req, req.params.pageKey, 'export');
        const { format, pageNum: _n, pageSize: _s, ...q } = req.query;
        // the generic store's records under the list's query; a page on a table reads its own (tableRows)
        const storeRows = () => {
          const { where, order } = recordQuery(req.params.pageKey, decl, q, true);
          return pagedRows(async (pageNum, size) => (await order(where(db.selectFrom('lowcode_data').selectAll())).limit(size).offset((pageNum - 1) * size).execute()).map(presentRecord));
        };
        return sendSheet(reply, {
          name: String(decl.title ?? req.params.pageKey),
          fallback: req.params.pageKey,
          format: format ?? 'csv',
          columns: exportColumnsOf(decl),
          dicts: await app.dicts.current(),
          rows: table ? tableRows(app, req, table, q) : storeRows(),
        });
      },
    );

    // 导入: preview, or every row in one transaction or none (core/sheets.ts importSheet); a page on a table inserts
    // into it in one transaction on its data source (tableImport), a page on a view refuses
    await app.register(async (scope) => {
      acceptSheets(scope);
      scope.post<{ Params: { pageKey: string } }>('/data/:pageKey/import', async (req) => {
        const { decl, table } = await dataPage(req, req.params.pageKey, 'import');
        const user = req.user!.username;
        const dicts = await app.dicts.current();
        return importSheet(req, {
          page: decl,
          dicts,
          write: async (records) => {
            if (table) {
              const { faults } = await tableImport(app, req, table, records.map((r) => r.record), dicts);
              if (faults.length) throw new BizError(faults.map((f) => `第 ${records[f.row - 1]?.row ?? f.row} 行：${f.reason}`).join('；'));
              return;
            }
            const time = now();
            await db.transaction().execute(async (trx) => {
              for (const { row, record } of records) {
                const data = JSON.stringify(record);
                if (data.length > 1_000_000) throw new BizError(`第 ${row} 行：记录过大`);
                await trx.insertInto('lowcode_data').values({ page_key: req.params.pageKey, data, create_user: user, create_time: time, update_time: time }).execute();
              }
            });
          },
        });
      });
    });

    app.get<{ Params: { pageKey: string }; Querystring: { id: number | string } }>('/data/:pageKey/delete', { schema: { querystring: keyQuery } }, async (req) => {
      const { table } = await dataPage(req, req.params.pageKey, 'remove');
      if (table) {
        await tableDelete(app, req, table, req.query.id);
        return ok(null, '删除成功');
      }
      if (!isId(req.query.id)) throw new BizError('记录不存在');
      const r = await db.deleteFrom('lowcode_data').where('page_key', '=', req.params.pageKey).where('id', '=', Number(req.query.id)).executeTakeFirst();
      if (!Number(r.numDeletedRows)) throw new BizError('记录不存在');
      return ok(null, '删除成功');
    });
  },
};
