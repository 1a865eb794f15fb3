// The plan of a statement, per dialect, taken without running the statement (issue 25 item 3):
//  - PostgreSQL: EXPLAIN (FORMAT JSON) — never ANALYZE — in a READ ONLY transaction with a local
//    statement_timeout, always through the extended protocol (one statement only: text after a ';' is refused
//    by the server), then ROLLBACK. The sizes of the tables read by a Seq Scan come from pg_class.reltuples.
//  - MySQL / MariaDB: EXPLAIN FORMAT=JSON in a START TRANSACTION READ ONLY, then ROLLBACK; one statement only
//    (the pools never allow several); the plan's own per-table rows are the sizes.
//  - SQLite: the statement is checked as a query (sqlite-guard.ts) and prepared — preparing runs nothing — then
//    EXPLAIN QUERY PLAN; the connection is read-only anyway. SQLite gives no estimates: a table read by a SCAN is
//    sized from sqlite_stat1 when ANALYZE has filled it, else counted, but only up to `countCap` rows
//    (SELECT count(*) FROM (SELECT 1 FROM t LIMIT cap)): cheap, bounded, and not the API's statement.
// The values are bound exactly as a real call binds them.
import type pg from 'pg';
import type mysql from 'mysql2';
import type Database from 'better-sqlite3';
import { prepareSqliteQuery } from './sqlite-guard.js';
import { tableAliases } from './sqltext.js';
import { SqlConnectorError } from './types.js';
import type { DbType, SqlPlanOptions, SqlPlanResult } from './types.js';

type PgNode = Record<string, unknown> & { Plans?: PgNode[] };

/** The key a PostgreSQL plan's scan is sized under: schema-qualified (the plan is taken VERBOSE, which names it). */
export const pgRelKey = (node: Record<string, unknown>) => `${String(node.Schema ?? '')}.${String(node['Relation Name'])}`;

function pgSeqScans(node: PgNode | undefined, out: Map<string, [string, string]>): Map<string, [string, string]> {
  if (!node) return out;
  if (String(node['Node Type']).endsWith('Seq Scan') && typeof node['Relation Name'] === 'string') out.set(pgRelKey(node), [String(node.Schema ?? 'public'), node['Relation Name']]);
  for (const c of node.Plans ?? []) pgSeqScans(c, out);
  return out;
}

const pgIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The plan of the statement as callers can call it (issue 40): with parameters, PostgreSQL's generic plan
 * (plan_cache_mode = force_generic_plan, PREPARE, EXPLAIN EXECUTE with NULLs): the values stored for a test never
 * choose the plan. VERBOSE, so every scan names its schema; tables read in full are sized by schema and name from
 * pg_class, and one never analysed (reltuples −1) is counted, up to `countCap` rows.
 */
