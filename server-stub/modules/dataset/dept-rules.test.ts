// Row rules on departments (issue 35 §4 with issue 34's 部门管理): a rule "the field equals the user's department" or
// "belongs to the user's department and those below it" — each user of a sibling department sees only their rows in
// the chart and the value list, a user of the parent sees both with the tree rule and only their own with the plain
// one, a user in no department sees nothing under such a rule, and the cache keeps each department's answer apart.
import { encryptFor, startTestServer, type TestServer } from '../../testing/server.js';
import { sqliteFixture } from '../../testing/sqlite.js';

const D = '/api/dataset';
const NEW_PASSWORD = 'Fresh#Pass2026';

describe('dataset row rules on departments', () => {
  let s: TestServer;
  let dev: string;
  let datasetId: number;
  const depts: Record<string, number> = {};
  const tokens: Record<string, string> = {};

  async function user(username: string, deptId: number | null): Promise<string> {
    const roles = (await s.request<any[]>('GET', '/api/system/role/options')).body.data;
    const roleId = roles.find((o) => o.roleKey === 'default').roleId;
    const r = await s.request<{ id: number; password: string }>('POST', '/api/system/user/save', { username, nickName: username, roleIds: [roleId], deptId, status: 0 });
    expect(r.body.msg, r.body.msg).toBe('保存成功');
    const first = await s.loginAs(username, r.body.data.password);
    const pem = (await s.request<string>('GET', '/api/uams/publicKey', undefined, null)).body.data;
    const changed = await s.request<{ token: string }>('POST', '/api/uams/user/password', { oldPassword: encryptFor(pem, r.body.data.password), newPassword: encryptFor(pem, NEW_PASSWORD) }, first);
    expect(changed.body.status).toBe(0);
    return changed.body.data.token;
  }

  beforeAll(async () => {
    s = await startTestServer({ env: {} });
    dev = await s.loginAs('developer');
    for (const [name, parent] of [['总部', ''], ['华东', '总部'], ['华南', '总部']] as const) {
      const r = await s.request<number>('POST', '/api/system/dept/save', { deptName: name, parentId: parent ? depts[parent] : 0, orderNum: 0, status: 0 });
      expect(r.body.msg).toBe('保存成功');
      depts[name] = r.body.data;
    }
    const rows = [
      [depts['华东'], '杭州', 100],
      [depts['华东'], '南京', 50],
      [depts['华南'], '广州', 70],
      [depts['总部'], '北京', 10],
    ];
    const dsId = await sqliteFixture(s, 'dept_sales.db', `create table sales(dept_id integer, city text, amount real); insert into sales values ${rows.map((r) => `(${r[0]}, '${r[1]}', ${r[2]})`).join(', ')};`, 'dept_sales');
    const definition = { table: { schema: null, table: 'sales' } };
    const fields = (await s.request('POST', `${D}/fields`, { kind: 'table', dsId, definition }, dev)).body.data;
    const saved = await s.request('POST', `${D}/info/save`, { name: '部门销售', kind: 'table', dsId, definition, fields, cacheTtl: 60, rowRules: [{ subject: 'role', key: 'default', field: 'dept_id', attribute: 'departmentTree' }] }, dev);
    expect(saved.body.status, saved.body.msg).toBe(0);
    datasetId = saved.body.data;
    tokens.east = await user('east.user', depts['华东']);
    tokens.south = await user('south.user', depts['华南']);
    tokens.boss = await user('hq.user', depts['总部']);
    tokens.nobody = await user('no.dept', null);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const cities = async (token: string) => {
    const r = await s.request('POST', `${D}/query`, { queries: [{ datasetId, dimensions: [{ field: 'city' }], measures: [{ field: 'amount', agg: 'sum' }], sort: [{ field: 'city', dir: 'asc' }] }] }, token);
    expect(r.body.status, r.body.msg).toBe(0);
    expect(r.body.data[0].error).toBeUndefined();
    return (r.body.data[0].rows as any[]).map((x) => x.city).sort();
  };

  it('a department and those below it: siblings apart, the parent sees all, no department sees nothing', async () => {
    expect(await cities(tokens.east)).toEqual(['南京', '杭州']);
    expect(await cities(tokens.south)).toEqual(['广州']);
    expect(await cities(tokens.boss)).toEqual(['北京', '南京', '广州', '杭州']);
    expect(await cities(tokens.nobody)).toEqual([]);
    // the value list too, and a filter does not widen it
    expect((await s.request('GET', `${D}/values?datasetId=${datasetId}&field=city`, undefined, tokens.south)).body.data).toEqual(['广州']);
    const widened = await s.request('POST', `${D}/query`, { queries: [{ datasetId, dimensions: [{ field: 'city' }], filters: [{ field: 'dept_id', op: 'eq', value: depts['华东'] }] }] }, tokens.south);
    expect(widened.body.data[0].rows).toEqual([]);
  });

  it('exports what the chart shows under the same rules (CSV and XLSX), a table of rows paged through', async () => {
    const exp = async (token: string, query: object, format = 'csv') => {
      const res = await fetch(`${s.url}${D}/export`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ query, format }) });
      return { type: res.headers.get('content-type') ?? '', text: format === 'csv' ? await res.text() : '', bytes: format === 'xlsx' ? (await res.arrayBuffer()).byteLength : 0 };
    };
    const chart = { datasetId, dimensions: [{ field: 'city' }], measures: [{ field: 'amount', agg: 'sum' }], sort: [{ field: 'city', dir: 'asc' }] };
    const south = await exp(tokens.south, chart);
    expect(south.type).toContain('text/csv');
    const lines = south.text.replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(lines[0]).toBe('"city","amount（求和）"');
    expect(lines.slice(1)).toEqual(['"广州","70"']);
    // a table of rows (no measure): paged through, still only the caller's rows
    const rows = await exp(tokens.east, { datasetId, dimensions: [{ field: 'city' }, { field: 'amount' }] });
    expect(rows.text.trim().split(/\r?\n/).slice(1).sort()).toEqual(['"南京","50"', '"杭州","100"']);
    expect((await exp(tokens.nobody, chart)).text.trim().split(/\r?\n/)).toHaveLength(1);
    const xlsx = await exp(tokens.boss, chart, 'xlsx');
    expect(xlsx.type).toContain('spreadsheetml');
    expect(xlsx.bytes).toBeGreaterThan(1000);
    // a field outside the dataset is refused before anything is sent
    const bad = await fetch(`${s.url}${D}/export`, { method: 'POST', headers: { authorization: `Bearer ${tokens.south}`, 'content-type': 'application/json' }, body: JSON.stringify({ query: { datasetId, dimensions: [{ field: 'secret' }] } }) });
    expect(((await bad.json()) as { msg: string }).msg).toBe('数据集中没有字段「secret」');
  });

  it('the department alone: the parent sees only its own rows', async () => {
    const info = (await s.request('GET', `${D}/info/get?id=${datasetId}`, undefined, dev)).body.data;
    const saved = await s.request('POST', `${D}/info/save`, { ...info, id: datasetId, rowRules: [{ subject: 'role', key: 'default', field: 'dept_id', attribute: 'department' }] }, dev);
    expect(saved.body.status, saved.body.msg).toBe(0);
    expect(await cities(tokens.boss)).toEqual(['北京']);
    expect(await cities(tokens.east)).toEqual(['南京', '杭州']);
  });
});
