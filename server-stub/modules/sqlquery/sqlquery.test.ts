// Query support over real HTTP: saved queries, SQL execution with bound parameters on a SQLite data source,
// an API query against a local HTTP server, the spec's messages.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, testStores, type TestServer } from '../../testing/server.js';
import { GOODS_SQL, sqliteFixture } from '../../testing/sqlite.js';

describe.each(testStores)('query support (%s store)', (store) => {
  let s: TestServer;
  let api: http.Server;
  let apiUrl = '';
  beforeAll(async () => {
    s = await startTestServer({ store });
    await sqliteFixture(s, 'shop.db', GOODS_SQL, 'shop');
    api = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ method: req.method, url: req.url, body: body ? JSON.parse(body) : null }));
      });
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/echo`;
  });
  afterAll(async () => {
    await s?.close();
    await new Promise((r) => api?.close(r));
  });

  it('adds a query with name and type, saves its SQL, lists, gets, deletes', async () => {
    const add = await s.request('POST', '/api/gemini/sqlQuery/info/add', { queryName: '商品查询' });
    expect(add.body).toMatchObject({ status: 0 });
    const id = add.body.data;
    const got = await s.request('GET', `/api/gemini/sqlQuery/info/get?id=${id}`);
    expect(got.body.data).toMatchObject({ queryName: '商品查询', queryType: 'SQL' });
    expect((await s.request('POST', '/api/gemini/sqlQuery/info/save', { id, queryType: 'SQL', queryName: '商品查询' })).body).toMatchObject({ status: 1, msg: '请选择数据源' });
    expect((await s.request('POST', '/api/gemini/sqlQuery/info/save', { id, queryType: 'SQL', queryName: '商品查询', dsName: 'shop' })).body).toMatchObject({ status: 1, msg: '请输入SQL脚本' });
    const params = [{ name: 'minPrice', value: '4', type: 'number' }];
    const saved = await s.request('POST', '/api/gemini/sqlQuery/info/save', { id, queryType: 'SQL', queryName: '商品查询', dsName: 'shop', script: 'select name from goods where price > :minPrice order by price', requestParams: params });
    expect(saved.body).toMatchObject({ status: 0, msg: '保存成功' });
    const list = await s.request('POST', '/api/gemini/sqlQuery/search', { pageNum: 1, pageSize: 10, search: '商品' });
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.records[0].requestParams).toEqual(params);
    const run = await s.request('POST', '/api/gemini/sqlQuery/execute', { id });
    expect(run.body.status).toBe(0);
    expect(run.body.data.rows).toEqual([{ name: 'pear' }, { name: 'plum' }]);
    const inj = await s.request('POST', '/api/gemini/sqlQuery/execute', { queryType: 'SQL', dsName: 'shop', script: 'select count(*) as n from goods where name = :n', requestParams: [{ name: 'n', value: "x' or '1'='1" }] });
    expect(inj.body.data.rows).toEqual([{ n: 0 }]);
    const badType = await s.request('POST', '/api/gemini/sqlQuery/execute', { id, requestParams: [{ name: 'minPrice', value: 'abc', type: 'integer' }] });
    expect(badType.body).toMatchObject({ status: 1 });
    const sqlErr = await s.request('POST', '/api/gemini/sqlQuery/execute', { queryType: 'SQL', dsName: 'shop', script: 'select * from nope' });
    expect(sqlErr.body.status).toBe(1);
    expect(sqlErr.body.msg).toContain('执行失败');
    expect((await s.request('GET', `/api/gemini/sqlQuery/delete?id=${id}`)).body).toMatchObject({ status: 0, msg: '删除成功' });
  });

  it('API queries: required address, GET and POST against a local server', async () => {
    const add = await s.request('POST', '/api/gemini/sqlQuery/info/add', { queryName: '接口查询', queryType: 'API' });
    const id = add.body.data;
    expect((await s.request('POST', '/api/gemini/sqlQuery/info/save', { id, queryName: '接口查询', queryType: 'API' })).body).toMatchObject({ status: 1, msg: '请输入API接口' });
    expect((await s.request('POST', '/api/gemini/sqlQuery/info/save', { id, queryName: '接口查询', queryType: 'API', api: `${apiUrl}/${'x'.repeat(260)}` })).body.status).toBe(1);
    expect((await s.request('POST', '/api/gemini/sqlQuery/info/save', { id, queryName: '接口查询', queryType: 'API', api: apiUrl, apiMethod: 'POST', requestParams: [{ name: 'a', value: 1, type: 'integer' }] })).body.status).toBe(0);
    const post = await s.request('POST', '/api/gemini/sqlQuery/execute', { id });
    expect(post.body.data).toMatchObject({ httpStatus: 200, body: { method: 'POST', body: { a: 1 } } });
    const meta = await s.request('POST', '/api/gemini/sqlQuery/execute', { queryType: 'API', api: 'http://169.254.169.254/latest/meta-data/' });
    expect(meta.body).toMatchObject({ status: 1, msg: '不允许访问该地址' });
    const get = await s.request('POST', '/api/gemini/sqlQuery/execute', { id, apiMethod: 'GET' });
    expect(get.body.data.body).toMatchObject({ method: 'GET', url: '/echo?a=1' });
  });

  it('API queries: the address filter compares addresses (every spelling, after DNS, each redirect) and caps the body', async () => {
    const dev = await s.loginAs('developer');
    for (const api of [
      'http://[::ffff:169.254.169.254]/latest/meta-data/',
      'http://2852039166/',
      'http://0251.0376.0251.0376/',
      'http://0xa9fea9fe/',
      'http://169.254.43518/',
      'http://metadata.google.internal./',
      'http://0.0.0.0/',
      'http://[fe80::1]/',
    ]) {
      const r = await s.request('POST', '/api/gemini/sqlQuery/execute', { queryType: 'API', api }, dev);
      expect(r.body, api).toMatchObject({ status: 1, msg: '不允许访问该地址' });
    }
    const side = http.createServer((req, res) => {
      if (req.url?.startsWith('/to-metadata')) {
        res.writeHead(302, { location: 'http://[::ffff:a9fe:a9fe]/latest/meta-data/' });
        res.end();
      } else if (req.url?.startsWith('/to-echo')) {
        res.writeHead(302, { location: apiUrl });
        res.end();
      } else {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ pad: 'x'.repeat(3_000_000) }));
      }
    });
    await new Promise<void>((r) => side.listen(0, '127.0.0.1', r));
    const sideUrl = `http://localhost:${(side.address() as AddressInfo).port}`;
    try {
      expect((await s.request('POST', '/api/gemini/sqlQuery/execute', { queryType: 'API', api: `${sideUrl}/to-metadata` }, dev)).body).toMatchObject({ status: 1, msg: '不允许访问该地址' });
      const hop = await s.request('POST', '/api/gemini/sqlQuery/execute', { queryType: 'API', api: `${sideUrl}/to-echo` }, dev);
      expect(hop.body.data).toMatchObject({ httpStatus: 200, body: { method: 'GET', url: '/echo' } });
      const big = await s.request('POST', '/api/gemini/sqlQuery/execute', { queryType: 'API', api: `${sideUrl}/big` }, dev);
      expect(big.body.status).toBe(0);
      expect(big.body.data).toMatchObject({ httpStatus: 200, truncated: true });
      expect(String(big.body.data.body).length).toBe(1_000_000);
    } finally {
      side.closeAllConnections();
      await new Promise((r) => side.close(r));
    }
  });

  it('validation and permissions', async () => {
    expect((await s.request('POST', '/api/gemini/sqlQuery/info/add', { queryType: 'SQL' })).body).toMatchObject({ status: 1, msg: '请输入数据源名称' });
    expect((await s.request('POST', '/api/gemini/sqlQuery/info/add', { queryName: 'x'.repeat(51) })).body.status).toBe(1);
    expect((await s.request('POST', '/api/gemini/sqlQuery/info/add', { queryName: 'q', queryType: 'XML' })).body.status).toBe(1);
    expect((await s.request('POST', '/api/gemini/sqlQuery/info/add', '{oops')).body.status).toBe(1);
    const dev = await s.loginAs('devapprover');
    const r = await s.request('POST', '/api/gemini/sqlQuery/execute', { queryType: 'SQL', dsName: 'shop', script: 'select 1' }, dev);
    expect(r.body.status).toBe(1);
    expect(r.body.msg).toContain('没有权限');
  });
});
