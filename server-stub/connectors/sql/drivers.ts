// One pool per data source, per driver. Every pool sits behind a Gate of maxActive slots so the
// (maxActive+1)th concurrent query waits, for at most maxWaitTime; each query has queryTimeout.
import pg from 'pg';
import mysql from 'mysql2';
import { Gate, deadline } from './gate.js';
import { MAX_ROWS, RowSink } from './rows.js';
import { sqliteFile } from './sqlite-file.js';
import { SqliteDirectPool } from './sqlite-direct.js';
import { ProcessPool } from './pool-process.js';
import { bareHost, targetSocket } from '../target.js';
import { SqlConnectorError, failedAt, normalize, parseProperties, pgAccount, withEarlier } from './types.js';
import type { DbType, SqlPlanOptions, SqlPlanResult, SqlPool, SqlResult, SqlSettings } from './types.js';
import { explainMysql, explainPg } from './explain.js';

export { MAX_ROWS } from './rows.js';
export { openSqlite, sqliteFile } from './sqlite-file.js';

export function pgConfig(s: SqlSettings, waitMs: number, queryMs: number): pg.ClientConfig {
  const props = parseProperties(s.properties);
  const sslmode = props.sslmode ?? (props.ssl === 'true' ? 'require' : undefined);
  const { user, database } = pgAccount(s);
  const port = Number(s.port) || 5432;
  return {
    host: bareHost(s.hostName),
    port,
    // both given, never left to pg's defaults: the database judged is the database connected to
    database,
    user,
    password: s.password ?? '',
    connectionTimeoutMillis: waitMs,
    statement_timeout: queryMs,
    query_timeout: queryMs + 1000,
    // only a plain name: the value travels in the start-up message beside the database and user
    application_name: /^[\w .-]{1,63}$/.test(props.application_name ?? '') ? props.application_name : 'data-service-console',
    ssl: sslmode && sslmode !== 'disable' ? { rejectUnauthorized: sslmode === 'verify-full' || sslmode === 'verify-ca' } : undefined,
    // the socket judges the name in its own lookup: what was checked is what it connects to
    stream: () => targetSocket({ port, database }, s.policy),
  };
}

