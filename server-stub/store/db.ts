// The platform store: SQLite (WAL) under DATA_DIR by default, PostgreSQL when DATABASE_URL is set.
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import type { Dialect } from './columns.js';
import type { Database } from './schema.js';
import { watchedDialect, type StoreWatch } from './watch.js';

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /**
   * Runs fn as the only starting instance of this store: on PostgreSQL under a session advisory lock named after
   * the schema (other instances starting at the same moment wait for it), the schema created first; on SQLite as
   * it is (one process owns the file). Migrations and seeds run inside it.
   */
  startLock<T>(fn: () => Promise<T>): Promise<T>;
  /** statements run so far, and who is told of committed writes (store/watch.ts) */
  watch: StoreWatch;
  close(): Promise<void>;
}

/** Prepared statements kept per SQL text on the SQLite store (the oldest used is dropped past this). */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * The better-sqlite3 database as Kysely's SqliteDialect sees it, with each SQL text prepared once: Kysely
 * prepares every statement anew (issue 36 measured `prepare` at 18 % of a cached call's CPU). One connection
 * behind Kysely's mutex, so a statement is never in use twice at once.
 */
function preparedOnce(sqlite: SQLite.Database) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sqlText: string) {
      let stmt = statements.get(sqlText);
      if (stmt) {
        // most recently used last: the map's first key is the one to drop
        statements.delete(sqlText);
      } else {
        stmt = sqlite.prepare(sqlText);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      }
      statements.set(sqlText, stmt);
      return stmt;
    },
  };
}

/** The name a statement is prepared under on a PostgreSQL connection: one per SQL text (63 bytes at most). */
export const statementName = (sqlText: string) => `k${createHash('sha1').update(sqlText).digest('hex')}`;

/**
 * The PostgreSQL pool as Kysely's PostgresDialect sees it, with every statement that has parameters sent as a named
 * prepared statement (issue 36): node-postgres parses and plans it once per connection and afterwards only binds and
 * executes it. Statements without parameters (migrations holding several statements, SET, BEGIN) go as they are:
 * a prepared statement may hold one statement only.
 */
function namedStatements(pool: pg.Pool): pg.Pool {
  const wrap = (client: pg.PoolClient): pg.PoolClient =>
    new Proxy(client, {
      get(target, prop, receiver) {
        if (prop === 'query') {
          return (text: unknown, values?: unknown[], ...rest: unknown[]) =>
            typeof text === 'string' && Array.isArray(values) && values.length ? target.query({ name: statementName(text), text, values }) : (target.query as (...a: unknown[]) => unknown)(text, values, ...rest);
        }
        const v = Reflect.get(target, prop, receiver) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  return new Proxy(pool, {
    get(target, prop, receiver) {
      if (prop === 'connect') return async () => wrap(await target.connect());
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/** The store, its WAL and its shared-memory index are readable by the server's own account only. */
export const STORE_FILE_MODE = 0o600;

/**
 * Opens DATA_DIR/platform.db owner-only. The file is created 0600 before SQLite opens it: SQLite gives
 * the -wal and -shm files it creates the mode of the database file. A store left 0644 by an older
 * version is narrowed, with its -wal and -shm.
 */
function openSqliteFile(file: string): SQLite.Database {
  closeSync(openSync(file, 'a', STORE_FILE_MODE));
  chmodSync(file, STORE_FILE_MODE);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  for (const side of [`${file}-wal`, `${file}-shm`]) {
    if (existsSync(side)) chmodSync(side, STORE_FILE_MODE);
  }
  return sqlite;
}

export async function openStore(config: Config): Promise<Store> {
  if (config.databaseUrl) {
    const schema = config.databaseSchema;
    if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`DATABASE_SCHEMA 不合法：${schema}`);
    const url = config.databaseUrl;
    const startLock = async <T>(fn: () => Promise<T>): Promise<T> => {
      // its own connection, outside the pool: the lock lives as long as this session
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query('SELECT pg_advisory_lock(hashtext($1))', [`data-service-console:start:${schema ?? 'public'}`]);
        // two instances creating the schema at once would collide on pg_namespace too
        if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
        return await fn();
      } finally {
        // ending the session frees the lock, also when the unlock itself fails
        await client.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
        await client.end().catch(() => undefined);
      }
    };
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: 10,
      ...(schema ? { options: `-c search_path="${schema}"` } : {}),
    });
    const watch: StoreWatch = { statements: 0, observers: [], listeners: [] };
    const db = new Kysely<Database>({ dialect: watchedDialect(new PostgresDialect({ pool: namedStatements(pool) }), watch) });
    return { db, dialect: 'postgres', startLock, watch, close: () => db.destroy() };
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const sqlite = openSqliteFile(path.join(config.dataDir, 'platform.db'));
  const watch: StoreWatch = { statements: 0, observers: [], listeners: [] };
  const db = new Kysely<Database>({ dialect: watchedDialect(new SqliteDialect({ database: preparedOnce(sqlite) }), watch) });
  return { db, dialect: 'sqlite', startLock: (fn) => fn(), watch, close: () => db.destroy() };
}

/** Runs every module's migrations, in the global order of their keys. */
export async function migrate(db: Kysely<Database>, migrations: Record<string, Migration>, schema?: string): Promise<void> {
  // Named explicitly: without it kysely's "does the lock table exist" check also sees other schemas'
  // tables (another run sharing the database) and skips creating this schema's own.
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`数据库迁移失败${failed ? `（${failed.migrationName}）` : ''}：${(error as Error)?.message ?? ''}`);
}
