// Datasets (issue 35) over real HTTP, on SQLite always and on PostgreSQL (PG_URL) and MariaDB (MYSQL_URL) when set:
// fields proposed from the catalogue, calculated fields, chart answers aggregated in the database and checked
// against the rows, top N with 其他, date grouping, joins, SQL datasets for developers only, row rules, the cache and
// identical queries run once; and what is refused (fields outside the dataset, SQL in an expression, sorts and
// filters outside the fields).
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { sqliteFixture } from '../../testing/sqlite.js';
import { startTestServer, type TestServer } from '../../testing/server.js';
import { observeCalls } from '../../testing/observe.js';

const P = '/api/dataset';
const PG_URL = process.env.PG_URL;
const MYSQL_URL = process.env.MYSQL_URL;

// the rows every dialect holds: province, city, day, amount, qty
const SALES: Array<[string, string, string, number, number]> = [
  ['浙江', '杭州', '2026-01-05', 100, 1],
  ['浙江', '杭州', '2026-01-20', 50.5, 2],
  ['浙江', '宁波', '2026-02-03', 70, 1],
  ['江苏', '南京', '2026-01-11', 80, 4],
  ['江苏', '苏州', '2026-03-09', 40, 2],
  ['广东', '广州', '2026-02-14', 30, 3],
  ['广东', '深圳', '2026-03-30', 25, 5],
  ['上海', '上海', '2026-03-01', 10, 1],
];
const REGIONS: Array<[string, string]> = [
  ['浙江', '华东'],
  ['江苏', '华东'],
  ['上海', '华东'],
  ['广东', '华南'],
];
const sumBy = (key: (r: (typeof SALES)[number]) => string) => {
  const m = new Map<string, number>();
  for (const r of SALES) m.set(key(r), (m.get(key(r)) ?? 0) + r[3]);
  return m;
};

interface Target {
  name: string;
  dsId: number;
  sales: { schema: string | null; table: string };
  regions: { schema: string | null; table: string };
}

