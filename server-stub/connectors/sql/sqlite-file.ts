// The file behind a SQLite data source, and opening it locked down. Used by the query worker
// (sqlite-worker.ts) and by the connection test; kept free of the other drivers so the worker loads little.
import Database from 'better-sqlite3';
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, normalize as normPath, resolve, sep } from 'node:path';
import { lockDownSqlite } from './sqlite-guard.js';
import { SqlConnectorError } from './types.js';
import type { SqlSettings } from './types.js';

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

