// Runs one SQLite data source's statements off the main thread. better-sqlite3 is synchronous and SQLite
// cannot be interrupted from JavaScript, so a statement that never ends, or builds a huge result, must run
// where it can be stopped: the pool (sqlite-pool.ts) terminates this worker on queryTimeout, and the
// worker's heap limit ends only the worker, never the server. Rows are read one at a time into a RowSink.
import { parentPort, workerData } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { openSqlite } from './sqlite-file.js';
import { prepareSqliteQuery } from './sqlite-guard.js';
import { RowSink } from './rows.js';
import { SqlConnectorError, type SqlSettings } from './types.js';

export interface SqliteJob {
  sql: string;
  params: unknown[];
}
export type SqliteAnswer =
  | { ok: true; result: ReturnType<RowSink['result']> }
  | { ok: false; message: string; code?: string; name?: string };

const { settings, waitMs } = workerData as { settings: SqlSettings; waitMs: number };
let db: Database.Database | null = null;

function run({ sql, params }: SqliteJob): SqliteAnswer {
  // the file is checked (and its real path taken) when the handle is opened
  db ??= openSqlite(settings, waitMs);
  let stmt: Database.Statement;
  try {
    stmt = prepareSqliteQuery(db, sql);
  } catch (err) {
    if (err instanceof RangeError && /more than one statement/i.test(err.message)) throw new SqlConnectorError('每次只能执行一条语句', 'REFUSED');
    throw err;
  }
  const values = params.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v));
  const sink = new RowSink();
  // iterate() reads row by row; leaving the loop early finishes the statement
  for (const row of stmt.iterate(...values) as Iterable<Record<string, unknown>>) if (!sink.add(row)) break;
  return { ok: true, result: sink.result(stmt.columns().map((c) => c.name)) };
}

parentPort!.on('message', (job: SqliteJob) => {
  let answer: SqliteAnswer;
  try {
    answer = run(job);
  } catch (err) {
    const e = err as { message?: string; code?: string; name?: string };
    answer = { ok: false, message: String(e?.message ?? err), code: err instanceof SqlConnectorError ? e.code : undefined, name: e?.name };
  }
  parentPort!.postMessage(answer);
});
