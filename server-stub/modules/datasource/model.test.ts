import { startTestServer, testStores, type TestServer } from '../../testing/server.js';
import { sqliteFile } from '../../testing/sqlite.js';

describe.each(testStores)('models (%s store)', (store) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ store });
    sqliteFile(s, 'm.db', "create table t(id integer primary key, v text); insert into t(v) values ('a'),('b')");
  });
  afterAll(() => s?.close());

  it('add (insert only), list apart from data sources, test, execute with bound params, delete', async () => {
    const add = await s.request('POST', '/api/gemini/model/info/add', { dsName: 'm1', dbType: 'sqlite', dbName: 'm.db' });
    expect(add.body).toMatchObject({ status: 0, msg: '保存成功' });
    const id = add.body.data;
    expect((await s.request('POST', '/api/gemini/model/info/add', { id, dsName: 'm2', dbType: 'sqlite', dbName: 'm.db' })).body.status).toBe(1);
    expect((await s.request('POST', '/api/gemini/model/info/add', { dsName: 'm1', dbType: 'sqlite', dbName: 'm.db' })).body.msg).toContain('已存在');
    const list = await s.request('POST', '/api/gemini/model/search', { search: 'm1' });
    expect(list.body.data.records[0]).toMatchObject({ dsName: 'm1', modelName: 'm1', maxActive: 20 });
    expect((await s.request('POST', '/api/gemini/datasource/search', {})).body.data.total).toBe(0);
    expect((await s.request('POST', '/api/gemini/model/search', { modelName: 'm1' })).body.data.total).toBe(1);
    expect((await s.request('POST', '/api/gemini/model/search', { modelName: 'zz' })).body.data.total).toBe(0);
    expect((await s.request('GET', `/api/gemini/model/test?id=${id}`)).body).toMatchObject({ status: 0, data: true });
    const run = await s.request('POST', '/api/gemini/model/execute', { dsName: 'm1', sql: 'select v from t where id = :id', params: { id: 2 } });
    expect(run.body.data.rows).toEqual([{ v: 'b' }]);
    const run2 = await s.request('POST', '/api/gemini/model/execute', { id, sql: 'select v from t where v = ?', params: ["a' or 1=1 --"] });
    expect(run2.body.data.rows).toEqual([]);
    expect((await s.request('POST', '/api/gemini/model/execute', { sql: 'select 1' })).body).toMatchObject({ status: 1, msg: '请选择数据源' });
    const sel = await s.request('GET', '/api/gemini/model/select');
    expect(sel.body.data).toEqual([expect.objectContaining({ text: 'm1' })]);
    const biz = await s.loginAs('bizapprover');
    expect((await s.request('POST', '/api/gemini/model/execute', { id, sql: 'select 1' }, biz)).body.msg).toContain('没有权限');
    expect((await s.request('GET', `/api/gemini/model/delete?id=${id}`)).body).toMatchObject({ status: 0, msg: '删除成功' });
  });
});
