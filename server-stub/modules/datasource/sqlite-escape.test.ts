// Security regression: a SQLite data source reaches its own file and nothing else. The developer account (普通用户,
// who may run queries and models) tries every way out of the file over real HTTP: ATTACH of the platform store
// (the path as pragma_database_list would disclose it), DETACH, VACUUM INTO, PRAGMA, pragma_* functions,
// load_extension, writes. Every one is refused with status 1 and a Chinese message, and the store is untouched.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, testStores, type TestServer } from '../../testing/server.js';
import { GOODS_SQL, sqliteFixture } from '../../testing/sqlite.js';

const CHINESE = /[\u4e00-\u9fa5]/;

describe.each(testStores)('SQLite data sources cannot leave their file (%s store)', (store) => {
  let s: TestServer;
  let dev: string;
  let sqliteDir: string;
  let platformDb: string;

  const roles = async () =>
    JSON.stringify(
      await s.app.ctx.db
        .selectFrom('sys_user_role' as never)
        .selectAll()
        .orderBy('user_id' as never)
        .orderBy('role_id' as never)
        .execute(),
    );

  beforeAll(async () => {
    s = await startTestServer({ store });
    sqliteDir = join(s.dataDir, 'sqlite');
    platformDb = join(s.dataDir, 'platform.db');
    await sqliteFixture(s, 'shop.db', GOODS_SQL, 'shop');
    expect((await s.request('POST', '/api/gemini/model/info/add', { dsName: 'shop_model', dbType: 'sqlite', dbName: 'shop.db' })).body.status).toBe(0);
    dev = await s.loginAs('developer');
  });
  afterAll(async () => {
    await s?.close();
  });

  /** Runs sql as the developer through both execute routes; answers both envelopes. */
  const runBoth = async (sql: string, params?: { name: string; value: unknown; type?: string }[]) => {
    const q = await s.request('POST', '/api/gemini/sqlQuery/execute', { queryType: 'SQL', dsName: 'shop', script: sql, requestParams: params }, dev);
    const m = await s.request('POST', '/api/gemini/model/execute', { dsName: 'shop_model', sql, params: params ? Object.fromEntries(params.map((p) => [p.name, p.value])) : undefined }, dev);
    return [q, m];
  };

  it('the developer can run an ordinary SELECT with bound parameters, and the connection test works', async () => {
    for (const r of await runBoth('select name from goods where price > :minPrice order by price', [{ name: 'minPrice', value: 4, type: 'number' }])) {
      expect(r.body, r.body.msg).toMatchObject({ status: 0 });
      expect(r.body.data.rows).toEqual([{ name: 'pear' }, { name: 'plum' }]);
    }
    const list = await s.request('POST', '/api/gemini/datasource/search', { search: 'shop' }, dev);
    const id = list.body.data.records[0].id;
    expect((await s.request('GET', `/api/gemini/datasource/test?id=${id}`, undefined, dev)).body).toMatchObject({ status: 0, data: true });
  });

  it('every way out is refused with status 1 and a Chinese message; the platform store is untouched', async () => {
    const rolesBefore = await roles();
    const sqliteBefore = readdirSync(sqliteDir).sort();
    const copy = join(sqliteDir, 'copy.db');
    const outside = join(s.dataDir, 'outside.db');
    const attacks = [
      `ATTACH DATABASE '${platformDb}' AS p`,
      `attach database '${platformDb}' as p`,
      `/* look */ -- innocent\n  ATTACH '${platformDb}' AS p`,
      `WITH x AS (SELECT 1) ATTACH '${platformDb}' AS p`,
      `WITH x AS (SELECT file FROM pragma_database_list) SELECT * FROM x`,
      `SELECT 1; ATTACH '${platformDb}' AS p`,
      `select 1; attach '${platformDb}' as p; insert into p.sys_user_role select id, 1 from p.sys_user`,
      'DETACH DATABASE main',
      `VACUUM INTO '${copy}'`,
      `vacuum into '${outside}'`,
      'PRAGMA writable_schema = ON',
      'PRAGMA database_list',
      'PRAGMA journal_mode = WAL',
      'pragma query_only = off',
      'select * from pragma_database_list',
      'SELECT file FROM "pragma_database_list"',
      "select load_extension('/usr/lib/x86_64-linux-gnu/libsqlite3.so')",
      'select * from dbstat',
      "INSERT INTO goods(name, price) VALUES ('hack', 0)",
      'UPDATE goods SET price = 0',
      'DELETE FROM goods',
      'CREATE TABLE evil(x)',
      'with a as (select 1) delete from goods',
    ];
    for (const sql of attacks) {
      for (const r of await runBoth(sql)) {
        expect(r.http, sql).toBeLessThan(500);
        expect(r.body.status, `${sql} → ${r.body.msg}`).toBe(1);
        expect(r.body.msg, sql).toMatch(CHINESE);
      }
    }
    // nothing changed: roles, the data file, no new file anywhere
    expect(await roles()).toBe(rolesBefore);
    const left = await runBoth('select count(*) as n, min(price) as p from goods');
    for (const r of left) expect(r.body.data.rows).toEqual([{ n: 3, p: 3 }]);
    expect(readdirSync(sqliteDir).sort()).toEqual(sqliteBefore);
    expect(existsSync(copy)).toBe(false);
    expect(existsSync(outside)).toBe(false);
  });

  it('a data source cannot be pointed at the platform store or outside its folder', async () => {
    for (const dbName of ['../platform.db', platformDb, 'file:../platform.db', '../../etc/passwd']) {
      const saved = await s.request('POST', '/api/gemini/datasource/info/save', { dsName: `bad_${dbName.length}`, dbType: 'sqlite', dbName }, dev);
      if (saved.body.status !== 0) continue; // refused at save is fine too
      const t = await s.request('GET', `/api/gemini/datasource/test?id=${saved.body.data}`, undefined, dev);
      expect(t.body, dbName).toMatchObject({ status: 0, data: false });
      expect(t.body.msg, dbName).toMatch(/^连接失败：SQLite /);
      const q = await s.request('POST', '/api/gemini/sqlQuery/execute', { queryType: 'SQL', dsName: `bad_${dbName.length}`, script: 'select * from sys_user' }, dev);
      expect(q.body.status, dbName).toBe(1);
      expect(q.body.msg).toMatch(CHINESE);
      expect(JSON.stringify(q.body)).not.toContain('password_hash');
    }
  });
});
