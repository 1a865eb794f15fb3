// SQL data-source connectors: pools per data source (registry), connection test, bound execution.
import pg from 'pg';
import mysql from 'mysql2';
import { createPool, mysqlConfig, openSqlite, pgConfig } from './drivers.js';
import { bindNamed } from './placeholders.js';
import { SqlConnectorError, normalize, pgAccount } from './types.js';
import type { SqlParams, SqlPlanOptions, SqlPlanResult, SqlPool, SqlResult, SqlSettings, SqlStatement } from './types.js';
import { scrub } from '../../core/secrets.js';
import { describeError, limitText, reportConnectFailure, withinDeadline, type ConnectFailureReporter } from '../errors.js';
import { TargetError, checkTarget, type TargetPolicy } from '../target.js';
import type { SharedSlots } from './slots.js';

export * from './types.js';
export { bindNamed } from './placeholders.js';
export { checkApiScript, FORBIDDEN_FUNCTIONS, SCRIPT_MSG } from './script-check.js';
export { tokenize, statementsOf, calledFunctions } from './tokens.js';
export { bareText, hasRowLimit, tableAliases, textCrossJoins } from './sqltext.js';
export { mysqlTables, pgRelKey } from './explain.js';
export { createPool, sqliteFile, openSqlite, MAX_ROWS } from './drivers.js';
export { checkSqliteText, SQLITE_MSG } from './sqlite-guard.js';
export { SharedSlots, SLOT_MSG } from './slots.js';

/** The error text to show or log: driver messages with the password (and user:pass@ in URLs) removed. */
export function errorText(err: unknown, s: Pick<SqlSettings, 'password'>): string {
  return limitText(scrub(describeError(err), s.password).replace(/\/\/[^/\s@]*:[^/\s@]*@/g, '//***@'));
}

function fingerprint(s: SqlSettings): string {
  return JSON.stringify([s.dbType, s.hostName, s.port, s.dbName, s.properties, s.username, s.password, s.maxWaitTime, s.maxActive, s.queryTimeout, s.sqliteRoot]);
}

const DEFAULT_PORTS: Record<string, number> = { postgresql: 5432, mysql: 3306, mariadb: 3306 };

/**
 * The database servers' own databases and schemas (issue 40): never a data source, never listed or generated on.
 * MySQL / MariaDB keep them as databases; PostgreSQL as schemas of every database (the table lists leave out
 * pg_catalog, information_schema and every pg_* schema, pg_toast among them).
 */
export const SYSTEM_DATABASES: Readonly<Record<'mysql' | 'postgresql', readonly string[]>> = {
  mysql: ['mysql', 'information_schema', 'performance_schema', 'sys'],
  postgresql: ['pg_catalog', 'information_schema', 'pg_toast'],
};

export const systemDatabaseMessage = (name: string, dbType: string) =>
  `「${name}」是数据库的系统库，不能作为数据源（${dbType === 'postgresql' ? 'PostgreSQL 系统模式' : 'MySQL / MariaDB 系统库'}：${(dbType === 'postgresql' ? SYSTEM_DATABASES.postgresql : SYSTEM_DATABASES.mysql).join('、')}）`;

/** Whether a MySQL / MariaDB database name is one of the server's own (compared as the server does: case aside). */
export function isSystemDatabase(dbType: string, name: string | null | undefined): boolean {
  const t = dbType.toLowerCase();
  const n = String(name ?? '').trim().toLowerCase();
  if (t === 'mysql' || t === 'mariadb') return SYSTEM_DATABASES.mysql.includes(n);
  if (t === 'postgresql') return SYSTEM_DATABASES.postgresql.includes(n) || n.startsWith('pg_');
  return false;
}

/**
 * Where a network data source points may be reached (connectors/target.ts); SQLite files have their own rule. A
 * MySQL / MariaDB system database is refused here, at save and whenever a pool is built (a row saved before the rule).
 */
export async function checkSqlTarget(s: SqlSettings, policy: TargetPolicy = {}, lenient = false): Promise<void> {
  const { dbType } = normalize(s);
  if (dbType === 'sqlite') return;
  if ((dbType === 'mysql' || dbType === 'mariadb') && isSystemDatabase(dbType, s.dbName)) throw new SqlConnectorError(systemDatabaseMessage(String(s.dbName).trim(), dbType), 'REFUSED');
  // the database the driver will really use (PostgreSQL: the account's name when none is given)
  const database = dbType === 'postgresql' ? pgAccount(s).database : s.dbName;
  try {
    await checkTarget({ host: s.hostName, port: Number(s.port) || DEFAULT_PORTS[dbType], database }, policy, lenient);
  } catch (err) {
    if (err instanceof TargetError) throw new SqlConnectorError(err.message, 'REFUSED');
    throw err;
  }
}

/**
 * Pools keyed by data-source id; a changed data source gets a new pool (the old one closed). With `slots`
 * (REDIS_URL) a data source's maxActive is counted across every instance of the deployment (slots.ts).
 */
export class PoolRegistry {
  private readonly pools = new Map<string, { key: string; pool: SqlPool }>();
  constructor(
    private readonly policy: TargetPolicy = {},
    private readonly slots?: SharedSlots,
  ) {}

  pool(id: string | number, s: SqlSettings): SqlPool {
    const k = String(id);
    const key = fingerprint(s);
    const cur = this.pools.get(k);
    if (cur && cur.key === key) return cur.pool;
    if (cur) void cur.pool.close();
    const pool = createPool({ ...s, policy: this.policy });
    this.pools.set(k, { key, pool });
    return pool;
  }

