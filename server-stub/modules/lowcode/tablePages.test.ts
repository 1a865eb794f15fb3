// Pages on existing tables (issue 24 items 1, 3, 5) over real HTTP, on a SQLite data source always and on real
// PostgreSQL (PG_URL) and MariaDB / MySQL (MYSQL_URL) tables created here with this suite's own names: the catalogue
// listed, a page generated (a table without a key refused with the reason, a view read-only), saved with its
// catalogue (a column outside it refused), then rows added, searched, sorted, edited and deleted — each change seen
// in the table itself; a role with 查看 but not 删除 cannot delete whatever the URL's spelling; sort, filter and
// injection strings never reach SQL as text; app.sql.transaction all or nothing; the count estimate for big tables.
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { spellings, rawRequest } from '../../security/sweep.js';
import { sqliteFixture } from '../../testing/sqlite.js';
import { startTestServer, type TestServer } from '../../testing/server.js';
import { tableImport, tableRows, type TablePage } from './tableData.js';
import { PoolRegistry } from '../../connectors/sql/index.js';

const PG_URL = process.env.PG_URL;
const MYSQL_URL = process.env.MYSQL_URL;
const tag = randomBytes(3).toString('hex');

interface Target {
  name: string;
  dsId: number;
  table: string;
  schema?: string;
  view: string;
  noKey: string;
  /** runs SQL directly on the table's database (to see each change in the table itself) */
  query(sqlText: string, params?: unknown[]): Promise<any[]>;
}

const INJECTIONS = ["x' or '1'='1", 'name; drop table x', '"name"', '`name`', 'name) --', "1); delete from x; --", '%', '_', '\\', 'name/**/', "' union select 1 --"];

