// Export and import of APIs (issue 25 §6) over real HTTP, from one deployment to another: the export holds the
// online version and the group path; on a fresh store every API arrives as a draft needing approval; a missing
// data source and a name in use are listed before anything is written; conflicts are skipped or become a new
// draft of the existing API (its online version keeps serving); keys, passwords and approvals cannot ride along.
import { GOODS_SQL, sqliteFixture } from '../../testing/sqlite.js';
import { startTestServer, type TestServer } from '../../testing/server.js';

const P = '/api/gemini/api';

describe('export and import of APIs between two deployments', () => {
  let src: TestServer;
  let dst: TestServer;
  let file: string;
  beforeAll(async () => {
    [src, dst] = await Promise.all([startTestServer(), startTestServer()]);
    await sqliteFixture(src, 'shop.db', GOODS_SQL, 'shop');
    const dev = await src.loginAs('developer');
    const approver = await src.loginAs('devapprover');
    const post = (p: string, body: unknown, token = dev) => src.request('POST', P + p, body, token);
    const parent = (await post('/group/save', { parentId: 0, name: '销售' })).body.data;
    const child = (await post('/group/save', { parentId: parent, name: '商品' })).body.data;
    const apiId = (await post('/design/info/save', { groupId: child, apiName: 'goods', apiComment: '商品', apiDesc: '按价格' })).body.data;
    const params = [
      { paramName: 'minPrice', paramType: 'number', required: false, paramValue: 0 },
      { paramName: 'token', paramType: 'string', required: false, paramValue: 's3cr3t-value' },
    ];
    expect((await post('/config/save', { apiId, dsName: 'shop', script: 'select name from goods where price >= :minPrice order by id', reqParamList: params, cacheable: 1, cacheTime: 30, pageable: 1, pageSizeMax: 50 })).body.status).toBe(0);
    expect((await post('/design/info/submit', { id: apiId })).body.status).toBe(0);
    expect((await post('/approve/resolveAndOnline', { id: apiId, approveResult: '同意' }, approver)).body.status).toBe(0);
    // a draft never approved is not exported
    await post('/design/info/save', { groupId: child, apiName: 'draftonly', apiComment: '草稿' });
    const res = await fetch(`${src.url}${P}/transfer/export`, { method: 'POST', headers: { authorization: `Bearer ${dev}`, 'content-type': 'application/json' }, body: '{}' });
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="apis-\d{8}\.json"/);
    file = await res.text();
  });
  afterAll(async () => {
    await src?.close();
    await dst?.close();
  });

  it('exports the online version with its group path and nothing secret', () => {
    const doc = JSON.parse(file);
    expect(doc).toMatchObject({ format: 'dsc-api-export', formatVersion: 1, groups: [['销售', '商品']] });
    expect(doc.apis).toHaveLength(1);
    expect(doc.apis[0]).toMatchObject({ apiName: 'goods', group: ['销售', '商品'], version: 1, dsName: 'shop', cacheable: 1, cacheTime: 30, pageable: 1, pageSizeMax: 50 });
    expect(file).not.toMatch(/password|apiKey|approve/i);
    // a sensitive parameter leaves without its value
    expect(doc.apis[0].reqParams.find((p: { paramName: string }) => p.paramName === 'token')).toMatchObject({ paramValue: '' });
    expect(file).not.toContain('s3cr3t-value');
  });

  it('lists what an import would do, imports as drafts into new groups, and settles conflicts per API', async () => {
    const dev = await dst.loginAs('developer');
    const check = () => dst.request('POST', `${P}/transfer/check`, { file }, dev);
    // the data source is not here yet: listed with the reason, nothing written
    expect((await check()).body.data.items).toEqual([expect.objectContaining({ apiName: 'goods', status: 'invalid', reason: '数据源【shop】在本环境不存在，请先添加同名数据源' })]);
    expect((await dst.request('POST', `${P}/transfer/import`, { file }, dev)).body).toMatchObject({ status: 1, msg: '接口【goods】不能导入：数据源【shop】在本环境不存在，请先添加同名数据源' });
    await sqliteFixture(dst, 'shop.db', GOODS_SQL, 'shop');
    expect((await check()).body.data.items).toEqual([{ apiName: 'goods', apiComment: '商品', group: '销售 / 商品', dsName: 'shop', version: 1, status: 'new', reason: null }]);
    const imported = await dst.request('POST', `${P}/transfer/import`, { file }, dev);
    expect(imported.body).toMatchObject({ status: 0, data: { created: 1, updated: 0, skipped: 0 } });
    // a draft in the group path, not online, needing approval
    const list = (await dst.request('POST', `${P}/design/search`, { pageNum: 1, pageSize: 10 }, dev)).body.data.records;
    expect(list).toEqual([expect.objectContaining({ apiName: 'goods', apiStatus: 0, onlineStatus: 0, groupName: '商品', latestApiVersion: null })]);
    expect((await dst.request('POST', '/open/api/goods', {}, dev)).body.msg).toBe('接口【goods】未上线');
    const cfg = (await dst.request('GET', `${P}/config/get?apiId=${list[0].id}`, undefined, dev)).body.data;
    expect(cfg).toMatchObject({ dsName: 'shop', cacheable: 1, cacheTime: 30, pageable: 1, pageSizeMax: 50, script: 'select name from goods where price >= :minPrice order by id' });
    expect(cfg.reqParamList).toEqual([expect.objectContaining({ paramName: 'minPrice', paramType: 'number' }), expect.objectContaining({ paramName: 'token', paramValue: '' })]);

    // now the same name is here: a conflict to settle
    expect((await check()).body.data.items[0]).toMatchObject({ status: 'conflict' });
    expect((await dst.request('POST', `${P}/transfer/import`, { file }, dev)).body).toMatchObject({ status: 1, msg: '接口【goods】已存在：请选择跳过或新建版本' });
    expect((await dst.request('POST', `${P}/transfer/import`, { file, decisions: { goods: 'skip' } }, dev)).body).toMatchObject({ status: 1, msg: '没有要导入的接口（全部跳过）' });
    expect((await dst.request('POST', `${P}/transfer/import`, { file, decisions: { goods: 'overwrite' } }, dev)).http).toBe(400);
    const again = await dst.request('POST', `${P}/transfer/import`, { file, decisions: { goods: 'newVersion' } }, dev);
    expect(again.body).toMatchObject({ status: 0, data: { created: 0, updated: 1, skipped: 0 } });
    const trail = (await dst.request('GET', `${P}/design/audit?id=${list[0].id}`, undefined, dev)).body.data;
    expect(JSON.stringify(trail)).toContain('导入');
    // the groups were made once
    const groups = (await dst.request('POST', `${P}/group/select`, {}, dev)).body.data as Array<{ name: string }>;
    expect(groups.filter((g) => g.name === '商品')).toHaveLength(1);
  });

  it('refuses files that carry what an import must not, or are not export files, in Chinese; and roles without 新增', async () => {
    const dev = await dst.loginAs('developer');
    const doc = JSON.parse(file);
    const bad = [
      [{ ...doc, apiKey: 'k' }, '文件不符合 API 导出格式'],
      [{ ...doc, apis: [{ ...doc.apis[0], approveUser: 'admin' }] }, '文件不符合 API 导出格式'],
      [{ ...doc, apis: [{ ...doc.apis[0], password: 'x' }] }, '文件不符合 API 导出格式'],
      [{ ...doc, apis: [{ ...doc.apis[0], apiName: "x'; drop table gemini_api; --" }] }, '文件不符合 API 导出格式'],
      [{ ...doc, apis: [doc.apis[0], doc.apis[0]] }, '出现了不止一次'],
      [{ ...doc, apis: [] }, '文件中没有接口'],
      [{ ...doc, format: 'other' }, '文件不符合 API 导出格式'],
      ['{not json', '文件不是合法的 JSON'],
      [{ ...doc, apis: [{ ...doc.apis[0], apiName: 'limited', script: 'select name from goods limit 5' }] }, '分页接口的 SQL 不要写 LIMIT'],
    ] as const;
    for (const [f, says] of bad) {
      const r = await dst.request('POST', `${P}/transfer/check`, { file: typeof f === 'string' ? f : JSON.stringify(f) }, dev);
      const msg = r.body.status === 1 ? r.body.msg : JSON.stringify(r.body.data);
      expect(msg, JSON.stringify(f).slice(0, 120)).toContain(says);
    }
    // an approver cannot create designs: no import
    expect((await dst.request('POST', `${P}/transfer/check`, { file }, await dst.loginAs('devapprover'))).http).toBe(403);
    expect((await dst.request('POST', `${P}/transfer/import`, { file }, null)).http).toBe(401);
  });
});
