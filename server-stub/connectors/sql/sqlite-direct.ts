// A SQLite data source's statements, run where it is (inside the data source's own process, see
// pool-process.ts): one handle, one statement at a time, rows read one by one into a RowSink.
// better-sqlite3 is synchronous and SQLite cannot be interrupted from JavaScript: the process around it
// is what can be stopped.
import Database from 'better-sqlite3';
import { openSqlite, sqliteFile } from './sqlite-file.js';
import { prepareSqliteQuery } from './sqlite-guard.js';
import { RowSink } from './rows.js';
import { SqlConnectorError, failedAt, withEarlier } from './types.js';
import type { DbType, SqlPlanOptions, SqlPlanResult, SqlPool, SqlResult, SqlSettings } from './types.js';
import { explainSqlite } from './explain.js';

const SQLITE_HEAP_BYTES = 256 * 1024 * 1024;
/** Checked, prepared read statements kept per SQL text (issue 36: a published API's text is the same every call). */
const STATEMENTS_KEPT = 200;

export class SqliteDirectPool implements SqlPool {
  readonly dbType: DbType = 'sqlite';
  private db: Database.Database | null = null;
  private writer: Database.Database | null = null;
  /** statements that passed prepareSqliteQuery's checks, by their text (the oldest used goes first) */
  private readonly statements = new Map<string, Database.Statement>();
  constructor(
    private readonly s: SqlSettings,
    private readonly waitMs: number,
  ) {}

  private handle(): Database.Database {
    // the file is checked (and its real path taken) when the handle is opened
    if (!this.db) {
      this.db = openSqlite(this.s, this.waitMs);
      // SQLite's own memory in this process (blobs, sorts): a statement past it fails with "out of memory"
      this.db.pragma(`hard_heap_limit = ${SQLITE_HEAP_BYTES}`);
    }
    return this.db;
  }

  async explain(sql: string, params: unknown[], opts: SqlPlanOptions): Promise<SqlPlanResult> {
    return explainSqlite(this.handle(), sql, params, opts);
  }

  async query(sql: string, params: unknown[] = []): Promise<SqlResult> {
    this.handle();
    let stmt: Database.Statement | undefined = this.statements.get(sql);
    try {
      if (stmt) this.statements.delete(sql);
      // the same text is the same statement: checked once, then reused (SQLite re-prepares it itself after a schema change)
      else stmt = prepareSqliteQuery(this.db!, sql);
      this.statements.set(sql, stmt);
      if (this.statements.size > STATEMENTS_KEPT) this.statements.delete(this.statements.keys().next().value!);
    } catch (err) {
      if (err instanceof RangeError && /more than one statement/i.test(err.message)) throw new SqlConnectorError('每次只能执行一条语句', 'REFUSED');
      throw err;
    }
    const values = params.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v));
    const sink = new RowSink();
    // iterate() reads row by row; leaving the loop early finishes the statement
    for (const row of stmt.iterate(...values) as Iterable<Record<string, unknown>>) if (!sink.add(row)) break;
    return sink.result(stmt.columns().map((c) => c.name));
  }

  /**
   * Server-composed statements in one transaction on a writable handle of the same file (checked as for
   * reading: sqliteFile), trusted_schema off: all or nothing.
   */
  async transaction(statements: Array<{ sql: string; params: unknown[] }>): Promise<SqlResult[]> {
    if (!this.writer) {
      this.writer = new Database(sqliteFile(this.s), { fileMustExist: true, timeout: this.waitMs });
      this.writer.pragma('trusted_schema = OFF');
      this.writer.pragma(`hard_heap_limit = ${SQLITE_HEAP_BYTES}`);
    }
    const w = this.writer;
    const one = (st: { sql: string; params: unknown[] }, out: SqlResult[]): SqlResult => {
      const stmt = w.prepare(st.sql);
      const values = withEarlier(st.params, out).map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v));
      if (stmt.reader) {
        const sink = new RowSink();
        for (const row of stmt.iterate(...values) as Iterable<Record<string, unknown>>) if (!sink.add(row)) break;
        return sink.result(stmt.columns().map((c) => c.name));
      }
      return { columns: [], rows: [], rowCount: stmt.run(...values).changes };
    };
    const run = w.transaction(() => {
      const out: SqlResult[] = [];
      for (const [i, st] of statements.entries()) {
        try {
          out.push(one(st, out));
        } catch (err) {
          throw failedAt(err, i);
        }
      }
      return out;
    });
    return run();
  }

  async close(): Promise<void> {
    this.statements.clear();
    this.db?.close();
    this.db = null;
    this.writer?.close();
    this.writer = null;
  }
}
