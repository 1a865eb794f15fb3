// One pool per data source, per driver. Every pool sits behind a Gate of maxActive slots so the
// (maxActive+1)th concurrent query waits, for at most maxWaitTime; each query has queryTimeout.
import pg from 'pg';
import mysql from 'mysql2';
import Database from 'better-sqlite3';
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, normalize as normPath, resolve, sep } from 'node:path';
import { Gate, deadline } from './gate.js';
import { lockDownSqlite, prepareSqliteQuery } from './sqlite-guard.js';
import { SqlConnectorError, normalize, parseProperties } from './types.js';
import type { DbType, SqlPool, SqlResult, SqlSettings } from './types.js';

export const MAX_ROWS = 5000;

function capRows(rows: Record<string, unknown>[]): { rows: Record<string, unknown>[]; truncated?: boolean } {
  return rows.length > MAX_ROWS ? { rows: rows.slice(0, MAX_ROWS), truncated: true } : { rows };
}

export function pgConfig(s: SqlSettings, waitMs: number, queryMs: number): pg.ClientConfig {
  const props = parseProperties(s.properties);
  const sslmode = props.sslmode ?? (props.ssl === 'true' ? 'require' : undefined);
  return {
    host: s.hostName ?? '127.0.0.1',
    port: Number(s.port) || 5432,
    database: s.dbName ?? undefined,
    user: s.username ?? undefined,
    password: s.password ?? '',
    connectionTimeoutMillis: waitMs,
    statement_timeout: queryMs,
    query_timeout: queryMs + 1000,
    application_name: props.application_name ?? 'data-service-console',
    ssl: sslmode && sslmode !== 'disable' ? { rejectUnauthorized: sslmode === 'verify-full' || sslmode === 'verify-ca' } : undefined,
  };
}

export function mysqlConfig(s: SqlSettings, waitMs: number): mysql.ConnectionOptions {
  const props = parseProperties(s.properties);
  const ssl = props.usessl === 'true' || props.ssl === 'true' || props.sslmode === 'required';
  return {
    host: s.hostName ?? '127.0.0.1',
    port: Number(s.port) || 3306,
    database: s.dbName ?? undefined,
    user: s.username ?? undefined,
    password: s.password ?? '',
    connectTimeout: waitMs,
    charset: props.charset || props.characterencoding?.replace(/-/g, '') || 'utf8mb4',
    timezone: props.timezone ?? 'local',
    dateStrings: true,
    multipleStatements: false,
    ssl: ssl ? {} : undefined,
  };
}

/**
 * The SQLite file of a data source: dbName resolved inside sqliteRoot. Refused: absolute paths, '..', NUL,
 * a missing file, anything that is not a regular file, a name whose real path (symlinks resolved) leaves the
 * real sqliteRoot, and a file with more than one hard link (another name for a file that may live elsewhere,
 * e.g. the platform store). The answer is the real path, so what is opened is what was checked.
 */
export function sqliteFile(s: SqlSettings): string {
  const name = String(s.dbName ?? '').trim();
  const outside = () => new SqlConnectorError('SQLite 数据库名必须是数据目录内的文件名', 'CONFIG');
  if (!s.sqliteRoot) throw new SqlConnectorError('未配置 SQLite 数据目录', 'CONFIG');
  if (!name || name.includes('\0') || isAbsolute(name) || normPath(name).split(/[\\/]/).includes('..')) throw outside();
  const root = resolve(s.sqliteRoot);
  const file = resolve(join(root, name));
  if (!file.startsWith(root + sep)) throw outside();
  let realRoot: string;
  let realFile: string;
  try {
    realRoot = realpathSync(root);
    realFile = realpathSync(file);
  } catch {
    throw new SqlConnectorError(`SQLite 数据库文件不存在：${name}`, 'CONFIG');
  }
  if (!realFile.startsWith(realRoot + sep)) throw outside();
  const st = statSync(realFile);
  if (!st.isFile()) throw new SqlConnectorError('SQLite 数据库必须是普通文件', 'CONFIG');
  if (st.nlink > 1) throw new SqlConnectorError('SQLite 数据库文件不能有多个硬链接', 'CONFIG');
  return realFile;
}

