// One declared-table service (DESIGN §8 "Structure", issue 26 item 1). A module declares its table once:
// its name, its columns (camelCase API fields; the column is the same name in snake_case), indexes with the
// Chinese duplicate message, secret columns, a scope column. From that one declaration it gets
//   - the migration (createTable ifNotExists + indexes), under the key it has always had (or, for tables made
//     together in one older migration, `create`, which that migration calls for each);
//   - the typed row: TableRow<typeof table> is the Kysely `Database` entry, a mapped type of the columns;
//   - a store bound to a page declaration: list (search, sort and filters only on declared fields), get, save
//     (timestamps, the duplicate message, secrets sealed with core/secrets), delete;
//   - the generic list-page routes (listPageRoutes): search / get / save / delete / export (CSV) at the paths,
//     with the permissions, of the page declaration's `api` and `perms`.
// `Kysely<any>` lives here only: the table's name is a value, so Kysely cannot check it; the declaration does.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Generated, type Kysely, type Migration, type Selectable } from 'kysely';
import { assertPermission } from './auth.js';
import { BizError, ok } from './envelope.js';
import { listQuerySchema, pageOf } from './list.js';
import { bodySchemaOf, checkBody, idQuery, likePattern, isUniqueViolation, requirePage, searchFieldsOf, sortableFieldsOf, type PageDeclaration } from './declarations.js';
import { EXPORT_CHUNK, EXPORT_MAX_ROWS, acceptSheets, importSheet, pagedRows, sendSheet, type SheetFormat } from './sheets.js';
import { MASK, maskPassword, type SecretBinding, type Secrets } from './secrets.js';
import { idColumn, now, type Dialect } from '../store/columns.js';
import type { Database } from '../store/schema.js';
import type { ServerModule, ServiceName } from './module.js';

/* ------------------------------------------------------------------ migrations */

/** Which store a Kysely instance speaks to. */
export function dialectOf(db: Kysely<Database>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * A module's migration: `up` gets the store typed (Kysely's migrator hands every migration an untyped one) and
 * its dialect (modules are static objects, the store is chosen at start). Every module's migrations use it.
 */
export function migration(up: (db: Kysely<Database>, dialect: Dialect) => Promise<void>, down?: (db: Kysely<Database>) => Promise<void>): Migration {
  const typed = (db: Kysely<any>) => db as Kysely<Database>;
  return { up: (db) => up(typed(db), dialectOf(typed(db))), down: down && ((db) => down(typed(db))) };
}

/* ------------------------------------------------------------------ the declaration */

/**
 * `id` is the auto-increment key; `time` is 'YYYY-MM-DD HH:mm:ss' (varchar(19)); `json` is a value (a list of ids …)
 * kept as JSON text and answered as the value.
 */
export type ColumnKind = 'id' | 'text' | 'integer' | 'bigint' | 'time' | 'json' | `varchar(${number})`;

export interface Column {
  type: ColumnKind;
  notNull?: boolean;
  /** the store's default (an insert without the field gets it) */
  default?: string | number;
  /** a column-level UNIQUE constraint (tables that always had one; new tables declare a named unique index) */
  unique?: boolean;
  /**
   * a column added after the table shipped: the key of the migration that adds it (sorted after the table's). The
   * table's own migration leaves it out; this one adds it, to old stores and new alike. Nullable or with a default.
   */
  added?: string;
}

export type Columns = Record<string, Column>;

/**
 * The columns most tables share, declared once: when a record was made and last saved (`time` text, set by the
 * store's save). Spread where they stand in the table (`...timestamps`): the column order is the declaration's.
 */
export const timestamps = {
  createTime: { type: 'time', notNull: true },
  updateTime: { type: 'time', notNull: true },
} as const satisfies Columns;

