// 数据集 (issue 35): datasets on a table, on tables joined, on a SQL statement (developers only), with fields that
// are dimensions or measures and calculated fields; chart answers aggregated in the database (compile.ts), shaped
// for the chart, with row rules per role or user applied to every answer, cached per dataset version (Redis with
// REDIS_URL, else in process) and shared by identical queries that arrive while one runs.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { assertPermission } from '../../core/auth.js';
import { findTable, introspect, listTables } from '../../core/catalogue.js';
import { BizError, ok } from '../../core/envelope.js';
import { idQuery, isUniqueViolation, likePattern } from '../../core/declarations.js';
import { DATASOURCE_TABLE, type DatasourceTable } from '../../core/datasources.js';
import { tableTopic } from '../../core/invalidation.js';
import { listQuerySchema, pageOf } from '../../core/list.js';
import type { ServerModule } from '../../core/module.js';
import { DATASET_OPTIONS_MAX, type DatasetOption } from '../../core/platform.js';
import { hasPermission } from '../../core/permissions.js';
import { now } from '../../store/columns.js';
import { checkApiScript, SqlConnectorError, type DbType } from '../../connectors/sql/index.js';
import { valueKindOf } from '../../../common/tablePage.js';
import { AGGREGATIONS, DATASET_MAX_POINTS, DATE_GROUPS, FIELD_NAME_RE, OTHER_LABEL, dimensionKey, measureKey, type DatasetField, type DatasetQuery, type FieldType } from '../../../common/dataset.js';
import { pagedRows, sendSheet, type SheetColumn, type SheetFormat } from '../../core/sheets.js';
import { storedWidgetQuery } from '../../../common/datasetQuery.js';
import { buildQuery, DatasetSql, FieldCompiler, fromClause, parseFieldExpr, type CompiledDataset, type DatasetSource } from './compile.js';
import { DuckFiles } from './duck.js';
import { dataColumns } from './files.js';
import { chartsOf, fileRoutes } from './fileRoutes.js';
import { datasetDeletedMigration, datasetGroups, datasets } from './tables.js';
import { registerDatasetWorkspace } from './workspace.js';
import { Ajv } from 'ajv';
import { describeAjvErrors } from '../../../common/ajv-messages.js';

export const PERM = {
  list: 'datav:dataset:list',
  add: 'datav:dataset:add',
  edit: 'datav:dataset:edit',
  remove: 'datav:dataset:remove',
  sql: 'datav:dataset:sql',
  query: 'datav:dataset:query',
} as const;

export const DATASET_SAVE_MSG = {
  notFound: '数据集不存在',
  nameRequired: '请输入数据集名称',
  sqlOnlyDevelopers: '只有开发人员（拥有 datav:dataset:sql 权限）可以创建或修改 SQL 数据集',
  noFields: '数据集至少要有一个字段',
  dsRequired: '请选择数据源',
  groupMissing: '分组不存在',
  fileByUpload: 'Excel / CSV 数据集由上传文件创建；已有的数据集不能改为文件类型，文件数据集也不能改为其他类型',
  stale: '数据集已被他人修改，请刷新后重试',
} as const;

/** A source's statements: the compiled dataset and where they run. */
interface Target {
  d: CompiledDataset;
  run: (text: string, params: Record<string, unknown>) => Promise<{ rows: Record<string, unknown>[]; columns: string[] }>;
}

/** Fields as stored: a column field keeps its column (and a join's table alias), a calculated one its expression. */
const storedFields = (fields: DatasetField[], kind: string): DatasetField[] =>
  fields.map((f) => ({ name: f.name, label: f.label.trim(), type: f.type, role: f.role, format: f.format ?? null, column: f.expr ? null : (f.column ?? f.name), table: f.expr ? null : kind === 'join' ? f.table : null, expr: f.expr || null }));

interface RowRule {
  /** who the rule is for: a role key or an account */
  subject: 'role' | 'user';
  key: string;
  field: string;
  /** the field equals one of these values … */
  values?: Array<string | number>;
  /** … or an attribute of the signed-in user: their account, their department's id, or it and every one below it */
  attribute?: 'username' | 'department' | 'departmentTree';
}

type DatasetRow = {
  id: number;
  group_id: number;
  name: string;
  kind: string;
  ds_id: number | null;
  definition: string;
  fields: string;
  row_rules: string;
  cache_ttl: number;
  version: number;
  create_user: string | null;
  create_time: string;
  update_time: string;
};

const fieldSchema = {
  type: 'object',
  required: ['name', 'label', 'type', 'role'],
  properties: {
    name: { type: 'string', maxLength: 64, title: '字段名' },
    label: { type: 'string', maxLength: 100, title: '字段标签' },
    type: { enum: ['text', 'number', 'date', 'boolean'], title: '字段类型' },
    role: { enum: ['dimension', 'measure'], title: '字段角色' },
    format: { type: ['string', 'null'], maxLength: 50, title: '格式' },
    column: { type: ['string', 'null'], maxLength: 128, title: '列' },
    table: { type: ['string', 'null'], maxLength: 8, title: '表别名' },
    expr: { type: ['string', 'null'], maxLength: 2000, title: '计算表达式' },
  },
  additionalProperties: false,
} as const;

const tableRef = { type: 'object', required: ['table'], properties: { schema: { type: ['string', 'null'], maxLength: 128, title: '模式' }, table: { type: 'string', minLength: 1, maxLength: 128, title: '表' } } } as const;
const colRef = { type: 'object', required: ['alias', 'column'], properties: { alias: { type: 'string', pattern: '^t[0-9]{1,2}$', title: '表别名' }, column: { type: 'string', minLength: 1, maxLength: 128, title: '列' } } } as const;

