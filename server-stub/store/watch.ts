// A thin layer under Kysely's dialect (issue 36): it counts the statements the store runs (tests assert on the
// count) and tells listeners which tables a write changed, once the write is committed — after the statement
// outside a transaction, at COMMIT inside one (a rolled-back write tells nothing). The statement waits for its
// listeners, so a write call answers only after every instance has been told (core/invalidation.ts).
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult, TransactionSettings } from 'kysely';
import { UpdateQueryNode } from 'kysely';

/**
 * Columns whose update alone is bookkeeping, not a change anybody caches: a session's last-seen time and a key's
 * last use (written at most once a minute per session or key, core/sessions.ts, apiplatform/keys.ts).
 */
const BOOKKEEPING: Record<string, ReadonlySet<string>> = {
  sys_session: new Set(['last_seen']),
  gemini_api_key: new Set(['last_used_time']),
};

// INSERT [OR …] INTO t, UPDATE t, DELETE FROM t, with or without quotes and a schema; read from the SQL text so
// raw statements count too. "do update set" and "for update" give a name that is no table: harmless.
const WRITE_RE = /\b(?:insert\s+(?:or\s+\w+\s+)?into|update|delete\s+from)\s+(?:(?:"[^"]+"|\w+)\s*\.\s*)?(?:"([^"]+)"|(\w+))/gi;

/** The tables a statement writes (lower case), or null for a statement that writes none. */
export function writtenTables(query: CompiledQuery): Set<string> | null {
  const text = query.sql;
  if (!/\b(?:insert|update|delete)\b/i.test(text)) return null;
  const out = new Set<string>();
  for (const m of text.matchAll(WRITE_RE)) out.add((m[1] ?? m[2]).toLowerCase());
  out.delete('set');
  if (UpdateQueryNode.is(query.query) && out.size === 1) {
    const [table] = out;
    const quiet = BOOKKEEPING[table];
    const columns = (query.query.updates ?? []).map((u) => (u.column as { column?: { name?: string } }).column?.name ?? '');
    if (quiet && columns.length && columns.every((c) => quiet.has(c))) return null;
  }
  return out.size ? out : null;
}

export interface StoreWatch {
  /** statements run through Kysely on this store since it opened */
  statements: number;
  /** told the SQL of each statement as it starts (tests observe the store with it) */
  observers: Array<(sqlText: string) => void>;
  /** listeners told of committed writes (awaited by the writing statement) */
  listeners: Array<(tables: Set<string>) => Promise<void> | void>;
}

async function tell(watch: StoreWatch, tables: Set<string>): Promise<void> {
  for (const fn of watch.listeners) await fn(tables);
}

class WatchedConnection implements DatabaseConnection {
  /** tables written in the open transaction, told at its commit */
  pending: Set<string> | null = null;
  constructor(
    readonly inner: DatabaseConnection,
    private readonly watch: StoreWatch,
  ) {}
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    this.watch.statements += 1;
    for (const fn of this.watch.observers) fn(query.sql);
    const result = await this.inner.executeQuery<R>(query);
    const tables = writtenTables(query);
    if (tables) {
      if (this.pending) for (const t of tables) this.pending.add(t);
      else await tell(this.watch, tables);
    }
    return result;
  }
  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    this.watch.statements += 1;
    for (const fn of this.watch.observers) fn(query.sql);
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class WatchedDriver implements Driver {
  private readonly wrapped = new WeakMap<DatabaseConnection, WatchedConnection>();
  constructor(
    private readonly inner: Driver,
    private readonly watch: StoreWatch,
  ) {}
  private innerOf(c: DatabaseConnection): DatabaseConnection {
    return c instanceof WatchedConnection ? c.inner : c;
  }
  init() {
    return this.inner.init();
  }
  async acquireConnection() {
    const c = await this.inner.acquireConnection();
    let w = this.wrapped.get(c);
    if (!w) {
      w = new WatchedConnection(c, this.watch);
      this.wrapped.set(c, w);
    }
    return w;
  }
  async beginTransaction(c: DatabaseConnection, settings: TransactionSettings) {
    await this.inner.beginTransaction(this.innerOf(c), settings);
    if (c instanceof WatchedConnection) c.pending = new Set();
  }
  async commitTransaction(c: DatabaseConnection) {
    await this.inner.commitTransaction(this.innerOf(c));
    if (c instanceof WatchedConnection) {
      const tables = c.pending;
      c.pending = null;
      if (tables?.size) await tell(this.watch, tables);
    }
  }
  async rollbackTransaction(c: DatabaseConnection) {
    if (c instanceof WatchedConnection) c.pending = null;
    await this.inner.rollbackTransaction(this.innerOf(c));
  }
  savepoint(c: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]) {
    return this.inner.savepoint!(this.innerOf(c), name, compile);
  }
  rollbackToSavepoint(c: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['rollbackToSavepoint']>>[2]) {
    return this.inner.rollbackToSavepoint!(this.innerOf(c), name, compile);
  }
  releaseSavepoint(c: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['releaseSavepoint']>>[2]) {
    return this.inner.releaseSavepoint!(this.innerOf(c), name, compile);
  }
  releaseConnection(c: DatabaseConnection) {
    return this.inner.releaseConnection(this.innerOf(c));
  }
  destroy() {
    return this.inner.destroy();
  }
}

/** `dialect` with every statement counted and every committed write told to `watch.listeners`. */
export function watchedDialect(dialect: Dialect, watch: StoreWatch): Dialect {
  return {
    createDriver: () => new WatchedDriver(dialect.createDriver(), watch),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
