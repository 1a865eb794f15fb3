// SQLite fixtures for server tests: a database file in the test server's SQLite folder (<dataDir>/sqlite, where
// SQLite data sources find their dbName), optionally registered as a data source through the HTTP API.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { TestServer } from './server.js';

/** The shop's goods table with three rows (apple 3, pear 5, plum 7), as several suites use it. */
export const GOODS_SQL = "create table goods(id integer primary key, name text, price real); insert into goods(name, price) values ('apple', 3), ('pear', 5), ('plum', 7)";

/** Creates <dataDir>/sqlite/<file> and runs sql in it; answers the file's path. */
export function sqliteFile(s: Pick<TestServer, 'dataDir'>, file: string, sql: string): string {
  const dir = join(s.dataDir, 'sqlite');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, file);
  const db = new Database(path);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
  return path;
}

/**
 * Creates <dataDir>/sqlite/<file>, runs sql in it and saves it as the SQLite data source dsName (as admin, through
 * POST /api/gemini/datasource/info/save); answers the data source's id. Throws when the save is refused.
 */
export async function sqliteFixture(s: TestServer, file: string, sql: string, dsName: string): Promise<number> {
  sqliteFile(s, file, sql);
  const r = await s.request<number>('POST', '/api/gemini/datasource/info/save', { dsName, dbType: 'sqlite', dbName: file });
  if (r.body.status !== 0) throw new Error(`data source ${dsName} not saved: ${r.body.msg}`);
  return r.body.data;
}

/**
 * An API `name` running `script` on the data source `dsName`, designed by developer, approved and put online by
 * devapprover through the HTTP API (the way people do it); answers its id. Throws when a step is refused.
 */
export async function publishApi(s: TestServer, name: string, script: string, dsName = 'shop', cache: { cacheable: 0 | 1; cacheTime?: number } = { cacheable: 0 }): Promise<number> {
  const dev = await s.loginAs('developer');
  const approver = await s.loginAs('devapprover');
  const post = async (token: string, p: string, body: unknown) => {
    const r = await s.request('POST', `/api/gemini/api${p}`, body, token);
    if (r.body.status !== 0) throw new Error(`API ${name}: ${p} refused: ${r.body.msg}`);
    return r.body.data;
  };
  const groupId = await post(dev, '/group/save', { parentId: 0, name: `g-${name}` });
  const apiId = await post(dev, '/design/info/save', { groupId, apiName: name, apiComment: name });
  await post(dev, '/config/save', { apiId, dsName, script, ...cache });
  await post(dev, '/design/info/submit', { id: apiId });
  await post(approver, '/approve/resolveAndOnline', { id: apiId, approveResult: '同意' });
  return apiId as number;
}