  /** Runs sql with bound params (array → native placeholders; object → :name / #{name}). */
  async execute(id: string | number, s: SqlSettings, sql: string, params?: SqlParams): Promise<SqlResult> {
    const { dbType } = normalize(s);
    const bound = bindNamed(sql, params, dbType);
    // a new pool (first use, or changed settings) is only built for a target that may be reached
    if (this.pools.get(String(id))?.key !== fingerprint(s)) await checkSqlTarget(s, this.policy);
    if (!this.slots) return this.pool(id, s).query(bound.sql, bound.values);
    // one of the data source's maxActive slots across instances first, for up to its maxWaitTime
    const { maxActive, waitMs } = normalize(s);
    const release = await this.slots.acquire(String(id), maxActive, waitMs);
    try {
      return await this.pool(id, s).query(bound.sql, bound.values);
    } finally {
      release();
    }
  }

  /** Bound statements in one transaction on one connection, all or nothing (SqlPool.transaction), within one slot. */
  async transaction(id: string | number, s: SqlSettings, statements: SqlStatement[]): Promise<SqlResult[]> {
    const { dbType } = normalize(s);
    const bound = statements.map((st) => {
      const b = bindNamed(st.sql, st.params, dbType);
      return { sql: b.sql, params: b.values };
    });
    if (this.pools.get(String(id))?.key !== fingerprint(s)) await checkSqlTarget(s, this.policy);
    if (!this.slots) return this.pool(id, s).transaction(bound);
    const { maxActive, waitMs } = normalize(s);
    const release = await this.slots.acquire(String(id), maxActive, waitMs);
    try {
      return await this.pool(id, s).transaction(bound);
    } finally {
      release();
    }
  }

  /** The plan of bound SQL (EXPLAIN only, never the statement: explain.ts), within the same slots as a statement. */
  async explain(id: string | number, s: SqlSettings, sql: string, params: SqlParams, opts: SqlPlanOptions): Promise<SqlPlanResult> {
    const { dbType } = normalize(s);
    const bound = bindNamed(sql, params, dbType);
    if (this.pools.get(String(id))?.key !== fingerprint(s)) await checkSqlTarget(s, this.policy);
    if (!this.slots) return this.pool(id, s).explain(bound.sql, bound.values, opts);
    const { maxActive, waitMs } = normalize(s);
    const release = await this.slots.acquire(String(id), maxActive, waitMs);
    try {
      return await this.pool(id, s).explain(bound.sql, bound.values, opts);
    } finally {
      release();
    }
  }

  /** Data source edited or deleted: close its pool; the next use builds a new one. */
  async invalidate(id: string | number): Promise<void> {
    const cur = this.pools.get(String(id));
    this.pools.delete(String(id));
    if (cur) await cur.pool.close();
  }

  has(id: string | number): boolean {
    return this.pools.has(String(id));
  }

  get size(): number {
    return this.pools.size;
  }

  async closeAll(): Promise<void> {
    this.slots?.close();
    const all = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(all.map((p) => p.pool.close()));
  }
}

/** One-off execution without a registry (a pool built and closed around the query). */
export async function execute(s: SqlSettings, sql: string, params?: SqlParams, policy?: TargetPolicy): Promise<SqlResult> {
  const { dbType } = normalize(s);
  const bound = bindNamed(sql, params, dbType);
  await checkSqlTarget(s, policy);
  const pool = createPool({ ...s, policy });
  try {
    return await pool.query(bound.sql, bound.values);
  } finally {
    await pool.close();
  }
}

export interface TestOptions {
  /** receives the scrubbed driver text (for the log) and the reason to answer (connectors/errors.ts) */
  onError?: ConnectFailureReporter;
  /** where the test may connect (the app's reserved databases) */
  policy?: TargetPolicy;
}

/**
 * Opens one connection and runs SELECT 1: true/false within maxWaitTime (the target check included); never
 * hangs, never throws. A failure is reported with its reason (无法连接, 连接被拒绝, 账号或密码错误, 数据库不存在, 等待超时).
 */
export async function testConnection(s: SqlSettings, opts: TestOptions = {}): Promise<boolean> {
  let cleanup: () => void = () => undefined;
  let waitSeconds = 0;
  try {
    const { dbType, waitMs, queryMs } = normalize(s);
    waitSeconds = Math.round(waitMs / 1000);
    const attempt = async (): Promise<void> => {
      await checkSqlTarget(s, opts.policy);
      s = { ...s, policy: opts.policy }; // and every connection judges the name again
      if (dbType === 'postgresql') {
        const client = new pg.Client(pgConfig(s, waitMs, Math.min(queryMs, waitMs)));
        client.on('error', () => undefined);
        cleanup = () => void client.end().catch(() => undefined);
        await client.connect();
        await client.query('SELECT 1');
        await client.end();
      } else if (dbType === 'mysql' || dbType === 'mariadb') {
        const conn = mysql.createConnection(mysqlConfig(s, waitMs));
        conn.on('error', () => undefined);
        cleanup = () => conn.destroy();
        await conn.promise().query({ sql: 'SELECT 1', timeout: waitMs });
        await conn.promise().end();
      } else {
        const db = openSqlite(s, waitMs);
        try {
          db.prepare('SELECT 1').get();
        } finally {
          db.close();
        }
      }
    };
    await withinDeadline(attempt(), waitMs, waitSeconds);
    return true;
  } catch (err) {
    cleanup();
    reportConnectFailure(opts.onError, () => errorText(err, s), err, waitSeconds);
    return false;
  }
}
