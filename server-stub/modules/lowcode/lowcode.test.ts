// Pages without code over real HTTP: the supplier example saved, validated, published to a role (menu
// entry), then bad and good records through the generic store — on SQLite and (PG_URL) PostgreSQL.
import example from '../../../schemas/examples/supplier.page.json';
import { startTestServer, testStores, type TestServer } from '../../testing/server.js';

// the shipped example (schemas/examples), as an admin pastes it into the page manager
const supplier = structuredClone(example);

function flatten(nodes: any[]): any[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);
}

describe.each(testStores)('low-code pages (%s store)', (store) => {
  let s: TestServer;
  let pageId: number;
  beforeAll(async () => {
    s = await startTestServer({ store });
  });
  afterAll(() => s?.close());

  it('refuses bad declarations, each fault naming its field in Chinese (never a JSON pointer or a regular expression)', async () => {
    const bad = { ...supplier, columns: [{ field: 'name' }], dialog: { ...supplier.dialog, width: 'wide' } };
    const r = await s.request('POST', '/api/lowcode/page/save', { pageKey: 'supplier', title: '供应商', declaration: bad, published: false, roles: [] });
    expect(r.body.status).toBe(1);
    expect(r.body.msg).toContain('字段「columns[0].title」缺少必填属性');
    expect(r.body.msg).toMatch(/字段「dialog\.width」类型应为/);
    expect(r.body.msg).not.toMatch(/\/columns|\/dialog/);
    const badCall = { ...supplier, columns: [{ title: '名称', type: 'dynamic', api: 'FETCH x' }] };
    const c = await s.request('POST', '/api/lowcode/page/save', { pageKey: 'supplier', title: '供应商', declaration: badCall });
    expect(c.body.msg).toContain('字段「columns[0].api」格式不正确，应为：HTTP 调用，形如');
    expect(c.body.msg).not.toContain('^(GET|POST)');
    const unsortable = { ...supplier, columns: [{ title: '城市', field: 'city', sortable: true }] };
    const u = await s.request('POST', '/api/lowcode/page/save', { pageKey: 'supplier', title: '供应商', declaration: unsortable });
    expect(u.body.msg).toContain('字段「columns[0].field」是可排序列，引用的字段 city 未在表单');
    const badPattern = structuredClone(supplier);
    badPattern.dialog.schema.properties.phone['x-validator'] = [{ pattern: '([', message: 'x' }];
    const p = await s.request('POST', '/api/lowcode/page/save', { pageKey: 'supplier', title: '供应商', declaration: badPattern });
    expect(p.body.msg).toContain('字段「dialog.schema.properties.phone.x-validator[0].pattern」：不是合法的正则表达式');
    const builtin = await s.request('POST', '/api/lowcode/page/save', { pageKey: 'datasource', title: 'x', declaration: { ...supplier, id: 'datasource' } });
    expect(builtin.body).toMatchObject({ status: 1 });
    expect(builtin.body.msg).toContain('内置页面');
    expect((await s.request('POST', '/api/lowcode/page/save', { pageKey: 'Bad Key', title: 'x', declaration: supplier })).body.status).toBe(1);
    expect((await s.request('POST', '/api/lowcode/page/save', { pageKey: 'other', title: 'x', declaration: supplier })).body.msg).toContain('一致');
    expect((await s.request('POST', '/api/lowcode/page/save', { pageKey: 'supplier', declaration: supplier, roles: ['nobody'] })).body.msg).toContain('角色不存在');
    expect((await s.request('POST', '/api/lowcode/page/save', '{"pageKey":')).body.status).toBe(1);
  });

  it('saves, publishes to a role (menu entry page:supplier), and only admins manage pages', async () => {
    const r = await s.request('POST', '/api/lowcode/page/save', { pageKey: 'supplier', title: '供应商', declaration: supplier, published: true, roles: ['default'] });
    expect(r.body).toMatchObject({ status: 0, msg: '保存成功' });
    pageId = r.body.data;
    const dup = await s.request('POST', '/api/lowcode/page/save', { pageKey: 'supplier', title: '供应商', declaration: supplier });
    expect(dup.body.msg).toContain('已存在');
    const got = await s.request('GET', '/api/lowcode/page/get?pageKey=supplier');
    expect(got.body.data).toMatchObject({ pageKey: 'supplier', published: true, roles: ['default'] });
    expect(got.body.data.declaration.api.search).toBe('POST /lowcode/data/supplier/search');
    expect((await s.request('GET', `/api/lowcode/page/get?id=${pageId}`)).body.data.pageKey).toBe('supplier');
    expect((await s.request('POST', '/api/lowcode/page/search', { search: '供应' })).body.data.total).toBe(1);

    const dev = await s.loginAs('developer');
    const menu = await s.request('GET', '/api/menu/routes/get?moduleType=platform', undefined, dev);
    const entry = flatten(menu.body.data).find((n) => n.component === 'page:supplier');
    expect(entry).toMatchObject({ type: 'C', name: '供应商' });
    expect((await s.request('GET', '/api/lowcode/page/get?pageKey=supplier', undefined, dev)).body.status).toBe(0);
    const devSave = await s.request('POST', '/api/lowcode/page/save', { pageKey: 'x', title: 'x', declaration: { ...supplier, id: 'x' } }, dev);
    expect(devSave.body.msg).toContain('没有权限');

    const biz = await s.loginAs('bizapprover');
    const bizMenu = await s.request('GET', '/api/menu/routes/get?moduleType=platform', undefined, biz);
    expect(flatten(bizMenu.body.data).some((n) => n.component === 'page:supplier')).toBe(false);
    expect((await s.request('POST', '/api/lowcode/data/supplier/search', {}, biz)).body.msg).toContain('没有权限');
  });

  it('records: declared messages for bad ones, then good ones searched, filtered, sorted, paged', async () => {
    const dev = await s.loginAs('developer');
    const save = (b: unknown) => s.request('POST', '/api/lowcode/data/supplier/save', b, dev);
    const bad: Array<[unknown, string | RegExp]> = [
      [{ phone: '13800000000' }, '请输入名称'],
      [{ name: '' }, '请输入名称'],
      [{ name: 'x'.repeat(51) }, /名称/],
      [{ name: 'a', phone: '12345' }, '请输入正确的手机号码'],
      [{ name: 'a', phone: '12800000000' }, '请输入正确的手机号码'],
      [{ name: 'a', status: 2 }, /状态.*不合法/],
      [{ name: 'a', status: '1' }, /状态.*类型/],
      [{ name: 123 }, /名称.*类型/],
      ['{"name":', /JSON/],
    ];
    for (const [b, msg] of bad) {
      const r = await save(b);
      expect(r.http).toBeLessThan(500);
      expect(r.body.status, JSON.stringify(b)).toBe(1);
      expect(r.body.msg).toMatch(msg);
    }
    const names = ['华东物流', '华南电子', '北方钢铁', 'Acme_Co', '100%纯'];
    for (const [i, name] of names.entries()) {
      const r = await save({ name, phone: `1390000000${i}`, status: i % 2, remark: `r${i}`, extra: 'dropped' });
      expect(r.body).toMatchObject({ status: 0, msg: '保存成功' });
    }
    const withDefault = await save({ name: '默认状态' });
    const got = await s.request('GET', `/api/lowcode/data/supplier/get?id=${withDefault.body.data}`, undefined, dev);
    expect(got.body.data).toMatchObject({ name: '默认状态', status: 1 });
    expect(got.body.data.extra).toBeUndefined();

    const search = (b: object) => s.request('POST', '/api/lowcode/data/supplier/search', b, dev);
    const hua = await search({ search: '华' });
    expect(hua.body.data.total).toBe(2);
    expect((await search({ search: 'acme' })).body.data.records.map((x: any) => x.name)).toEqual(['Acme_Co']);
    expect((await search({ search: '%' })).body.data.records.map((x: any) => x.name)).toEqual(['100%纯']);
    expect((await search({ search: '_' })).body.data.records.map((x: any) => x.name)).toEqual(['Acme_Co']);
    expect((await search({ status: [0] })).body.data.total).toBe(3);
    for (const bad of [{ status: [{ a: 1 }] }, { status: { a: 1 } }]) {
      const r = await search(bad);
      expect(r.body.status).toBe(1);
      expect(r.http).toBeLessThan(500);
    }
    expect((await search({ status: 1, search: '华' })).body.data.total).toBe(1);
    const sorted = await search({ orderByColumn: 'name', isAsc: 'asc', pageNum: 1, pageSize: 3 });
    expect(sorted.body.data.total).toBe(6);
    expect(sorted.body.data.records).toHaveLength(3);
    const all = (await search({ orderByColumn: 'name', isAsc: 'asc', pageSize: 10 })).body.data.records.map((x: any) => x.name);
    expect(all[0]).toBe('100%纯');
    expect((await search({ orderByColumn: 'name', isAsc: 'desc', pageSize: 10 })).body.data.records.map((x: any) => x.name)).toEqual([...all].reverse());
    // not sortable / hostile column: ignored
    for (const col of ['phone', "name') --", 'data']) expect((await search({ orderByColumn: col, isAsc: 'asc' })).body.data.total).toBe(6);

    const rec = hua.body.data.records[0];
    expect((await save({ ...rec, remark: '已更新' })).body.status).toBe(0);
    expect((await s.request('GET', `/api/lowcode/data/supplier/get?id=${rec.id}`, undefined, dev)).body.data.remark).toBe('已更新');
    expect((await s.request('GET', `/api/lowcode/data/supplier/delete?id=${rec.id}`, undefined, dev)).body).toMatchObject({ status: 0, msg: '删除成功' });
    expect((await search({})).body.data.total).toBe(5);
    const dva = await s.loginAs('devapprover');
    expect((await s.request('POST', '/api/lowcode/data/supplier/save', { name: 'x' }, dva)).body.msg).toContain('没有权限');
    expect((await s.request('POST', '/api/lowcode/data/nope/search', {}, dev)).body).toMatchObject({ status: 1, msg: '页面不存在' });
  });

  it('unpublish removes the menu entry; delete removes page and records', async () => {
    expect((await s.request('POST', '/api/lowcode/page/save', { id: pageId, pageKey: 'supplier', title: '供应商', declaration: supplier, published: false, roles: ['default'] })).body.status).toBe(0);
    const dev = await s.loginAs('developer');
    const menu = await s.request('GET', '/api/menu/routes/get?moduleType=platform', undefined, dev);
    expect(flatten(menu.body.data).some((n) => n.component === 'page:supplier')).toBe(false);
    expect((await s.request('POST', '/api/lowcode/data/supplier/search', {}, dev)).body.msg).toContain('没有权限');
    // the page manager says how many records a delete takes with it: the list and the page itself answer the count
    expect((await s.request('GET', `/api/lowcode/page/get?id=${pageId}`)).body.data).toMatchObject({ pageKey: 'supplier', recordCount: 5 });
    const listed = (await s.request('POST', '/api/lowcode/page/search', { pageNum: 1, pageSize: 10 })).body.data.records;
    expect(listed.find((p: any) => p.pageKey === 'supplier')).toMatchObject({ recordCount: 5 });
    expect((await s.request('GET', `/api/lowcode/page/delete?id=${pageId}`)).body).toMatchObject({ status: 0, msg: '删除成功' });
    expect((await s.request('GET', '/api/lowcode/page/get?pageKey=supplier')).body.status).toBe(1);
  });
});