describe('datasets', () => {
  let s: TestServer;
  let dev: string;
  const targets: Target[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  const tag = randomBytes(3).toString('hex');
  let runs = 0;
  /** the store statements run on behalf of requests (testing/observe.ts) */
  const storeStatements: string[] = [];

  beforeAll(async () => {
    s = await startTestServer({ env: {}, setup: observeCalls(storeStatements) });
    dev = await s.loginAs('developer');
    // every statement a dataset sends to a data source goes through app.sql.run: counted
    const orig = s.app.sql.run.bind(s.app.sql);
    s.app.sql.run = ((...a: Parameters<typeof orig>) => {
      runs++;
      return orig(...a);
    }) as typeof orig;
    const values = SALES.map(([p, c, d, a, q], i) => `(${i + 1}, '${p}', '${c}', '${d}', ${a}, ${q})`).join(', ');
    const regions = REGIONS.map(([p, r]) => `('${p}', '${r}')`).join(', ');
    const liteId = await sqliteFixture(
      s,
      'sales.db',
      `create table sales(id integer primary key, province text, city text, sold_on date, amount numeric(10,2), qty integer);
       insert into sales values ${values};
       create table regions(province text primary key, region text); insert into regions values ${regions};`,
      'sales_lite',
    );
    targets.push({ name: 'sqlite', dsId: liteId, sales: { schema: null, table: 'sales' }, regions: { schema: null, table: 'regions' } });
    if (PG_URL) {
      const u = new URL(PG_URL);
      const sc = `ds_${tag}`;
      const c = new pg.Client(PG_URL);
      await c.connect();
      await c.query(`create schema ${sc}; create table ${sc}.sales(id int primary key, province text, city text, sold_on date, amount numeric(10,2), qty int); insert into ${sc}.sales values ${values};
        create table ${sc}.regions(province text primary key, region text); insert into ${sc}.regions values ${regions};`);
      await c.end();
      cleanups.push(async () => {
        const d = new pg.Client(PG_URL);
        await d.connect();
        await d.query(`drop schema ${sc} cascade`);
        await d.end();
      });
      const r = await s.request('POST', '/api/gemini/datasource/info/save', { dsName: 'sales_pg', dbType: 'postgresql', hostName: u.hostname, port: Number(u.port || 5432), dbName: u.pathname.slice(1), username: u.username || 'postgres', pwd: 'unused' });
      targets.push({ name: 'postgresql', dsId: r.body.data, sales: { schema: sc, table: 'sales' }, regions: { schema: sc, table: 'regions' } });
    }
    if (MYSQL_URL) {
      const u = new URL(MYSQL_URL);
      const db = u.pathname.slice(1);
      const admin = await mysql.createConnection({ uri: MYSQL_URL, multipleStatements: true });
      const user = `ds_${tag}`;
      await admin.query(`create table sales_${tag}(id int primary key, province varchar(20), city varchar(20), sold_on date, amount decimal(10,2), qty int); insert into sales_${tag} values ${values};
        create table regions_${tag}(province varchar(20) primary key, region varchar(20)); insert into regions_${tag} values ${regions};`);
      for (const h of ['%', 'localhost']) {
        await admin.query(`create user if not exists '${user}'@'${h}' identified by 'Ds#Pw_1'`);
        await admin.query(`grant select on \`${db}\`.* to '${user}'@'${h}'`);
      }
      cleanups.push(async () => {
        await admin.query(`drop table sales_${tag}, regions_${tag}`);
        for (const h of ['%', 'localhost']) await admin.query(`drop user if exists '${user}'@'${h}'`);
        await admin.end();
      });
      const r = await s.request('POST', '/api/gemini/datasource/info/save', { dsName: 'sales_my', dbType: 'mariadb', hostName: u.hostname, port: Number(u.port || 3306), dbName: db, username: user, pwd: 'Ds#Pw_1' });
      targets.push({ name: 'mariadb', dsId: r.body.data, sales: { schema: null, table: `sales_${tag}` }, regions: { schema: null, table: `regions_${tag}` } });
    }
  }, 60_000);
  afterAll(async () => {
    for (const c of cleanups) await c().catch(() => undefined);
    await s?.close();
  });

  const post = (path: string, body: unknown, token = dev) => s.request('POST', P + path, body, token);
  const query = async (q: object, token = dev) => {
    const r = await post('/query', { queries: [q] }, token);
    expect(r.body.status, r.body.msg).toBe(0);
    return r.body.data[0];
  };
  const ids = new Map<string, number>();

  /** A dataset on the sales table with the proposed fields, labelled, and a calculated field. */
  async function salesDataset(t: Target, name: string, more: object = {}) {
    const proposed = await post('/fields', { kind: 'table', dsId: t.dsId, definition: { table: t.sales } });
    expect(proposed.body.status, proposed.body.msg).toBe(0);
    const fields = proposed.body.data.map((f: any) => ({ ...f, label: { province: '省份', city: '城市', sold_on: '日期', amount: '销售额', qty: '数量' }[f.name as string] ?? f.name }));
    fields.push({ name: 'unit', label: '单价', type: 'number', role: 'measure', expr: 'round([销售额] / qty, 2)' });
    fields.push({ name: 'size', label: '规模', type: 'text', role: 'dimension', expr: "case when amount >= 70 then '大' when amount >= 40 then '中' else '小' end" });
    const saved = await post('/info/save', { name, kind: 'table', dsId: t.dsId, definition: { table: t.sales }, fields, cacheTtl: 60, ...more });
    expect(saved.body.status, `${t.name}: ${saved.body.msg}`).toBe(0);
    return { id: saved.body.data as number, fields };
  }

  it('proposes fields from the catalogue (numbers as measures, dates as dates) and saves a dataset with calculated fields', async () => {
    for (const t of targets) {
      const { id, fields } = await salesDataset(t, `销售_${t.name}`);
      ids.set(t.name, id);
      const byName = Object.fromEntries(fields.map((f: any) => [f.name, f]));
      expect(byName.amount).toMatchObject({ type: 'number', role: 'measure' });
      expect(byName.sold_on).toMatchObject({ type: 'date', role: 'dimension' });
      expect(byName.province).toMatchObject({ type: 'text', role: 'dimension' });
      expect(byName.id.role).toBe('dimension');
      const got = (await s.request('GET', `${P}/info/get?id=${id}`, undefined, dev)).body.data;
      expect(got.fields.find((f: any) => f.name === 'unit').expr).toBe('round([销售额] / qty, 2)');
      const preview = await post('/preview', { id });
      expect(preview.body.data.total, t.name).toBe(SALES.length);
      expect(preview.body.data.rows[0]).toHaveProperty('unit');
    }
  });

  it('answers sums by a dimension, by month, counts of a dimension and calculated fields, computed in the database', async () => {
    const expected = sumBy((r) => r[0]);
    for (const t of targets) {
      const datasetId = ids.get(t.name)!;
      const a = await query({ datasetId, dimensions: [{ field: 'province' }], measures: [{ field: 'amount', agg: 'sum' }], sort: [{ field: 'amount', agg: 'sum', dir: 'desc' }] });
      expect(a.keys).toEqual(['province', 'amount_sum']);
      expect(a.rows, t.name).toEqual([...expected].sort((x, y) => y[1] - x[1]).map(([province, v]) => ({ province, amount_sum: v })));
      const months = await query({ datasetId, dimensions: [{ field: 'sold_on', dateGroup: 'month' }], measures: [{ field: 'amount', agg: 'sum' }, { field: 'city', agg: 'countDistinct' }], sort: [{ field: 'sold_on', dir: 'asc' }] });
      expect(months.rows, t.name).toEqual([
        { sold_on_month: '2026-01', amount_sum: 230.5, city_countDistinct: 2 },
        { sold_on_month: '2026-02', amount_sum: 100, city_countDistinct: 2 },
        { sold_on_month: '2026-03', amount_sum: 75, city_countDistinct: 3 },
      ]);
      const quarter = await query({ datasetId, dimensions: [{ field: 'sold_on', dateGroup: 'quarter' }], measures: [{ field: 'province', agg: 'count' }] });
      expect(quarter.rows, t.name).toEqual([{ sold_on_quarter: '2026-Q1', province_count: 8 }]);
      const calc = await query({ datasetId, dimensions: [{ field: 'size' }], measures: [{ field: 'unit', agg: 'max' }], sort: [{ field: 'size', dir: 'asc' }] });
      expect(calc.rows.map((r: any) => r.size).sort(), t.name).toEqual(['中', '大', '小']);
      expect(calc.rows.find((r: any) => r.size === '大').unit_max).toBe(100);
      // filters with the screen filters' operators
      const some = await query({ datasetId, dimensions: [{ field: 'city' }], measures: [{ field: 'amount', agg: 'sum' }], filters: [{ field: 'province', op: 'in', value: ['浙江', '上海'] }, { field: 'amount', op: 'gte', value: 50 }], sort: [{ field: 'city', dir: 'asc' }] });
      expect(some.rows.map((r: any) => [r.city, r.amount_sum]).sort(), t.name).toEqual([['宁波', 70], ['杭州', 150.5]]);
    }
  });

  it('keeps the top N and the rest as 其他 (or leaves it out)', async () => {
    for (const t of targets) {
      const datasetId = ids.get(t.name)!;
      const other = await query({ datasetId, dimensions: [{ field: 'province' }], measures: [{ field: 'amount', agg: 'sum' }], top: { n: 2, rest: 'other' } });
      expect(other.rows, t.name).toEqual([
        { province: '浙江', amount_sum: 220.5 },
        { province: '江苏', amount_sum: 120 },
        { province: '其他', amount_sum: 65 },
      ]);
      const dropped = await query({ datasetId, dimensions: [{ field: 'province' }], measures: [{ field: 'amount', agg: 'sum' }], top: { n: 2, rest: 'drop' } });
      expect(dropped.rows.length).toBe(2);
    }
  });

  it('joins two tables on columns picked from the catalogue', async () => {
    for (const t of targets) {
      const proposed = await post('/fields', { kind: 'join', dsId: t.dsId, definition: { tables: [{ alias: 't0', ...t.sales }, { alias: 't1', ...t.regions }], joins: [{ type: 'inner', left: { alias: 't0', column: 'province' }, right: { alias: 't1', column: 'province' } }] } });
      expect(proposed.body.status, proposed.body.msg).toBe(0);
      const fields = proposed.body.data;
      expect(fields.map((f: any) => f.name)).toContain('t1_province');
      // the join pickers' columns come from the catalogue, typed
      const cols = await post('/source/columns', { dsId: t.dsId, ...t.regions });
      expect(cols.body.status, cols.body.msg).toBe(0);
      expect(cols.body.data).toEqual([{ name: 'province', type: 'text' }, { name: 'region', type: 'text' }]);
      expect((await post('/source/columns', { dsId: t.dsId, schema: t.regions.schema, table: 'no_such_table' })).body.status).toBe(1);
      const def = { tables: [{ alias: 't0', ...t.sales }, { alias: 't1', ...t.regions }], joins: [{ type: 'inner', left: { alias: 't0', column: 'province' }, right: { alias: 't1', column: 'province' } }] };
      const saved = await post('/info/save', { name: `销售区域_${t.name}`, kind: 'join', dsId: t.dsId, definition: def, fields });
      expect(saved.body.status, saved.body.msg).toBe(0);
      const r = await query({ datasetId: saved.body.data, dimensions: [{ field: 'region' }], measures: [{ field: 'amount', agg: 'sum' }], sort: [{ field: 'region', dir: 'asc' }] });
      expect(r.rows, t.name).toEqual([
        { region: '华东', amount_sum: 350.5 },
        { region: '华南', amount_sum: 55 },
      ]);
      // a join on a column that is not in the table is refused
      const bad = await post('/fields', { kind: 'join', dsId: t.dsId, definition: { ...def, joins: [{ type: 'inner', left: { alias: 't0', column: 'password' }, right: { alias: 't1', column: 'province' } }] } });
      expect(bad.body.msg).toBe('连接条件中的列「t0.password」不在所选的表中');
    }
  });

  it('refuses a field outside the dataset, SQL in a calculated field, and sorts or filters outside the fields', async () => {
    const t = targets[0];
    const datasetId = ids.get(t.name)!;
    const outside = await query({ datasetId, dimensions: [{ field: 'password' }], measures: [{ field: 'amount', agg: 'sum' }] });
    expect(outside.error).toBe('数据集中没有字段「password」');
    expect((await query({ datasetId, dimensions: [{ field: 'province' }], filters: [{ field: 'secret', op: 'eq', value: 1 }] })).error).toBe('数据集中没有字段「secret」');
    expect((await query({ datasetId, dimensions: [{ field: 'province' }], sort: [{ field: 'amount; drop table sales', dir: 'asc' }] })).error).toMatch(/^不能按「amount; drop table sales」排序/);
    expect((await query({ datasetId, measures: [{ field: 'province', agg: 'sum' }] })).error).toBe('字段「省份」是文本或日期，不能求和');
    const base = (await s.request('GET', `${P}/info/get?id=${datasetId}`, undefined, dev)).body.data;
    const withExpr = (expr: string) => post('/info/save', { ...base, id: datasetId, fields: [...base.fields.filter((f: any) => f.name !== 'x'), { name: 'x', label: '坏', type: 'number', role: 'measure', expr }] });
    const cases: Array<[string, RegExp]> = [
      ['amount; drop table sales', /不允许的字符「;」/],
      ['(select max(amount) from sales)', /数据集中没有字段「select」/],
      ['pg_sleep(5)', /未知函数「pg_sleep」/],
      ['amount -- comment', /不允许 SQL 注释/],
      ["concat(province, '\" or 1=1')", /^((?!执行).)*$/],
      ['x + 1', /引用了自己/],
      ['password * 2', /数据集中没有字段「password」/],
    ];
    for (const [expr, msg] of cases) {
      const r = await withExpr(expr);
      if (expr.startsWith('concat')) {
        // a quote inside a string literal is a value, bound: saved, and answered as text
        expect(r.body.status, r.body.msg).toBe(0);
        continue;
      }
      expect(r.body.status, expr).toBe(1);
      expect(r.body.msg, expr).toMatch(/^计算字段「坏」：表达式第 \d+ 个字符处：|引用了自己/);
      expect(r.body.msg, expr).toMatch(msg);
    }
    // sales is whole
    expect((await post('/preview', { id: datasetId })).body.data.total).toBe(SALES.length);
  });

  it('lets only developers make SQL datasets; a stacked statement is refused; parameters are bound', async () => {
    for (const t of targets) {
      const table = t.sales.schema && t.name === 'postgresql' ? `${t.sales.schema}.${t.sales.table}` : t.sales.table;
      const def = { sql: `select province, amount from ${table} where amount > :min`, params: [{ name: 'min', value: 40 }] };
      const proposed = await post('/fields', { kind: 'sql', dsId: t.dsId, definition: def });
      expect(proposed.body.status, proposed.body.msg).toBe(0);
      expect(proposed.body.data.map((f: any) => [f.name, f.type])).toEqual([['province', 'text'], ['amount', 'number']]);
      const saved = await post('/info/save', { name: `大单_${t.name}`, kind: 'sql', dsId: t.dsId, definition: def, fields: proposed.body.data });
      expect(saved.body.status, saved.body.msg).toBe(0);
      const r = await query({ datasetId: saved.body.data, measures: [{ field: 'amount', agg: 'count' }] });
      expect(r.rows, t.name).toEqual([{ amount_count: SALES.filter((x) => x[3] > 40).length }]);
      const stacked = await post('/fields', { kind: 'sql', dsId: t.dsId, definition: { sql: `select province from ${table}; delete from ${table}` } });
      expect(stacked.body.msg).toMatch(/^接口 SQL 只能是一条语句/);
    }
    // a designer without dataset:sql: tables yes, SQL no
    await s.request('POST', '/api/system/role/save', { roleName: '大屏设计', roleKey: 'screen_designer', roleType: 'default', permKeys: ['m:dataset', 'p:datav:dataset:add', 'p:datav:dataset:query', 'p:gemini:datasource:list'] });
    const roles = (await s.request<any[]>('GET', '/api/system/role/options')).body.data;
    const roleId = roles.find((o: any) => o.roleKey === 'screen_designer').roleId;
    const made = await s.request('POST', '/api/system/user/save', { username: 'designer1', nickName: '设计师', roleIds: [roleId], status: 0 });
    const first = await s.loginAs('designer1', made.body.data.password);
    const pem = (await s.request<string>('GET', '/api/uams/publicKey', undefined, null)).body.data;
    const { encryptFor } = await import('../../testing/server.js');
    const changed = await s.request<{ token: string }>('POST', '/api/uams/user/password', { oldPassword: encryptFor(pem, made.body.data.password), newPassword: encryptFor(pem, 'Fresh#Pass2026') }, first);
    const designer = changed.body.data.token;
    const t = targets[0];
    const sqlTry = await post('/info/save', { name: '设计师的SQL', kind: 'sql', dsId: t.dsId, definition: { sql: 'select 1 as x' }, fields: [{ name: 'x', label: 'x', type: 'number', role: 'measure' }] }, designer);
    expect(sqlTry.http).toBe(403);
    const sqlId = (await post('/search', { search: '大单_sqlite' })).body.data.records[0].id;
    const seen = (await s.request('GET', `${P}/info/get?id=${sqlId}`, undefined, designer)).body.data;
    expect(JSON.stringify(seen)).not.toContain('amount >');
    // a table dataset the designer may make, and chart
    const own = await salesDataset(t, '设计师的数据集');
    expect((await query({ datasetId: own.id, measures: [{ field: 'amount', agg: 'sum' }] }, designer)).rows).toEqual([{ amount_sum: 405.5 }]);
  });

  it('applies row rules to every answer, preview and value list; the cache keeps rules apart', async () => {
    const t = targets[0];
    const datasetId = ids.get(t.name)!;
    const base = (await s.request('GET', `${P}/info/get?id=${datasetId}`, undefined, dev)).body.data;
    const saved = await post('/info/save', { ...base, id: datasetId, rowRules: [{ subject: 'user', key: 'developer', field: 'province', values: ['浙江'] }] });
    expect(saved.body.status, saved.body.msg).toBe(0);
    const q = { datasetId, dimensions: [{ field: 'province' }], measures: [{ field: 'amount', agg: 'sum' }] };
    expect((await query(q)).rows).toEqual([{ province: '浙江', amount_sum: 220.5 }]);
    // a filter cannot widen it
    expect((await query({ ...q, filters: [{ field: 'province', op: 'eq', value: '江苏' }] })).rows).toEqual([]);
    // the administrator (no rule) sees every province, from the same dataset version: never the developer's cached answer
    expect((await query(q, s.token)).rows.length).toBe(4);
    expect((await query(q)).rows.length).toBe(1);
    expect((await s.request('GET', `${P}/values?datasetId=${datasetId}&field=province`, undefined, dev)).body.data).toEqual(['浙江']);
    expect((await post('/preview', { id: datasetId })).body.data.total).toBe(3);
    await post('/info/save', { ...base, id: datasetId, rowRules: [] });
  });

  it('caches answers per dataset version, and runs identical queries arriving together once', async () => {
    const t = targets[0];
    const datasetId = ids.get(t.name)!;
    const q = { datasetId, dimensions: [{ field: 'city' }], measures: [{ field: 'qty', agg: 'sum' }] };
    const first = await query(q);
    expect(first.cached).toBe(false);
    expect((await query(q)).cached).toBe(true);
    // a save retires the answers at once
    const base = (await s.request('GET', `${P}/info/get?id=${datasetId}`, undefined, dev)).body.data;
    expect((await post('/info/save', { ...base, id: datasetId, cacheTtl: 60 })).body.status).toBe(0);
    expect((await query(q)).cached).toBe(false);
    // 100 identical queries at once, nothing cached yet: the data source sees one statement
    const fresh = { ...q, measures: [{ field: 'qty', agg: 'max' }] };
    const before = runs;
    const answers = await Promise.all(Array.from({ length: 100 }, () => post('/query', { queries: [fresh] })));
    expect(answers.every((a) => a.body.status === 0)).toBe(true);
    expect(runs - before).toBe(1);
    // a screen's charts in one call, the dataset just saved (nothing held): its row is read once for all of them
    const base2 = (await s.request('GET', `${P}/info/get?id=${datasetId}`, undefined, dev)).body.data;
    expect((await post('/info/save', { ...base2, id: datasetId, cacheTtl: 60 })).body.status).toBe(0);
    await post('/query', { queries: [q, fresh] });
    expect((await post('/info/save', { ...base2, id: datasetId, cacheTtl: 60 })).body.status).toBe(0);
    storeStatements.length = 0;
    const both = await post('/query', { queries: [q, fresh, q, fresh] });
    expect(both.body.data.map((x: any) => x.error ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(storeStatements.filter((x) => /from "dataset"/.test(x))).toHaveLength(1);
    // cached answers read nothing of the store but the caller's session: the dataset and its source are held
    storeStatements.length = 0;
    for (let i = 0; i < 20; i++) expect((await post('/query', { queries: [q, fresh] })).body.data[0].cached).toBe(true);
    expect(storeStatements.filter((x) => /\b(dataset|gemini_datasource)\b/.test(x))).toEqual([]);
    expect(storeStatements.length).toBeLessThanOrEqual(2);
  });

  it('refuses without a session and to a role without the permission', async () => {
    expect((await s.request('POST', `${P}/query`, { queries: [{ datasetId: 1 }] }, null)).http).toBe(401);
    const biz = await s.loginAs('bizapprover');
    expect((await s.request('POST', `${P}/search`, {}, biz)).http).toBe(403);
    expect((await s.request('POST', `${P}/info/save`, { name: 'x', kind: 'table', dsId: 1, definition: {}, fields: [] }, biz)).http).toBe(403);
  });

  it('the shipped 大屏设计师 picks a data source by name and its tables, never sees or edits the data source, writes no SQL', async () => {
    const designer = await s.loginAs('designer');
    const t = targets[0];
    const names = await s.request<any[]>('GET', `${P}/source/select`, undefined, designer);
    expect(names.body.status).toBe(0);
    const mine = names.body.data.find((d: any) => d.id === t.dsId);
    expect(mine).toEqual({ id: t.dsId, label: 'sales_lite', dbType: 'sqlite' });
    // nothing but the name and type of any data source
    for (const d of names.body.data) expect(Object.keys(d).sort()).toEqual(['dbType', 'id', 'label']);
    expect((await s.request('POST', `${P}/source/tables`, { dsId: t.dsId }, designer)).body.data.map((x: any) => x.table)).toContain('sales');
    // the data sources themselves: neither listed, read nor saved
    expect((await s.request('GET', '/api/gemini/datasource/select', undefined, designer)).http).toBe(403);
    expect((await s.request('POST', '/api/gemini/datasource/search', {}, designer)).http).toBe(403);
    expect((await s.request('GET', `/api/gemini/datasource/info/get?id=${t.dsId}`, undefined, designer)).http).toBe(403);
    expect((await s.request('POST', '/api/gemini/datasource/info/save', { id: t.dsId, dsName: 'x', dbType: 'sqlite', dbName: 'x.db' }, designer)).http).toBe(403);
    // no SQL dataset
    const sqlTry = await s.request('POST', `${P}/info/save`, { name: '设计师SQL', kind: 'sql', dsId: t.dsId, definition: { sql: 'select 1 as x' }, fields: [{ name: 'x', label: 'x', type: 'number', role: 'measure' }] }, designer);
    expect(sqlTry.http).toBe(403);
    expect((await s.request('POST', `${P}/fields`, { kind: 'sql', dsId: t.dsId, definition: { sql: 'select 1 as x' } }, designer)).http).toBe(403);
  });
});