/** Opens a data-source file read-only and locks the connection down (see sqlite-guard.ts). */
export function openSqlite(s: SqlSettings, timeoutMs: number): Database.Database {
  const db = new Database(sqliteFile(s), { fileMustExist: true, readonly: true, timeout: timeoutMs });
  try {
    lockDownSqlite(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

function fieldsOf(rows: Record<string, unknown>[], names?: string[]): string[] {
  if (names && names.length) return names;
  return rows.length ? Object.keys(rows[0]) : [];
}

class PgPool implements SqlPool {
  readonly dbType: DbType = 'postgresql';
  private readonly pool: pg.Pool;
  private readonly gate: Gate;
  constructor(
    s: SqlSettings,
    private readonly waitMs: number,
    private readonly queryMs: number,
    max: number,
  ) {
    this.gate = new Gate(max);
    this.pool = new pg.Pool({ ...pgConfig(s, waitMs, queryMs), max, idleTimeoutMillis: 30_000 });
    this.pool.on('error', () => {
      /* an idle client died (server restart): the pool replaces it */
    });
  }
  async query(sql: string, params: unknown[] = []): Promise<SqlResult> {
    const release = await this.gate.acquire(this.waitMs);
    try {
      const res = await deadline(
        this.pool.query(sql, params),
        this.queryMs + 2000,
        `查询超时（${Math.round(this.queryMs / 1000)}秒）`,
        'QUERY_TIMEOUT',
      );
      const last = Array.isArray(res) ? res[res.length - 1] : res;
      const rows = (last.rows ?? []) as Record<string, unknown>[];
      const hasResult = Array.isArray(last.fields) && last.fields.length > 0;
      return {
        columns: fieldsOf(rows, last.fields?.map((f: { name: string }) => f.name)),
        ...capRows(rows),
        rowCount: hasResult ? rows.length : (last.rowCount ?? 0),
      };
    } catch (err) {
      throw mapTimeout(err, this.queryMs);
    } finally {
      release();
    }
  }
  async close(): Promise<void> {
    this.gate.drain();
    await this.pool.end().catch(() => undefined);
  }
}

class MysqlPool implements SqlPool {
  private readonly pool: mysql.Pool;
  private readonly gate: Gate;
  constructor(
    readonly dbType: DbType,
    private readonly s: SqlSettings,
    private readonly waitMs: number,
    private readonly queryMs: number,
    max: number,
  ) {
    this.gate = new Gate(max);
    this.pool = mysql.createPool({
      ...mysqlConfig(s, waitMs),
      connectionLimit: max,
      maxIdle: max,
      idleTimeout: 30_000,
      waitForConnections: true,
      queueLimit: 0,
      enableKeepAlive: true,
    });
    this.pool.on('connection', (conn) => conn.on('error', () => undefined));
  }

  private connection(): Promise<mysql.PoolConnection> {
    return new Promise((resolve, reject) => this.pool.getConnection((err, conn) => (err ? reject(err) : resolve(conn))));
  }

  /** A timed-out statement keeps running on the server: stop it from a side connection. */
  private killQuery(threadId: number | null): void {
    if (!threadId) return;
    try {
      const side = mysql.createConnection(mysqlConfig(this.s, this.waitMs));
      side.on('error', () => undefined);
      side.query('KILL QUERY ?', [threadId], () => {
        try {
          side.destroy();
        } catch {
          /* already closed */
        }
      });
    } catch {
      /* best effort: the statement then runs to its own end */
    }
  }

  async query(sql: string, params: unknown[] = []): Promise<SqlResult> {
    const release = await this.gate.acquire(this.waitMs);
    let conn: mysql.PoolConnection | undefined;
    try {
      conn = await deadline(this.connection(), this.waitMs, `获取数据库连接超时（${Math.round(this.waitMs / 1000)}秒）`);
      const p = conn.promise();
      const opts = { sql, timeout: this.queryMs };
      const [result, fields] = await (params.length ? p.execute(opts, params as never) : p.query(opts));
      conn.release();
      conn = undefined;
      if (Array.isArray(result)) {
        const rows = result as Record<string, unknown>[];
        return { columns: fieldsOf(rows, (fields as mysql.FieldPacket[] | undefined)?.map((f) => f.name)), ...capRows(rows), rowCount: rows.length };
      }
      const header = result as mysql.ResultSetHeader;
      return { columns: [], rows: [], rowCount: header.affectedRows ?? 0 };
    } catch (err) {
      if (conn) {
        if ((err as { code?: string })?.code === 'PROTOCOL_SEQUENCE_TIMEOUT') {
          const threadId = conn.threadId;
          conn.destroy(); // never hand a connection that is still busy back to the pool
          this.killQuery(threadId);
        } else conn.release();
      }
      throw mapTimeout(err, this.queryMs);
    } finally {
      release();
    }
  }
  async close(): Promise<void> {
    this.gate.drain();
    await this.pool.promise().end().catch(() => undefined);
  }
}

class SqlitePool implements SqlPool {
  readonly dbType: DbType = 'sqlite';
  private db: Database.Database | null = null;
  private readonly gate: Gate;
  constructor(
    private readonly s: SqlSettings,
    private readonly waitMs: number,
  ) {
    // better-sqlite3 is synchronous: one handle, one query at a time. queryTimeout cannot interrupt a
    // running SQLite statement; busy waits are bounded by maxWaitTime.
    this.gate = new Gate(1);
  }
  private handle(): Database.Database {
    // the file is checked (and its real path taken) when the handle is opened
    if (!this.db) this.db = openSqlite(this.s, this.waitMs);
    return this.db;
  }
  async query(sql: string, params: unknown[] = []): Promise<SqlResult> {
    const release = await this.gate.acquire(this.waitMs);
    try {
      let stmt: Database.Statement;
      try {
        stmt = prepareSqliteQuery(this.handle(), sql);
      } catch (err) {
        if (err instanceof RangeError && /more than one statement/i.test(err.message)) throw new SqlConnectorError('每次只能执行一条语句', 'REFUSED');
        throw err;
      }
      const values = params.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v));
      const rows = stmt.all(...values) as Record<string, unknown>[];
      return { columns: stmt.columns().map((c) => c.name), ...capRows(rows), rowCount: rows.length };
    } finally {
      release();
    }
  }
  async close(): Promise<void> {
    this.gate.drain();
    this.db?.close();
    this.db = null;
  }
}

function mapTimeout(err: unknown, queryMs: number): unknown {
  const e = err as { code?: string; message?: string };
  if (e?.code === '57014' || e?.code === 'PROTOCOL_SEQUENCE_TIMEOUT' || /Query read timeout/i.test(e?.message ?? ''))
    return new SqlConnectorError(`查询超时（${Math.round(queryMs / 1000)}秒）`, 'QUERY_TIMEOUT');
  return err;
}

export function createPool(s: SqlSettings): SqlPool {
  const { dbType, waitMs, queryMs, maxActive } = normalize(s);
  switch (dbType) {
    case 'postgresql':
      return new PgPool(s, waitMs, queryMs, maxActive);
    case 'mysql':
    case 'mariadb':
      return new MysqlPool(dbType, s, waitMs, queryMs, maxActive);
    case 'sqlite':
      sqliteFile(s); // refuse a bad file name now, not at the first query
      return new SqlitePool(s, waitMs);
  }
}
