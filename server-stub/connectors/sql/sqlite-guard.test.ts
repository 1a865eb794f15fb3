// A SQLite data source reaches its own file and nothing else (connector level; the same over HTTP as the
// developer account is in modules/datasource/sqlite-escape.test.ts).
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PoolRegistry, SqlConnectorError, checkSqliteText, testConnection, type SqlSettings } from './index.js';
import { afterLeadingComments } from './sqlite-guard.js';

const base = mkdtempSync(join(tmpdir(), 'sqlite-guard-'));
const root = join(base, 'sqlite');
mkdirSync(root);
// "the platform store": a file beside the data-source folder, with a secret in it
const store = join(base, 'platform.db');
{
  const db = new Database(store);
  db.exec("create table sys_user(name text, password_hash text); insert into sys_user values ('admin', 'scrypt$secret-hash')");
  db.close();
  const ds = new Database(join(root, 'shop.db'));
  ds.exec("create table goods(id integer primary key, name text, price real); insert into goods(name, price) values ('apple', 3), ('pear', 5)");
  ds.close();
}
const s: SqlSettings = { dbType: 'sqlite', dbName: 'shop.db', sqliteRoot: root, maxWaitTime: 2 };

/** Every statement a data source must refuse, each as a SQL text. */
const ESCAPES = [
  `ATTACH DATABASE '${store}' AS p`,
  `attach '${store}' as p`,
  `/* hi */ -- there\n ATTACH '${store}' AS p`,
  `WITH x AS (SELECT 1) ATTACH '${store}' AS p`,
  'WITH x AS (SELECT file FROM pragma_database_list) SELECT * FROM x',
  `SELECT 1; ATTACH '${store}' AS p`,
  `select 1;attach '${store}' as p`,
  'DETACH main',
  `VACUUM INTO '${join(root, 'copy.db')}'`,
  `vacuum into '${join(base, 'copy2.db')}'`,
  'PRAGMA writable_schema = ON',
  'PRAGMA database_list',
  'pragma journal_mode = delete',
  'PRAGMA query_only = OFF',
  'select * from pragma_database_list',
  'SELECT * FROM "pragma_database_list"',
  "select * from 'PRAGMA_DATABASE_LIST'",
  'select * from [pragma_table_info]',
  'select * from main.pragma_compile_options',
  "select load_extension('/tmp/evil')",
  'SELECT * FROM dbstat',
  'SELECT * FROM sqlite_dbpage',
  "select fts3_tokenizer('simple')",
  "INSERT INTO goods(name, price) VALUES ('x', 1)",
  "insert into goods(name) values ('y') returning id",
  'UPDATE goods SET price = 0',
  'DELETE FROM goods',
  'WITH x AS (SELECT 1) DELETE FROM goods',
  'CREATE TABLE t2(x)',
  'CREATE TEMP TABLE t3(x)',
  'DROP TABLE goods',
  'REINDEX',
  'ANALYZE',
  'EXPLAIN SELECT 1',
  'BEGIN',
  'SAVEPOINT a',
  '',
  '   ',
  '-- only a comment',
];

describe('SQLite data sources: their own file, read only', () => {

  it('ordinary reads still work: SELECT with bound params, WITH, VALUES, json_each; connection test', async () => {
    const reg = new PoolRegistry();
    try {
      expect((await reg.execute(1, s, 'select name from goods where price > :p order by price', { p: 4 })).rows).toEqual([{ name: 'pear' }]);
      expect((await reg.execute(1, s, '-- a comment\n/* and another */ WITH c AS (SELECT count(*) AS n FROM goods) SELECT n FROM c')).rows).toEqual([{ n: 2 }]);
      expect((await reg.execute(1, s, 'values (1, ?)', ['a'])).rows).toEqual([{ column1: 1, column2: 'a' }]);
      expect((await reg.execute(1, s, "select value from json_each('[1,2]')")).rows).toEqual([{ value: 1 }, { value: 2 }]);
      expect((await reg.execute(1, s, 'select name from sqlite_master')).rows).toEqual([{ name: 'goods' }]);
    } finally {
      await reg.closeAll();
    }
    expect(await testConnection(s)).toBe(true);
  });

  it('refuses every way out: ATTACH / DETACH / VACUUM INTO / PRAGMA / pragma_* / load_extension / dbstat / writes', async () => {
    const before = readdirSync(root).sort();
    const reg = new PoolRegistry();
    try {
      for (const sql of ESCAPES) {
        const err = await reg.execute(1, s, sql).then(
          () => undefined,
          (e: unknown) => e,
        );
        // refused by the guard (SqlConnectorError, Chinese reason) or, for what is not even SQL, by SQLite's parser
        expect(err, sql).toBeInstanceOf(Error);
      }
      // nothing was attached, written or created
      expect((await reg.execute(1, s, 'select count(*) as n from goods')).rows).toEqual([{ n: 2 }]);
    } finally {
      await reg.closeAll();
    }
    expect(readdirSync(root).sort()).toEqual(before);
    expect(existsSync(join(base, 'copy2.db'))).toBe(false);
  });

  it('the text check: leading comments as SQLite skips them, names found anywhere (quoted, in strings)', () => {
    expect(afterLeadingComments(' \t\n-- x\n/* y */  SELECT 1')).toBe('SELECT 1');
    expect(afterLeadingComments('/* unterminated')).toBe('');
    for (const ok of ['SELECT 1', 'select(1)', 'With a as (select 1) select * from a', 'VALUES (1)', '/**/select 1']) expect(() => checkSqliteText(ok), ok).not.toThrow();
    for (const bad of ['selectx 1', 'select_1', 'ATTACH x', '\u00a0SELECT 1', "select 'pragma_x'", 'select "DbStat"', 'select LOAD_EXTENSION(1)']) expect(() => checkSqliteText(bad), bad).toThrow(SqlConnectorError);
  });

  it('a view or trigger in the file cannot reach pragma functions or dbstat (trusted_schema off)', async () => {
    const crafted = new Database(join(root, 'crafted.db'));
    crafted.exec('create table t(x); create view leak as select file from pragma_database_list; create view pages as select * from dbstat');
    crafted.close();
    const reg = new PoolRegistry();
    try {
      for (const view of ['leak', 'pages']) await expect(reg.execute(2, { ...s, dbName: 'crafted.db' }, `select * from ${view}`), view).rejects.toThrow(/unsafe use/);
    } finally {
      await reg.closeAll();
    }
  });

  it('the file name: no way out of the folder (.., absolute, symlink out, hard link, file: URI, missing, not a file)', async () => {
    symlinkSync(store, join(root, 'link-out.db'));
    symlinkSync(join(root, 'shop.db'), join(root, 'link-in.db'));
    linkSync(store, join(root, 'hard.db'));
    mkdirSync(join(root, 'dir.db'));
    const reasons: Record<string, string> = {};
    for (const dbName of ['../platform.db', store, 'link-out.db', 'hard.db', `file:${store}`, 'file:shop.db?mode=rw', 'missing.db', 'dir.db', 'shop.db\0x', ':memory:']) {
      expect(await testConnection({ ...s, dbName }, { onError: (m) => (reasons[dbName] = m) }), dbName).toBe(false);
      await expect(new PoolRegistry().execute(9, { ...s, dbName }, 'select 1'), dbName).rejects.toThrow(SqlConnectorError);
    }
    expect(reasons['link-out.db']).toContain('数据目录');
    expect(reasons['hard.db']).toContain('硬链接');
    // a symlink that stays inside the folder is fine
    expect(await testConnection({ ...s, dbName: 'link-in.db' })).toBe(true);
  });
});
