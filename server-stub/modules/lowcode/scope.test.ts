// Data scope on pages on existing tables (issue 34 item 2) over real HTTP, on a SQLite data source and a real
// PostgreSQL table (PG_URL) and a MariaDB / MySQL one (MYSQL_URL): a page declares its owner and department columns (source.ownerColumn / deptColumn);
// search, count, get by id, export, edit and delete see only the caller's rows, on every spelling of the route;
// new rows (one by one or imported) are stamped with the creator and their department; an edit cannot move a row
// out of the editor's scope; a page with only an owner column filters by the owners' departments.
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { spellings, rawRequest } from '../../security/sweep.js';
import { sqliteFixture } from '../../testing/sqlite.js';
import { startTestServer, type TestServer } from '../../testing/server.js';
import { addPerson } from '../../testing/people.js';
import { MSG_OUT_OF_SCOPE } from '../../core/org.js';
import { MSG_NEW_OUT_OF_SCOPE } from './tableData.js';

const PG_URL = process.env.PG_URL;
const MYSQL_URL = process.env.MYSQL_URL;
const tag = randomBytes(3).toString('hex');

interface Target {
  name: string;
  dsId: number;
  schema?: string;
  /** the tables' names where they differ (MariaDB: one database shared, so a tag in each name) */
  tables?: Record<string, string>;
  query(sqlText: string, params?: unknown[]): Promise<any[]>;
}

