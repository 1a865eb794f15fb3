import type { TargetPolicy } from '../target.js';

export type DbType = 'mysql' | 'mariadb' | 'postgresql' | 'sqlite';
export const DB_TYPES: readonly DbType[] = ['mysql', 'mariadb', 'postgresql', 'sqlite'];

/** What a connector needs from a data source (password already decrypted, never logged). */
export interface SqlSettings {
  dbType: DbType | string;
  hostName?: string | null;
  port?: number | null;
  dbName?: string | null;
  /** URL-style connection parameters, 'a=b&c=d' (';' also accepted); unknown keys are ignored. */
  properties?: string | null;
  username?: string | null;
  password?: string | null;
  /** seconds to wait for a connection (pool acquire, connect, connection test deadline); default 120 */
  maxWaitTime?: number | null;
  /** pool size; the (maxActive+1)th concurrent query waits; default 20 */
  maxActive?: number | null;
  /** seconds per query; default 300 */
  queryTimeout?: number | null;
  /** SQLite only: directory the file name in dbName is resolved in (no absolute paths, no '..'). */
  sqliteRoot?: string;
  /** Where connections may go: every connection's own lookup judges the name again (connectors/target.ts). */
  policy?: TargetPolicy;
}

export interface SqlResult {
  columns: string[];
  rows: Record<string, unknown>[];
  /** rows returned, or rows affected for statements without a result set */
  rowCount: number;
  /** true when rows were cut at the row limit */
  truncated?: boolean;
}

export type SqlParams = unknown[] | Record<string, unknown> | null | undefined;

/** What EXPLAIN answered (explain.ts), before the platform reads it; the statement itself never ran. */
export interface SqlPlanResult {
  dialect: DbType;
  /** PostgreSQL: the FORMAT JSON array; MySQL / MariaDB: the FORMAT=JSON document parsed; SQLite: the EXPLAIN QUERY PLAN rows */
  plan: unknown;
  /** tables the plan reads in full, by the name the plan gives them: their estimated row count (null: unknown) */
  tableRows: Record<string, number | null>;
}

export interface SqlPlanOptions {
  /** the EXPLAIN's own time limit (ms) */
  timeoutMs: number;
  /** SQLite without sqlite_stat1: a table's rows are counted up to this many, no further */
  countCap: number;
}

/** One statement of a transaction: text composed by the server, values bound. */
export interface SqlStatement {
  sql: string;
  params?: SqlParams;
}

/**
 * A bound value of a transaction's statement that an earlier statement of the same transaction answers: the first
 * row's `column` of statement `$earlier` (0-based), e.g. a parent's new key for its detail rows (issue 34 item 4).
 */
export interface EarlierValue {
  $earlier: number;
  column: string;
}

const isEarlier = (v: unknown): v is EarlierValue => !!v && typeof v === 'object' && typeof (v as EarlierValue).$earlier === 'number' && typeof (v as EarlierValue).column === 'string';

/** A statement's values with every EarlierValue replaced by what its statement answered (refused when it answered none). */
export function withEarlier(params: unknown[], out: SqlResult[]): unknown[] {
  if (!params.some(isEarlier)) return params;
  return params.map((v) => {
    if (!isEarlier(v)) return v;
    const row = out[v.$earlier]?.rows[0];
    if (!row || !(v.column in row)) throw new SqlConnectorError(`事务中第 ${v.$earlier + 1} 条语句没有返回 ${v.column}`, 'CONFIG');
    return row[v.column];
  });
}

/** The failure of a transaction's statement `index` (0-based), told as such: `statement` on the error. */
export function failedAt(err: unknown, index: number): unknown {
  if (err && typeof err === 'object' && !('statement' in err)) Object.assign(err, { statement: index });
  return err;
}

export interface SqlPool {
  readonly dbType: DbType;
  query(sql: string, params?: unknown[]): Promise<SqlResult>;
  /**
   * Several bound statements in one transaction on one connection, all or nothing: every result in order, or the
   * first failure (everything rolled back). For statements the server composes (identifiers from a catalogue,
   * values bound), never for text a user typed: on SQLite this runs on a writable handle without the text guard.
   */
  transaction(statements: Array<{ sql: string; params: unknown[] }>): Promise<SqlResult[]>;
  /** The plan of `sql` with `params` bound, taken with EXPLAIN only (never the statement), read-only and rolled back. */
  explain(sql: string, params: unknown[], opts: SqlPlanOptions): Promise<SqlPlanResult>;
  close(): Promise<void>;
}

export class SqlConnectorError extends Error {
  constructor(
    message: string,
    readonly code: 'WAIT_TIMEOUT' | 'QUERY_TIMEOUT' | 'CONFIG' | 'DRIVER' | 'REFUSED' = 'DRIVER',
  ) {
    super(message);
    this.name = 'SqlConnectorError';
  }
}

export const DEFAULTS = { maxWaitTime: 120, maxActive: 20, queryTimeout: 300 } as const;

export function seconds(value: number | null | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

export function normalize(s: SqlSettings) {
  const dbType = String(s.dbType ?? '').toLowerCase();
  if (!(DB_TYPES as readonly string[]).includes(dbType)) throw new SqlConnectorError(`不支持的数据库类型：${s.dbType}`, 'CONFIG');
  return {
    dbType: dbType as DbType,
    waitMs: Math.round(seconds(s.maxWaitTime, DEFAULTS.maxWaitTime) * 1000),
    queryMs: Math.round(seconds(s.queryTimeout, DEFAULTS.queryTimeout) * 1000),
    maxActive: Math.max(1, Math.floor(seconds(s.maxActive, DEFAULTS.maxActive))),
  };
}

/** 'a=b&c=d' or 'a=b;c=d' → map (keys lower-cased). */
export function parseProperties(props: string | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!props) return out;
  for (const part of props.replace(/^\?/, '').split(/[&;]/)) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    const k = decodeLoose(part.slice(0, i).trim()).toLowerCase();
    const v = decodeLoose(part.slice(i + 1).trim());
    // a control character (NUL above all) would end the value inside the driver's start-up message, and
    // what follows would be read as another setting (application_name=x%00database%00other)
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(k + v)) throw new SqlConnectorError(PROPERTIES_CONTROL, 'CONFIG');
    if (k) out[k] = v;
  }
  return out;
}

export const PROPERTIES_CONTROL = '连接参数不能包含控制字符';

/** decodeURIComponent that never throws (a malformed %-sequence is kept as written). */
function decodeLoose(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The account and database a PostgreSQL connection uses. pg fills an empty database with the user name and an
 * empty user from PGUSER or USER, so a data source without a database name would reach the
 * database named like its account (the platform store's, say) without the target check seeing that name.
 */
export function pgAccount(s: Pick<SqlSettings, 'username' | 'dbName'>): { user: string; database: string } {
  const user = s.username || process.env.PGUSER || process.env.USER || 'postgres'; // as pg defaults it
  return { user, database: s.dbName || user };
}
