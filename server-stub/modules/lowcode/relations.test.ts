// Related records and master–detail on pages on tables (issue 34 items 3 and 4) over real HTTP, on a SQLite data
// source, a real PostgreSQL schema (PG_URL) and a MariaDB / MySQL database (MYSQL_URL): the generator finds the
// foreign keys (orders.supplier_id → suppliers) and proposes the supplier's name as the label, the list shows and
// searches it, the related select pages and searches the suppliers (under the suppliers page's data scope), and
// an order is saved with its lines in one transaction: one bad line (by the page's rules or by the database)
// refuses the whole save naming its line; deleting an order with lines is refused or takes them, as declared.
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { sqliteFixture } from '../../testing/sqlite.js';
import { startTestServer, type TestServer } from '../../testing/server.js';
import { addPerson, PERSON_PASSWORD } from '../../testing/people.js';
import { spellings } from '../../security/sweep.js';

const PG_URL = process.env.PG_URL;
const MYSQL_URL = process.env.MYSQL_URL;
const tag = randomBytes(3).toString('hex');

interface Target {
  name: string;
  dsId: number;
  schema?: string;
  t: (table: 'rl_supplier' | 'rl_order' | 'rl_line') => string;
  count(table: 'rl_order' | 'rl_line'): Promise<number>;
}

const SUPPLIERS = ['Acme 贸易', 'Beta 工业', 'Gamma 物流', 'Delta 科技', 'Epsilon 食品'];