const definitionSchema = {
  type: 'object',
  properties: {
    file: { type: 'object', title: '文件' },
    table: tableRef,
    tables: { type: 'array', minItems: 1, maxItems: 8, items: { ...tableRef, properties: { ...tableRef.properties, alias: { type: 'string', pattern: '^t[0-9]{1,2}$', title: '表别名' } }, required: ['table', 'alias'] }, title: '表' },
    joins: { type: 'array', maxItems: 16, items: { type: 'object', required: ['type', 'left', 'right'], properties: { type: { enum: ['inner', 'left'], title: '连接方式' }, left: colRef, right: colRef } }, title: '连接' },
    sql: { type: 'string', maxLength: 100000, title: 'SQL' },
    params: { type: 'array', maxItems: 50, items: { type: 'object', required: ['name'], properties: { name: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$', title: '参数名' }, value: { title: '默认值' } } }, title: '参数' },
  },
  additionalProperties: false,
} as const;

const ruleSchema = {
  type: 'object',
  required: ['subject', 'key', 'field'],
  properties: {
    subject: { enum: ['role', 'user'], title: '规则对象' },
    key: { type: 'string', minLength: 1, maxLength: 100, title: '角色或账号' },
    field: { type: 'string', maxLength: 64, title: '字段' },
    values: { type: 'array', maxItems: 200, items: { type: ['string', 'number'], maxLength: 200 }, title: '取值' },
    attribute: { enum: ['username', 'department', 'departmentTree'], title: '用户属性' },
  },
  additionalProperties: false,
} as const;

const draftProperties = {
  kind: { enum: ['table', 'join', 'sql', 'file'], title: '数据集类型' },
  dsId: { type: 'integer', minimum: 1, maximum: 2147483647, title: '数据源' },
  definition: definitionSchema,
} as const;

const saveBody = {
  type: 'object',
  // a file dataset has no data source, and its definition (the stored file) is never the caller's to set
  required: ['name', 'kind', 'fields'],
  properties: {
    id: { type: ['integer', 'null'], minimum: 1, maximum: 2147483647, title: '编号' },
    groupId: { type: ['integer', 'null'], minimum: 0, maximum: 2147483647, title: '分组' },
    name: { type: 'string', maxLength: 100, title: '数据集名称' },
    ...draftProperties,
    dsId: { type: ['integer', 'null'], minimum: 1, maximum: 2147483647, title: '数据源' },
    fields: { type: 'array', minItems: 1, maxItems: 300, items: fieldSchema, title: '字段' },
    rowRules: { type: 'array', maxItems: 200, items: ruleSchema, title: '行权限' },
    cacheTtl: { type: 'integer', minimum: 0, maximum: 86400, title: '缓存秒数' },
  },
} as const;

const querySchema = {
  type: 'object',
  required: ['datasetId'],
  properties: {
    datasetId: { type: 'integer', minimum: 1, maximum: 2147483647, title: '数据集' },
    dimensions: { type: 'array', maxItems: 5, items: { type: 'object', required: ['field'], properties: { field: { type: 'string', maxLength: 64 }, dateGroup: { enum: ['year', 'quarter', 'month', 'week', 'day', null] } }, additionalProperties: false }, title: '维度' },
    measures: { type: 'array', maxItems: 10, items: { type: 'object', required: ['field', 'agg'], properties: { field: { type: 'string', maxLength: 64 }, agg: { enum: ['sum', 'count', 'countDistinct', 'avg', 'max', 'min'] } }, additionalProperties: false }, title: '指标' },
    filters: { type: 'array', maxItems: 30, items: { type: 'object', required: ['field', 'op'], properties: { field: { type: 'string', maxLength: 64 }, op: { enum: ['eq', 'ne', 'in', 'notIn', 'gt', 'gte', 'lt', 'lte', 'between', 'like', 'isNull', 'notNull'] }, value: {} }, additionalProperties: false }, title: '筛选' },
    sort: { type: 'array', maxItems: 5, items: { type: 'object', required: ['field', 'dir'], properties: { field: { type: 'string', maxLength: 64 }, agg: { enum: ['sum', 'count', 'countDistinct', 'avg', 'max', 'min', null] }, dir: { enum: ['asc', 'desc'] } }, additionalProperties: false }, title: '排序' },
    top: { type: ['object', 'null'], required: ['n', 'rest'], properties: { n: { type: 'integer', minimum: 1, maximum: 1000 }, rest: { enum: ['other', 'drop'] } }, additionalProperties: false, title: '前 N 项' },
    page: { type: ['object', 'null'], required: ['pageNum', 'pageSize'], properties: { pageNum: { type: 'integer', minimum: 1, maximum: 100000 }, pageSize: { type: 'integer', minimum: 1, maximum: 500 } }, additionalProperties: false, title: '分页' },
  },
  additionalProperties: false,
} as const;

/** What a file dataset's definition holds: its DuckDB file (one per version, duck.ts), the sheet and the upload's name. */
interface FileDefinition {
  file: { name: string; sheet: string; fileName: string; rows: number };
}

/** A stored definition (as the save call takes it) → the compiler's source, and back. */
function sourceOf(kind: string, def: any): DatasetSource {
  if (kind === 'file') return { kind: 'table', schema: null, table: 'data' };
  if (kind === 'table') return { kind, schema: def.table?.schema ?? null, table: def.table?.table };
  if (kind === 'join') return { kind, tables: def.tables ?? [], joins: def.joins ?? [] };
  return { kind: 'sql', sql: String(def.sql ?? ''), params: def.params ?? [] };
}
function definitionOf(s: DatasetSource): Record<string, unknown> {
  if (s.kind === 'table') return { table: { schema: s.schema ?? null, table: s.table } };
  if (s.kind === 'join') return { tables: s.tables, joins: s.joins };
  return { sql: s.sql, params: s.params ?? [] };
}

const dialectOf = (ds: DatasourceTable) => String(ds.db_type).toLowerCase() as DbType;
const stable = (v: unknown): string => JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x));

/** A field's type from the catalogue's column type. */
function typeOfColumn(dataType: string, precision: number | null, scale: number | null): FieldType {
  const kind = valueKindOf({ dataType, precision, scale });
  if (kind === 'integer' || kind === 'number') return 'number';
  if (kind === 'date' || kind === 'datetime') return 'date';
  if (kind === 'boolean') return 'boolean';
  return 'text';
}

/** A field's type from values read (a SQL dataset's columns have no catalogue). */
function typeOfValues(values: unknown[]): FieldType {
  const seen = values.filter((v) => v !== null && v !== undefined);
  if (!seen.length) return 'text';
  if (seen.every((v) => typeof v === 'number' || typeof v === 'bigint' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)))) return 'number';
  if (seen.every((v) => v instanceof Date || (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?/.test(v)))) return 'date';
  if (seen.every((v) => typeof v === 'boolean')) return 'boolean';
  return 'text';
}

const fieldFor = (name: string, type: FieldType, extra: Partial<DatasetField> = {}): DatasetField => ({
  name,
  label: name,
  type,
  // numbers are measures, except what names a key
  role: type === 'number' && !/(^id$|_id$|Id$)/.test(name) ? 'measure' : 'dimension',
  ...extra,
});