export function mysqlConfig(s: SqlSettings, waitMs: number): mysql.ConnectionOptions {
  const props = parseProperties(s.properties);
  const ssl = props.usessl === 'true' || props.ssl === 'true' || props.sslmode === 'required';
  const port = Number(s.port) || 3306;
  return {
    host: bareHost(s.hostName),
    port,
    database: s.dbName ?? undefined,
    user: s.username ?? undefined,
    password: s.password ?? '',
    connectTimeout: waitMs,
    charset: props.charset || props.characterencoding?.replace(/-/g, '') || 'utf8mb4',
    timezone: props.timezone ?? 'local',
    dateStrings: true,
    multipleStatements: false,
    ssl: ssl ? {} : undefined,
    // as for PostgreSQL: the name is judged in the lookup of the socket that connects
    stream: () => {
      const socket = targetSocket({ port, database: s.dbName }, s.policy).connect(port, bareHost(s.hostName));
      socket.setNoDelay(true);
      socket.once('connect', () => socket.setKeepAlive(true));
      return socket;
    },
  };
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
    // no client-side query_timeout here: with it pg hands a streamed query's errors to an internal callback
    // instead of its 'error' event (a syntax error would wait for the deadline); statement_timeout and the
    // deadline in query() bound the time instead
    this.pool = new pg.Pool({ ...pgConfig(s, waitMs, queryMs), query_timeout: undefined, max, idleTimeoutMillis: 30_000 });
    this.pool.on('error', () => {
      /* an idle client died (server restart): the pool replaces it */
    });
  }
  /**
   * A slot, a client from the pool, and `work` on it within `limitMs` (plus 2 s for the server's own timeout to
   * answer first). The client goes back to the pool unless `work` marked it (`drop()`) or failed in a way
   * `dropOn` names: a connection left mid-result or mid-transaction never serves another call.
   */
  private async withClient<T>(limitMs: number, work: (c: pg.PoolClient, drop: () => void) => Promise<T>, dropOn: (err: unknown) => boolean): Promise<T> {
    const release = await this.gate.acquire(this.waitMs);
    let client: pg.PoolClient | undefined;
    let drop = false;
    try {
      client = await deadline(this.pool.connect(), this.waitMs, waitMessage(this.waitMs));
      const c = client;
      return await deadline(work(c, () => (drop = true)), limitMs + 2000, `查询超时（${Math.round(limitMs / 1000)}秒）`, 'QUERY_TIMEOUT').catch((err) => {
        if (dropOn(err)) drop = true;
        throw err;
      });
    } catch (err) {
      throw mapTimeout(err, limitMs);
    } finally {
      client?.release(drop ? true : undefined);
      release();
    }
  }
  async query(sql: string, params: unknown[] = []): Promise<SqlResult> {
    // a connection left mid-result (cap reached, timeout, error) is dropped, which also ends the statement
    return this.withClient(
      this.queryMs,
      (c, drop) =>
        new Promise<SqlResult>((resolve, reject) => {
          // rows arrive one by one (no accumulation: a 'row' listener and no callback); only the last
          // statement's result counts, as with a plain query
          // the extended protocol whatever the parameters (issue 40): the server refuses a second statement in
          // the text, so what was checked and planned is all that can run
          const q = new pg.Query({ text: sql, values: params, queryMode: 'extended' } as pg.QueryConfig) as pg.Query & NodeJS.EventEmitter;
          let current: unknown = null;
          let sink = new RowSink();
          let columns: string[] = [];
          let settled = false;
          q.on('row', (row: Record<string, unknown>, result: { fields?: Array<{ name: string }> }) => {
            if (settled) return;
            if (result !== current) {
              current = result;
              sink = new RowSink();
              columns = result.fields?.map((f) => f.name) ?? [];
            }
            if (!sink.add(row)) {
              settled = true;
              drop();
              resolve(sink.result(columns));
            }
          });
          type Result = { fields?: Array<{ name: string }>; rowCount?: number | null };
          q.on('end', (results: Result | Result[]) => {
            if (settled) return;
            settled = true;
            // several statements in one text answer one result each: the last one counts
            const last = Array.isArray(results) ? results[results.length - 1] : results;
            const fields = last?.fields ?? [];
            if (last !== current) sink = new RowSink();
            resolve(fields.length ? sink.result(fields.map((f) => f.name)) : { columns: [], rows: [], rowCount: last?.rowCount ?? 0 });
          });
          q.on('error', (err: Error) => {
            if (settled) return;
            settled = true;
            reject(err);
          });
          c.query(q);
        }),
      () => true,
    );
  }
  async transaction(statements: Array<{ sql: string; params: unknown[] }>): Promise<SqlResult[]> {
    return this.withClient(
      this.queryMs,
      async (c, drop) => {
        await c.query('BEGIN');
        try {
          const out: SqlResult[] = [];
          for (const [i, st] of statements.entries()) {
            const r = await c.query({ text: st.sql, values: withEarlier(st.params, out), queryMode: 'extended' } as pg.QueryConfig).catch((err) => Promise.reject(failedAt(err, i)));
            const columns = r.fields?.map((f) => f.name) ?? [];
            out.push(columns.length ? { columns, rows: r.rows.slice(0, MAX_ROWS), rowCount: Math.min(r.rows.length, MAX_ROWS) } : { columns: [], rows: [], rowCount: r.rowCount ?? 0 });
          }
          await c.query('COMMIT');
          return out;
        } catch (err) {
          await c.query('ROLLBACK').catch(drop);
          throw err;
        }
      },
      // a connection whose transaction may still be open never goes back to the pool as it is
      (err) => (err as { code?: string })?.code === 'QUERY_TIMEOUT',
    );
  }
  async explain(sql: string, params: unknown[], opts: SqlPlanOptions): Promise<SqlPlanResult> {
    const limit = Math.min(opts.timeoutMs, this.queryMs);
    return this.withClient(limit, (c) => explainPg(c, sql, params, { ...opts, timeoutMs: limit }), () => true);
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

  /**
   * A slot, a connection from the pool, and `work` on it. Afterwards the connection goes back to the pool, or
   * is closed ('drop'), or closed with its statement stopped on the server ('kill': `work` called `kill()`, left
   * mid-result or mid-transaction, or the driver timed the statement out); `onError` says which for a failure.
   */
  private async withConn<T>(limitMs: number, work: (c: mysql.PoolConnection, kill: () => void) => Promise<T>, onError: (err: unknown) => 'release' | 'drop' | 'kill'): Promise<T> {
    const release = await this.gate.acquire(this.waitMs);
    let conn: mysql.PoolConnection | undefined;
    let end: 'release' | 'drop' | 'kill' = 'release';
    try {
      conn = await deadline(this.connection(), this.waitMs, waitMessage(this.waitMs));
      return await work(conn, () => (end = 'kill'));
    } catch (err) {
      if (end === 'release') end = onError(err);
      throw mapTimeout(err, limitMs);
    } finally {
      if (conn) {
        if (end === 'release') conn.release();
        else {
          const threadId = conn.threadId;
          conn.destroy(); // never hand a connection that is still busy back to the pool
          if (end === 'kill') this.killQuery(threadId);
        }
      }
      release();
    }
  }
  private static readonly timedOut = (err: unknown) => (err as { code?: string })?.code === 'PROTOCOL_SEQUENCE_TIMEOUT';

  async query(sql: string, params: unknown[] = []): Promise<SqlResult> {
    return this.withConn(
      this.queryMs,
      async (c, kill) => {
        const { result, full } = await new Promise<{ result: SqlResult; full: boolean }>((resolve, reject) => {
          // rows arrive one by one (no callback: nothing accumulates); a statement without a result set
          // answers its header instead
          const opts = { sql, timeout: this.queryMs };
          const q = (params.length ? c.execute(opts, params as never) : c.query(opts)) as unknown as NodeJS.EventEmitter;
          const sink = new RowSink();
          let columns: string[] | null = null;
          let affected = 0;
          let settled = false;
          q.on('fields', (fields: mysql.FieldPacket[] | undefined) => {
            columns = fields?.map((f) => f.name) ?? [];
          });
          q.on('result', (row: Record<string, unknown>) => {
            if (settled) return;
            if (columns === null) {
              affected = Number((row as { affectedRows?: number }).affectedRows ?? 0);
              return;
            }
            if (!sink.add(row)) {
              settled = true;
              resolve({ result: sink.result(columns), full: true });
            }
          });
          q.on('error', (err: Error) => {
            if (settled) return;
            settled = true;
            reject(err);
          });
          q.on('end', () => {
            if (settled) return;
            settled = true;
            resolve({ result: columns === null ? { columns: [], rows: [], rowCount: affected } : sink.result(columns), full: false });
          });
        });
        // the rest of the result is not wanted: stop the statement, never pool a busy connection
        if (full) kill();
        return result;
      },
      (err) => (MysqlPool.timedOut(err) ? 'kill' : 'release'),
    );
  }
  async transaction(statements: Array<{ sql: string; params: unknown[] }>): Promise<SqlResult[]> {
    return this.withConn(
      this.queryMs,
      async (c, kill) => {
        const one = (sql: string, params: unknown[]) =>
          new Promise<SqlResult>((resolve, reject) => {
            const done = (err: mysql.QueryError | null, result: unknown, fields?: mysql.FieldPacket[]) => {
              if (err) return reject(err);
              if (Array.isArray(result)) {
                const rows = (result as Record<string, unknown>[]).slice(0, MAX_ROWS);
                resolve({ columns: fields?.map((f) => f.name) ?? [], rows, rowCount: rows.length });
              } else resolve({ columns: [], rows: [], rowCount: Number((result as { affectedRows?: number })?.affectedRows ?? 0) });
            };
            const opts = { sql, timeout: this.queryMs };
            if (params.length) c.execute(opts, params as never, done as never);
            else c.query(opts, done as never);
          });
        await one('START TRANSACTION', []);
        try {
          const out: SqlResult[] = [];
          for (const [i, st] of statements.entries()) out.push(await one(st.sql, withEarlier(st.params, out)).catch((err) => Promise.reject(failedAt(err, i))));
          await one('COMMIT', []);
          return out;
        } catch (err) {
          // a connection with a transaction maybe still open never goes back to the pool
          await one('ROLLBACK', []).catch(kill);
          throw err;
        }
      },
      (err) => (MysqlPool.timedOut(err) ? 'kill' : 'release'),
    );
  }
  async explain(sql: string, params: unknown[], opts: SqlPlanOptions): Promise<SqlPlanResult> {
    const limit = Math.min(opts.timeoutMs, this.queryMs);
    // a failed EXPLAIN's connection is not pooled; a timed-out one may still run on the server: stopped too
    return this.withConn(limit, (c) => explainMysql(c, this.dbType, sql, params, { ...opts, timeoutMs: limit }), (err) => (MysqlPool.timedOut(err) ? 'kill' : 'drop'));
  }
  async close(): Promise<void> {
    this.gate.drain();
    await this.pool.promise().end().catch(() => undefined);
  }
}