describe('data scope on pages on tables', () => {
  let s: TestServer;
  const targets: Target[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  const ids: Record<string, number> = {};
  const tokens: Record<string, string> = {};

  const must = async (method: 'GET' | 'POST', path: string, body?: unknown, token?: string) => {
    const r = await s.request(method, path, body, token);
    if (r.body.status !== 0) throw new Error(`${path}: ${r.body.msg}`);
    return r.body.data;
  };

  beforeAll(async () => {
    s = await startTestServer({ env: { TABLE_COUNT_ESTIMATE_ROWS: '1000' } });
    // departments: 总部 › 甲 › 甲一, 总部 › 乙
    ids.top = await must('POST', '/api/system/dept/save', { deptName: '总部', parentId: 0, orderNum: 0 });
    ids.a = await must('POST', '/api/system/dept/save', { deptName: '甲', parentId: ids.top, orderNum: 0 });
    ids.a1 = await must('POST', '/api/system/dept/save', { deptName: '甲一', parentId: ids.a, orderNum: 0 });
    ids.b = await must('POST', '/api/system/dept/save', { deptName: '乙', parentId: ids.top, orderNum: 0 });
    for (const [key, scope] of [['sc_below', '4'], ['sc_dept', '3'], ['sc_self', '5'], ['sc_custom', '2']] as const) {
      ids[key] = await must('POST', '/api/system/role/save', { roleName: key, roleKey: key, roleType: 'default', orderNum: 9, dataScope: scope, deptIds: scope === '2' ? [ids.b] : [], permKeys: [] });
    }
    for (const [name, role, dept] of [['u.a', 'sc_below', 'a'], ['u.a1', 'sc_dept', 'a1'], ['u.b', 'sc_dept', 'b'], ['u.self', 'sc_self', 'b'], ['u.custom', 'sc_custom', 'a']] as const) {
      ({ id: ids[name], token: tokens[name] } = await addPerson(s, name, [ids[role]], ids[dept]));
    }
    const rows = (o: string) =>
      [
        ['a-row', ids['u.a'], ids.a],
        ['a1-row', ids['u.a1'], ids.a1],
        ['b-row', ids['u.b'], ids.b],
        ['self-row', ids['u.self'], ids.b],
      ]
        .map(([t, u, d]) => `('${t}', ${o === 'text' ? `'${u}'` : u}, ${d})`)
        .join(', ');
    const lite = `create table sc_orders(id integer primary key, title varchar(40) not null, owner_id integer, dept_id integer);
      insert into sc_orders(title, owner_id, dept_id) values ${rows('int')};
      create table sc_notes(id integer primary key, title varchar(40) not null, owner_id varchar(20));
      insert into sc_notes(title, owner_id) values ${rows('text').replace(/, \d+\)/g, ')')}`;
    targets.push({ name: 'sqlite', dsId: await sqliteFixture(s, 'scope.db', lite, 'sc_lite'), query: async () => [] });
    if (PG_URL) {
      const u = new URL(PG_URL);
      const schema = `sc_${tag}`;
      const c = new pg.Client(PG_URL);
      await c.connect();
      await c.query(`create schema ${schema};
        create table ${schema}.sc_orders(id int generated always as identity primary key, title varchar(40) not null, owner_id int, dept_id int);
        insert into ${schema}.sc_orders(title, owner_id, dept_id) values ${rows('int')};
        create table ${schema}.sc_notes(id int generated always as identity primary key, title varchar(40) not null, owner_id varchar(20));
        insert into ${schema}.sc_notes(title, owner_id) values ${rows('text').replace(/, \d+\)/g, ')')};
        create table ${schema}.sc_big(id int generated always as identity primary key, title varchar(40) not null, owner_id int, dept_id int);
        insert into ${schema}.sc_big(title, owner_id, dept_id) select 'big ' || g, ${ids['u.b']}, (array[${ids.a}, ${ids.a1}, ${ids.b}])[1 + g % 3] from generate_series(1, 6000) g;
        create index ix_sc_big_dept on ${schema}.sc_big(dept_id); analyze ${schema}.sc_big;`);
      cleanups.push(async () => {
        await c.query(`drop schema ${schema} cascade`);
        await c.end();
      });
      const dsId = await must('POST', '/api/gemini/datasource/info/save', { dsName: 'sc_pg', dbType: 'postgresql', hostName: u.hostname, port: Number(u.port || 5432), dbName: u.pathname.slice(1), username: u.username || 'postgres', pwd: 'unused' });
      targets.push({ name: 'postgresql', dsId, schema, query: async (q, p = []) => (await c.query(q.replaceAll('sc_orders', `${schema}.sc_orders`), p)).rows });
    }
    if (MYSQL_URL) {
      const u = new URL(MYSQL_URL);
      const db = u.pathname.slice(1);
      const admin = await mysql.createConnection({ uri: MYSQL_URL, multipleStatements: true });
      const [orders, notes] = [`sc_${tag}_orders`, `sc_${tag}_notes`];
      await admin.query(`create table ${orders}(id int auto_increment primary key, title varchar(40) not null, owner_id int, dept_id int);
        insert into ${orders}(title, owner_id, dept_id) values ${rows('int')};
        create table ${notes}(id int auto_increment primary key, title varchar(40) not null, owner_id varchar(20));
        insert into ${notes}(title, owner_id) values ${rows('text').replace(/, \d+\)/g, ')')}`);
      const user = `sc_${tag}`;
      for (const h of ['%', 'localhost']) {
        await admin.query(`create user if not exists '${user}'@'${h}' identified by 'Sc#Pw_123'`);
        await admin.query(`grant select, insert, update, delete on \`${db}\`.* to '${user}'@'${h}'`);
      }
      cleanups.push(async () => {
        await admin.query(`drop table ${orders}, ${notes}`);
        for (const h of ['%', 'localhost']) await admin.query(`drop user if exists '${user}'@'${h}'`);
        await admin.end();
      });
      const dsId = await must('POST', '/api/gemini/datasource/info/save', { dsName: 'sc_my', dbType: 'mariadb', hostName: u.hostname, port: Number(u.port || 3306), dbName: db, username: user, pwd: 'Sc#Pw_123' });
      targets.push({ name: 'mariadb', dsId, tables: { sc_orders: orders, sc_notes: notes }, query: async () => [] });
    }
    // each target's pages, published to every role above
    for (const t of targets) {
      for (const [table, source] of [['sc_orders', { ownerColumn: 'owner_id', deptColumn: 'dept_id' }], ['sc_notes', { ownerColumn: 'owner_id' }], ...(t.name === 'postgresql' ? ([['sc_big', { ownerColumn: 'owner_id', deptColumn: 'dept_id' }]] as const) : [])] as const) {
        const pageKey = `${table}_${t.name}`;
        const d = await must('POST', '/api/lowcode/source/generate', { dsId: t.dsId, table: t.tables?.[table] ?? table, schema: t.schema, pageKey, title: pageKey });
        d.declaration.source = { ...d.declaration.source, ...source };
        await must('POST', '/api/lowcode/page/save', { pageKey, declaration: d.declaration, published: true, roles: ['sc_below', 'sc_dept', 'sc_self', 'sc_custom'] });
        // the page's permissions, as 角色管理 would grant them (set-up through the store)
        const grants = ['sc_below', 'sc_dept', 'sc_self', 'sc_custom'].flatMap((r) => ['list', 'add', 'edit', 'remove', 'export', 'import'].map((a) => ({ role_id: ids[r], permission: `lowcode:${pageKey}:${a}` })));
        await s.app.ctx.db.insertInto('sys_role_permission').values(grants).execute();
      }
    }
  }, 60_000);
  afterAll(async () => {
    for (const c of cleanups) await c().catch(() => undefined);
    await s?.close();
  });

  const titles = (records: Array<{ title: string }>) => records.map((r) => r.title).sort();

  it('refuses an owner or department column the table does not have', async () => {
    expect(targets.map((t) => t.name)).toEqual(['sqlite', ...(PG_URL ? ['postgresql'] : []), ...(MYSQL_URL ? ['mariadb'] : [])]);
    const t = targets[0];
    const d = await must('POST', '/api/lowcode/source/generate', { dsId: t.dsId, table: 'sc_orders', pageKey: 'sc_bad', title: 'x' });
    d.declaration.source.ownerColumn = 'nobody';
    expect((await s.request('POST', '/api/lowcode/page/save', { pageKey: 'sc_bad', declaration: d.declaration })).body.msg).toBe('页面声明不合法：所属人列「nobody」不是表「sc_orders」的列');
    // names from the injection corpus never reach SQL: the catalogue refuses them first
    for (const bad of ["x' or '1'='1", 'owner_id; drop table sc_orders', '"owner_id"', 'owner_id) --', "' union select 1 --", 'owner_id/**/']) {
      d.declaration.source.deptColumn = bad;
      const r = await s.request('POST', '/api/lowcode/page/save', { pageKey: 'sc_bad', declaration: { ...d.declaration, source: { ...d.declaration.source, ownerColumn: undefined } } });
      expect(r.body.status, bad).toBe(1);
      expect(r.body.msg).toMatch(/^页面声明不合法：/);
    }
    delete d.declaration.source.deptColumn;
    d.declaration.source.ownerColumn = 'id';
    expect((await s.request('POST', '/api/lowcode/page/save', { pageKey: 'sc_bad', declaration: d.declaration })).body.msg).toBe('页面声明不合法：所属人列不能是主键列「id」');
  });

  it('search, count, get by id and export see only the scope, on every route spelling', async () => {
    for (const t of targets) {
      const base = `/api/lowcode/data/sc_orders_${t.name}`;
      const list = async (user: string, body: object = {}) => (await must('POST', `${base}/search`, { pageSize: 100, ...body }, tokens[user])) as { records: any[]; total: number };
      // 本部门及以下, 本部门, 仅本人, 自定义 (乙)
      expect(titles((await list('u.a')).records), t.name).toEqual(['a-row', 'a1-row']);
      expect((await list('u.a')).total).toBe(2);
      expect(titles((await list('u.a1')).records)).toEqual(['a1-row']);
      expect(titles((await list('u.self')).records)).toEqual(['self-row']);
      expect(titles((await list('u.custom')).records)).toEqual(['b-row', 'self-row']);
      // admin sees all; a search or a filter never reaches past the scope
      expect((await must('POST', `${base}/search`, { pageSize: 100 })).total).toBe(4);
      expect((await list('u.a', { search: 'b-row' })).records).toEqual([]);
      expect((await list('u.a', { search: 'row' })).total).toBe(2);

      const bRow = (await must('POST', `${base}/search`, { search: 'b-row' })).records[0].id;
      for (const url of spellings(`${base}/get`)) {
        const r = await rawRequest(s.url, 'GET', `${url}${url.includes('?') ? '' : '?'}id=${bRow}`, { token: tokens['u.a'] });
        expect(r.text, url).not.toContain('b-row');
      }
      expect((await s.request('GET', `${base}/get?id=${bRow}`, undefined, tokens['u.a'])).body.msg).toBe('记录不存在');
      expect((await s.request('GET', `${base}/get?id=${bRow}`, undefined, tokens['u.b'])).body.data.title).toBe('b-row');
      const csv = await (await fetch(`${s.url}${base}/export?format=csv`, { headers: { authorization: `Bearer ${tokens['u.a']}` } })).text();
      expect(csv).toContain('a1-row');
      expect(csv).not.toContain('b-row');
      expect(csv).not.toContain('self-row');
    }
  });

  it('stamps new rows with the creator and their department; edits and deletes stay inside the scope', async () => {
    for (const t of targets) {
      const base = `/api/lowcode/data/sc_orders_${t.name}`;
      const find = async (title: string) => (await must('POST', `${base}/search`, { search: title })).records[0];
      // whatever the body says, the row is the creator's and their department's
      const id = await must('POST', `${base}/add`, { title: `new-${t.name}`, owner_id: ids['u.b'], dept_id: ids.b }, tokens['u.a']);
      expect(await find(`new-${t.name}`)).toMatchObject({ id, owner_id: ids['u.a'], dept_id: ids.a });
      // a row outside: not there to edit or delete
      const bRow = (await find('b-row')).id;
      expect((await s.request('POST', `${base}/save`, { id: bRow, title: 'taken', owner_id: ids['u.a'], dept_id: ids.a }, tokens['u.a'])).body.msg).toBe('记录不存在');
      expect((await s.request('GET', `${base}/delete?id=${bRow}`, undefined, tokens['u.a'])).body.msg).toBe('记录不存在');
      expect((await find('b-row')).title).toBe('b-row');
      // moving a row out of the scope by its department or owner column is refused; inside it is fine
      expect((await s.request('POST', `${base}/save`, { id, title: 'moved', dept_id: ids.b }, tokens['u.a'])).body.msg).toBe(MSG_OUT_OF_SCOPE);
      expect((await s.request('POST', `${base}/save`, { id, title: `new-${t.name}`, dept_id: ids.a1 }, tokens['u.a'])).body.msg).toBe('保存成功');
      expect((await find(`new-${t.name}`)).dept_id).toBe(ids.a1);
      // 仅本人: moving one's own row to someone else is refused (it would leave the scope)
      const own = (await must('POST', `${base}/search`, { search: 'self-row' }, tokens['u.self'])).records[0].id;
      expect((await s.request('POST', `${base}/save`, { id: own, title: 'self-row', owner_id: ids['u.b'] }, tokens['u.self'])).body.msg).toBe(MSG_OUT_OF_SCOPE);
      // 自定义 (乙) while in 甲: a new row would be stamped 甲, outside the scope
      expect((await s.request('POST', `${base}/add`, { title: 'custom-new' }, tokens['u.custom'])).body.msg).toBe(MSG_NEW_OUT_OF_SCOPE);
      expect((await s.request('GET', `${base}/delete?id=${id}`, undefined, tokens['u.a'])).body.msg).toBe('删除成功');
    }
  });

  it('imports stamp every row with the importer; an import outside the importer’s scope writes nothing', async () => {
    for (const t of targets) {
      const base = `${s.url}/api/lowcode/data/sc_orders_${t.name}`;
      const send = async (token: string, text: string) => {
        const form = new FormData();
        form.append('mode', 'commit');
        form.append('file', new Blob([text]), 'orders.csv');
        return (await (await fetch(`${base}/import`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })).json()) as { status: number; msg: string };
      };
      const done = await send(tokens['u.self'], `title,owner_id,dept_id\r\nimp-a-${t.name},${ids['u.a']},${ids.a}\r\n`);
      expect(done.status, done.msg).toBe(0);
      const mine = await must('POST', `/api/lowcode/data/sc_orders_${t.name}/search`, { search: `imp-a-${t.name}` }, tokens['u.self']);
      expect(mine.records[0]).toMatchObject({ owner_id: ids['u.self'], dept_id: ids.b });
      const refused = await send(tokens['u.custom'], `title\r\nimp-c-${t.name}\r\n`);
      expect(refused.status).toBe(1);
      expect(refused.msg).toContain(MSG_NEW_OUT_OF_SCOPE);
      expect((await must('POST', `/api/lowcode/data/sc_orders_${t.name}/search`, { search: `imp-c-${t.name}` })).total).toBe(0);
    }
  });

  it('a page with an owner column only: the rows of owners in the scope’s departments, and one’s own', async () => {
    for (const t of targets) {
      const base = `/api/lowcode/data/sc_notes_${t.name}`;
      const list = async (user: string) => titles(((await must('POST', `${base}/search`, { pageSize: 100 }, tokens[user])) as { records: any[] }).records);
      expect(await list('u.a'), t.name).toEqual(['a-row', 'a1-row']);
      expect(await list('u.self')).toEqual(['self-row']);
      expect(await list('u.custom')).toEqual(['b-row', 'self-row']);
      const id = await must('POST', `${base}/add`, { title: `note-${t.name}` }, tokens['u.b']);
      expect((await must('GET', `${base}/get?id=${id}`, undefined, tokens['u.b'])).owner_id).toBe(String(ids['u.b']));
    }
  });

  it.runIf(PG_URL)('a large table under the scope alone answers the planner’s estimate of the scoped rows; a search counts', async () => {
    const base = '/api/lowcode/data/sc_big_postgresql';
    const scoped = await must('POST', `${base}/search`, { pageSize: 10 }, tokens['u.a']);
    // 甲 and 甲一: two thirds of 6,000 rows
    expect(scoped.totalEstimated).toBe(true);
    expect(scoped.total).toBeGreaterThan(3000);
    expect(scoped.total).toBeLessThan(5000);
    expect(scoped.records.every((r: any) => [ids.a, ids.a1].includes(r.dept_id))).toBe(true);
    const searched = await must('POST', `${base}/search`, { pageSize: 10, search: 'big 1' }, tokens['u.a']);
    expect(searched.totalEstimated).toBeUndefined();
    // big 1, big 10–19, big 100–199, big 1000–1999: 1,111 rows, two thirds of them 甲 or 甲一
    expect(searched.total).toBe(Array.from({ length: 6000 }, (_, i) => i + 1).filter((g) => String(g).startsWith('1') && g % 3 !== 2).length);
  });
});
