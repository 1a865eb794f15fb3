// What a SQLite data source may run: reading its own file, nothing else.
//
// better-sqlite3 has no authorizer, so the rule is built from what it and SQLite do offer:
//  1. the connection is opened read-only (writes, VACUUM into the file, CREATE… fail in the engine), with
//     query_only on and trusted_schema off (a view or trigger in the file cannot use pragma functions,
//     dbstat, load_extension or any function not marked innocuous);
//  2. the statement text (after comments and whitespace) starts with SELECT, WITH or VALUES: no ATTACH,
//     DETACH, VACUUM [INTO], PRAGMA, REINDEX, ANALYZE, EXPLAIN… (ATTACH and DETACH count as "read-only" in
//     SQLite, hence the keyword check);
//  3. the text names none of the objects that disclose or reach beyond the file: pragma_* table-valued
//     functions, dbstat, sqlite_dbpage, load_extension, fts3_tokenizer. SQLite resolves names only from the
//     statement text (no dynamic SQL), and it accepts a 'string' where a name is expected, so the whole text
//     is searched, literals and quoted identifiers included (a literal that merely contains such a word is
//     refused too: conservative on purpose);
//  4. better-sqlite3 prepares exactly one statement (text after a ';' is refused), and the prepared statement
//     must be a reader (returns rows) and read-only (sqlite3_stmt_readonly): a WITH … DELETE or an
//     INSERT … RETURNING is refused.
import type Database from 'better-sqlite3';
import { SqlConnectorError } from './types.js';

export const SQLITE_MSG = {
  onlyQueries: 'SQLite 数据源只允许执行查询语句（SELECT / WITH / VALUES）',
  forbidden: (name: string) => `SQLite 数据源不允许使用 ${name}`,
} as const;

const FORBIDDEN_NAMES: Array<[RegExp, string]> = [
  [/pragma_/i, 'PRAGMA 函数（pragma_*）'],
  [/dbstat/i, 'dbstat'],
  [/sqlite_dbpage/i, 'sqlite_dbpage'],
  [/load_extension/i, 'load_extension'],
  [/fts3_tokenizer/i, 'fts3_tokenizer'],
];

/** SQLite's own whitespace (sqlite3Isspace): space, \t, \n, \f, \r. */
const WS = new Set([' ', '\t', '\n', '\f', '\r']);

/** The text after leading whitespace and comments, as SQLite's tokenizer skips them. */
export function afterLeadingComments(sql: string): string {
  let i = 0;
  const n = sql.length;
  while (i < n) {
    if (WS.has(sql[i])) i++;
    else if (sql.startsWith('--', i)) {
      const nl = sql.indexOf('\n', i + 2);
      i = nl < 0 ? n : nl + 1;
    } else if (sql.startsWith('/*', i)) {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else break;
  }
  return sql.slice(i);
}

/** Checks the text of a statement before it is prepared; throws SqlConnectorError('REFUSED') with the reason. */
export function checkSqliteText(sql: string): void {
  const head = afterLeadingComments(sql);
  if (!/^(select|with|values)(?![A-Za-z0-9_$\u0080-\uffff])/i.test(head)) throw new SqlConnectorError(SQLITE_MSG.onlyQueries, 'REFUSED');
  for (const [re, label] of FORBIDDEN_NAMES) if (re.test(sql)) throw new SqlConnectorError(SQLITE_MSG.forbidden(label), 'REFUSED');
}

/** Checks a prepared statement: one that returns rows and changes nothing. */
export function checkSqliteStatement(stmt: Database.Statement): void {
  if (!stmt.reader || !stmt.readonly) throw new SqlConnectorError(SQLITE_MSG.onlyQueries, 'REFUSED');
}

/** The connection settings applied right after opening a data-source file (before any user SQL). */
export function lockDownSqlite(db: Database.Database): void {
  db.pragma('query_only = ON');
  db.pragma('trusted_schema = OFF');
}

/** Text check, prepare (one statement only), statement check. */
export function prepareSqliteQuery(db: Database.Database, sql: string): Database.Statement {
  checkSqliteText(sql);
  const stmt = db.prepare(sql);
  checkSqliteStatement(stmt);
  return stmt;
}