describe('pages on existing tables', () => {
  let s: TestServer;
  const targets: Target[] = [];
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    s = await startTestServer({ env: { TABLE_COUNT_ESTIMATE_ROWS: '1000' } });
    const lite = `create table tp_goods(id integer primary key, name varchar(40) not null, price numeric(8,2), active boolean not null default 1, born date, level varchar(10));
      insert into tp_goods(name, price, active, born, level) values ('apple', 3, 1, '2026-01-02', 'A'), ('pear', 5, 0, null, 'B'), ('plum', 7, 1, null, 'A');
      create view tp_cheap as select id, name, price from tp_goods where price < 6;
      create table tp_nokey(a text, b integer)`;
    const dsId = await sqliteFixture(s, 'tables.db', lite, 'tp_lite');
    const file = `${s.dataDir}/sqlite/tables.db`;
    targets.push({
      name: 'sqlite',
      dsId,
      table: 'tp_goods',
      view: 'tp_cheap',
      noKey: 'tp_nokey',
      query: async (q, p = []) => {
        const db = new Database(file, { readonly: true });
        try {
          return db.prepare(q).all(...(p as never[]));
        } finally {
          db.close();
        }
      },
    });
    if (PG_URL) {
      const u = new URL(PG_URL);
      const schema = `tp_${tag}`;
      const c = new pg.Client(PG_URL);
      await c.connect();
      await c.query(`create schema ${schema};
        create table ${schema}.tp_goods(id int generated always as identity primary key, name varchar(40) not null, price numeric(8,2), active boolean not null default true, born date, level varchar(10));
        insert into ${schema}.tp_goods(name, price, active, born, level) values ('apple', 3, true, '2026-01-02', 'A'), ('pear', 5, false, null, 'B'), ('plum', 7, true, null, 'A');
        create view ${schema}.tp_cheap as select id, name, price from ${schema}.tp_goods where price < 6;
        create table ${schema}.tp_nokey(a text, b int);
        create table ${schema}.tp_big(id int primary key, note text); insert into ${schema}.tp_big select g, 'n' || g from generate_series(1, 5000) g; analyze ${schema}.tp_big;`);
      cleanups.push(async () => {
        await c.query(`drop schema ${schema} cascade`);
        await c.end();
      });
      const r = await s.request('POST', '/api/gemini/datasource/info/save', { dsName: 'tp_pg', dbType: 'postgresql', hostName: u.hostname, port: Number(u.port || 5432), dbName: u.pathname.slice(1), username: u.username || 'postgres', pwd: 'unused' });
      expect(r.body.status, r.body.msg).toBe(0);
      targets.push({ name: 'postgresql', dsId: r.body.data, table: 'tp_goods', schema, view: 'tp_cheap', noKey: 'tp_nokey', query: async (q, p = []) => (await c.query(q.replaceAll('tp_goods', `${schema}.tp_goods`), p)).rows });
    }
    if (MYSQL_URL) {
      const u = new URL(MYSQL_URL);
      const db = u.pathname.slice(1);
      const admin = await mysql.createConnection({ uri: MYSQL_URL, multipleStatements: true });
      const t = `tp_${tag}_goods`;
      await admin.query(`create table ${t}(id int auto_increment primary key, name varchar(40) not null, price decimal(8,2), active tinyint(1) not null default 1, born date, level varchar(10));
        insert into ${t}(name, price, active, born, level) values ('apple', 3, 1, '2026-01-02', 'A'), ('pear', 5, 0, null, 'B'), ('plum', 7, 1, null, 'A');
        create view tp_${tag}_cheap as select id, name, price from ${t} where price < 6;
        create table tp_${tag}_nokey(a text, b int); create table tp_${tag}_big(id int primary key, note varchar(20))`);
      for (let i = 0; i < 5000; i += 1000) await admin.query(`insert into tp_${tag}_big values ${Array.from({ length: 1000 }, (_, k) => `(${i + k + 1}, 'n${i + k + 1}')`).join(',')}`);
      await admin.query(`analyze table tp_${tag}_big`);
      const user = `tp_${tag}`;
      for (const h of ['%', 'localhost']) {
        await admin.query(`create user if not exists '${user}'@'${h}' identified by 'Tp#Pw_123'`);
        await admin.query(`grant select, insert, update, delete on \`${db}\`.* to '${user}'@'${h}'`);
      }
      cleanups.push(async () => {
        await admin.query(`drop view tp_${tag}_cheap; drop table ${t}, tp_${tag}_nokey, tp_${tag}_big`);
        for (const h of ['%', 'localhost']) await admin.query(`drop user if exists '${user}'@'${h}'`);
        await admin.end();
      });
      const r = await s.request('POST', '/api/gemini/datasource/info/save', { dsName: 'tp_my', dbType: 'mariadb', hostName: u.hostname, port: Number(u.port || 3306), dbName: db, username: user, pwd: 'Tp#Pw_123' });
      expect(r.body.status, r.body.msg).toBe(0);
      targets.push({ name: 'mariadb', dsId: r.body.data, table: t, view: `tp_${tag}_cheap`, noKey: `tp_${tag}_nokey`, query: async (q, p = []) => (await admin.query(q.replaceAll('tp_goods', t), p))[0] as any[] });
    }
  }, 60_000);
  afterAll(async () => {
    for (const c of cleanups) await c().catch(() => undefined);
    await s?.close();
  });

  const gen = (t: Target, table: string, more: object = {}) => s.request('POST', '/api/lowcode/source/generate', { dsId: t.dsId, table, schema: t.schema, ...more });
  const keyOf = (t: Target) => `tp_${t.name}`;

  it('lists tables and views; generates a page (kinds, rules, key, search), refuses a table without a key, makes a view read-only', async () => {
    for (const t of targets) {
      const list = await s.request('POST', '/api/lowcode/source/tables', { dsId: t.dsId });
      expect(list.body.status, `${t.name}: ${list.body.msg}`).toBe(0);
      const byTable = Object.fromEntries(list.body.data.records.map((r: any) => [r.table, r.kind]));
      expect(byTable[t.table], t.name).toBe('table');
      expect(byTable[t.view], t.name).toBe('view');

      const r = await gen(t, t.table, { selects: ['level'], pageKey: keyOf(t), title: '商品' });
      expect(r.body.status, `${t.name}: ${r.body.msg}`).toBe(0);
      const d = r.body.data.declaration;
      expect(d.rowKey).toBe('id');
      expect(d.source).toMatchObject({ dsId: t.dsId, table: t.table, kind: 'table', key: 'id' });
      const p = d.dialog.schema.properties;
      expect(p.id, t.name).toBeUndefined(); // filled by the database
      expect(p.name['x-validator'][0]).toEqual({ required: true, message: '请输入name' });
      expect(p.name.maxLength).toBe(40);
      expect(p.price).toMatchObject({ type: 'number', maximum: 999999.99 });
      expect(p.active.type, t.name).toBe('boolean');
      expect(p.born['x-component']).toBe('DatePicker');
      expect(p.level.enum.map((o: any) => o.value)).toEqual(['A', 'B']);
      expect(d.search.fields).toEqual(['name']);

      const noKey = await gen(t, t.noKey);
      expect(noKey.body.status).toBe(1);
      expect(noKey.body.msg).toMatch(/^表「.*tp_.*nokey」没有主键，无法生成可编辑页面$/);
      const view = await gen(t, t.view, { pageKey: `${keyOf(t)}_v` });
      expect(view.body.status, view.body.msg).toBe(0);
      expect(view.body.data.declaration.api.save).toBeUndefined();
      expect(view.body.data.declaration.toolbar).toEqual([]);
      expect((await gen(t, 'no_such_table')).body.msg).toMatch(/中没有表「(tp_\w+\.)?no_such_table」$/);
    }
  });

  it('saves a page with its catalogue, refusing a column outside the table; publishes it with its permissions as buttons', async () => {
    for (const t of targets) {
      const d = (await gen(t, t.table, { selects: ['level'], pageKey: keyOf(t), title: `商品${t.name}` })).body.data.declaration;
      const bad = structuredClone(d);
      bad.columns.push({ title: '密码', field: 'password', sortable: true });
      const refused = await s.request('POST', '/api/lowcode/page/save', { pageKey: keyOf(t), declaration: bad });
      expect(refused.body.status).toBe(1);
      expect(refused.body.msg).toContain('字段「password」不是表');
      const r = await s.request('POST', '/api/lowcode/page/save', { pageKey: keyOf(t), declaration: d, published: true, roles: ['default'] });
      expect(r.body.status, `${t.name}: ${r.body.msg}`).toBe(0);
      const got = await s.request('GET', `/api/lowcode/page/get?pageKey=${keyOf(t)}`);
      expect(got.body.data.declaration.perms.remove).toBe(`lowcode:${keyOf(t)}:remove`);
      const v = (await gen(t, t.view, { pageKey: `${keyOf(t)}_v` })).body.data.declaration;
      expect((await s.request('POST', '/api/lowcode/page/save', { pageKey: `${keyOf(t)}_v`, declaration: v })).body.status).toBe(0);
    }
    const tree = await s.request('GET', '/api/system/role/permTree');
    const text = JSON.stringify(tree.body.data ?? tree.body);
    expect(tree.body.status, tree.body.msg).toBe(0);
    for (const label of ['查看', '新增', '修改', '删除', '导出', '导入']) expect(text).toContain(`${label}（lowcode:tp_sqlite:`);
  });

  it('adds, searches, sorts, edits and deletes rows in the table itself, through bound SQL', async () => {
    for (const t of targets) {
      const base = `/api/lowcode/data/${keyOf(t)}`;
      const missing = await s.request('POST', `${base}/add`, { price: 1 });
      expect(missing.body.msg).toBe('请输入name');
      const tooLong = await s.request('POST', `${base}/add`, { name: 'x'.repeat(41) });
      expect(tooLong.body.msg).toBe('name不能超过40个字符');
      const added = await s.request('POST', `${base}/add`, { name: "O'Neil; drop table x", price: 12.5, active: false, born: '2026-03-04', level: 'B' });
      expect(added.body.status, `${t.name}: ${added.body.msg}`).toBe(0);
      const id = added.body.data;
      expect(typeof id).toBe('number');
      const inTable = await t.query('select name, price, born from tp_goods where id = ' + Number(id));
      expect(inTable[0].name).toBe("O'Neil; drop table x");
      expect(Number(inTable[0].price)).toBe(12.5);

      const found = await s.request('POST', `${base}/search`, { search: "o'neil", pageNum: 1, pageSize: 10 });
      expect(found.body.status, found.body.msg).toBe(0);
      expect(found.body.data.records).toHaveLength(1);
      expect(found.body.data.records[0]).toMatchObject({ id, name: "O'Neil; drop table x", price: 12.5, active: false, born: '2026-03-04', level: 'B' });
      const sorted = await s.request('POST', `${base}/search`, { orderByColumn: 'price', isAsc: 'desc', pageSize: 2, pageNum: 2 });
      expect(sorted.body.data.records.map((r: any) => r.price), t.name).toEqual([5, 3]);
      expect(sorted.body.data.total).toBe(4);
      const filtered = await s.request('POST', `${base}/search`, { level: 'A', orderByColumn: 'name', isAsc: 'asc' });
      expect(filtered.body.data.records.map((r: any) => r.name)).toEqual(['apple', 'plum']);
      const first = await s.request('POST', `${base}/search`, { pageSize: 2 });
      const next = await s.request('POST', `${base}/search`, { pageSize: 2, after: first.body.data.next });
      const second = await s.request('POST', `${base}/search`, { pageSize: 2, pageNum: 2 });
      expect(next.body.data.records).toEqual(second.body.data.records);

      const got = await s.request('GET', `${base}/get?id=${id}`);
      expect(got.body.data.name).toBe("O'Neil; drop table x");
      const saved = await s.request('POST', `${base}/save`, { ...got.body.data, name: '梨子', price: 6 });
      expect(saved.body.status, saved.body.msg).toBe(0);
      expect((await t.query(`select name, price from tp_goods where id = ${Number(id)}`))[0]).toMatchObject({ name: '梨子' });
      expect((await s.request('POST', `${base}/save`, { ...got.body.data, name: '' })).body.msg).toBe('请输入name');
      expect((await s.request('POST', `${base}/save`, { ...got.body.data, id: 999999 })).body.msg).toBe('记录不存在');
      const del = await s.request('GET', `${base}/delete?id=${id}`);
      expect(del.body.status, del.body.msg).toBe(0);
      expect(await t.query(`select id from tp_goods where id = ${Number(id)}`)).toEqual([]);
      expect((await s.request('GET', `${base}/delete?id=${id}`)).body.msg).toBe('记录不存在');

      // a view's page reads only
      const v = `/api/lowcode/data/${keyOf(t)}_v`;
      expect((await s.request('POST', `${v}/search`, {})).body.data.total).toBe(2);
      expect((await s.request('POST', `${v}/add`, { name: 'x' })).body.msg).toContain('只能查看');
      expect((await s.request('GET', `${v}/delete?id=1`)).body.msg).toContain('只能查看');
    }
  });

  it('refuses sort and filter fields outside the catalogue, and keeps injection strings bound', async () => {
    for (const t of targets) {
      const base = `/api/lowcode/data/${keyOf(t)}`;
      const before = (await t.query('select count(*) as n from tp_goods'))[0].n;
      const sort = await s.request('POST', `${base}/search`, { orderByColumn: 'password', isAsc: 'asc' });
      expect(sort.body).toMatchObject({ status: 1, msg: `不能按字段「password」排序：不是表「${t.table}」的列` });
      const filter = await s.request('POST', `${base}/search`, { secret: '1' });
      expect(filter.body.msg).toBe(`不能按字段「secret」查询：不是表「${t.table}」的列`);
      // a column of the table the page declares no filter on cannot be probed through the search (issue 34):
      // neither in the list, nor in its export
      const probe = await s.request('POST', `${base}/search`, { pageNum: 1, pageSize: 10, price: 12.5 });
      expect(probe.body).toMatchObject({ status: 1, msg: '不能按字段「price」查询：页面没有声明该字段的筛选' });
      expect((await s.request('POST', `${base}/search`, { born: ['2026-03-04', '2026-03-05'] })).body.status).toBe(1);
      const exported = await s.request('POST', `${base}/export`, { price: 12.5, format: 'csv' });
      expect(exported.body?.status ?? exported.http, t.name).not.toBe(0);
      for (const x of INJECTIONS) {
        const a = await s.request('POST', `${base}/search`, { orderByColumn: x, isAsc: 'asc' });
        expect(a.body.status, x).toBe(1);
        expect(a.body.msg, x).toContain('不能按字段');
        const b = await s.request('POST', `${base}/search`, { search: x.slice(0, 20) });
        expect(b.body.status, `${t.name} search ${x}: ${b.body.msg}`).toBe(0);
        expect(b.body.data.records, x).toEqual([]);
        const c = await s.request('POST', `${base}/search`, { level: x });
        expect(c.body.data.records, x).toEqual([]);
        const d = await s.request('GET', `${base}/get?id=${encodeURIComponent(x)}`);
        expect(d.body.status, x).toBe(1);
        const e = await s.request('POST', `/api/lowcode/data/${encodeURIComponent(x)}/search`, {});
        expect(e.body.status === 0, x).toBe(false);
        const f = await s.request('POST', '/api/lowcode/source/generate', { dsId: t.dsId, table: x });
        expect(f.body.msg, x).toContain('中没有表');
        const g = await s.request('POST', '/api/lowcode/source/generate', { dsId: t.dsId, table: t.table, schema: t.schema, selects: [x] });
        expect(g.body.msg, x).toContain('不在表');
        // level is a select: an injection string is no option of it (refused); as a name it is stored as typed
        expect((await s.request('POST', `${base}/add`, { name: 'x', level: x.slice(0, 10) })).body.msg).toBe('level取值不合法');
        const h = await s.request('POST', `${base}/add`, { name: x, level: 'A' });
        expect(h.body.status, `${t.name} add ${x}: ${h.body.msg}`).toBe(0);
        expect((await t.query('select name from tp_goods where id = ' + Number(h.body.data)))[0].name).toBe(x);
        await s.request('GET', `${base}/delete?id=${h.body.data}`);
      }
      expect((await t.query('select count(*) as n from tp_goods'))[0].n).toEqual(before);
    }
  });

  it('checks the page permission on every call: 查看 without 删除 cannot delete, whatever the URL spelling', async () => {
    const t = targets[0];
    const key = keyOf(t);
    const role = await s.app.ctx.db.selectFrom('sys_role').select('id').where('role_key', '=', 'default').executeTakeFirstOrThrow();
    await s.app.ctx.db.insertInto('sys_role_permission').values({ role_id: role.id, permission: `lowcode:${key}:list` }).execute();
    const dev = await s.loginAs('developer');
    const list = await s.request('POST', `/api/lowcode/data/${key}/search`, {}, dev);
    expect(list.body.status, list.body.msg).toBe(0);
    const victim = list.body.data.records[0].id;
    // the old lowcode:data:edit the role holds does not open a page on a table
    for (const p of spellings(`/api/lowcode/data/${key}/delete`)) {
      const a = await rawRequest(s.url, 'GET', `${p}${p.includes('?') ? '' : '?'}id=${victim}`, { token: dev });
      expect(a.body?.status === 0, `${p} → ${a.http} ${a.text.slice(0, 80)}`).toBe(false);
    }
    const encoded = `/api/lowcode/data/%${key.charCodeAt(0).toString(16)}${key.slice(1)}/delete?id=${victim}`;
    const a = await rawRequest(s.url, 'GET', encoded, { token: dev });
    expect(a.http).toBe(403);
    expect((await s.request('POST', `/api/lowcode/data/${key}/add`, { name: 'x' }, dev)).http).toBe(403);
    expect((await s.request('POST', `/api/lowcode/data/${key}/save`, { id: victim, name: 'x' }, dev)).http).toBe(403);
    expect(await t.query(`select id from tp_goods where id = ${Number(victim)}`)).toHaveLength(1);
    await s.app.ctx.db.insertInto('sys_role_permission').values({ role_id: role.id, permission: `lowcode:${key}:remove` }).execute();
    expect((await s.request('GET', `/api/lowcode/data/${key}/delete?id=${victim}`, undefined, dev)).body.status).toBe(0);
  });

  it('app.sql.transaction: a failing 3rd statement leaves nothing written', async () => {
    const req = { user: { username: 'admin' }, log: { warn: () => undefined } } as never;
    for (const t of targets) {
      const row = (await s.app.sql.source('datasource', { id: t.dsId }))!;
      const table = t.name === 'postgresql' ? `"${t.schema}"."${t.table}"` : t.name === 'mariadb' ? `\`${t.table}\`` : `"${t.table}"`;
      const mark = t.name === 'postgresql' ? '$1' : '?';
      const before = (await t.query('select count(*) as n from tp_goods'))[0].n;
      await expect(
        s.app.sql.transaction(
          'datasource',
          row,
          [
            { sql: `insert into ${table} (name) values (${mark})`, params: ['tx-one'] },
            { sql: `insert into ${table} (name) values (${mark})`, params: ['tx-two'] },
            { sql: `insert into ${table} (name) values (${mark})`, params: [null] }, // NOT NULL
          ],
          req,
        ),
      ).rejects.toThrow(/执行失败/);
      expect((await t.query('select count(*) as n from tp_goods'))[0].n, t.name).toEqual(before);
      expect(await t.query("select id from tp_goods where name like 'tx-%'")).toEqual([]);
      const ok = await s.app.sql.transaction('datasource', row, [{ sql: `insert into ${table} (name) values (${mark})`, params: ['tx-ok'] }, { sql: `delete from ${table} where name = ${mark}`, params: ['tx-ok'] }], req);
      expect(ok.map((r) => r.rowCount)).toEqual([1, 1]);
    }
  });

  it('imports rows all or nothing with a per-row report, and reads every matching row in batches (for export and import)', async () => {
    const req = { user: { username: 'admin' }, log: { warn: () => undefined } } as never;
    for (const t of targets) {
      const stored = await s.app.ctx.db.selectFrom('lowcode_page').selectAll().where('page_key', '=', keyOf(t)).executeTakeFirstOrThrow();
      const page: TablePage = { pageKey: keyOf(t), decl: JSON.parse(stored.declaration), cat: JSON.parse(stored.source_catalogue!) };
      const before = Number((await t.query('select count(*) as n from tp_goods'))[0].n);
      const bad = await tableImport(s.app, req, page, [{ name: 'imp-1' }, { name: '', price: 1 }, { name: 'imp-3', price: 10_000_000 }], {});
      expect(bad.inserted).toBe(0);
      expect(bad.faults).toEqual([
        { row: 2, field: 'name', reason: '请输入name' },
        { row: 3, field: 'price', reason: 'price不能大于999999.99' },
      ]);
      expect(Number((await t.query('select count(*) as n from tp_goods'))[0].n), t.name).toBe(before);
      const good = await tableImport(s.app, req, page, [{ name: 'imp-1', price: 1.5 }, { name: 'imp-2', active: false }, { name: 'imp-3', born: '2026-05-06' }], {});
      expect(good, t.name).toEqual({ inserted: 3, faults: [] });
      expect((await t.query("select name from tp_goods where name like 'imp-%' order by name")).map((r) => r.name)).toEqual(['imp-1', 'imp-2', 'imp-3']);
      const seen: unknown[] = [];
      for await (const batch of tableRows(s.app, req, page, {}, 2)) seen.push(...batch.map((r) => r.id));
      expect(seen.length).toBe(before + 3);
      expect(new Set(seen).size).toBe(seen.length);
      const sorted: unknown[] = [];
      for await (const batch of tableRows(s.app, req, page, { search: 'imp-', orderByColumn: 'name', isAsc: 'desc' }, 2)) sorted.push(...batch.map((r) => r.name));
      expect(sorted).toEqual(['imp-3', 'imp-2', 'imp-1']);
      await expect(async () => {
        for await (const _ of tableRows(s.app, req, page, { 'x; drop': 1 })) void _;
      }).rejects.toThrow('不能按字段「x; drop」查询');
    }
  });

  it('exports the table as XLSX and CSV through the page, and imports a CSV all or nothing with the bad row named', async () => {
    for (const t of targets) {
      const base = `${s.url}/api/lowcode/data/${keyOf(t)}`;
      const auth = { authorization: `Bearer ${s.token}` };
      const rows = Number((await t.query('select count(*) as n from tp_goods'))[0].n);
      // every row of the table, not a page of it
      const xlsx = await fetch(`${base}/export?format=xlsx`, { headers: auth });
      expect(xlsx.headers.get('content-type'), t.name).toContain('spreadsheetml');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load((await xlsx.arrayBuffer()) as ArrayBuffer);
      expect(book.worksheets[0].rowCount, t.name).toBe(rows + 1);
      const csv = await (await fetch(`${base}/export?format=csv&search=apple`, { headers: auth })).text();
      expect(csv.trim().split('\r\n'), t.name).toHaveLength(2);
      expect(csv).toContain('apple');
      // an import with one bad row writes nothing and names the row
      const send = async (text: string, mode: 'preview' | 'commit') => {
        const form = new FormData();
        form.append('mode', mode);
        form.append('file', new Blob([text]), 'goods.csv');
        return (await (await fetch(`${base}/import`, { method: 'POST', headers: auth, body: form })).json()) as { status: number; msg: string; data: any };
      };
      const bad = 'name,price\r\ncsv-1,1\r\n,2\r\ncsv-3,3\r\n';
      expect((await send(bad, 'preview')).data.faults, t.name).toEqual([expect.objectContaining({ row: 3 })]);
      const refused = await send(bad, 'commit');
      expect(refused.status, t.name).toBe(1);
      expect(refused.msg).toContain('第 3 行');
      expect(Number((await t.query('select count(*) as n from tp_goods'))[0].n), t.name).toBe(rows);
      const done = await send('name,price\r\ncsv-1,1\r\ncsv-2,2\r\n', 'commit');
      expect(done.status, `${t.name}: ${done.msg}`).toBe(0);
      expect((await t.query("select name from tp_goods where name like 'csv-%' order by name")).map((r) => r.name)).toEqual(['csv-1', 'csv-2']);
    }
  });

  it.runIf(PG_URL)('never runs a transaction on the platform’s own store (the target policy holds for it too)', async () => {
    const u = new URL(PG_URL!);
    const pools = new PoolRegistry({ reserved: [{ host: '127.0.0.1', port: Number(u.port || 5432), database: u.pathname.slice(1) }] });
    try {
      const settings = { dbType: 'postgresql', hostName: u.hostname, port: Number(u.port || 5432), dbName: u.pathname.slice(1), username: u.username || 'postgres', password: '' };
      await expect(pools.transaction('x', settings, [{ sql: 'select 1', params: [] }])).rejects.toMatchObject({ code: 'REFUSED' });
      expect(pools.size).toBe(0);
    } finally {
      await pools.closeAll();
    }
  });

  it.runIf(PG_URL)('answers the catalogue estimate for a large table nothing filters, and counts otherwise', async () => {
    const t = targets.find((x) => x.name === 'postgresql')!;
    const d = (await gen(t, 'tp_big', { pageKey: 'tp_big' })).body.data.declaration;
    expect((await s.request('POST', '/api/lowcode/page/save', { pageKey: 'tp_big', declaration: d })).body.status).toBe(0);
    const all = await s.request('POST', '/api/lowcode/data/tp_big/search', { pageSize: 10, pageNum: 300 });
    expect(all.body.data).toMatchObject({ total: 5000, totalEstimated: true });
    expect(all.body.data.records.map((r: any) => r.id)).toEqual(Array.from({ length: 10 }, (_, i) => 5000 - 2990 - i));
    const some = await s.request('POST', '/api/lowcode/data/tp_big/search', { search: 'n12' });
    expect(some.body.data.totalEstimated).toBeUndefined();
    expect(some.body.data.total).toBe(111); // n12, n120-n129, n1200-n1299
  });

  it.runIf(MYSQL_URL)('answers TABLE_ROWS as the estimate on MariaDB / MySQL', async () => {
    const t = targets.find((x) => x.name === 'mariadb')!;
    const d = (await gen(t, `tp_${tag}_big`, { pageKey: 'tp_mybig' })).body.data.declaration;
    expect((await s.request('POST', '/api/lowcode/page/save', { pageKey: 'tp_mybig', declaration: d })).body.status).toBe(0);
    const all = await s.request('POST', '/api/lowcode/data/tp_mybig/search', { pageSize: 10, pageNum: 300 });
    expect(all.body.data.totalEstimated).toBe(true);
    expect(all.body.data.total).toBeGreaterThan(4000); // InnoDB's TABLE_ROWS is itself an estimate
    expect(all.body.data.total).toBeLessThan(6000);
    expect(all.body.data.records.map((r: any) => r.id)).toEqual(Array.from({ length: 10 }, (_, i) => 5000 - 2990 - i));
    const some = await s.request('POST', '/api/lowcode/data/tp_mybig/search', { search: 'n12' });
    expect(some.body.data).toMatchObject({ total: 111 });
    expect(some.body.data.totalEstimated).toBeUndefined();
  });

  it('keeps the identity of its data source: re-pointed, the page refuses to run until its editor saves it again (issue 34)', async () => {
    // a second SQLite file with the same table, holding other rows
    const other = await sqliteFixture(s, 'tables_other.db', `create table tp_goods(id integer primary key, name varchar(40) not null, price numeric(8,2), active boolean not null default 1, born date, level varchar(10));
      insert into tp_goods(name, level) values ('intruder', 'A')`, 'tp_other');
    void other;
    const t = targets.find((x) => x.name === 'sqlite')!;
    const d = (await gen(t, t.table, { pageKey: 'tp_ident' })).body.data.declaration;
    expect((await s.request('POST', '/api/lowcode/page/save', { pageKey: 'tp_ident', declaration: d, published: true, roles: ['default'] })).body.status).toBe(0);
    const before = await s.request('POST', '/api/lowcode/data/tp_ident/search', {});
    expect(before.body.data.records.map((r: any) => r.name)).not.toContain('intruder');
    // somebody who may edit data sources points tp_lite at the other file
    const ds = (await s.request('GET', `/api/gemini/datasource/info/get?id=${t.dsId}`)).body.data;
    expect((await s.request('POST', '/api/gemini/datasource/info/save', { ...ds, dbName: 'tables_other.db' })).body.status).toBe(0);
    const msg = '页面【tp_goods】的数据源【tp_lite】已变更（类型、地址、端口、数据库或账号）：请页面管理员在页面管理中确认并重新保存该页面后再使用';
    for (const [method, path, body] of [
      ['POST', '/api/lowcode/data/tp_ident/search', {}],
      ['GET', '/api/lowcode/data/tp_ident/get?id=1', undefined],
      ['POST', '/api/lowcode/data/tp_ident/add', { name: 'x', level: 'A' }],
      ['GET', '/api/lowcode/data/tp_ident/delete?id=1', undefined],
      ['GET', '/api/lowcode/data/tp_ident/export?format=csv', undefined],
    ] as const) {
      const r = await s.request(method, path, body);
      expect(r.body, path).toMatchObject({ status: 1, msg });
    }
    const listed = (await s.request('POST', '/api/lowcode/page/search', { search: 'tp_ident' })).body.data.records[0];
    expect(listed.sourceChanged).toBe(true);
    // the page manager's save is the editor's confirmation
    const page = (await s.request('GET', '/api/lowcode/page/get?pageKey=tp_ident')).body.data;
    expect(page.sourceChanged).toBe(true);
    expect((await s.request('POST', '/api/lowcode/page/save', { id: page.id, pageKey: 'tp_ident', declaration: page.declaration, published: true, roles: ['default'] })).body.status).toBe(0);
    expect((await s.request('POST', '/api/lowcode/data/tp_ident/search', {})).body.data.records.map((r: any) => r.name)).toEqual(['intruder']);
    expect((await s.request('POST', '/api/lowcode/page/search', { search: 'tp_ident' })).body.data.records[0].sourceChanged).toBe(false);
    // back as it was, for the tests after
    expect((await s.request('POST', '/api/gemini/datasource/info/save', { ...ds, dbName: 'tables.db' })).body.status).toBe(0);
  });

  it('publishes a page to a role made a moment ago in 角色管理 (issue 34)', async () => {
    const made = await s.request('POST', '/api/system/role/save', { roleName: '仓库查看', roleKey: 'stock_viewer', roleType: 'default', permKeys: [] });
    expect(made.body.status, made.body.msg).toBe(0);
    const t = targets.find((x) => x.name === 'sqlite')!;
    const d = (await gen(t, t.table, { pageKey: 'tp_roles' })).body.data.declaration;
    const r = await s.request('POST', '/api/lowcode/page/save', { pageKey: 'tp_roles', declaration: d, published: true, roles: ['stock_viewer'] });
    expect(r.body).toMatchObject({ status: 0 });
    expect((await s.request('POST', '/api/lowcode/page/save', { pageKey: 'tp_roles2', declaration: { ...d, id: 'tp_roles2' }, published: true, roles: ['no_such_role'] })).body.msg).toBe('角色不存在：no_such_role');
  });
});