const waitMessage = (waitMs: number) => `获取数据库连接超时（${Math.round(waitMs / 1000)}秒）`;

function mapTimeout(err: unknown, queryMs: number): unknown {
  const e = err as { code?: string; message?: string };
  // PostgreSQL's extended protocol refusing a second statement in the text
  if (e?.code === '42601' && /multiple commands/i.test(e?.message ?? '')) return new SqlConnectorError('每次只能执行一条语句', 'REFUSED');
  if (e?.code === '57014' || e?.code === 'PROTOCOL_SEQUENCE_TIMEOUT' || /Query read timeout/i.test(e?.message ?? ''))
    return new SqlConnectorError(`查询超时（${Math.round(queryMs / 1000)}秒）`, 'QUERY_TIMEOUT');
  return err;
}

/** The pool itself, in this process: what a data source's own process runs (pool-runner.ts). */
export function createDirectPool(s: SqlSettings): SqlPool {
  const { dbType, waitMs, queryMs, maxActive } = normalize(s);
  switch (dbType) {
    case 'postgresql':
      return new PgPool(s, waitMs, queryMs, maxActive);
    case 'mysql':
    case 'mariadb':
      return new MysqlPool(dbType, s, waitMs, queryMs, maxActive);
    case 'sqlite':
      return new SqliteDirectPool(s, waitMs);
  }
}

/**
 * A data source's pool as the server uses it: the pool runs in a process of its own (pool-process.ts).
 * SQLite has no limit of its own on a statement, so its process is stopped at queryTimeout; the network
 * drivers answer their own timeouts first (a slot after maxWaitTime, the statement after queryTimeout).
 */
export function createPool(s: SqlSettings): SqlPool {
  const { dbType, waitMs, queryMs } = normalize(s);
  parseProperties(s.properties); // refused parameters are told here, not as a process that would not start
  if (dbType === 'sqlite') {
    sqliteFile(s); // refuse a bad file name now, not at the first query
    return new ProcessPool(dbType, s, queryMs + 1000, queryMs);
  }
  return new ProcessPool(dbType, s, waitMs + queryMs + 5000, queryMs);
}