export const datasetModule: ServerModule = {
  name: 'dataset',
  prefix: '/api/dataset',
  service: 'platform',
  needs: ['sql', 'datasets', 'org', 'versions', 'recycle', 'workspace'],
  migrations: { ...datasetGroups.migrations, ...datasets.migrations, ...datasetDeletedMigration },
  plugin: async (app: FastifyInstance) => {
    // the platform cache already keeps deployments apart (core/cache.ts prefixes its Redis keys)
    const { db, cache } = app.ctx;
    /** identical statements running now: a second caller waits for the first one's answer */
    const running = new Map<string, Promise<unknown>>();

    const loadRow = async (id: number): Promise<DatasetRow> => {
      const row = (await db.selectFrom('dataset').selectAll().where('id', '=', id).where('deleted_time', 'is', null).executeTakeFirst()) as DatasetRow | undefined;
      if (!row) throw new BizError(DATASET_SAVE_MSG.notFound);
      return row;
    };
    const sourceRow = async (dsId: number | null): Promise<DatasourceTable> => {
      const ds = dsId ? await app.sql.source('datasource', { id: dsId }) : undefined;
      if (!ds) throw new BizError('数据集的数据源不存在或已删除');
      return ds;
    };
    // file datasets' rows: DuckDB files under DATA_DIR/duckdb, one per version (duck.ts)
    const duck = new DuckFiles(app.ctx.config.dataDir, { timeoutMs: 30_000 });
    app.addHook('onClose', async () => duck.close());
    const fileOf = (row: Pick<DatasetRow, 'definition'>) => (JSON.parse(row.definition) as FileDefinition).file;
    fileRoutes(app, { duck, perm: PERM, loadRow, fileOf, msg: DATASET_SAVE_MSG });

    /** A file dataset's stored columns, as checkFields takes them. */
    const fileColumns = async (row: Pick<DatasetRow, 'definition'>) => {
      const cols = await dataColumns((q) => duck.run(fileOf(row).name, q), null);
      return new Map([['t0', new Set(cols.map((c) => c.name))]]);
    };

    /** Where a saved dataset's statements run: its data source, or its DuckDB file. */
    const targetOf = async (row: DatasetRow, req: FastifyRequest, ds?: DatasourceTable): Promise<Target> => {
      const fields = JSON.parse(row.fields) as DatasetField[];
      if (row.kind === 'file') {
        const f = fileOf(row);
        return { d: { dialect: 'duckdb', source: sourceOf('file', null), fields }, run: (text, params) => duck.run(f.name, text, params) };
      }
      const source = ds ?? (await sourceRow(row.ds_id));
      return { d: { dialect: dialectOf(source), source: sourceOf(row.kind, JSON.parse(row.definition)), fields }, run: (text, params) => app.sql.run('datasource', source, text, params, req) };
    };

    // a chart's answer reads no store row in the common case: the dataset and its data source held in memory until
    // either table is written (on any instance: core/invalidation.ts), so a save is seen at once everywhere
    const held = app.ctx.invalidation.memo<number, { row: DatasetRow; ds?: DatasourceTable }>([tableTopic('dataset'), tableTopic(DATASOURCE_TABLE)], { max: 5_000 });
    const heldRow = (id: number) =>
      held.get(id, async () => {
        const row = await loadRow(id);
        return { row, ds: row.kind === 'file' ? undefined : await sourceRow(row.ds_id) };
      });

    /** Checks a definition against the catalogue (tables, columns) or the SQL checks; answers the source and its columns. */
    const checkDefinition = async (req: FastifyRequest, kind: string, ds: DatasourceTable, def: any): Promise<{ source: DatasetSource; columns: Map<string, Set<string>>; sample?: { columns: string[]; rows: Record<string, unknown>[] }; catalogue?: Map<string, Array<{ name: string; type: FieldType }>> }> => {
      const columns = new Map<string, Set<string>>();
      const catalogue = new Map<string, Array<{ name: string; type: FieldType }>>();
      if (kind === 'table') {
        if (!def.table) throw new BizError('请选择数据表');
        const ref = await findTable(app, ds, def.table.table, req, def.table.schema ?? null);
        const cat = await introspect(app, ds, ref, req);
        columns.set('t0', new Set(cat.columns.map((c) => c.name)));
        catalogue.set('t0', cat.columns.map((c) => ({ name: c.name, type: typeOfColumn(c.dataType, c.precision, c.scale) })));
        return { source: { kind: 'table', schema: ref.schema, table: ref.table }, columns, catalogue };
      }
      if (kind === 'join') {
        const tables: Array<{ alias: string; schema: string | null; table: string }> = [];
        if (!Array.isArray(def.tables) || def.tables.length < 2) throw new BizError('关联数据集至少要有两张表');
        for (const t of def.tables) {
          if (tables.some((x) => x.alias === t.alias)) throw new BizError(`表别名 ${t.alias} 重复`);
          const ref = await findTable(app, ds, t.table, req, t.schema ?? null);
          const cat = await introspect(app, ds, ref, req);
          tables.push({ alias: t.alias, schema: ref.schema, table: ref.table });
          columns.set(t.alias, new Set(cat.columns.map((c) => c.name)));
          catalogue.set(t.alias, cat.columns.map((c) => ({ name: c.name, type: typeOfColumn(c.dataType, c.precision, c.scale) })));
        }
        const joins = (def.joins ?? []) as Array<{ type: 'inner' | 'left'; left: { alias: string; column: string }; right: { alias: string; column: string } }>;
        for (const j of joins) {
          for (const side of [j.left, j.right]) if (!columns.get(side.alias)?.has(side.column)) throw new BizError(`连接条件中的列「${side.alias}.${side.column}」不在所选的表中`);
          if (tables.findIndex((t) => t.alias === j.left.alias) >= tables.findIndex((t) => t.alias === j.right.alias)) throw new BizError('连接条件的左边应为前面的表，右边为要连接的表');
        }
        for (const t of tables.slice(1)) if (!joins.some((j) => j.right.alias === t.alias)) throw new BizError(`表「${t.table}」没有连接条件：请选择两边的列`);
        return { source: { kind: 'join', tables, joins }, columns, catalogue };
      }
      if (kind === 'sql') {
        assertPermission(req, PERM.sql);
        const text = String(def.sql ?? '');
        if (!text.trim()) throw new BizError('请输入 SQL');
        try {
          checkApiScript(text, dialectOf(ds));
        } catch (err) {
          throw err instanceof SqlConnectorError ? new BizError(err.message) : err;
        }
        const params = (def.params ?? []) as Array<{ name: string; value: unknown }>;
        const source: DatasetSource = { kind: 'sql', sql: text, params };
        // the statement read as a subquery (a writing statement cannot be one), 100 rows to learn its columns
        const q = new DatasetSql(dialectOf(ds));
        const r = await app.sql.run('datasource', ds, `select * from ${fromClause(q, { dialect: q.dialect, source, fields: [] })} limit 100`, q.params, req);
        columns.set('t0', new Set(r.columns));
        catalogue.set('t0', r.columns.map((c) => ({ name: c, type: typeOfValues(r.rows.map((x) => x[c])) })));
        return { source, columns, sample: { columns: r.columns, rows: r.rows }, catalogue };
      }
      throw new BizError('数据集类型不合法');
    };

    /** Checks fields: names, every column in the source, every expression parsed against the fields. */
    const checkFields = (fields: DatasetField[], kind: string, columns: Map<string, Set<string>>) => {
      const seen = new Set<string>();
      for (const f of fields) {
        if (!FIELD_NAME_RE.test(f.name)) throw new BizError(`字段名「${String(f.name).slice(0, 64)}」只能包含字母、数字和下划线，且不以数字开头`);
        if (seen.has(f.name)) throw new BizError(`字段名「${f.name}」重复`);
        seen.add(f.name);
        if (!String(f.label ?? '').trim()) throw new BizError(`字段「${f.name}」缺少标签`);
        if (f.expr) continue;
        const alias = kind === 'join' ? (f.table ?? '') : 't0';
        if (!columns.get(alias)?.has(f.column ?? f.name)) throw new BizError(`字段「${f.label}」的列「${f.column ?? f.name}」不在数据集的来源中`);
      }
      for (const f of fields) if (f.expr) parseFieldExpr(f, fields);
    };

    /** The rules that apply to the caller (by role or account). */
    const rulesOfCaller = (req: FastifyRequest, rules: RowRule[]) => {
      const me = req.user;
      return rules.filter((r) => (r.subject === 'user' ? me?.username === r.key : (me?.roles ?? []).includes(r.key)));
    };
    /** The caller's department (and those below it), read only when one of their rules names it (core/org.ts). */
    const deptsOfCall = new WeakMap<FastifyRequest, Promise<{ deptId: number | null; deptIds: number[] }>>();
    const departmentsOf = async (req: FastifyRequest, rules: RowRule[]): Promise<{ deptId: number | null; deptIds: number[] }> => {
      const me = req.user;
      if (!me || !rulesOfCaller(req, rules).some((r) => r.attribute === 'department' || r.attribute === 'departmentTree')) return { deptId: null, deptIds: [] };
      // read once per call, however many of a screen's charts ask under a department rule
      let p = deptsOfCall.get(req);
      if (!p) deptsOfCall.set(req, (p = app.org.deptOf(me.id)));
      return p;
    };
    /** The compiled row rules for the caller: null when none applies (every row), else one condition. */
    const rulesFor = (req: FastifyRequest, rules: RowRule[], depts: { deptId: number | null; deptIds: number[] }) => (c: FieldCompiler): string | null => {
      const me = req.user;
      const mine = rulesOfCaller(req, rules);
      if (!mine.length) return null;
      const parts = mine.map((r) => {
        if (r.attribute === 'username') return c.filter({ field: r.field, op: 'eq', value: me!.username });
        // a user in no department sees no row of a department rule
        if (r.attribute === 'department') return depts.deptId == null ? '1 = 0' : c.filter({ field: r.field, op: 'eq', value: depts.deptId });
        if (r.attribute === 'departmentTree') return depts.deptIds.length ? c.filter({ field: r.field, op: 'in', value: depts.deptIds }) : '1 = 0';
        if (!r.values?.length) return '1 = 0';
        return c.filter({ field: r.field, op: 'in', value: r.values });
      });
      return `(${parts.join(' or ')})`;
    };

    /** Runs one statement, once for every identical one arriving meanwhile, cached for the dataset's TTL. */
    const answer = async <T>(key: string, ttl: number, run: () => Promise<T>): Promise<{ value: T; cached: boolean }> => {
      if (ttl > 0) {
        const hit = await cache.get<T>(key);
        if (hit !== undefined) return { value: hit, cached: true };
      }
      const waiting = running.get(key) as Promise<T> | undefined;
      if (waiting) return { value: await waiting, cached: false };
      const p = run();
      running.set(key, p);
      try {
        const value = await p;
        if (ttl > 0) await cache.set(key, value, ttl);
        return { value, cached: false };
      } finally {
        running.delete(key);
      }
    };

    const num = (v: unknown) => (v === null || v === undefined ? null : typeof v === 'number' ? v : Number.isFinite(Number(v)) ? Number(v) : v);

    /** A dataset as an answer needs it: its row, where its statements run (compiled definition) and its row rules. */
    type Loaded = { row: DatasetRow; target: Target; rules: RowRule[] };
    const loadDataset = async (req: FastifyRequest, id: number): Promise<Loaded> => {
      const { row, ds } = await heldRow(id);
      return { row, target: await targetOf(row, req, ds), rules: JSON.parse(row.row_rules) as RowRule[] };
    };
    /**
     * Datasets read once per call: a screen's charts mostly ask the same dataset, and reading its row, its data
     * source and parsing its definition for each of them held the event loop long enough, with many viewers, that
     * identical statements no longer met while one ran (bench/dataset/viewers.ts). Between calls the row and the
     * source are held in memory (heldRow).
     */
    const loaderForCall = (req: FastifyRequest) => {
      const seen = new Map<number, Promise<Loaded>>();
      return (id: number) => {
        let p = seen.get(id);
        if (!p) seen.set(id, (p = loadDataset(req, id)));
        return p;
      };
    };

    /** One chart query's answer: rows keyed by dimension and measure, measures as numbers. */
    const runQuery = async (req: FastifyRequest, query: DatasetQuery, load: (id: number) => Promise<Loaded> = loaderForCall(req)) => {
      const {
        row,
        target: { d, run },
        rules: rowRules,
      } = await load(query.datasetId);
      const rules = rulesFor(req, rowRules, await departmentsOf(req, rowRules));
      const st = buildQuery(d, query, rules);
      const measureKeys = (query.measures ?? []).map(measureKey);
      const shape = (rows: Record<string, unknown>[]) => rows.map((r) => Object.fromEntries(st.keys.map((k) => [k, measureKeys.includes(k) ? num(r[k]) : r[k] instanceof Date ? (r[k] as Date).toISOString() : r[k]])));
      const key = `dataset:${row.id}:${row.version}:${createHash('sha256').update(stable({ sql: st.sql, params: st.params, count: st.count?.sql, top: query.top ?? null })).digest('hex')}`;
      const { value, cached } = await answer(key, row.cache_ttl, async () => {
        const r = await run(st.sql, st.params);
        let rows = shape(r.rows);
        let truncated = false;
        let total: number | undefined;
        if (st.count) total = Number(Object.values((await run(st.count.sql, st.count.params)).rows[0] ?? {})[0] ?? 0);
        else if (!query.top && rows.length > DATASET_MAX_POINTS) {
          rows = rows.slice(0, DATASET_MAX_POINTS);
          truncated = true;
        }
        // the rest of a top N as one more row, 其他: the same measures over every other group
        if (query.top?.rest === 'other' && query.dimensions?.length && query.measures?.length && rows.length >= query.top.n) {
          const first = query.dimensions[0];
          const restQuery: DatasetQuery = { ...query, dimensions: [], top: null, sort: [] };
          const rest = buildQuery(d, restQuery, rules, { exclude: { dim: first, values: rows.map((x) => x[dimensionKey(first)]) } });
          const r2 = await run(rest.sql, rest.params);
          const other = r2.rows[0];
          if (other && measureKeys.some((k) => num(other[k]) !== null && num(other[k]) !== 0)) {
            rows.push(Object.fromEntries(st.keys.map((k) => [k, measureKeys.includes(k) ? num(other[k]) : k === dimensionKey(first) ? OTHER_LABEL : null])));
          }
        }
        return { rows, truncated, ...(total !== undefined ? { total } : {}) };
      });
      return { datasetId: row.id, keys: st.keys, ...value, cached, ...(value.truncated ? { note: `数据点超过 ${DATASET_MAX_POINTS} 个，只显示前 ${DATASET_MAX_POINTS} 个` } : {}) };
    };

    // a form's choice field on a dataset field (issue 35 §6): its distinct values, with a label and a parent when named
    app.datasets.provide({
      options: async (cfg, req) => {
        const dims = [cfg.valueField, cfg.labelField, cfg.parentField].filter((f, i, all): f is string => !!f && all.indexOf(f) === i);
        const r = await runQuery(req, { datasetId: cfg.datasetId, dimensions: dims.map((field) => ({ field })), sort: [{ field: cfg.labelField || cfg.valueField, dir: 'asc' }] });
        const seen = new Set<string>();
        const out: DatasetOption[] = [];
        for (const row of r.rows) {
          const v = row[cfg.valueField];
          if (v === null || v === undefined || v === '') continue;
          const value = String(v).slice(0, 200);
          if (seen.has(value)) continue; // one value under two labels: the first label
          seen.add(value);
          const label = cfg.labelField && row[cfg.labelField] != null ? String(row[cfg.labelField]).slice(0, 200) : value;
          const parent = cfg.parentField && row[cfg.parentField] != null ? String(row[cfg.parentField]).slice(0, 200) : undefined;
          out.push(parent !== undefined ? { value, label, parent } : { value, label });
          if (out.length >= DATASET_OPTIONS_MAX) break;
        }
        return out;
      },
      // 定时任务's 刷新数据集 (issue 39): the version moves, so every cached answer is retired everywhere (a file
      // dataset's rows are its file's, one per version: its answers are only asked again); then what its charts ask
      refresh: async (id) => {
        const row = await db.selectFrom('dataset').select(['id', 'name', 'kind', 'version']).where('id', '=', id).where('deleted_time', 'is', null).executeTakeFirst();
        if (!row) throw new BizError(DATASET_SAVE_MSG.notFound);
        if (row.kind !== 'file') await db.updateTable('dataset').set({ version: row.version + 1 }).where('id', '=', id).where('version', '=', row.version).execute();
        // the charts of screens and forms in use (not those waiting in the recycle bin)
        const widgets = await db
          .selectFrom('datav_widget')
          .innerJoin('datav_page', 'datav_page.id', 'datav_widget.page_id')
          .select('datav_widget.widget_props')
          .where('datav_page.deleted_time', 'is', null)
          .where('datav_widget.widget_props', 'like', '%datasetId%')
          .execute();
        const queries: DatasetQuery[] = [];
        const seen = new Set<string>();
        for (const w of widgets) {
          const q = storedWidgetQuery(w.widget_props)?.query;
          if (!q || q.datasetId !== id || seen.has(stable(q))) continue;
          seen.add(stable(q));
          queries.push(q);
        }
        return { name: row.name, kind: row.kind, queries };
      },
      names: async () => {
        const rows = await db.selectFrom('dataset').select(['id', 'name']).where('deleted_time', 'is', null).orderBy('name').limit(2000).execute();
        return rows.map((r) => ({ value: String(r.id), label: r.name }));
      },
    });

    /* ------------------------------------------------------------------ groups */
    app.post('/group/select', { config: { perm: PERM.query } }, async () => {
      const groups = await db.selectFrom('dataset_group').selectAll().orderBy('order_num').orderBy('id').execute();
      const counts = await db.selectFrom('dataset').select(['group_id', (eb) => eb.fn.countAll<number>().as('n')]).where('deleted_time', 'is', null).groupBy('group_id').execute();
      const n = new Map(counts.map((c) => [Number(c.group_id), Number(c.n)]));
      return ok(groups.map((g) => ({ id: g.id, parentId: g.parent_id, name: g.name, orderNum: g.order_num, datasetCount: n.get(g.id) ?? 0 })));
    });
    app.post<{ Body: { id?: number | null; parentId?: number | null; name: string; orderNum?: number | null } }>(
      '/group/save',
      { config: { perm: PERM.edit }, schema: { body: { type: 'object', required: ['name'], properties: { id: { type: ['integer', 'null'], minimum: 1, maximum: 2147483647, title: '编号' }, parentId: { type: ['integer', 'null'], minimum: 0, maximum: 2147483647, title: '上级分组' }, name: { type: 'string', maxLength: 50, title: '组名称' }, orderNum: { type: ['integer', 'null'], minimum: 0, maximum: 100000, title: '排序' } } } } },
      async (req) => {
        const name = req.body.name.trim();
        if (!name) throw new BizError('请输入组名称');
        const parentId = req.body.parentId ?? 0;
        const all = await db.selectFrom('dataset_group').selectAll().execute();
        if (parentId && !all.some((g) => g.id === parentId)) throw new BizError('上级分组不存在');
        if (req.body.id) {
          // not under itself nor under one of its descendants
          for (let p = parentId, depth = 0; p && depth < 64; p = all.find((g) => g.id === p)?.parent_id ?? 0, depth++) if (p === req.body.id) throw new BizError(`节点【${name}】不能移到自己节点下`);
        }
        if (all.some((g) => g.parent_id === parentId && g.name === name && g.id !== req.body.id)) throw new BizError(`同级下已有分组【${name}】`);
        const values = { parent_id: parentId, name, order_num: req.body.orderNum ?? 0, update_time: now() };
        if (req.body.id) {
          if (!all.some((g) => g.id === req.body.id)) throw new BizError(DATASET_SAVE_MSG.groupMissing);
          await db.updateTable('dataset_group').set(values).where('id', '=', req.body.id).execute();
          return ok(req.body.id, '保存成功');
        }
        const r = await db.insertInto('dataset_group').values({ ...values, create_time: now() }).returning('id').executeTakeFirstOrThrow();
        return ok(Number(r.id), '添加成功');
      },
    );
    app.get<{ Querystring: { id: number } }>('/group/delete', { config: { perm: PERM.edit }, schema: { querystring: idQuery } }, async (req) => {
      const g = await db.selectFrom('dataset_group').selectAll().where('id', '=', req.query.id).executeTakeFirst();
      if (!g) throw new BizError(DATASET_SAVE_MSG.groupMissing);
      if (await db.selectFrom('dataset_group').select('id').where('parent_id', '=', g.id).executeTakeFirst()) throw new BizError(`分组【${g.name}】下还有子分组，不能删除`);
      if (await db.selectFrom('dataset').select('id').where('group_id', '=', g.id).where('deleted_time', 'is', null).executeTakeFirst()) throw new BizError(`分组【${g.name}】下还有数据集，不能删除`);
      await db.deleteFrom('dataset_group').where('id', '=', g.id).execute();
      return ok(null, '删除成功');
    });

    /* ------------------------------------------------------------------ datasets */
    const present = (r: DatasetRow, full: boolean) => ({
      id: r.id,
      groupId: r.group_id,
      name: r.name,
      kind: r.kind,
      dsId: r.ds_id,
      cacheTtl: r.cache_ttl,
      version: r.version,
      fieldCount: (JSON.parse(r.fields) as unknown[]).length,
      createUser: r.create_user,
      createTime: r.create_time,
      updateTime: r.update_time,
      ...(full ? { definition: JSON.parse(r.definition), fields: JSON.parse(r.fields), rowRules: JSON.parse(r.row_rules) } : {}),
    });

    app.post<{ Body: Record<string, any> }>(
      '/search',
      { config: { perm: PERM.list }, schema: { body: listQuerySchema({ groupIds: { type: ['array', 'null'], maxItems: 500, items: { type: 'integer' }, title: '分组' }, kind: { type: ['array', 'null'], maxItems: 5, items: { type: 'string', maxLength: 10 }, title: '类型' } }) } },
      async (req) => {
        const q = req.body ?? {};
        const win = pageOf(q, { name: 'name', updateTime: 'update_time', createTime: 'create_time' });
        const text = typeof q.search === 'string' ? q.search.trim().toLowerCase() : '';
        const filter = (b: any) => {
          let x = b.where('deleted_time', 'is', null);
          if (text) x = x.where(sql<boolean>`lower(name) like ${likePattern(text)} escape '\\'`);
          if (Array.isArray(q.groupIds) && q.groupIds.length) x = x.where('group_id', 'in', q.groupIds);
          if (Array.isArray(q.kind) && q.kind.length) x = x.where('kind', 'in', q.kind);
          return x;
        };
        const total = await filter(db.selectFrom('dataset').select((eb: any) => eb.fn.countAll().as('n'))).executeTakeFirst();
        let list = filter(db.selectFrom('dataset').selectAll());
        list = win.order ? list.orderBy(win.order.column, win.order.dir) : list.orderBy('id', 'desc');
        const rows = (await list.limit(win.limit).offset(win.offset).execute()) as DatasetRow[];
        const dsNames = new Map<number, string>();
        for (const id of new Set(rows.map((r) => r.ds_id).filter((x): x is number => x != null))) dsNames.set(id, (await app.sql.source('datasource', { id }))?.ds_name ?? '（已删除）');
        return ok({ records: rows.map((r) => ({ ...present(r, false), dsName: r.kind === 'file' ? `文件：${fileOf(r).fileName}` : r.ds_id ? dsNames.get(r.ds_id) : null })), total: Number(total?.n ?? 0) });
      },
    );

    // a dataset with its fields: whoever designs charts on it (the fields, never the SQL for those without datav:dataset:sql)
    app.get<{ Querystring: { id: number } }>('/info/get', { config: { perm: PERM.query }, schema: { querystring: idQuery } }, async (req) => {
      const row = await loadRow(req.query.id);
      const out = present(row, true);
      const mayEdit = hasPermission(req.user?.permissions ?? [], PERM.list);
      if (!mayEdit) return ok({ id: out.id, name: out.name, kind: out.kind, version: out.version, fields: out.fields });
      if (row.kind === 'sql' && !hasPermission(req.user?.permissions ?? [], PERM.sql)) return ok({ ...out, definition: { sql: '（只有开发人员可以查看 SQL）', params: [] } });
      return ok(out);
    });

    /**
     * Checks a dataset to save (new, or by id) as every save is checked; answers what writeDataset writes. The
     * route's, a restore's and a workspace import's one check (the import writes in its own transaction).
     */
    const prepareDataset = async (req: FastifyRequest, b: any) => {
      const stored = b.id ? await loadRow(b.id) : undefined;
      assertPermission(req, stored ? PERM.edit : PERM.add);
      if (stored?.kind === 'sql' || b.kind === 'sql') assertPermission(req, PERM.sql);
      const name = String(b.name ?? '').trim();
      if (!name) throw new BizError(DATASET_SAVE_MSG.nameRequired);
      const groupId = b.groupId ?? 0;
      if (groupId && !(await db.selectFrom('dataset_group').select('id').where('id', '=', groupId).executeTakeFirst())) throw new BizError(DATASET_SAVE_MSG.groupMissing);
      let dsId: number | null = null;
      let definition: Record<string, unknown>;
      let columns: Map<string, Set<string>>;
      if (b.kind === 'file' || stored?.kind === 'file') {
        // a file dataset is made by an upload (POST /file/upload); a save changes its fields, rules and cache only
        if (stored?.kind !== 'file' || b.kind !== 'file') throw new BizError(DATASET_SAVE_MSG.fileByUpload);
        definition = JSON.parse(stored.definition) as Record<string, unknown>;
        columns = await fileColumns(stored);
      } else {
        if (!b.dsId || !b.definition) throw new BizError(DATASET_SAVE_MSG.dsRequired);
        const ds = await sourceRow(b.dsId);
        const checked = await checkDefinition(req, b.kind, ds, b.definition);
        dsId = ds.id;
        definition = definitionOf(checked.source);
        columns = checked.columns;
      }
      const fields = b.fields as DatasetField[];
      checkFields(fields, b.kind, columns);
      const rules = (b.rowRules ?? []) as RowRule[];
      for (const r of rules) if (!fields.some((f) => f.name === r.field)) throw new BizError(`行权限规则的字段「${r.field}」不在数据集中`);
      const values = {
        group_id: groupId,
        name,
        kind: b.kind,
        ds_id: dsId,
        definition: JSON.stringify(definition),
        fields: JSON.stringify(storedFields(fields, b.kind)),
        row_rules: JSON.stringify(rules),
        cache_ttl: b.cacheTtl ?? stored?.cache_ttl ?? 60,
        update_time: now(),
      };
      return { stored, values, note: typeof b.note === 'string' ? b.note : null };
    };
    /** Writes a checked dataset (in `on`: a save's store, an import's transaction) and keeps its version; answers its id. */
    const writeDataset = async (on: typeof db, p: Awaited<ReturnType<typeof prepareDataset>>, req: FastifyRequest, note?: string | null): Promise<number> => {
      const { stored, values } = p;
      let id: number;
      try {
        if (stored) {
          // the version moves: every cached answer of the old one is retired, on every instance
          await on.updateTable('dataset').set({ ...values, version: stored.version + 1 }).where('id', '=', stored.id).execute();
          id = stored.id;
        } else {
          const r = await on.insertInto('dataset').values({ ...values, version: 1, create_user: req.user?.username ?? null, create_time: now() }).returning('id').executeTakeFirstOrThrow();
          id = Number(r.id);
        }
      } catch (err) {
        if (isUniqueViolation(err)) throw new BizError(`数据集【${values.name}】已存在（也可能在回收站中）`);
        throw err;
      }
      await app.versions.record('dataset', id, versionOf(values), req, { title: values.name, note: note ?? p.note }, on);
      return id;
    };
    /** Saves a dataset (new, or by id) with every check, and keeps it as a version (issue 37); answers its id. */
    const saveDataset = async (req: FastifyRequest, b: any, note?: string): Promise<number> => writeDataset(db, await prepareDataset(req, b), req, note);
    /** What a dataset's version holds: what its save writes (a file dataset's rows stay in their file). */
    const versionOf = (v: { group_id: number; name: string; kind: string; ds_id: number | null; definition: string; fields: string; row_rules: string; cache_ttl: number }) => ({
      id: undefined,
      groupId: v.group_id,
      name: v.name,
      kind: v.kind,
      dsId: v.ds_id,
      definition: JSON.parse(v.definition) as unknown,
      fields: JSON.parse(v.fields) as unknown,
      rowRules: JSON.parse(v.row_rules) as unknown,
      cacheTtl: v.cache_ttl,
    });

    app.post<{ Body: any }>('/info/save', { config: { perm: PERM.list }, schema: { body: saveBody } }, async (req) => ok(await saveDataset(req, req.body), '保存成功'));

    // versions (issue 37): seen and restored by those who may edit datasets; a SQL dataset's only by those who may
    // write its SQL; a file dataset's restore gives back its fields, rules and settings (its rows stay as they are)
    app.versions.register({
      kind: 'dataset',
      perm: PERM.edit,
      guard: async (key, req) => {
        const row = await db.selectFrom('dataset').select('kind').where('id', '=', Number(key)).executeTakeFirst();
        if (row?.kind === 'sql') assertPermission(req, PERM.sql);
      },
      current: async (key) => {
        const row = (await db.selectFrom('dataset').selectAll().where('id', '=', Number(key)).where('deleted_time', 'is', null).executeTakeFirst()) as DatasetRow | undefined;
        return row ? { title: row.name, content: versionOf(row) } : null;
      },
      restore: async (key, content, req, note) => {
        const v = content as ReturnType<typeof versionOf>;
        await saveDataset(req, { ...v, id: Number(key), rowRules: v.rowRules }, note);
      },
    });

    // 删除 moves the dataset to the recycle bin (issue 37): its charts answer 数据集不存在 until it is restored
    app.get<{ Querystring: { id: number } }>('/delete', { config: { perm: PERM.remove }, schema: { querystring: idQuery } }, async (req) => {
      const row = await loadRow(req.query.id);
      if (row.kind === 'sql') assertPermission(req, PERM.sql);
      const charts = await chartsOf(app, row.id);
      const screens = [...new Set(charts.map((c) => c.pageName))];
      const took = charts.length ? [`${charts.length} 个图表在使用（大屏：${screens.slice(0, 3).join('、')}${screens.length > 3 ? ' 等' : ''}），还原前它们没有数据`] : [];
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('dataset').set({ deleted_time: now(), update_time: now() }).where('id', '=', row.id).execute();
        await app.recycle.put('dataset', row.id, row.name, took, {}, req, trx);
      });
      return ok(null, '删除成功');
    });
    app.recycle.register({
      kind: 'dataset',
      perm: PERM.remove,
      restore: async (key) => {
        const row = await db.selectFrom('dataset').select(['group_id']).where('id', '=', Number(key)).executeTakeFirst();
        const notes: string[] = [];
        const groupGone = !!row?.group_id && !(await db.selectFrom('dataset_group').select('id').where('id', '=', row.group_id).executeTakeFirst());
        if (groupGone) notes.push('原来的分组已不存在，已放在未分组');
        await db.updateTable('dataset').set({ deleted_time: null, update_time: now(), ...(groupGone ? { group_id: 0 } : {}) }).where('id', '=', Number(key)).execute();
        return notes;
      },
      purge: async (key) => {
        const row = (await db.selectFrom('dataset').selectAll().where('id', '=', Number(key)).where('deleted_time', 'is not', null).executeTakeFirst()) as DatasetRow | undefined;
        if (!row) return;
        await db.deleteFrom('dataset').where('id', '=', row.id).execute();
        if (row.kind === 'file') duck.retire(fileOf(row).name);
      },
    });

    // workspace export and import (issue 37 item 3): datasets by name, their data source by name
    const saveShape = new Ajv({ allErrors: true, allowUnionTypes: true, strict: false }).compile(saveBody);
    registerDatasetWorkspace(app, {
      // the save route's body schema first (an import's dataset arrives without the route)
      prepare: (req, b) => {
        if (!saveShape(b)) throw new BizError(`数据集内容不合法：${describeAjvErrors(saveShape.errors, { root: '数据集' }).slice(0, 3).join('；')}`);
        return prepareDataset(req, b);
      },
      write: writeDataset,
      perm: PERM,
    });

    /* ------------------------------------------------------------------ building a dataset */
    // the data sources a dataset may read, by name only: a designer (datav:dataset:list, no gemini:datasource:*)
    // picks one here and never sees its host, account or password, nor may edit it
    app.get('/source/select', { config: { perm: PERM.list } }, async () => {
      const rows = await db.selectFrom(DATASOURCE_TABLE).select(['id', 'ds_name', 'db_type']).where('kind', '=', 'datasource').where('status', '=', 1).orderBy('ds_name').execute();
      return ok(rows.map((r) => ({ id: r.id, label: r.ds_name, dbType: r.db_type })));
    });

    app.post<{ Body: { dsId: number } }>('/source/tables', { config: { perm: PERM.list }, schema: { body: { type: 'object', required: ['dsId'], properties: { dsId: draftProperties.dsId } } } }, async (req) => {
      const records = await listTables(app, await sourceRow(req.body.dsId), req);
      return ok(records.map((t) => ({ name: t.name, schema: t.schema, table: t.table, kind: t.kind })));
    });

    // the columns of one table, read from the catalogue: the editor's join pickers offer them (never typed)
    app.post<{ Body: { dsId: number; table: string; schema?: string | null } }>(
      '/source/columns',
      { config: { perm: PERM.list }, schema: { body: { type: 'object', required: ['dsId', 'table'], properties: { dsId: draftProperties.dsId, ...tableRef.properties } } } },
      async (req) => {
        const ds = await sourceRow(req.body.dsId);
        const ref = await findTable(app, ds, req.body.table, req, req.body.schema ?? null);
        const cat = await introspect(app, ds, ref, req);
        return ok(cat.columns.map((c) => ({ name: c.name, type: typeOfColumn(c.dataType, c.precision, c.scale) })));
      },
    );

    // the fields a definition offers (the editor proposes them; the designer edits labels, types and roles)
    app.post<{ Body: { kind: string; dsId: number; definition: any } }>('/fields', { config: { perm: PERM.list }, schema: { body: { type: 'object', required: ['kind', 'dsId', 'definition'], properties: draftProperties } } }, async (req) => {
      const ds = await sourceRow(req.body.dsId);
      const { catalogue } = await checkDefinition(req, req.body.kind, ds, req.body.definition);
      const fields: DatasetField[] = [];
      for (const [alias, cols] of catalogue ?? []) {
        for (const c of cols) {
          if (!FIELD_NAME_RE.test(c.name)) continue;
          // a join's second table's columns get their alias as a prefix when the name is taken
          const name = fields.some((f) => f.name === c.name) ? `${alias}_${c.name}`.slice(0, 64) : c.name;
          fields.push(fieldFor(name, c.type, { column: c.name, ...(req.body.kind === 'join' ? { table: alias } : {}) }));
        }
      }
      return ok(fields);
    });

    // the first 100 rows and the count, of a saved dataset or of a draft (as the editor shows it before saving)
    app.post<{ Body: { id?: number; kind?: string; dsId?: number; definition?: any; fields?: DatasetField[] } }>(
      '/preview',
      { config: { perm: PERM.list }, schema: { body: { type: 'object', properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647, title: '编号' }, ...draftProperties, fields: { type: 'array', maxItems: 300, items: fieldSchema, title: '字段' } } } } },
      async (req) => {
        let target: Target;
        let rules: RowRule[] = [];
        if (req.body.id) {
          const row = await loadRow(req.body.id);
          target = await targetOf(row, req);
          rules = JSON.parse(row.row_rules) as RowRule[];
          // a file dataset's draft: its stored file with the fields being edited
          if (row.kind === 'file' && req.body.fields?.length) {
            checkFields(req.body.fields, 'file', await fileColumns(row));
            target = { ...target, d: { ...target.d, fields: req.body.fields } };
          }
        } else {
          if (!req.body.kind || req.body.kind === 'file' || !req.body.dsId || !req.body.definition || !req.body.fields?.length) throw new BizError(DATASET_SAVE_MSG.noFields);
          const ds = await sourceRow(req.body.dsId);
          const { source, columns } = await checkDefinition(req, req.body.kind, ds, req.body.definition);
          checkFields(req.body.fields, req.body.kind, columns);
          target = { d: { dialect: dialectOf(ds), source, fields: req.body.fields }, run: (text, params) => app.sql.run('datasource', ds, text, params, req) };
        }
        const d = target.d;
        const q = new DatasetSql(d.dialect);
        const c = new FieldCompiler(q, d);
        const from = fromClause(q, d);
        const rule = rulesFor(req, rules, await departmentsOf(req, rules))(c);
        const where = rule ? ` where ${rule}` : '';
        const list = d.fields.map((f) => `${c.sql(f.name)} as ${q.id(f.name)}`).join(', ');
        const rows = await target.run(`select ${list} from ${from}${where} limit 100`, q.params);
        const count = await target.run(`select count(*) as ${q.id('n')} from ${from}${where}`, q.params);
        return ok({ fields: d.fields, rows: rows.rows, total: Number(Object.values(count.rows[0] ?? {})[0] ?? 0) });
      },
    );

    /* ------------------------------------------------------------------ answers */
    // a screen's charts ask together: one call, each distinct query run once (and cached)
    app.post<{ Body: { queries: DatasetQuery[] } }>(
      '/query',
      { config: { perm: PERM.query }, schema: { body: { type: 'object', required: ['queries'], properties: { queries: { type: 'array', minItems: 1, maxItems: 50, items: querySchema, title: '查询' } }, additionalProperties: false } } },
      async (req) => {
        const load = loaderForCall(req);
        const out = await Promise.all(
          req.body.queries.map((q) =>
            runQuery(req, q, load).catch((err: unknown) => {
              if (err instanceof BizError) return { datasetId: q.datasetId, error: err.message };
              throw err;
            }),
          ),
        );
        return ok(out);
      },
    );

    // what a chart shows, as a CSV or XLSX file: the same question answered under the caller's row rules (so an export
    // never holds a row the chart would not); a table of rows is paged through, up to the export limit
    app.post<{ Body: { query: DatasetQuery; format?: SheetFormat; name?: string } }>(
      '/export',
      {
        config: { perm: PERM.query },
        schema: {
          body: {
            type: 'object',
            required: ['query'],
            properties: { query: querySchema, format: { enum: ['csv', 'xlsx'], title: '格式' }, name: { type: 'string', maxLength: 50, title: '文件名' } },
            additionalProperties: false,
          },
        },
      },
      async (req, reply) => {
        const q = req.body.query;
        const load = loaderForCall(req);
        const { row } = await load(q.datasetId);
        const fields = new Map((JSON.parse(row.fields) as DatasetField[]).map((f) => [f.name, f]));
        const labelOf = (name: string) => fields.get(name)?.label ?? name;
        const columns: SheetColumn[] = [
          ...(q.dimensions ?? []).map((d) => ({ field: dimensionKey(d), title: d.dateGroup ? `${labelOf(d.field)}（${DATE_GROUPS[d.dateGroup]}）` : labelOf(d.field) })),
          ...(q.measures ?? []).map((m) => ({ field: measureKey(m), title: `${labelOf(m.field)}（${AGGREGATIONS[m.agg]}）` })),
        ];
        const name = (req.body.name ?? '').trim().replace(/[\\/:*?"<>|]/g, ' ').slice(0, 50) || row.name;
        const rows = q.measures?.length
          ? (async function* () {
              yield (await runQuery(req, { ...q, page: null }, load)).rows;
            })()
          : pagedRows(async (pageNum, pageSize) => (await runQuery(req, { ...q, page: { pageNum, pageSize } }, load)).rows);
        return sendSheet(reply, { name, fallback: `dataset-${row.id}`, format: req.body.format === 'xlsx' ? 'xlsx' : 'csv', columns, rows });
      },
    );

    // the distinct values of a field (a filter's choices, a form's options), row rules applied
    app.get<{ Querystring: { datasetId: number; field: string; search?: string } }>(
      '/values',
      { config: { perm: PERM.query }, schema: { querystring: { type: 'object', required: ['datasetId', 'field'], properties: { datasetId: { type: 'integer', minimum: 1, maximum: 2147483647, title: '数据集' }, field: { type: 'string', maxLength: 64, title: '字段' }, search: { type: 'string', maxLength: 50, title: '搜索' } } } } },
      async (req) => {
        const query: DatasetQuery = { datasetId: req.query.datasetId, dimensions: [{ field: req.query.field }], filters: req.query.search ? [{ field: req.query.field, op: 'like', value: req.query.search }] : [], sort: [{ field: req.query.field, dir: 'asc' }] };
        const r = await runQuery(req, { ...query, top: { n: 500, rest: 'drop' } });
        return ok(r.rows.map((x) => x[req.query.field]).filter((v) => v !== null && v !== undefined));
      },
    );
  },
};