describe('related records and master–detail on pages on tables', () => {
  let s: TestServer;
  const targets: Target[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  const ids: Record<string, number> = {};

  const must = async (method: 'GET' | 'POST', path: string, body?: unknown, token?: string) => {
    const r = await s.request(method, path, body, token);
    if (r.body.status !== 0) throw new Error(`${path}: ${r.body.msg}`);
    return r.body.data;
  };
  const pageOf = (t: Target, what: 'order' | 'supplier') => `rl_${what}_${t.name}`;

  beforeAll(async () => {
    s = await startTestServer();
    ids.a = await must('POST', '/api/system/dept/save', { deptName: '采购一部', parentId: 0, orderNum: 0 });
    ids.b = await must('POST', '/api/system/dept/save', { deptName: '采购二部', parentId: 0, orderNum: 1 });
    ids.role = await must('POST', '/api/system/role/save', { roleName: 'rl_dept', roleKey: 'rl_dept', roleType: 'default', orderNum: 9, dataScope: '3', deptIds: [], permKeys: [] });
    ids.viewer = await must('POST', '/api/system/role/save', { roleName: 'rl_viewer', roleKey: 'rl_viewer', roleType: 'default', orderNum: 9, dataScope: '1', deptIds: [], permKeys: [] });
    for (const [name, role] of [['rl.a', 'role'], ['rl.view', 'viewer']] as const) await addPerson(s, name, [ids[role]], ids.a);
    // suppliers 1, 3, 5 in department a, 2 and 4 in department b
    const suppliers = SUPPLIERS.map((n, i) => `('${n}', ${i % 2 === 0 ? ids.a : ids.b})`).join(', ');
    const lite = `create table rl_supplier(id integer primary key, name varchar(40) not null, dept_id integer);
      insert into rl_supplier(name, dept_id) values ${suppliers};
      create table rl_order(id integer primary key, title varchar(40) not null, supplier_id integer references rl_supplier(id));
      create table rl_line(id integer primary key, order_id integer not null references rl_order(id), product varchar(40) not null, qty integer not null check (qty > 0));`;
    const liteDb = await sqliteFixture(s, 'relations.db', lite, 'rl_lite');
    const Database = (await import('better-sqlite3')).default;
    const litePath = `${s.dataDir}/sqlite/relations.db`;
    const liteCount = async (table: string) => {
      const db = new Database(litePath, { readonly: true });
      try {
        return Number((db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n);
      } finally {
        db.close();
      }
    };
    targets.push({ name: 'sqlite', dsId: liteDb, t: (x) => x, count: liteCount });
    if (PG_URL) {
      const u = new URL(PG_URL);
      const schema = `rl_${tag}`;
      const c = new pg.Client(PG_URL);
      await c.connect();
      await c.query(`create schema ${schema};
        create table ${schema}.rl_supplier(id int generated always as identity primary key, name varchar(40) not null, dept_id int);
        insert into ${schema}.rl_supplier(name, dept_id) values ${suppliers};
        create table ${schema}.rl_order(id int generated always as identity primary key, title varchar(40) not null, supplier_id int references ${schema}.rl_supplier(id));
        create table ${schema}.rl_line(id int generated always as identity primary key, order_id int not null references ${schema}.rl_order(id), product varchar(40) not null, qty int not null check (qty > 0));`);
      cleanups.push(async () => {
        await c.query(`drop schema ${schema} cascade`);
        await c.end();
      });
      const dsId = await must('POST', '/api/gemini/datasource/info/save', { dsName: 'rl_pg', dbType: 'postgresql', hostName: u.hostname, port: Number(u.port || 5432), dbName: u.pathname.slice(1), username: u.username || 'postgres', pwd: 'unused' });
      targets.push({ name: 'postgresql', dsId, schema, t: (x) => x, count: async (x) => Number((await c.query(`select count(*) as n from ${schema}.${x}`)).rows[0].n) });
    }
    if (MYSQL_URL) {
      const u = new URL(MYSQL_URL);
      const db = u.pathname.slice(1);
      const admin = await mysql.createConnection({ uri: MYSQL_URL, multipleStatements: true });
      const t = (x: string) => `${x}_${tag}`;
      await admin.query(`create table ${t('rl_supplier')}(id int auto_increment primary key, name varchar(40) not null, dept_id int);
        insert into ${t('rl_supplier')}(name, dept_id) values ${suppliers};
        create table ${t('rl_order')}(id int auto_increment primary key, title varchar(40) not null, supplier_id int, foreign key (supplier_id) references ${t('rl_supplier')}(id));
        create table ${t('rl_line')}(id int auto_increment primary key, order_id int not null, product varchar(40) not null, qty int not null check (qty > 0), foreign key (order_id) references ${t('rl_order')}(id));`);
      const user = `rl_${tag}`;
      for (const h of ['%', 'localhost']) {
        await admin.query(`create user if not exists '${user}'@'${h}' identified by 'Rl#Pw_123'`);
        await admin.query(`grant select, insert, update, delete on \`${db}\`.* to '${user}'@'${h}'`);
      }
      cleanups.push(async () => {
        await admin.query(`drop table ${t('rl_line')}, ${t('rl_order')}, ${t('rl_supplier')}`);
        for (const h of ['%', 'localhost']) await admin.query(`drop user if exists '${user}'@'${h}'`);
        await admin.end();
      });
      const dsId = await must('POST', '/api/gemini/datasource/info/save', { dsName: 'rl_my', dbType: 'mariadb', hostName: u.hostname, port: Number(u.port || 3306), dbName: db, username: user, pwd: 'Rl#Pw_123' });
      targets.push({ name: 'mariadb', dsId, t, count: async (x) => Number(((await admin.query(`select count(*) as n from ${t(x)}`)) as any)[0][0].n) });
    }
  }, 60_000);
  afterAll(async () => {
    for (const c of cleanups) await c().catch(() => undefined);
    await s?.close();
  });

  /** Generates and saves the suppliers page (department-scoped) and the orders page with its lines. */
  /** Saves a page (again: by its id, as the page manager does). */
  const savePage = async (pageKey: string, declaration: unknown) => {
    const had = (await s.request('GET', `/api/lowcode/page/get?pageKey=${pageKey}`)).body.data;
    return must('POST', '/api/lowcode/page/save', { ...(had ? { id: had.id } : {}), pageKey, declaration, published: true, roles: ['rl_dept', 'rl_viewer'] });
  };
  const pages = async (t: Target, onDelete: 'refuse' | 'cascade' = 'refuse') => {
    const sup = await must('POST', '/api/lowcode/source/generate', { dsId: t.dsId, table: t.t('rl_supplier'), schema: t.schema, pageKey: pageOf(t, 'supplier'), title: '供应商' });
    sup.declaration.source.deptColumn = 'dept_id';
    await savePage(pageOf(t, 'supplier'), sup.declaration);
    const first = await must('POST', '/api/lowcode/source/generate', { dsId: t.dsId, table: t.t('rl_order'), schema: t.schema, pageKey: pageOf(t, 'order'), title: '订单' });
    const d = await must('POST', '/api/lowcode/source/generate', { dsId: t.dsId, table: t.t('rl_order'), schema: t.schema, pageKey: pageOf(t, 'order'), title: '订单', details: first.children });
    const detail = d.declaration.dialog.details[0];
    Object.assign(detail, { name: 'lines', title: '订单明细', onDelete });
    await savePage(pageOf(t, 'order'), d.declaration);
    return { first, d };
  };

  it('generates: the foreign key shown by the supplier name and picked from a remote select; the lines table offered as a detail', async () => {
    expect(targets.map((t) => t.name)).toEqual(['sqlite', ...(PG_URL ? ['postgresql'] : []), ...(MYSQL_URL ? ['mariadb'] : [])]);
    for (const t of targets) {
      const { first, d } = await pages(t);
      expect(first.children, t.name).toEqual([expect.objectContaining({ table: t.t('rl_line'), foreignKey: 'order_id' })]);
      expect(first.declaration.dialog.details, t.name).toBeUndefined();
      const decl = d.declaration;
      expect(decl.source.relations, t.name).toEqual({ supplier_id: expect.objectContaining({ table: t.t('rl_supplier'), key: 'id', label: 'name' }) });
      expect(decl.columns.find((c: any) => c.field === 'supplier_id'), t.name).toMatchObject({ textField: 'supplier_id__label' });
      expect(decl.dialog.schema.properties.supplier_id, t.name).toMatchObject({ 'x-component': 'RelationSelect', 'x-component-props': { field: 'supplier_id' } });
      expect(decl.search.fields, t.name).toContain('supplier_id');
      const detail = decl.dialog.details[0];
      expect(detail, t.name).toMatchObject({ table: t.t('rl_line'), key: 'id', foreignKey: 'order_id' });
      expect(Object.keys(detail.schema.properties).sort(), t.name).toEqual(['product', 'qty']);
      expect(d.notes.join('；'), t.name).toContain('作为明细');
    }
  });

  it('refuses a relation or a detail the catalogue does not back', async () => {
    const t = targets[0];
    const d = await must('POST', '/api/lowcode/source/generate', { dsId: t.dsId, table: 'rl_order', pageKey: 'rl_bad', title: 'x', details: [{ table: 'rl_line' }] });
    const save = (decl: any) => s.request('POST', '/api/lowcode/page/save', { pageKey: 'rl_bad', declaration: decl });
    const copy = () => JSON.parse(JSON.stringify(d.declaration));
    let x = copy();
    x.source.relations.supplier_id.label = 'secret';
    expect((await save(x)).body.msg).toBe('页面声明不合法：关联字段「supplier_id」的名称列「secret」不是表「rl_supplier」的列');
    x = copy();
    x.source.relations.supplier_id.table = 'sqlite_master';
    expect((await save(x)).body.msg).toContain('没有表「sqlite_master」');
    x = copy();
    x.dialog.details[0].schema.properties.order_id = { type: 'integer', title: '订单' };
    expect((await save(x)).body.msg).toContain('字段「order_id」是关联列（由系统填写）');
    x = copy();
    x.dialog.details[0].foreignKey = 'qty" or 1=1 --';
    expect((await save(x)).body.msg).toContain('不是表「rl_line」的列');
    x = copy();
    x.columns.find((c: any) => c.field === 'title').textField = 'supplier_id__label';
    expect((await save(x)).body.msg).toContain('textField 只能是关联字段的名称');
    expect((await s.request('POST', '/api/lowcode/source/generate', { dsId: t.dsId, table: 'rl_order', pageKey: 'rl_bad', title: 'x', details: [{ table: 'rl_supplier' }] })).body.msg).toBe('表「rl_supplier」没有引用表「rl_order」的外键，不能作为明细');
  });

  it('saves an order with three lines in one go; a bad third line (by a rule or by the database) refuses the whole save', async () => {
    for (const t of targets) {
      const base = `/api/lowcode/data/${pageOf(t, 'order')}`;
      const [orders, lines] = [await t.count('rl_order'), await t.count('rl_line')];
      const good = [
        { product: '螺丝', qty: 100 },
        { product: '螺母', qty: 200 },
        { product: '垫片', qty: 300 },
      ];
      // the page's rule: qty is required
      const ruled = await s.request('POST', `${base}/add`, { title: '坏单', supplier_id: 1, lines: [good[0], good[1], { product: '垫片' }] });
      expect(ruled.body.msg, t.name).toMatch(/^「订单明细」第 3 行「qty」：请输入qty$/);
      // the database's rule: qty > 0 (a check the page does not declare)
      const checked = await s.request('POST', `${base}/add`, { title: '坏单', supplier_id: 1, lines: [good[0], good[1], { product: '垫片', qty: -1 }] });
      expect(checked.body.status, t.name).not.toBe(0);
      expect(checked.body.msg, t.name).toMatch(/^「订单明细」第 3 行：执行失败/);
      expect([await t.count('rl_order'), await t.count('rl_line')], t.name).toEqual([orders, lines]);
      // all three lines with the order
      const id = await must('POST', `${base}/add`, { title: '三行单', supplier_id: 1, lines: good });
      expect([await t.count('rl_order'), await t.count('rl_line')], t.name).toEqual([orders + 1, lines + 3]);
      const got = await must('GET', `${base}/get?id=${id}`);
      expect(got, t.name).toMatchObject({ title: '三行单', supplier_id: 1, supplier_id__label: SUPPLIERS[0] });
      expect(got.lines.map((l: any) => [l.product, l.qty]), t.name).toEqual(good.map((l) => [l.product, l.qty]));
      // edited: the first line changed, the second removed, one added
      const [l1, , l3] = got.lines;
      await must('POST', `${base}/save`, { id, title: '三行单', supplier_id: 3, lines: [{ ...l1, qty: 111 }, l3, { product: '弹簧', qty: 5 }] });
      const again = await must('GET', `${base}/get?id=${id}`);
      expect(again.supplier_id__label, t.name).toBe(SUPPLIERS[2]);
      expect(again.lines.map((l: any) => [l.product, l.qty]), t.name).toEqual([
        ['螺丝', 111],
        ['垫片', 300],
        ['弹簧', 5],
      ]);
      // a line of another order cannot be taken over by its key
      const other = await must('POST', `${base}/add`, { title: '另一单', supplier_id: 1, lines: [{ product: '别人的', qty: 1 }] });
      const theirs = (await must('GET', `${base}/get?id=${other}`)).lines[0];
      const stolen = await s.request('POST', `${base}/save`, { id, title: '三行单', supplier_id: 3, lines: [...again.lines, { ...theirs, qty: 9 }] });
      expect(stolen.body.msg, t.name).toBe('「订单明细」第 4 行：不是该记录的明细');
      expect((await must('GET', `${base}/get?id=${other}`)).lines[0].qty, t.name).toBe(1);
      // a save without the lines leaves them as they are
      await must('POST', `${base}/save`, { id, title: '改名单', supplier_id: 3 });
      expect((await must('GET', `${base}/get?id=${id}`)).lines, t.name).toHaveLength(3);
      // more lines than the dialog shows (maxRows): their save is refused, none lost
      const page = await must('GET', `/api/lowcode/page/get?pageKey=${pageOf(t, 'order')}`);
      page.declaration.dialog.details[0].maxRows = 2;
      await must('POST', '/api/lowcode/page/save', { id: page.id, pageKey: page.pageKey, declaration: page.declaration, published: true, roles: ['rl_dept', 'rl_viewer'] });
      expect((await s.request('POST', `${base}/save`, { id, title: '改名单', supplier_id: 3, lines: (await must('GET', `${base}/get?id=${id}`)).lines })).body.msg, t.name).toBe('该记录有 3 行「订单明细」，超过对话框可编辑的 2 行，不能在此保存明细');
      page.declaration.dialog.details[0].maxRows = 200;
      await must('POST', '/api/lowcode/page/save', { id: page.id, pageKey: page.pageKey, declaration: page.declaration, published: true, roles: ['rl_dept', 'rl_viewer'] });
      expect((await must('GET', `${base}/get?id=${id}`)).lines, t.name).toHaveLength(3);
    }
  });

  it('lists and searches the orders by the supplier name, and exports the name', async () => {
    for (const t of targets) {
      const base = `/api/lowcode/data/${pageOf(t, 'order')}`;
      const all = await must('POST', `${base}/search`, { pageNum: 1, pageSize: 50 });
      expect(all.records.every((r: any) => r.supplier_id__label === SUPPLIERS[r.supplier_id - 1]), t.name).toBe(true);
      const found = await must('POST', `${base}/search`, { pageNum: 1, pageSize: 50, search: 'gamma' });
      expect(found.records.map((r: any) => r.title), t.name).toEqual(['改名单']);
      // injection strings in the search are values
      for (const text of ["%' or 1=1 --", '") or 1=1 --', '\\', '_']) expect((await must('POST', `${base}/search`, { pageNum: 1, pageSize: 5, search: text })).total, `${t.name} ${text}`).toBe(0);
      const csv = await (await fetch(`${s.url}${base}/export?format=csv&search=gamma`, { headers: { authorization: `Bearer ${s.token}` } })).text();
      expect(csv, t.name).toContain(SUPPLIERS[2]);
    }
  });

  it('the related select pages and searches the suppliers, only within the suppliers page’s data scope, and a save outside it is refused', async () => {
    for (const t of targets) {
      const base = `/api/lowcode/data/${pageOf(t, 'order')}`;
      const two = await must('POST', `${base}/options`, { field: 'supplier_id', pageNum: 1, pageSize: 2 });
      expect(two.total, t.name).toBe(5);
      expect(two.records, t.name).toEqual([
        { value: 1, label: SUPPLIERS[0] },
        { value: 2, label: SUPPLIERS[1] },
      ]);
      // in the order of the labels: Acme, Beta, Delta, Epsilon, Gamma
      expect((await must('POST', `${base}/options`, { field: 'supplier_id', pageNum: 3, pageSize: 2 })).records.map((r: any) => r.value), t.name).toEqual([3]);
      expect((await must('POST', `${base}/options`, { field: 'supplier_id', search: '物流' })).records, t.name).toEqual([{ value: 3, label: SUPPLIERS[2] }]);
      expect((await must('POST', `${base}/options`, { field: 'supplier_id', values: [4] })).records, t.name).toEqual([{ value: 4, label: SUPPLIERS[3] }]);
      // not a relation, not a column, an injection: refused by name
      for (const field of ['title', 'secret', 'supplier_id) or 1=1 --']) expect((await s.request('POST', `${base}/options`, { field })).body.msg, field).toBe(`字段「${field}」不是关联字段`);
      expect((await s.request('POST', `${base}/options`, { field: 'supplier_id', extra: 1 })).body.status).not.toBe(0);
    }
    // a user of department a (本部门) with the order page's 新增: the suppliers of department a only
    const pageKeys = targets.map((t) => pageOf(t, 'order'));
    await s.app.ctx.db
      .insertInto('sys_role_permission')
      .values([...pageKeys.flatMap((k) => ['list', 'add', 'edit', 'import'].map((a) => ({ role_id: ids.role, permission: `lowcode:${k}:${a}` }))), ...pageKeys.map((k) => ({ role_id: ids.viewer, permission: `lowcode:${k}:list` }))])
      .execute();
    const [mine, viewer] = [await s.loginAs('rl.a', PERSON_PASSWORD), await s.loginAs('rl.view', PERSON_PASSWORD)];
    for (const t of targets) {
      const base = `/api/lowcode/data/${pageOf(t, 'order')}`;
      const seen = await must('POST', `${base}/options`, { field: 'supplier_id', pageSize: 50 }, mine);
      expect(seen.records.map((r: any) => r.value), t.name).toEqual([1, 5, 3]);
      expect((await must('POST', `${base}/options`, { field: 'supplier_id', values: [2] }, mine)).records, t.name).toEqual([]);
      const out = await s.request('POST', `${base}/add`, { title: '越权单', supplier_id: 2, lines: [] }, mine);
      expect(out.body.msg, t.name).toBe('supplier_id：所选的记录不存在或不在您的数据权限范围内');
      expect((await s.request('POST', `${base}/add`, { title: '本部门单', supplier_id: 5, lines: [{ product: 'x', qty: 1 }] }, mine)).body.status, t.name).toBe(0);
      // nor through an import: the row naming a supplier of the other department is refused, nothing written
      const orders = await t.count('rl_order');
      const form = new FormData();
      form.append('mode', 'commit');
      form.append('file', new Blob(['title,supplier_id\r\n导入一,1\r\n导入二,4\r\n']), 'orders.csv');
      const imported = (await (await fetch(`${s.url}${base}/import`, { method: 'POST', headers: { authorization: `Bearer ${mine}` }, body: form })).json()) as { status: number; msg: string };
      expect(imported.msg, t.name).toContain('第 3 行：supplier_id：所选的记录不存在或不在您的数据权限范围内');
      expect(await t.count('rl_order'), t.name).toBe(orders);
      // and the list shows no label of a supplier outside the scope (an order the admin made with supplier 4)
      await must('POST', `${base}/add`, { title: '他部门单', supplier_id: 4, lines: [] });
      const listed = await must('POST', `${base}/search`, { pageSize: 100 }, mine);
      expect(listed.records.find((r: any) => r.title === '他部门单'), t.name).toMatchObject({ supplier_id: 4, supplier_id__label: null });
      expect(listed.records.find((r: any) => r.title === '本部门单'), t.name).toMatchObject({ supplier_id: 5, supplier_id__label: SUPPLIERS[4] });
      // the weakest role (查看 only) cannot list the suppliers through the select, on any spelling
      for (const path of spellings(`${base}/options`)) {
        const r = await s.request('POST', path, { field: 'supplier_id' }, viewer);
        expect(r.body.status, `${t.name} ${path}`).not.toBe(0);
      }
      expect((await s.request('POST', `${base}/options`, { field: 'supplier_id' }, null)).http, t.name).toBe(401);
    }
  });

  it('deleting an order with lines: refused and told, or the lines go with it, as the detail declares', async () => {
    for (const t of targets) {
      const base = `/api/lowcode/data/${pageOf(t, 'order')}`;
      const id = await must('POST', `${base}/add`, { title: '待删单', supplier_id: 1, lines: [{ product: 'a', qty: 1 }, { product: 'b', qty: 2 }] });
      const refused = await s.request('GET', `${base}/delete?id=${id}`);
      expect(refused.body.msg, t.name).toBe('该记录有 2 行「订单明细」，不能删除：请先删除这些明细');
      const lines = await t.count('rl_line');
      await pages(t, 'cascade');
      await must('GET', `${base}/delete?id=${id}`);
      expect(await t.count('rl_line'), t.name).toBe(lines - 2);
      expect((await s.request('GET', `${base}/get?id=${id}`)).body.msg, t.name).toBe('记录不存在');
      // an order without lines is deleted either way
      const bare = await must('POST', `${base}/add`, { title: '空单', supplier_id: 1, lines: [] });
      await must('GET', `${base}/delete?id=${bare}`);
    }
  });
});