export async function explainPg(client: pg.PoolClient, sql: string, params: unknown[], opts: SqlPlanOptions): Promise<SqlPlanResult> {
  const run = (text: string, values?: unknown[]) => client.query({ text, values, queryMode: 'extended' } as pg.QueryConfig);
  const name = `dsc_plan_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  let prepared = false;
  await run('BEGIN TRANSACTION READ ONLY');
  try {
    await run(`SET LOCAL statement_timeout = ${Math.max(1, Math.round(opts.timeoutMs))}`);
    let r: pg.QueryResult;
    if (params.length) {
      await run('SET LOCAL plan_cache_mode = force_generic_plan');
      // PREPARE takes one statement; the extended protocol refuses a second anyway
      await run(`PREPARE ${name} AS ${sql}`);
      prepared = true;
      r = await run(`EXPLAIN (FORMAT JSON, VERBOSE) EXECUTE ${name}(${params.map(() => 'NULL').join(', ')})`);
    } else {
      r = await run(`EXPLAIN (FORMAT JSON, VERBOSE) ${sql}`);
    }
    const plan = (r.rows[0] as Record<string, unknown> | undefined)?.['QUERY PLAN'];
    const doc = typeof plan === 'string' ? JSON.parse(plan) : plan;
    const scans = pgSeqScans((doc as Array<{ Plan?: PgNode }>)?.[0]?.Plan, new Map());
    const tableRows: Record<string, number | null> = {};
    if (scans.size) {
      const list = [...scans.values()];
      const sizes = await run(
        `SELECT n.nspname, c.relname, c.reltuples::float8 AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE (n.nspname, c.relname) IN (SELECT * FROM unnest($1::text[], $2::text[])) AND c.relkind IN ('r', 'p', 'm')`,
        [list.map((x) => x[0]), list.map((x) => x[1])],
      );
      for (const row of sizes.rows as Array<{ nspname: string; relname: string; n: number }>) {
        let n = Number(row.n);
        if (!(n >= 0)) {
          // never analysed: counted, bounded (the planner's own guess for such a table is not an estimate)
          const counted = await run(`SELECT count(*)::float8 AS n FROM (SELECT 1 FROM ${pgIdent(row.nspname)}.${pgIdent(row.relname)} LIMIT ${Math.max(1, Math.round(opts.countCap))}) t`);
          n = Number((counted.rows[0] as { n: number }).n);
        }
        tableRows[`${row.nspname}.${row.relname}`] = n;
      }
    }
    return { dialect: 'postgresql', plan: doc, tableRows };
  } finally {
    await run('ROLLBACK').catch(() => undefined);
    if (prepared) await run(`DEALLOCATE ${name}`).catch(() => undefined);
  }
}

/** MySQL / MariaDB accesses whose rows depend on the bound values' range. */
const VALUE_RANGES = new Set(['range', 'index_merge', 'ref_or_null']);

/** Every table object of a MySQL / MariaDB JSON plan. */
export function mysqlTables(node: unknown, out: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
  if (Array.isArray(node)) for (const x of node) mysqlTables(x, out);
  else if (node && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    if (typeof o.table_name === 'string') out.push(o);
    for (const v of Object.values(o)) if (v && typeof v === 'object') mysqlTables(v, out);
  }
  return out;
}

/** JSON as MariaDB writes it: a quote inside a condition's literal comes out as \' (not a JSON escape). */
export function parseLoose(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    let out = '';
    for (let i = 0; i < text.length; i++) {
      if (text[i] !== '\\') out += text[i];
      else if (/["\\/bfnrtu]/.test(text[i + 1] ?? '')) out += text[i] + text[++i];
      else out += '\\\\';
    }
    return JSON.parse(out);
  }
}

export async function explainMysql(conn: mysql.PoolConnection, dbType: DbType, sql: string, params: unknown[], opts: SqlPlanOptions): Promise<SqlPlanResult> {
  const run = (text: string, values?: unknown[]) =>
    new Promise<unknown[]>((resolve, reject) => {
      const cb = (err: Error | null, rows: unknown) => (err ? reject(err) : resolve(rows as unknown[]));
      if (values && values.length) conn.execute({ sql: text, timeout: opts.timeoutMs }, values as never, cb);
      else conn.query({ sql: text, timeout: opts.timeoutMs }, cb);
    });
  await run('START TRANSACTION READ ONLY');
  try {
    const rows = await run(`EXPLAIN FORMAT=JSON ${sql}`, params);
    const first = rows[0] as Record<string, unknown> | undefined;
    const text = first ? Object.values(first)[0] : null;
    const plan = typeof text === 'string' ? parseLoose(text) : text;
    const tableRows: Record<string, number | null> = {};
    const ranged: string[] = [];
    for (const t of mysqlTables(plan)) {
      // a range chosen for the values bound now may cover the whole table for another caller's (issue 40)
      if (params.length && VALUE_RANGES.has(String(t.access_type))) ranged.push(String(t.table_name));
      if (t.access_type !== 'ALL') continue;
      const n = Number(t.rows_examined_per_scan ?? t.rows);
      tableRows[String(t.table_name)] = Number.isFinite(n) ? n : null;
    }
    if (ranged.length) {
      const aliases = tableAliases(sql);
      const names = [...new Set(ranged.map((a) => aliases[a] ?? a))];
      const sizes = (await run(`SELECT TABLE_NAME AS name, MAX(TABLE_ROWS) AS n FROM information_schema.TABLES WHERE TABLE_NAME IN (${names.map(() => '?').join(', ')}) GROUP BY TABLE_NAME`, names)) as Array<{ name: string; n: number | string | null }>;
      const byName = new Map(sizes.map((x) => [String(x.name).toLowerCase(), Number(x.n)]));
      for (const a of ranged) {
        const n = byName.get(String(aliases[a] ?? a).toLowerCase());
        if (n != null && Number.isFinite(n)) tableRows[a] = Math.max(tableRows[a] ?? 0, n);
      }
    }
    return { dialect: dbType, plan, tableRows };
  } finally {
    await run('ROLLBACK').catch(() => undefined);
  }
}

export function explainSqlite(db: Database.Database, sql: string, params: unknown[], opts: SqlPlanOptions): SqlPlanResult {
  // a query, one statement, read-only: checked and prepared, not run
  try {
    prepareSqliteQuery(db, sql);
  } catch (err) {
    if (err instanceof RangeError && /more than one statement/i.test(err.message)) throw new SqlConnectorError('每次只能执行一条语句', 'REFUSED');
    throw err;
  }
  const values = params.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v));
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...values) as Array<{ id: number; parent: number; detail: string }>;
  const aliases = tableAliases(sql);
  const tables = new Set((db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as Array<{ name: string }>).map((r) => r.name));
  const hasStat = tables.has('sqlite_stat1');
  const tableRows: Record<string, number | null> = {};
  for (const r of rows) {
    // with parameters, a SEARCH on a range of them may read the whole table for another caller's values (issue 40)
    const ranged = params.length > 0 && /^SEARCH /.test(r.detail) && /\([^)]*(?:[<>]|\bBETWEEN\b)[^)]*\?/i.test(r.detail);
    const m = ranged ? /^SEARCH (?:TABLE )?([^\s]+)(?: AS ([^\s]+))?/.exec(r.detail) : /^SCAN (?:TABLE )?([^\s]+)(?: AS ([^\s]+))?/.exec(r.detail);
    if (!m || (!ranged && /USING (?:COVERING )?INDEX|VIRTUAL TABLE/.test(r.detail))) continue;
    const shown = m[2] ?? m[1];
    const table = [m[1], aliases[m[1]], aliases[shown]].find((t) => t && tables.has(t));
    if (!table || shown in tableRows) continue;
    let n: number | null = null;
    if (hasStat) {
      const stat = db.prepare('SELECT stat FROM sqlite_stat1 WHERE tbl = ? ORDER BY idx IS NULL DESC').get(table) as { stat?: string } | undefined;
      const first = Number(String(stat?.stat ?? '').split(' ')[0]);
      if (stat && Number.isFinite(first)) n = first;
    }
    if (n === null) {
      const quoted = `"${table.replace(/"/g, '""')}"`;
      n = Number((db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ${quoted} LIMIT ?)`).get(opts.countCap) as { n: number }).n);
    }
    tableRows[shown] = n;
  }
  return { dialect: 'sqlite', plan: rows, tableRows };
}