export interface TableDeclaration<C extends Columns> {
  /** the table's name in the store */
  name: string;
  /**
   * the migration's key, sorted globally ('20261122_12_variable'); never renamed once shipped. None: the table
   * is made by a migration of the module that makes several tables under one key (it calls `create`).
   */
  migration?: string;
  /** API field (camelCase) → column declaration; the column's name is the field in snake_case */
  columns: C;
  indexes?: Array<{ name: string; columns: Array<keyof C & string>; unique?: boolean }>;
  /** the Chinese message of a unique-index clash on save, from the record saved and the store's scope */
  duplicate?: (rec: Record<string, any>, scope: string | number | undefined) => string;
  /** a column telling the records of several pages apart (kind): fixed per store, never answered or written from a body */
  scope?: keyof C & string;
  /** secret columns → what their value is bound to (core/secrets), from a stored row; answered '******' */
  secrets?: { [F in keyof C & string]?: (row: Record<string, any>) => SecretBinding };
  /** other API names of a column, answered alongside it (modelName → dsName) */
  aliases?: Record<string, keyof C & string>;
}

type Snake<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}` : S;
type Plain<C extends Column> = C['type'] extends 'id' | 'integer' | 'bigint' ? number : string;
type Value<C extends Column> = C['type'] extends 'id'
  ? Generated<number>
  : C extends { notNull: true }
    ? C extends { default: string | number }
      ? Generated<Plain<C>>
      : Plain<C>
    : Plain<C> | null;

/** The Kysely table type of a declaration: snake_case columns, nullable unless notNull, defaults optional on insert. */
export type RowOf<C extends Columns> = { -readonly [K in keyof C & string as Snake<K>]: Value<C[K]> };
/** The `Database` entry of a declared table: `interface Database { my_table: TableRow<typeof myTable> }`. */
export type TableRow<T> = T extends DeclaredTable<infer C> ? RowOf<C> : never;
/** A row as read from the store. */
export type StoredRow<T> = Selectable<TableRow<T>>;

/** camelCase API field → snake_case column (CamelCasePlugin's rule). */
export const snake = (field: string): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export interface DeclaredTable<C extends Columns> {
  readonly decl: TableDeclaration<C>;
  readonly name: string;
  /** the module's migrations entry (empty when the declaration names no migration) */
  readonly migrations: Record<string, Migration>;
  /** creates the table (if not there) and its indexes: the migration's body */
  create(db: Kysely<Database>, dialect: Dialect): Promise<void>;
  /** API field → column, for every answered field (aliases included; not id, not the scope) */
  readonly fields: Readonly<Record<string, string>>;
  /** a stored row as the API answers it, secrets as they are (for internal use) */
  toApi(row: Record<string, any>): Record<string, any>;
  /** a stored row as the API answers it: secrets scrubbed ('******' when set, '' when not) */
  answer(row: Record<string, any>): Record<string, any>;
  /** an API record's declared fields as columns (aliases, the scope and absent fields left out) */
  toRow(rec: Record<string, unknown>): Record<string, unknown>;
  /** the store of this table for one page (its search and sort), one scope value, the secrets service */
  on(db: Kysely<Database>, opts?: BindOptions): TableStore;
}

export interface BindOptions {
  /** the page declaration the list serves: searchable and sortable fields come from it, never from the request */
  page?: PageDeclaration;
  /** the value of the table's scope column for this store */
  scope?: string | number;
  /** API fields a list may filter by exact value (query key = field; one value or an array) */
  filters?: string[];
  /** the secrets service, for tables with secret columns */
  secrets?: Secrets;
}

const storeType = (c: Column) => (c.type === 'time' ? 'varchar(19)' : c.type === 'json' ? 'text' : (c.type as Exclude<ColumnKind, 'id' | 'time' | 'json'>));
function columnRules(b: ColumnDefinitionBuilder, c: Column): ColumnDefinitionBuilder {
  if (c.notNull) b = b.notNull();
  if (c.default !== undefined) b = b.defaultTo(c.default);
  if (c.unique) b = b.unique();
  return b;
}

/** Declares a table once; see the file's head. */
export function declareTable<const C extends Columns>(decl: TableDeclaration<C>): DeclaredTable<C> {
  const fields: Record<string, string> = {};
  for (const [f, c] of Object.entries(decl.columns)) {
    if (c.type === 'id' || f === decl.scope) continue;
    fields[f] = snake(f);
    for (const [alias, to] of Object.entries(decl.aliases ?? {})) if (to === f) fields[alias] = snake(f);
  }
  const jsonFields = new Set(Object.entries(decl.columns).filter(([, c]) => c.type === 'json').map(([f]) => f));
  const parsed = (text: unknown) => {
    if (typeof text !== 'string') return text ?? null;
    try {
      return JSON.parse(text);
    } catch {
      return null;
    }
  };
  const toApi = (row: Record<string, any>) => {
    const out: Record<string, any> = { id: row.id };
    for (const [f, c] of Object.entries(fields)) out[f] = jsonFields.has(f) ? parsed(row[c]) : (row[c] ?? null);
    return out;
  };
  const secretCols = Object.keys(decl.secrets ?? {}).map(snake);
  const create = async (db: Kysely<Database>, dialect: Dialect): Promise<void> => {
    let t = db.schema.createTable(decl.name).ifNotExists();
    for (const [f, c] of Object.entries(decl.columns)) {
      if (c.type === 'id') {
        t = idColumn(t, dialect);
        continue;
      }
      if (c.added) continue;
      t = t.addColumn(snake(f), storeType(c), (b) => columnRules(b, c));
    }
    await t.execute();
    for (const ix of decl.indexes ?? []) {
      let i = db.schema.createIndex(ix.name).ifNotExists();
      if (ix.unique) i = i.unique();
      await i.on(decl.name).columns(ix.columns.map(snake)).execute();
    }
  };
  const migrations: Record<string, Migration> = decl.migration ? { [decl.migration]: migration(create) } : {};
  // columns added later: one migration per key, each adding its columns
  const later = new Map<string, Array<[string, Column]>>();
  for (const [f, c] of Object.entries(decl.columns)) if (c.added) later.set(c.added, [...(later.get(c.added) ?? []), [f, c]]);
  for (const [key, cols] of later) {
    migrations[key] = migration(async (db) => {
      for (const [f, c] of cols) await db.schema.alterTable(decl.name).addColumn(snake(f), storeType(c), (b) => columnRules(b, c)).execute();
    });
  }
  const table: DeclaredTable<C> = {
    decl,
    name: decl.name,
    migrations,
    create,
    fields,
    toApi,
    answer: (row) => {
      const out = toApi(row);
      for (const f of Object.keys(decl.secrets ?? {})) out[f] = maskPassword(row[snake(f)]);
      return out;
    },
    toRow: (rec) => {
      const out: Record<string, unknown> = {};
      for (const f of Object.keys(decl.columns)) {
        if (!(f in fields) || rec[f] === undefined) continue;
        out[fields[f]] = jsonFields.has(f) && rec[f] !== null && typeof rec[f] !== 'string' ? JSON.stringify(rec[f]) : rec[f];
      }
      return out;
    },
    on: (db, opts = {}) => bind(table, db as unknown as Kysely<any>, opts, secretCols),
  };
  return table;
}

/* ------------------------------------------------------------------ the store */

export interface ListQuery {
  pageNum?: number;
  pageSize?: number;
  orderByColumn?: string | null;
  isAsc?: string | null;
  search?: string | null;
  [k: string]: unknown;
}

export interface TableStore {
  /**
   * { records, total }: search on the page's declared fields, its sortable columns, the bound filters, paging;
   * secrets scrubbed. `only` narrows the rows further (a caller's data scope: ListPageOptions.visible).
   */
  list(query: ListQuery, only?: RowFilter | null): Promise<{ records: Record<string, any>[]; total: number }>;
  get(id: number, only?: RowFilter | null): Promise<Record<string, any> | undefined>;
  findBy(field: string, value: unknown): Promise<Record<string, any> | undefined>;
  /**
   * Updates `stored` (update time set) or inserts `rec` (create and update time set, the scope written). Secret
   * fields in `rec` are sealed for the record as saved, in the same transaction (a refusal undoes the save). A
   * unique clash is the declared duplicate message. Returns the id.
   */
  save(stored: Record<string, any> | undefined, rec: Record<string, unknown>): Promise<number>;
  /** false when there was no such row (in this scope) */
  remove(id: number): Promise<boolean>;
  /**
   * Inserts every record (an import) in one transaction, or none: a unique clash names its sheet row and the
   * declared duplicate message. Not for tables with secret columns.
   */
  insertAll(records: Array<{ row: number; record: Record<string, unknown> }>): Promise<void>;
}

/** A further condition on a declared table's rows (a Kysely where on its query), e.g. a caller's data scope. */
export type RowFilter = (q: any) => any;

function bind<C extends Columns>(table: DeclaredTable<C>, db: Kysely<any>, opts: BindOptions, secretCols: string[]): TableStore {
  const { decl, fields } = table;
  const scopeCol = decl.scope ? snake(decl.scope) : undefined;
  if (scopeCol && opts.scope === undefined) throw new Error(`表 ${decl.name} 需指定 ${decl.scope}`);
  const scoped = (q: any) => (scopeCol ? q.where(scopeCol, '=', opts.scope) : q);
  const searchCols = (opts.page ? searchFieldsOf(opts.page) : []).map((f) => fields[f]).filter(Boolean);
  // the search bar's date range, on the time column the declaration names (search.dateRange.field)
  const range = opts.page?.search?.dateRange as { begin: string; end: string; field?: string } | undefined;
  const rangeCol = range?.field && decl.columns[range.field]?.type === 'time' ? fields[range.field] : undefined;
  const sortMap: Record<string, string> = {};
  for (const f of opts.page ? sortableFieldsOf(opts.page) : []) if (fields[f]) sortMap[f] = fields[f];
  const hasCol = (f: string) => Object.hasOwn(decl.columns, f);

  const get = (id: number, on: Kysely<any> = db, only?: RowFilter | null) => {
    const q = scoped(on.selectFrom(decl.name).selectAll().where('id', '=', id));
    return (only ? only(q) : q).executeTakeFirst() as Promise<Record<string, any> | undefined>;
  };

  return {
    async list(query, only) {
      const win = pageOf(query, sortMap);
      const filter = (q: any) => {
        q = scoped(q);
        if (only) q = only(q);
        const text = typeof query.search === 'string' ? query.search.trim() : '';
        if (text && searchCols.length) {
          const pat = likePattern(text.toLowerCase());
          q = q.where((eb: any) => eb.or(searchCols.map((c) => sql<boolean>`lower(${sql.ref(c)}) like ${pat} escape '\\'`)));
        }
        if (rangeCol && range) {
          const [begin, end] = [query[range.begin], query[range.end]];
          if (typeof begin === 'string' && begin) q = q.where(rangeCol, '>=', begin);
          if (typeof end === 'string' && end) q = q.where(rangeCol, '<=', end);
        }
        for (const f of opts.filters ?? []) {
          const v = query[f];
          const col = fields[f];
          if (!col || v === undefined || v === null || v === '') continue;
          if (Array.isArray(v)) {
            if (v.length) q = q.where(col, 'in', v);
          } else q = q.where(col, '=', v);
        }
        return q;
      };
      const countRow = await filter(db.selectFrom(decl.name).select((eb: any) => eb.fn.countAll().as('n'))).executeTakeFirst();
      let q = filter(db.selectFrom(decl.name).selectAll());
      q = win.order ? q.orderBy(win.order.column, win.order.dir).orderBy('id', 'desc') : q.orderBy('id', 'desc');
      const rows = await q.limit(win.limit).offset(win.offset).execute();
      return { records: rows.map((r: any) => table.answer(r)), total: Number(countRow?.n ?? 0) };
    },

    get: (id, only) => get(id, db, only),

    findBy: (field, value) => scoped(db.selectFrom(decl.name).selectAll().where(fields[field], '=', value)).executeTakeFirst(),

    async save(stored, rec) {
      if (secretCols.length && !opts.secrets) throw new Error(`表 ${decl.name} 有加密字段，保存需要密钥服务`);
      const secretsIn: Record<string, unknown> = {};
      const values = { ...rec };
      for (const f of Object.keys(decl.secrets ?? {})) {
        if (f in values) secretsIn[f] = values[f];
        delete values[f]; // written below, sealed for the record as saved
      }
      const row = table.toRow(values);
      const time = now();
      const write = async (on: Kysely<any>): Promise<number> => {
        if (stored) {
          if (hasCol('updateTime')) row.update_time = time;
          await scoped(on.updateTable(decl.name).set(row).where('id', '=', stored.id)).execute();
          return Number(stored.id);
        }
        const insert: Record<string, unknown> = { ...row };
        if (scopeCol) insert[scopeCol] = opts.scope;
        if (hasCol('createTime')) insert.create_time = time;
        if (hasCol('updateTime')) insert.update_time = time;
        const r = await on.insertInto(decl.name).values(insert).returning('id').executeTakeFirstOrThrow();
        return Number((r as any).id);
      };
      const sealSecrets = async (on: Kysely<any>, id: number) => {
        const saved = (await get(id, on))!;
        for (const [f, bindingOf] of Object.entries(decl.secrets ?? {}) as Array<[string, (row: Record<string, any>) => SecretBinding]>) {
          const col = snake(f);
          const next = bindingOf(saved);
          let value: string | null;
          try {
            // what came in was made for this request's record: the stored one, or "new" (its id is only known now)
            const asSent = { ...next, id: stored ? saved.id : null };
            const d = opts.secrets!.resolveForSave(secretsIn[f], stored ? { value: stored[col], binding: bindingOf(stored) } : undefined, asSent);
            value = 'plain' in d ? opts.secrets!.encrypt(d.plain, next) : d.store;
          } catch (err) {
            throw new BizError((err as Error).message); // rolls the save back
          }
          if (value !== (saved[col] ?? null)) await on.updateTable(decl.name).set({ [col]: value }).where('id', '=', id).execute();
        }
      };
      try {
        if (!secretCols.length) return await write(db);
        return await db.transaction().execute(async (trx) => {
          const id = await write(trx);
          await sealSecrets(trx, id);
          return id;
        });
      } catch (err) {
        if (isUniqueViolation(err) && decl.duplicate) throw new BizError(decl.duplicate(rec as Record<string, any>, opts.scope));
        throw err;
      }
    },

    async remove(id) {
      const r = await scoped(db.deleteFrom(decl.name).where('id', '=', id)).executeTakeFirst();
      return Number((r as any)?.numDeletedRows ?? 0) > 0;
    },

    async insertAll(records) {
      if (secretCols.length) throw new Error(`表 ${decl.name} 有加密字段，不能批量导入`);
      const time = now();
      await db.transaction().execute(async (trx) => {
        for (const { row, record } of records) {
          const insert: Record<string, unknown> = table.toRow(record);
          if (scopeCol) insert[scopeCol] = opts.scope;
          if (hasCol('createTime')) insert.create_time = time;
          if (hasCol('updateTime')) insert.update_time = time;
          try {
            await trx.insertInto(decl.name).values(insert).execute();
          } catch (err) {
            if (isUniqueViolation(err)) throw new BizError(`第 ${row} 行：${decl.duplicate ? decl.duplicate(record as Record<string, any>, opts.scope) : '与已有记录重复'}`);
            throw err;
          }
        }
      });
    },
  };
}

/* ------------------------------------------------------------------ the generic list-page routes */

export interface ListPageOptions {
  /** the page declaration's id (schemas/pages/<id>.page.json): paths, permissions, fields, search, sort */
  page: string;
  /** the answer when the id names no record: '变量不存在' */
  notFound: string;
  /** the value of the table's scope column for this page */
  scope?: string | number;
  /** list filters: API field → JSON Schema of its query value */
  filters?: Record<string, object>;
  secrets?: Secrets;
  /** a module's last word on a record before it is saved (after the declared checks and locked fields) */
  beforeSave?: (rec: Record<string, any>, stored: Record<string, any> | undefined, req: FastifyRequest) => void | Promise<void>;
  /**
   * The rows this caller may see (their data scope), or null for all: search, count, export, get, save and delete
   * never reach past it (a row outside is not found).
   */
  visible?: (req: FastifyRequest) => Promise<RowFilter | null>;
  /** a module's refusal of a delete (BizError with the reason), given the stored row: 部门存在下级部门，不能删除 */
  beforeDelete?: (row: Record<string, any>, req: FastifyRequest) => void | Promise<void>;
  /** what else a delete does once the row is gone (its file, an audit entry); the row is read first */
  onDelete?: (row: Record<string, any>, req: FastifyRequest) => Promise<void>;
  /** names the listed rows' references for the columns' textField (a role key's name, a department's) */
  decorate?: (records: Record<string, any>[]) => Promise<Record<string, any>[]>;
}

/**
 * Registers the page declaration's search / get / save / delete calls (its `api`, relative to the module's
 * prefix) over a declared table, guarded by the page's `perms`: list for reading (and for the save route, whose
 * body then needs add or edit), remove for delete. Returns the store, for a module's own routes.
 */
export function listPageRoutes<C extends Columns>(app: FastifyInstance, table: DeclaredTable<C>, o: ListPageOptions): TableStore {
  const page = requirePage(app.ctx.schemas.pages, o.page);
  const store = table.on(app.ctx.db, { page, scope: o.scope, filters: Object.keys(o.filters ?? {}), secrets: o.secrets });
  // the query's own keys: the filters, and the search bar's date range ('YYYY-MM-DD HH:mm:ss')
  const dateRange = page.search?.dateRange as { begin: string; end: string } | undefined;
  const dateTime = { type: ['string', 'null'], maxLength: 19, pattern: '^(\\d{4}-\\d{2}-\\d{2}( \\d{2}:\\d{2}:\\d{2})?)?$' };
  const queryKeys: Record<string, object> = { ...(o.filters ?? {}), ...(dateRange ? { [dateRange.begin]: { ...dateTime, title: '开始时间' }, [dateRange.end]: { ...dateTime, title: '结束时间' } } : {}) };
  const perms: Record<string, string> = page.perms ?? {};
  const route = (call: string): { method: 'GET' | 'POST'; url: string } | undefined => {
    const decl: unknown = page.api?.[call];
    if (typeof decl !== 'string') return undefined;
    const [method, path] = decl.split(/\s+/);
    const full = `/api${path}`;
    if (!full.startsWith(`${app.prefix}/`) || (method !== 'GET' && method !== 'POST')) throw new Error(`页面 ${o.page} 的 api.${call}（${decl}）不在模块的 ${app.prefix} 之下`);
    return { method, url: full.slice(app.prefix.length) };
  };
  /** A declared call that takes ?id=, under one permission. */
  const byId = (call: string, perm: string, handler: (id: number, req: FastifyRequest) => Promise<unknown>) => {
    const at = route(call);
    if (at) app.route<{ Querystring: { id: number } }>({ ...at, config: { perm }, schema: { querystring: idQuery }, handler: (req) => handler(req.query.id, req) });
  };
  const secretFields = Object.keys(table.decl.secrets ?? {});
  const only = async (req: FastifyRequest): Promise<RowFilter | null> => (o.visible ? o.visible(req) : null);

  const search = route('search');
  if (search) {
    app.route<{ Body: any }>({
      ...search,
      config: { perm: perms.list },
      schema: { body: listQuerySchema(queryKeys) },
      handler: async (req) => {
        const listed = await store.list((req.body ?? {}) as ListQuery, await only(req));
        return ok(o.decorate ? { ...listed, records: await o.decorate(listed.records) } : listed);
      },
    });
  }

  byId('get', perms.list, async (id, req) => {
    const row = await store.get(id, await only(req));
    if (!row) throw new BizError(o.notFound);
    return ok(table.answer(row));
  });

  const save = route('save');
  if (save) {
    app.route<{ Body: any }>({
      ...save,
      config: { perm: perms.list },
      schema: { body: bodySchemaOf(page, { id: { type: ['integer', 'null'], title: '编号' } }) },
      handler: async (req) => {
        const body: Record<string, any> = { ...(req.body as any) };
        const id = body.id ?? undefined;
        assertPermission(req, id ? perms.edit : perms.add);
        const stored = id ? await store.get(id, await only(req)) : undefined;
        if (id && !stored) throw new BizError(o.notFound);
        for (const f of secretFields) if (!stored && body[f] === MASK) body[f] = ''; // a copy without a password typed in
        // x-dict values against the dictionaries as the store holds them now (the `dicts` service)
        const rec = checkBody(page, body, { dicts: await app.dicts.current(), applyDefaults: !stored });
        if (stored) for (const f of page.dialog?.lockedInEdit ?? []) if (f in table.fields) rec[f] = table.toApi(stored)[f];
        await o.beforeSave?.(rec, stored, req);
        for (const f of secretFields) rec[f] = body[f];
        return ok(await store.save(stored, rec), '保存成功');
      },
    });
  }

  const exported = route('export');
  if (exported) {
    // 导出: what the list shows under the same search and filters, every page of it, as CSV or XLSX (core/sheets.ts)
    app.route<{ Querystring: ListQuery & { format?: SheetFormat } }>({
      ...exported,
      config: { perm: perms.export ?? perms.list },
      schema: { querystring: listQuerySchema({ ...queryKeys, format: FORMAT_QUERY }) },
      handler: async (req, reply) => {
        const { pageNum: _n, pageSize: _s, format, ...query } = req.query;
        const filter = await only(req);
        return sendSheet(reply, {
          name: page.title ?? o.page,
          fallback: o.page,
          format: format ?? 'csv',
          columns: exportColumnsOf(page, secretFields),
          dicts: await app.dicts.current(), // the labels as the store holds them now
          rows: pagedRows(async (pageNum, pageSize) => (await store.list({ ...query, pageNum, pageSize }, filter)).records),
        });
      },
    });
  }

  const imported = route('import');
  if (imported && perms.import) {
    // 导入: a CSV or XLSX of the page's dialog fields; preview, or every row written in one transaction or none
    acceptSheets(app);
    app.route({
      ...imported,
      config: { perm: perms.import },
      handler: async (req) => {
        if (secretFields.length) throw new BizError('此页面含加密字段，不支持导入');
        return importSheet(req, {
          page,
          dicts: await app.dicts.current(),
          extra: o.beforeSave && ((rec) => o.beforeSave!(rec, undefined, req)),
          write: (records) => store.insertAll(records),
        });
      },
    });
  }

  byId('delete', perms.remove, async (id, req) => {
    const filter = await only(req);
    if (o.onDelete || o.beforeDelete || filter) {
      const row = await store.get(id, filter);
      if (!row) throw new BizError(o.notFound);
      await o.beforeDelete?.(row, req);
      if (!(await store.remove(row.id))) throw new BizError(o.notFound);
      await o.onDelete?.(row, req);
    } else if (!(await store.remove(id))) throw new BizError(o.notFound);
    return ok(null, '删除成功');
  });
  return store;
}

export { EXPORT_CHUNK, EXPORT_MAX_ROWS };

/** The export's format query key. */
const FORMAT_QUERY = { type: 'string', enum: ['csv', 'xlsx'], title: '导出格式' };

/** The columns a page's export writes: the declared columns that show a field (not index, selection or actions). */
export function csvColumnsOf(page: PageDeclaration): Array<{ title: string; field: string; dict?: string }> {
  const cols = (page.columns ?? []) as Array<{ title?: string; field?: string; textField?: string; type?: string; dict?: string; format?: string }>;
  // a column shown by another field's text (a related record's name) exports that text
  return cols.filter((c) => c.field && !['index', 'selection', 'actions'].includes(c.type ?? 'text')).map((c) => ({ title: c.title ?? c.field!, field: c.textField ?? c.field!, dict: c.dict }));
}

/**
 * The columns an export may write: the declared ones, never a secret (the table's secret columns, a column
 * formatted as a password, a dialog field declared as a password).
 */
export function exportColumnsOf(page: PageDeclaration, secretFields: string[] = []): Array<{ title: string; field: string; dict?: string }> {
  const secret = new Set(secretFields);
  for (const c of (page.columns ?? []) as Array<{ field?: string; textField?: string; format?: string }>) {
    if (c.field && c.format === 'password') secret.add(c.field);
    if (c.field && c.format === 'password' && c.textField) secret.add(c.textField);
  }
  for (const [f, p] of Object.entries((page.dialog?.schema?.properties ?? {}) as Record<string, any>)) {
    if (/password/i.test(String(p?.['x-component'] ?? '')) || p?.format === 'password') secret.add(f);
  }
  return csvColumnsOf(page).filter((c) => !secret.has(c.field));
}

/**
 * A whole module for a built-in list page: the table's migration and the page's generic routes under `prefix`
 * (which the page's api paths lie under). `modules/index.ts` lists it like any other module.
 */
export function listPageModule<C extends Columns>(table: DeclaredTable<C>, o: ListPageOptions & { prefix: string; name?: string; service?: ServiceName }): ServerModule {
  return {
    name: o.name ?? o.page,
    prefix: o.prefix,
    service: o.service ?? 'platform',
    migrations: table.migrations,
    needs: ['dicts'], // its save checks x-dict values, its export writes labels: the current dictionaries
    plugin: async (app) => {
      listPageRoutes(app, table, o);
    },
  };
}
