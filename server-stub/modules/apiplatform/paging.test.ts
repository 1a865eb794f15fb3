// Paging and caps of published APIs (issue 25 §4) over real HTTP: a paged API answers { records, total } with the
// total counted by the server and pageSize held to its maximum; every API answers at most its row cap and says
// when it cut the answer (msg and X-Result-Truncated); the OpenAPI document shows both; bad config and bad
// paging values are refused in Chinese, and nothing the caller sends reaches the SQL text.
import { sqliteFixture } from '../../testing/sqlite.js';
import { startTestServer, type TestServer } from '../../testing/server.js';
import { API_MAX_ROWS } from './paging.js';

const P = '/api/gemini/api';
const NUMBERS_SQL = `create table n(id integer primary key, label text);
  with recursive c(x) as (select 1 union all select x + 1 from c where x < 12000) insert into n(id, label) select x, 'row ' || x from c`;

describe('paging and caps of published APIs', () => {
  let s: TestServer;
  let dev: string;
  let approver: string;
  const post = (token: string, p: string, body: unknown) => s.request('POST', P + p, body, token);
  beforeAll(async () => {
    s = await startTestServer({ store: 'sqlite' });
    await sqliteFixture(s, 'numbers.db', NUMBERS_SQL, 'numbers');
    dev = await s.loginAs('developer');
    approver = await s.loginAs('devapprover');
  });
  afterAll(() => s?.close());

  /** Designs, configures, approves and puts online an API over the numbers table. */
  async function publish(name: string, config: Record<string, unknown>) {
    const groupId = (await post(dev, '/group/save', { parentId: 0, name: `g-${name}` })).body.data;
    const apiId = (await post(dev, '/design/info/save', { groupId, apiName: name, apiComment: '数字' })).body.data;
    const saved = await post(dev, '/config/save', { apiId, dsName: 'numbers', cacheable: 0, ...config });
    expect(saved.body, JSON.stringify(saved.body)).toMatchObject({ status: 0 });
    expect((await post(dev, '/design/info/submit', { id: apiId })).body.status).toBe(0);
    expect((await post(approver, '/approve/resolveAndOnline', { id: apiId, approveResult: '同意' })).body.status).toBe(0);
    return apiId;
  }
  const call = (name: string, body: unknown) => s.request('POST', `/open/api/${name}`, body, dev);

  it('checks the paging settings in Chinese when the config is saved', async () => {
    const groupId = (await post(dev, '/group/save', { parentId: 0, name: 'g-bad' })).body.data;
    const apiId = (await post(dev, '/design/info/save', { groupId, apiName: 'badpaging', apiComment: '数字' })).body.data;
    const save = (config: Record<string, unknown>) => post(dev, '/config/save', { apiId, dsName: 'numbers', script: 'select id from n order by id', ...config });
    expect((await save({ pageable: 1, script: 'select id from n order by id limit 10' })).body).toMatchObject({ status: 1, msg: '分页接口的 SQL 不要写 LIMIT / OFFSET：平台在语句末尾追加分页' });
    // the word inside a string or a comment is no LIMIT clause
    expect((await save({ pageable: 1, script: "select id, 'limit' as w from n -- no limit here\norder by id" })).body.status).toBe(0);
    const withParam = [{ paramName: 'pageSize', paramType: 'integer', required: false, paramValue: 5 }];
    expect((await save({ pageable: 1, reqParamList: withParam })).body).toMatchObject({ status: 1, msg: '分页接口由平台接收 pageNum 和 pageSize，请求参数中不能再有【pageSize】' });
    for (const pageSizeMax of [0, 1001, 'x', "1' or 1=1"]) expect((await save({ pageable: 1, pageSizeMax })).body, String(pageSizeMax)).toMatchObject({ status: 1 });
    expect((await save({ maxRows: API_MAX_ROWS + 1 })).body).toMatchObject({ status: 1, msg: `最大返回行数只能是 1 到 ${API_MAX_ROWS} 之间的整数` });
    expect((await save({ pageable: 1, pageSizeMax: 50, maxRows: 300 })).body.status).toBe(0);
    expect((await s.request('GET', `${P}/config/get?apiId=${apiId}`, undefined, dev)).body.data).toMatchObject({ pageable: 1, pageSizeMax: 50, maxRows: 300 });
  });

  it('answers a page with the total counted by the server, and holds pageNum and pageSize to their range', async () => {
    await publish('paged', { script: 'select id, label from n where id > :from order by id desc', pageable: 1, pageSizeMax: 50, reqParamList: [{ paramName: 'from', paramType: 'integer', required: false, paramValue: 0 }] });
    const page2 = await call('paged', { pageNum: 2, pageSize: 5 });
    expect(page2.body).toMatchObject({ status: 0, data: { total: 12000, pageNum: 2, pageSize: 5 } });
    expect(page2.body.data.records.map((r: { id: number }) => r.id)).toEqual([11995, 11994, 11993, 11992, 11991]);
    // the API's own parameters still bound, the total follows them
    expect((await call('paged', { from: 11990, pageSize: 3 })).body.data).toMatchObject({ total: 10, pageNum: 1, records: [{ id: 12000 }, { id: 11999 }, { id: 11998 }] });
    // defaults: page 1 of 20
    expect((await call('paged', {})).body.data).toMatchObject({ pageNum: 1, pageSize: 20, total: 12000 });
    expect((await call('paged', { pageNum: 99999, pageSize: 50 })).body.data).toMatchObject({ records: [], total: 12000 });
    for (const [body, msg] of [
      [{ pageSize: 51 }, 'pageSize 应为 1 到 50 之间的整数'],
      [{ pageSize: 0 }, 'pageSize 应为 1 到 50 之间的整数'],
      [{ pageNum: 0 }, 'pageNum 应为 1 到 1000000 之间的整数'],
      [{ pageNum: '1; drop table n' }, 'pageNum 应为 1 到 1000000 之间的整数'],
      [{ pageNum: 1.5 }, 'pageNum 应为 1 到 1000000 之间的整数'],
    ] as const) {
      const r = await call('paged', body);
      expect(r.http, JSON.stringify(body)).toBe(400);
      expect(r.body.msg).toBe(msg);
    }
    expect((await call('paged', { pageNum: 1 })).body.data.total).toBe(12000); // the table is whole
  });

  it('answers at most the row cap and says it cut the answer', async () => {
    await publish('capped', { script: 'select id from n order by id', maxRows: 300 });
    const capped = await call('capped', {});
    expect(capped.body).toMatchObject({ status: 0, msg: '结果超过 300 行，只返回了前 300 行' });
    expect(capped.body.data).toHaveLength(300);
    expect(capped.headers['x-result-truncated']).toBe('true');
    await publish('uncapped', { script: 'select id from n where id <= 100' });
    const small = await call('uncapped', {});
    expect(small.body).toMatchObject({ status: 0, msg: '操作成功' });
    expect(small.body.data).toHaveLength(100);
    expect(small.headers['x-result-truncated']).toBeUndefined();
    await publish('everything', { script: 'select id from n order by id' });
    const all = await call('everything', {});
    expect(all.body.msg).toBe(`结果超过 ${API_MAX_ROWS} 行，只返回了前 ${API_MAX_ROWS} 行`);
    expect(all.body.data).toHaveLength(API_MAX_ROWS);
  });

  it('shows paging and the cap in the OpenAPI document', async () => {
    const doc = (await s.request('GET', '/open/api-docs', undefined, dev)).body as unknown as { paths: Record<string, { post: any }> };
    const paged = doc.paths['/open/api/paged'].post;
    const req = paged.requestBody.content['application/json'].schema.properties;
    expect(req.pageSize).toMatchObject({ type: 'integer', minimum: 1, maximum: 50 });
    expect(req.pageNum).toMatchObject({ type: 'integer', minimum: 1 });
    expect(req.from).toMatchObject({ type: 'integer' });
    const data = paged.responses['200'].content['application/json'].schema.properties.data;
    expect(data).toMatchObject({ type: 'object', required: ['records', 'total', 'pageNum', 'pageSize'] });
    expect(doc.paths['/open/api/capped'].post.responses['200'].content['application/json'].schema.properties.data).toMatchObject({ type: 'array', maxItems: 300 });
  });
});
