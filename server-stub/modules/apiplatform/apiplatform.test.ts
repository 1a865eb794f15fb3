// The data-API platform over real HTTP, on each store: groups, design, configuration and test run, the
// state machine and its refusals, frozen versions (V1 keeps serving while V2 is a draft), approval rights,
// published calls with keys / sessions / public flag, parameter typing and binding, cache hit and
// invalidation, statistics and the OpenAPI document.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Validator } from '@seriousme/openapi-schema-validator';
import { hashPassword } from '../../core/passwords.js';
import { ANONYMOUS_CALLS, openApiDocument } from './published.js';
import { REQ_TYPES, RESP_TYPES } from './params.js';
import { GOODS_SQL, sqliteFile, sqliteFixture } from '../../testing/sqlite.js';
import { startTestServer, testStores, TEST_PASSWORD, type TestServer } from '../../testing/server.js';

const P = '/api/gemini/api';

describe.each(testStores)('data-API platform (%s store)', (store) => {
  let s: TestServer;
  let dev: string;
  let approver: string;
  let groupId: number;
  let shopId: number;
  beforeAll(async () => {
    s = await startTestServer({ store });
    shopId = await sqliteFixture(s, 'shop.db', GOODS_SQL, 'shop');
    dev = await s.loginAs('developer');
    approver = await s.loginAs('devapprover');
  });
  afterAll(() => s?.close());

  const as = (token: string) => ({
    get: (path: string) => s.request('GET', P + path, undefined, token),
    post: (path: string, body: unknown = {}) => s.request('POST', P + path, body, token),
  });
  const open = (name: string, body: unknown, headers: Record<string, string> = {}, token: string | null = null) => s.request('POST', `/open/api/${name}`, body, token, headers);

  it('keeps a group tree: add, counts, order, no move under itself or a descendant, no delete while in use', async () => {
    const d = as(dev);
    expect((await d.post('/group/save', { parentId: 0, name: ' ' })).body).toMatchObject({ status: 1, msg: '请输入组名称' });
    const a = (await d.post('/group/save', { parentId: 0, name: '销售' })).body;
    expect(a).toMatchObject({ status: 0, msg: '添加成功' });
    const b = (await d.post('/group/save', { parentId: a.data, name: '华东' })).body.data;
    const c = (await d.post('/group/save', { parentId: b, name: '上海' })).body.data;
    const e = (await d.post('/group/save', { parentId: 0, name: '财务' })).body.data;
    groupId = c;
    expect((await d.post('/group/save', { id: a.data, parentId: a.data, name: '销售' })).body).toMatchObject({ status: 1, msg: '节点【销售】不能移到自己节点下' });
    expect((await d.post('/group/save', { id: a.data, parentId: c, name: '销售' })).body).toMatchObject({ status: 1, msg: '节点【销售】不能移到自己节点下' });
    expect((await d.post('/group/save', { parentId: 0, name: '财务' })).body).toMatchObject({ status: 1, msg: '同级下已有分组【财务】' });
    // order of the root's children: 销售, 财务 → down / up swap them
    const order = async () => (await d.post('/group/select')).body.data.filter((g: any) => g.parentId === 0).map((g: any) => g.name);
    expect(await order()).toEqual(['销售', '财务']);
    expect((await d.get(`/group/up?id=${a.data}`)).body).toMatchObject({ status: 1, msg: '已经是第一个，不能上移' });
    expect((await d.get(`/group/down?id=${a.data}`)).body.status).toBe(0);
    expect(await order()).toEqual(['财务', '销售']);
    expect((await d.get(`/group/up?id=${a.data}`)).body.status).toBe(0);
    expect((await d.get(`/group/delete?id=${a.data}`)).body).toMatchObject({ status: 1, msg: '分组【销售】下还有子分组，不能删除' });
    expect((await d.get(`/group/delete?id=${e}`)).body).toMatchObject({ status: 0, msg: '删除成功' });
    // editing the tree needs api.config.list.group: an approver may read it, not change it
    expect((await as(approver).post('/group/select')).body.status).toBe(0);
    expect((await as(approver).post('/group/save', { parentId: 0, name: 'x' })).http).toBe(403);
  });

  let apiId: number;
  it('designs an API with typed parameters, with the spec messages for what is missing', async () => {
    const d = as(dev);
    const base = { groupId, apiName: 'goodsByPrice', apiComment: '按价格查商品', apiDesc: '价格区间内的商品' };
    expect((await d.post('/design/info/save', { ...base, groupId: null })).body.msg).toBe('请选择分组');
    expect((await d.post('/design/info/save', { ...base, apiName: '' })).body.msg).toBe('请输入接口名');
    expect((await d.post('/design/info/save', { ...base, apiComment: '' })).body.msg).toBe('请输入接口名称（中文）');
    expect((await d.post('/design/info/save', { ...base, apiName: '../x' })).body.status).toBe(1);
    expect((await d.post('/design/info/save', { ...base, apiDesc: 'x'.repeat(256) })).body.msg).toBe('描述不能超过255个字符');
    const reqParamList = [
      { paramName: 'minPrice', paramType: 'number', paramValue: '4', paramComment: '最低价' },
      { paramName: 'name', paramType: 'string', paramValue: '', paramComment: '名称' },
    ];
    expect((await d.post('/design/info/save', { ...base, reqParamList: [...reqParamList, reqParamList[0]] })).body.msg).toBe('请求参数【minPrice】重复');
    expect((await d.post('/design/info/save', { ...base, reqParamList: [{ paramName: 'x', paramType: 'date' }] })).body.status).toBe(1);
    const saved = await d.post('/design/info/save', { ...base, reqParamList, respParamList: [{ paramName: 'name', paramType: 'string' }] });
    expect(saved.body).toMatchObject({ status: 0, msg: '保存成功' });
    apiId = saved.body.data;
    expect((await d.post('/design/info/save', base)).body.msg).toBe('接口名【goodsByPrice】已存在');
    const got = (await d.get(`/design/info/get?id=${apiId}`)).body.data;
    expect(got).toMatchObject({ apiName: 'goodsByPrice', apiPath: '/open/api/goodsByPrice', apiStatus: 0, onlineStatus: 0, latestApiVersion: null, designUser: 'developer', groupName: '上海' });
    expect(got.apiNum).toMatch(/^API\d{6}$/);
    expect(got.reqParamList.map((p: any) => [p.id, p.paramType])).toEqual([[1, 'number'], [2, 'string']]);
    // groupIds: the path from the top group (销售 → 华东 → 上海), as the group tree select wants it
    expect(got.groupIds).toHaveLength(3);
    expect(got.groupIds.at(-1)).toBe(groupId);
    // the list filters by the group subtree the side tree sends, by status, and by designer
    const groups = (await d.post('/group/select')).body.data;
    const top = groups.find((g: any) => g.name === '销售');
    // a group counts its subtree once; its own APIs apart: 销售 1 (in 上海, its grandchild), none of its own
    expect(top).toMatchObject({ apiCount: 1, ownCount: 0 });
    expect(groups.find((g: any) => g.id === groupId)).toMatchObject({ apiCount: 1, ownCount: 1 });
    // the approval list shows no drafts: its tree counts none either
    const approvalTree = (await as(approver).post('/approve/group/select')).body.data;
    expect(approvalTree.find((g: any) => g.name === '销售')).toMatchObject({ apiCount: 0, ownCount: 0 });
    expect((await d.post('/approve/group/select')).http).toBe(403);
    const subtree = [top.id, ...groups.filter((g: any) => g.parentId === top.id).flatMap((g: any) => [g.id, ...groups.filter((x: any) => x.parentId === g.id).map((x: any) => x.id)])];
    expect((await d.post('/design/search', { groupIds: subtree, apiStatus: [0], designUser: ['developer'] })).body.data.total).toBe(1);
    expect((await d.post('/design/search', { groupIds: [top.id] })).body.data.total).toBe(0);
    expect((await d.post('/design/search', { groupIds: subtree, onlineStatus: [1] })).body.data.total).toBe(0);
    expect((await d.post('/design/search', { orderByColumn: 'constructor', isAsc: 'asc' })).body.status).toBe(0);
    expect((await d.get('/design/designers?search=dev')).body.data).toEqual([{ value: 'developer', label: '开发者(developer)' }]);
    expect((await d.get(`/group/delete?id=${groupId}`)).body.msg).toBe('分组【上海】下还有 1 个接口，不能删除');
  });

  it('configures and tests the SQL: bound values listed beside the SQL, an injection string finds nothing', async () => {
    const d = as(dev);
    const script = 'select name, price from goods where price >= :minPrice and (:name is null or name = :name) order by price';
    expect((await d.post('/config/save', { apiId, script })).body.msg).toBe('请选择数据源');
    expect((await d.post('/config/save', { apiId, dsName: 'shop', script: ' ' })).body.msg).toBe('请配置脚本');
    expect((await d.post('/config/save', { apiId, dsName: 'shop', script, cacheable: 1, cacheTime: '123456' })).body.status).toBe(1);
    expect((await d.post('/config/save', { apiId, dsName: 'shop', script, cacheable: 1, cacheTime: '1a' })).body.status).toBe(1);
    const cfg = (await d.get(`/config/get?apiId=${apiId}`)).body.data;
    const test = await d.post('/execute', { dsName: 'shop', script, reqParamList: cfg.reqParamList, reqParams: '{"minPrice": 4}' });
    expect(test.body).toMatchObject({ status: 0, msg: '测试完成' });
    expect(test.body.data.respResult).toEqual([{ name: 'pear', price: 5 }, { name: 'plum', price: 7 }]);
    expect(test.body.data.querySql).toContain('price >= ?');
    expect(test.body.data.querySql).not.toContain('>= 4');
    expect(test.body.data.boundValues).toEqual([4, null, null]);
    const inj = await d.post('/execute', { dsName: 'shop', script, reqParamList: cfg.reqParamList, reqParams: { minPrice: 0, name: "x' or '1'='1" } });
    expect(inj.body.data.respResult).toEqual([]);
    expect((await d.post('/execute', { dsName: 'shop', script: 'select * from nope', reqParamList: [] })).body.msg).toMatch(/^执行失败/);
    expect((await d.post('/execute', { dsName: 'shop', script, reqParamList: cfg.reqParamList, reqParams: { minPrice: 'abc' } })).body.msg).toBe('参数【minPrice】应为数字');
    const saved = await d.post('/config/save', { apiId, dsName: 'shop', script, cacheable: 0, reqParamList: cfg.reqParamList, reqParams: '{"minPrice": 4, "name": ""}', respResult: test.body.data.respResult, querySql: test.body.data.querySql });
    expect(saved.body).toMatchObject({ status: 0, data: apiId });
    expect((await d.get(`/config/get?apiId=${apiId}`)).body.data).toMatchObject({ dsName: 'shop', script, cacheable: 0 });
  });

  it('walks the state machine: submit, no edit while waiting, no approval by the designer or a developer, pass and go online as V1', async () => {
    const d = as(dev);
    const a = as(approver);
    expect((await a.post('/approve/resolve', { id: apiId })).body.msg).toBe('接口不在待审批状态，不能审批');
    expect((await d.post('/design/info/submit', { id: apiId })).body).toMatchObject({ status: 0, msg: '提交成功' });
    expect((await d.post('/design/info/submit', { id: apiId })).body.msg).toBe('只有草稿或已驳回的接口可以提交');
    expect((await d.post('/config/save', { apiId, dsName: 'shop', script: 'select 1' })).body.msg).toBe('接口待审批中，不能修改');
    expect((await d.post('/approve/resolve', { id: apiId })).http).toBe(403);
    expect((await a.post('/approve/search', {})).body.data.records.map((r: any) => r.apiName)).toContain('goodsByPrice');
    expect((await a.post('/approve/group/select')).body.data.find((g: any) => g.id === groupId)).toMatchObject({ apiCount: 1, ownCount: 1 });
    expect((await a.post('/approve/reject', { id: apiId, approveResult: 'x'.repeat(256) })).body.msg).toBe('审批意见不能超过255个字符');
    // the approval form names its action (spec: id, approveCmdType, approveResult); it must be the route's
    expect((await a.post('/approve/resolveAndOnline', { id: apiId, approveCmdType: 'reject' })).body.msg).toBe('审批动作与请求的操作不一致');
    expect((await a.post('/approve/reject', { id: apiId, approveCmdType: 'reject', approveResult: '缺少说明' })).body).toMatchObject({ status: 0, msg: '审批驳回完成' });
    expect((await d.get(`/design/info/get?id=${apiId}`)).body.data).toMatchObject({ apiStatus: 3, approveResult: '缺少说明', latestApiVersion: null });
    expect((await d.post('/design/info/submit', { id: apiId })).body.status).toBe(0);
    const done = await a.post('/approve/resolveAndOnline', { id: apiId, approveResult: '同意' });
    expect(done.body).toMatchObject({ status: 0, msg: '审批并上线成功' });
    expect((await d.get(`/design/info/get?id=${apiId}`)).body.data).toMatchObject({ apiStatus: 2, onlineStatus: 1, latestApiVersion: 1, onlineVersion: 1, resolve: true });
    const trail = (await d.get(`/design/audit?id=${apiId}`)).body.data.map((x: any) => x.action);
    expect(trail.slice(0, 5)).toEqual(['online', 'resolve', 'submit', 'reject', 'submit']);
    expect(trail.at(-1)).toBe('create');
    expect((await d.get(`/design/delete?id=${apiId}`)).body.msg).toBe('接口已上线，请先下线再删除');
  });

  let key = '';
  it('serves the online version at /open/api with a key or a session, and refuses without, with clear messages', async () => {
    const made = await as(dev).post('/key/add', { keyName: '报表系统' });
    expect(made.body.status).toBe(0);
    key = made.body.data.apiKey;
    expect(key).toMatch(/^dsk_/);
    const listed = (await as(dev).post('/key/search', {})).body.data.records;
    expect(JSON.stringify(listed)).not.toContain(key);

    expect((await open('goodsByPrice', { minPrice: 4 })).body).toMatchObject({ status: 1, msg: expect.stringMatching(/^缺少访问凭证/) });
    expect((await open('goodsByPrice', { minPrice: 4 }, { 'x-api-key': 'dsk_wrong' })).body).toMatchObject({ status: 1, msg: 'API Key 无效或已吊销' });
    const good = await open('goodsByPrice', { minPrice: 4 }, { 'x-api-key': key });
    expect(good.body).toMatchObject({ status: 0, data: [{ name: 'pear', price: 5 }, { name: 'plum', price: 7 }] });
    expect((await open('goodsByPrice', { minPrice: 6 }, {}, dev)).body.data).toEqual([{ name: 'plum', price: 7 }]);
    const typed = await open('goodsByPrice', { minPrice: '4' }, { 'x-api-key': key });
    expect(typed.http).toBe(400);
    expect(typed.body).toMatchObject({ status: 1, msg: '参数【minPrice】应为数字' });
    expect((await open('goodsByPrice', { minPrice: 4, drop: 1 }, { 'x-api-key': key })).body).toMatchObject({ status: 1, msg: '未知参数：drop' });
    expect((await open('goodsByPrice', [1], { 'x-api-key': key })).body.status).toBe(1);
    expect((await open('goodsByPrice', { minPrice: 0, name: "' or 1=1 --" }, { 'x-api-key': key })).body.data).toEqual([]);
    expect((await open('noSuchApi', {}, { 'x-api-key': key })).body).toMatchObject({ status: 1, msg: '接口【noSuchApi】不存在' });
  });

  it('answers another method than POST with 405 (请使用 POST 调用), a missing required parameter with 400 naming it, and binds declared defaults', async () => {
    const d = as(dev);
    const reqParamList = [
      { paramName: 'code', paramType: 'string', paramValue: 'A1', required: true },
      { paramName: 'qty', paramType: 'integer', paramValue: '3' },
      { paramName: 'note', paramType: 'string', paramValue: '' },
      { paramName: 'on', paramType: 'boolean', paramValue: 'false' },
    ];
    // a value that is not of its declared type is refused at save: it would be the default of every call
    expect((await d.post('/design/info/save', { groupId, apiName: 'paramDefaults', apiComment: '参数默认值', reqParamList: [{ paramName: 'qty', paramType: 'integer', paramValue: 'abc' }] })).body.msg).toBe('请求参数【qty】的参数值应为整数');
    const id = (await d.post('/design/info/save', { groupId, apiName: 'paramDefaults', apiComment: '参数默认值', reqParamList })).body.data;
    expect((await d.post('/config/save', { apiId: id, dsName: 'shop', script: 'select :code as code, :qty as qty, :note as note, :on as "on"', reqParamList })).body.status).toBe(0);
    expect((await d.post('/design/info/submit', { id })).body.status).toBe(0);
    expect((await s.request('POST', `${P}/approve/resolveAndOnline`, { id })).body.status).toBe(0);
    const hdr = { 'x-api-key': key };

    // GET (also without any credential, also for a name that does not exist) is told to use POST, not 401
    for (const [method, name, token] of [['GET', 'paramDefaults', null], ['GET', 'paramDefaults', dev], ['GET', 'noSuchApi', null], ['PUT', 'paramDefaults', null], ['DELETE', 'paramDefaults', null]] as const) {
      const r = await s.request(method, `/open/api/${name}`, method === 'GET' ? undefined : {}, token);
      expect(r.http, `${method} ${name}`).toBe(405);
      expect(r.body).toEqual({ status: 1, msg: '请使用 POST 调用', data: null });
    }
    const raw = await fetch(`${s.url}/open/api/paramDefaults`);
    expect(raw.status).toBe(405);
    expect(raw.headers.get('allow')).toBe('POST');

    // required and missing (or null): 400 naming it; nothing runs
    for (const body of [{}, { code: null }, { qty: 1 }]) {
      const r = await open('paramDefaults', body, hdr);
      expect(r.http).toBe(400);
      expect(r.body).toMatchObject({ status: 1, msg: '缺少必填参数：code' });
    }
    // optional and missing: the declared value; an empty declared value is NULL; an explicit null stays NULL
    expect((await open('paramDefaults', { code: 'x' }, hdr)).body).toMatchObject({ status: 0, data: [{ code: 'x', qty: 3, note: null, on: 0 }] });
    expect((await open('paramDefaults', { code: 'x', qty: 9, note: 'n', on: true }, hdr)).body.data).toEqual([{ code: 'x', qty: 9, note: 'n', on: 1 }]);
    expect((await open('paramDefaults', { code: 'x', qty: null }, hdr)).body.data).toEqual([{ code: 'x', qty: null, note: null, on: 0 }]);
    // the caller's other faults are 400 too
    expect((await open('paramDefaults', { code: 'x', qty: '9' }, hdr)).http).toBe(400);
    expect((await open('paramDefaults', { code: 'x', extra: 1 }, hdr)).http).toBe(400);
    // the OpenAPI document lists the required one and the defaults
    const doc = (await s.request<any>('GET', '/open/api-docs', undefined, dev)).body as any;
    const schema = doc.paths['/open/api/paramDefaults'].post.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(['code']);
    expect(schema.properties).toMatchObject({ code: { type: 'string' }, qty: { type: 'integer', default: 3 }, on: { type: 'boolean', default: false } });
    expect(schema.properties.code.default).toBeUndefined();
    expect(schema.properties.note.default).toBeUndefined();
    expect((await s.request('GET', `${P}/approve/offline?id=${id}`)).body.status).toBe(0);
  });

  it('runs an approved version only against the database it was approved on: a data source pointed elsewhere is refused', async () => {
    sqliteFile(s, 'other.db', GOODS_SQL);
    const moveTo = (dbName: string) => s.request('POST', '/api/gemini/datasource/info/save', { id: shopId, dsName: 'shop', dbType: 'sqlite', dbName });
    expect((await moveTo('other.db')).body.status).toBe(0);
    expect((await open('goodsByPrice', { minPrice: 4 }, { 'x-api-key': key })).body).toMatchObject({ status: 1, msg: '接口的数据源在审批后已变更（地址、数据库或账号），须重新提交审批后才能调用' });
    expect((await moveTo('shop.db')).body.status).toBe(0);
    expect((await open('goodsByPrice', { minPrice: 4 }, { 'x-api-key': key })).body.status).toBe(0);
  });

  it('refuses to pass a version whose data source is gone (a later source of that name would run it unseen)', async () => {
    const d = as(dev);
    sqliteFile(s, 'gone.db', GOODS_SQL);
    const goneId = (await s.request('POST', '/api/gemini/datasource/info/save', { dsName: 'gone_src', dbType: 'sqlite', dbName: 'gone.db' })).body.data;
    const id = (await d.post('/design/info/save', { groupId, apiName: 'goneApi', apiComment: '数据源会消失' })).body.data;
    expect((await d.post('/config/save', { apiId: id, dsName: 'gone_src', script: 'select name from goods' })).body.status).toBe(0);
    expect((await d.post('/design/info/submit', { id })).body.status).toBe(0);
    expect((await s.request('GET', `/api/gemini/datasource/delete?id=${goneId}`)).body.status).toBe(0);
    expect((await as(approver).post('/approve/resolveAndOnline', { id })).body).toMatchObject({ status: 1, msg: '接口的数据源不存在，不能审批通过' });
    expect((await as(approver).post('/approve/reject', { id, approveResult: '数据源已删除' })).body.status).toBe(0);
  });

  it('keeps V1 serving while V2 is drafted and approved, until V2 goes online', async () => {
    const d = as(dev);
    const a = as(approver);
    const cfg = (await d.get(`/config/get?apiId=${apiId}`)).body.data;
    // the draft now answers only names: what is online must not change
    expect((await d.post('/config/save', { ...cfg, script: 'select name from goods where price >= :minPrice and (:name is null or name = :name) order by price' })).body.status).toBe(0);
    expect((await d.get(`/design/info/get?id=${apiId}`)).body.data).toMatchObject({ apiStatus: 0, onlineStatus: 1, onlineVersion: 1, pending: true, pendingVersion: 2 });
    const call = async () => (await open('goodsByPrice', { minPrice: 7 }, { 'x-api-key': key })).body.data;
    expect(await call()).toEqual([{ name: 'plum', price: 7 }]);
    expect((await d.post('/design/info/submit', { id: apiId })).body.status).toBe(0);
    // both lists say V1 serves while V2 waits (已上线 V1 · V2 待审批)
    for (const list of [await d.post('/design/search', {}), await a.post('/approve/search', {})]) {
      expect(list.body.data.records.find((r: any) => r.id === apiId)).toMatchObject({ apiStatus: 1, onlineStatus: 1, onlineVersion: 1, pending: true, pendingVersion: 2 });
    }
    expect((await a.post('/approve/info?id=' + apiId)).http).toBe(404);
    const info = (await a.get(`/approve/info?id=${apiId}`)).body.data;
    expect(info.online.apiVersion).toBe(1);
    expect(info.online.script).toContain('select name, price');
    expect(info.submitted.script).toContain('select name from');
    expect((await a.post('/approve/resolve', { id: apiId })).body).toMatchObject({ status: 0, msg: '审批通过成功' });
    expect((await d.get(`/design/info/get?id=${apiId}`)).body.data).toMatchObject({ latestApiVersion: 2, onlineVersion: 1, pending: true, pendingVersion: 2 });
    expect(await call()).toEqual([{ name: 'plum', price: 7 }]);
    expect((await d.get(`/design/versions?id=${apiId}`)).body.data.map((v: any) => v.label)).toEqual(['V2', 'V1']);
    expect((await d.get(`/design/version/get?id=${apiId}&version=1`)).body.data.script).toContain('select name, price');
    expect((await d.get(`/approve/online?id=${apiId}`)).http).toBe(403);
    expect((await a.get(`/approve/online?id=${apiId}`)).body).toMatchObject({ status: 0, msg: '上线成功' });
    expect(await call()).toEqual([{ name: 'plum' }]);
    expect((await d.get(`/design/info/get?id=${apiId}`)).body.data).toMatchObject({ onlineVersion: 2, pending: false, pendingVersion: null });
  });

  it('caches per version and parameters, and an offline / online move clears it everywhere', async () => {
    const d = as(dev);
    const a = as(approver);
    const cfg = (await d.get(`/config/get?apiId=${apiId}`)).body.data;
    expect((await d.post('/config/save', { ...cfg, cacheable: 1, cacheTime: '600' })).body.status).toBe(0);
    expect((await d.post('/design/info/submit', { id: apiId })).body.status).toBe(0);
    expect((await a.post('/approve/resolveAndOnline', { id: apiId })).body.status).toBe(0);
    const hdr = { 'x-api-key': key };
    const first = await s.request('POST', '/open/api/goodsByPrice', { minPrice: 5 }, null, hdr);
    expect(first.body.data).toEqual([{ name: 'pear' }, { name: 'plum' }]);
    // change the data behind the API: a cached answer does not see it, other parameters do
    const file = new Database(join(s.dataDir, 'sqlite', 'shop.db'));
    file.exec("insert into goods(name, price) values ('fig', 9)");
    file.close();
    expect((await open('goodsByPrice', { minPrice: 5 }, hdr)).body.data).toEqual([{ name: 'pear' }, { name: 'plum' }]);
    expect((await open('goodsByPrice', { minPrice: 8 }, hdr)).body.data).toEqual([{ name: 'fig' }]);
    expect((await a.get(`/approve/offline?id=${apiId}`)).body).toMatchObject({ status: 0, msg: '下线成功' });
    expect((await open('goodsByPrice', { minPrice: 5 }, hdr)).body).toMatchObject({ status: 1, msg: '接口【goodsByPrice】未上线' });
    expect((await a.get(`/approve/online?id=${apiId}`)).body.status).toBe(0);
    expect((await open('goodsByPrice', { minPrice: 5 }, hdr)).body.data).toEqual([{ name: 'pear' }, { name: 'plum' }, { name: 'fig' }]);
  });

  it('revokes keys, counts calls, publishes an OpenAPI document, and lets a public version be called by anyone', async () => {
    const stats = (await as(dev).get(`/design/stats?id=${apiId}`)).body.data;
    expect(stats.count).toBeGreaterThan(5);
    expect(stats.errors).toBeGreaterThan(0);
    expect(stats.p95).toBeGreaterThanOrEqual(stats.p50);

    expect((await s.request('GET', '/open/api-docs', undefined, null)).http).toBe(401);
    const doc = (await s.request<any>('GET', '/open/api-docs', undefined, null, { 'x-api-key': key })).body as any;
    expect(doc.openapi).toBe('3.0.3');
    // valid against the official OpenAPI 3.0 JSON Schema (bundled with the validator, no network), all errors shown
    const checked = await new Validator({ allErrors: true }).validate(structuredClone(doc));
    expect(checked.errors ?? [], JSON.stringify(checked.errors, null, 2)).toEqual([]);
    expect(checked.valid).toBe(true);
    // the credentials it names are declared, and each operation is public or needs one of them
    expect(doc.components.securitySchemes).toEqual({ apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' }, bearer: { type: 'http', scheme: 'bearer' } });
    expect(doc.security).toEqual([{ apiKey: [] }, { bearer: [] }]);
    const op = doc.paths['/open/api/goodsByPrice'].post;
    for (const req of [...doc.security, ...(op.security ?? [])]) for (const name of Object.keys(req)) expect(doc.components.securitySchemes).toHaveProperty(name);
    expect(op.security).toBeUndefined(); // not public yet: the document-wide requirement applies
    // the request body: one property per request parameter, of its declared type, nothing else accepted
    expect(op.requestBody.content['application/json'].schema).toMatchObject({ type: 'object', additionalProperties: false });
    expect(op.requestBody.content['application/json'].schema.properties).toEqual({ minPrice: { type: 'number', description: '最低价', default: 4 }, name: { type: 'string', description: '名称' } });
    expect(op.responses['200'].content['application/json'].schema.properties.data.items.properties).toEqual({ name: { type: 'string' } });
    // every parameter type the design screen allows maps to a valid schema of that type; required ones are listed
    const all = openApiDocument([
      {
        api_name: 'allTypes', api_desc: null, api_comment: '', version: 1, is_public: 1,
        req_params: JSON.stringify(REQ_TYPES.map((t, i) => ({ paramName: `p_${t}`, paramType: t, required: i === 0 }))),
        resp_params: JSON.stringify(RESP_TYPES.map((t) => ({ paramName: `r_${t}`, paramType: t }))),
      },
    ]);
    const allChecked = await new Validator({ allErrors: true }).validate(structuredClone(all) as Record<string, unknown>);
    expect(allChecked.errors ?? [], JSON.stringify(allChecked.errors, null, 2)).toEqual([]);
    const allOp = (all.paths['/open/api/allTypes'] as any).post;
    expect(allOp.requestBody.content['application/json'].schema).toEqual({
      type: 'object', additionalProperties: false, required: ['p_string'],
      properties: { p_string: { type: 'string' }, p_integer: { type: 'integer' }, p_boolean: { type: 'boolean' }, p_number: { type: 'number' } },
    });
    expect(allOp.responses['200'].content['application/json'].schema.properties.data.items.properties).toEqual({
      r_string: { type: 'string' }, r_integer: { type: 'integer' }, r_boolean: { type: 'boolean' }, r_number: { type: 'number' },
      r_date: { type: 'string', format: 'date-time' }, r_object: { type: 'object' }, r_array: { type: 'array', items: {} },
    });

    const picker = (await as(dev).get('/query?search=goods')).body.data;
    expect(picker).toEqual([expect.objectContaining({ apiName: 'goodsByPrice', apiComment: '按价格查商品' })]);

    const keys = (await as(dev).post('/key/search', {})).body.data.records;
    expect((await as(dev).get(`/key/revoke?id=${keys[0].id}`)).body.status).toBe(0);
    expect((await open('goodsByPrice', { minPrice: 5 }, { 'x-api-key': key })).body.msg).toBe('API Key 无效或已吊销');

    // a public version answers without any credential
    const d = as(dev);
    const design = (await d.get(`/design/info/get?id=${apiId}`)).body.data;
    expect((await d.post('/design/info/save', { ...design, isPublic: 1 })).body.status).toBe(0);
    expect((await d.post('/design/info/submit', { id: apiId })).body.status).toBe(0);
    expect((await s.request('POST', `${P}/approve/resolveAndOnline`, { id: apiId })).body.status).toBe(0); // admin may approve anything
    expect((await open('goodsByPrice', { minPrice: 8 })).body).toMatchObject({ status: 0, data: [{ name: 'fig' }] });
    // ... and the document says so with an empty requirement, still a valid document
    const pub = (await s.request<any>('GET', '/open/api-docs', undefined, dev)).body as any;
    expect(pub.paths['/open/api/goodsByPrice'].post.security).toEqual([]);
    const rechecked = await new Validator({ allErrors: true }).validate(structuredClone(pub));
    expect(rechecked.errors ?? [], JSON.stringify(rechecked.errors, null, 2)).toEqual([]);
  });

  it('limits callers with neither a session nor a valid key per address; sessions and keys are not limited', async () => {
    // an outside attack: 150 anonymous calls of a public API ran 150 SQL statements, with no limit at all
    let answered = 0;
    let refused: Awaited<ReturnType<typeof open>> | undefined;
    for (let i = 0; i <= ANONYMOUS_CALLS.max && !refused; i++) {
      const r = await open('goodsByPrice', { minPrice: 8 }, i % 2 ? { 'x-api-key': 'dsk_not-a-key' } : {});
      if (r.http === 429) refused = r;
      else answered++;
    }
    expect(refused?.body).toEqual({ status: 1, msg: '请求过于频繁，请稍后再试', data: null });
    expect(answered).toBeLessThanOrEqual(ANONYMOUS_CALLS.max);
    expect(answered).toBeGreaterThan(ANONYMOUS_CALLS.max - 20); // the suite's earlier anonymous calls count too
    // from the same address, a session and a valid key still get through
    expect((await open('goodsByPrice', { minPrice: 8 }, {}, dev)).body).toMatchObject({ status: 0, data: [{ name: 'fig' }] });
    const fresh = (await as(dev).post('/key/add', { keyName: '限流测试' })).body.data.apiKey;
    expect((await open('goodsByPrice', { minPrice: 8 }, { 'x-api-key': fresh })).body).toMatchObject({ status: 0, data: [{ name: 'fig' }] });
  });

  it('refuses an approver approving a design they designed or submitted (sys_admin aside)', async () => {
    // one account holding both the developer's and an approver's role
    const db = s.app.ctx.db;
    const hash = await hashPassword(TEST_PASSWORD);
    const user = await db
      .insertInto('sys_user')
      .values({ username: 'both', nick_name: '双角色', phone_number: null, email: null, avatar: null, password_hash: hash, deleted: 0, effective_from: null, failed_logins: 0, locked_until: null, create_time: '2026-01-01 00:00:00' } as any)
      .returning('id')
      .executeTakeFirstOrThrow();
    const roles = await db.selectFrom('sys_role').select('id').where('role_key', 'in', ['default', 'dev_approve']).execute();
    await db.insertInto('sys_user_role').values(roles.map((r) => ({ user_id: Number(user.id), role_id: r.id })) as any).execute();
    const both = as(await s.loginAs('both'));
    const mine = (await both.post('/design/info/save', { groupId, apiName: 'bothOwn', apiComment: '自己的接口' })).body.data;
    expect((await both.post('/config/save', { apiId: mine, dsName: 'shop', script: 'select 1 as one' })).body.status).toBe(0);
    expect((await both.post('/design/info/submit', { id: mine })).body.status).toBe(0);
    expect((await both.post('/approve/resolve', { id: mine })).body).toMatchObject({ status: 1, msg: '不能审批自己设计或提交的接口' });
    expect((await as(approver).post('/approve/resolve', { id: mine })).body.status).toBe(0);
    // admin (*:*:*) may approve a design of its own
    const adminOwn = (await s.request('POST', `${P}/design/info/save`, { groupId, apiName: 'adminOwn', apiComment: '管理员的接口' })).body.data;
    expect((await s.request('POST', `${P}/config/save`, { apiId: adminOwn, dsName: 'shop', script: 'select 1 as one' })).body.status).toBe(0);
    expect((await s.request('POST', `${P}/design/info/submit`, { id: adminOwn })).body.status).toBe(0);
    expect((await s.request('POST', `${P}/approve/resolve`, { id: adminOwn })).body.status).toBe(0);
  });
});
