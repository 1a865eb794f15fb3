// API 监控 (issue 25 §5) over real HTTP on both stores: the calls just made show in the per-minute counters per
// API and per key (calls, errors, cache hits, p50 / p95), the slowest calls keep their parameters with secrets
// masked, an alert rule turns the API red on the list and in the monitor, and who may read and set what.
import { bucketOf, histogramPercentile, LATENCY_BOUNDS } from './monitor.js';
import { GOODS_SQL, sqliteFixture } from '../../testing/sqlite.js';
import { startTestServer, testStores, type TestServer } from '../../testing/server.js';

const P = '/api/gemini/api';

describe('latency histograms', () => {
  it('put a latency in the first bucket whose bound holds it, and read percentiles back within their bucket', () => {
    expect(bucketOf(0)).toBe(0);
    expect(bucketOf(1)).toBe(0);
    expect(bucketOf(3)).toBe(2);
    expect(bucketOf(10_000)).toBe(LATENCY_BOUNDS.length - 1);
    expect(bucketOf(60_000)).toBe(LATENCY_BOUNDS.length);
    const h = new Array(LATENCY_BOUNDS.length + 1).fill(0);
    // 90 calls of ≤ 5 ms, 10 of 100–200 ms
    h[2] = 90;
    h[7] = 10;
    const p50 = histogramPercentile(h, 50, 180)!;
    expect(p50).toBeGreaterThan(2);
    expect(p50).toBeLessThanOrEqual(5);
    const p95 = histogramPercentile(h, 95, 180)!;
    expect(p95).toBeGreaterThan(100);
    expect(p95).toBeLessThanOrEqual(180);
    expect(histogramPercentile(new Array(14).fill(0), 95, 0)).toBeNull();
    // slower than the last bound: read up to the maximum seen
    const slow = new Array(LATENCY_BOUNDS.length + 1).fill(0);
    slow[LATENCY_BOUNDS.length] = 1;
    expect(histogramPercentile(slow, 95, 42_000)).toBeGreaterThan(10_000);
    expect(histogramPercentile(slow, 95, 42_000)).toBeLessThanOrEqual(42_000);
  });
});

describe.each(testStores)('API 监控 (%s store)', (store) => {
  let s: TestServer;
  let dev: string;
  let approver: string;
  let apiId: number;
  let key: string;
  let keyId: number;
  const post = (token: string | null, p: string, body: unknown) => s.request<any>('POST', P + p, body, token);
  beforeAll(async () => {
    s = await startTestServer({ store });
    await sqliteFixture(s, 'shop.db', GOODS_SQL, 'shop');
    dev = await s.loginAs('developer');
    approver = await s.loginAs('devapprover');
    const groupId = (await post(dev, '/group/save', { parentId: 0, name: 'g-mon' })).body.data;
    apiId = (await post(dev, '/design/info/save', { groupId, apiName: 'monitored', apiComment: '监控' })).body.data;
    const reqParamList = [
      { paramName: 'minId', paramType: 'number', paramValue: 0 },
      { paramName: 'password', paramType: 'string', paramValue: '' },
      { paramName: 'note', paramType: 'string', paramValue: '', secret: true },
    ];
    const script = 'select name from goods where id > :minId and :password = :password and :note = :note order by id';
    const saved = await post(dev, '/config/save', { apiId, dsName: 'shop', script, reqParamList, cacheable: 1, cacheTime: 60 });
    expect(saved.body.status, saved.body.msg).toBe(0);
    expect((await post(dev, '/design/info/submit', { id: apiId })).body.status).toBe(0);
    expect((await post(approver, '/approve/resolveAndOnline', { id: apiId, approveResult: '同意' })).body.status).toBe(0);
    const made = (await post(dev, '/key/add', { keyName: 'k-mon' })).body.data;
    key = made.apiKey;
    keyId = made.id;
  });
  afterAll(() => s?.close());
  const call = (body: unknown) => s.request<any>('POST', '/open/api/monitored', body, null, { 'x-api-key': key });

  it('shows the calls just made per API and per key: calls, errors, cache hits and latency percentiles', async () => {
    for (let i = 0; i < 3; i++) expect((await call({ minId: 0, password: 'hunter2-secret', note: 'private-note' })).http).toBe(200);
    expect((await call({ minId: 1, password: 'hunter2-secret', note: 'private-note' })).http).toBe(200);
    // a bad parameter is an error call
    expect((await call({ minId: 'not a number', password: 'x', note: 'y' })).body.status).toBe(1);
    const o = (await post(approver, '/monitor/overview', { range: 'hour' })).body;
    expect(o.status, o.msg).toBe(0);
    expect(o.data.series).toHaveLength(60);
    expect(o.data.totals).toMatchObject({ calls: 5, errors: 1, errorRate: 20, cacheHitRate: 40 });
    expect(o.data.totals.p50).toEqual(expect.any(Number));
    expect(o.data.totals.p95).toBeGreaterThanOrEqual(o.data.totals.p50);
    expect(o.data.series.reduce((n: number, p: any) => n + p.calls, 0)).toBe(5);
    expect(o.data.apis).toEqual([expect.objectContaining({ apiId, apiName: 'monitored', calls: 5, errors: 1, alert: null })]);
    expect(o.data.keys).toEqual([expect.objectContaining({ keyId, keyName: expect.stringContaining('k-mon'), calls: 5 })]);
    // day and week: the same calls in wider points
    const day = (await post(approver, '/monitor/overview', { range: 'day', apiId, keyId })).body.data;
    expect(day.series).toHaveLength(96);
    expect(day.totals.calls).toBe(5);
    expect((await post(approver, '/monitor/overview', { range: 'week' })).body.data.series).toHaveLength(168);
    // another key: nothing
    expect((await post(approver, '/monitor/overview', { range: 'hour', keyId: keyId + 1000 })).body.data.totals.calls).toBe(0);
  });

  it('lists the slowest calls with their parameters, secrets masked', async () => {
    const slow = (await post(approver, '/monitor/slow', { range: 'hour', apiId })).body;
    expect(slow.status, slow.msg).toBe(0);
    expect(slow.data.records.length).toBeGreaterThan(0);
    const all = JSON.stringify(slow.data.records);
    expect(all).not.toContain('hunter2-secret');
    expect(all).not.toContain('private-note');
    expect(slow.data.records[0]).toMatchObject({ id: expect.any(Number), apiId, apiName: 'monitored', keyId, keyName: 'k-mon', ok: expect.any(Boolean), ms: expect.any(Number) });
    // each call its own row key: calls of one API in the same second with the same time are still two rows (the
    // table kept other APIs' rows after 只看此 API when keys repeated)
    expect(new Set(slow.data.records.map((r: any) => r.id)).size).toBe(slow.data.records.length);
    for (const r of slow.data.records) expect(r.apiId).toBe(apiId);
    // a call refused for a bad parameter has none to show (it failed before they were read): which calls are
    // the slowest varies from run to run
    for (const r of slow.data.records) if (!r.params) expect(r.ok).toBe(false);
    const params = slow.data.records.filter((r: any) => r.params).map((r: any) => JSON.parse(r.params)).find((p: any) => p.minId === 0);
    expect(params).toEqual({ minId: 0, password: '******', note: '******' });
    const ms = slow.data.records.map((r: any) => r.ms);
    expect([...ms].sort((a, b) => b - a)).toEqual(ms);
  });

  it('turns an API red on the list and in the monitor when its alert rule fires, and checks the rule', async () => {
    expect((await post(dev, '/alert/save', { apiId, metric: 'errorRate', threshold: 10, minutes: 5 })).http).toBe(403);
    expect((await post(approver, '/alert/save', { apiId, metric: 'cpu', threshold: 10, minutes: 5 })).body).toMatchObject({ status: 1, msg: expect.stringContaining('告警指标') });
    expect((await post(approver, '/alert/save', { apiId, metric: 'errorRate', threshold: 101, minutes: 5 })).body).toMatchObject({ status: 1, msg: '错误率阈值应为 1～100 的整数（%）' });
    expect((await post(approver, '/alert/save', { apiId, metric: 'p95', threshold: 100, minutes: 0 })).body).toMatchObject({ status: 1, msg: '持续时间应为 1～1440 的整数（分钟）' });
    expect((await post(approver, '/alert/save', { apiId: 999_999, metric: 'p95', threshold: 100, minutes: 5 })).body).toMatchObject({ status: 1, msg: 'API 不存在' });
    expect((await post(approver, '/alert/save', { apiId: "1 or 1=1", metric: 'p95', threshold: 100, minutes: 5 })).body.status).toBe(1);
    // 1 error in 5 calls = 20 % > 10 %: firing
    expect((await post(approver, '/alert/save', { apiId, metric: 'errorRate', threshold: 10, minutes: 5 })).body).toMatchObject({ status: 0, msg: '告警规则已保存' });
    const rule = (await s.request<any>('GET', `${P}/alert/get?apiId=${apiId}`, undefined, approver)).body.data;
    expect(rule).toMatchObject({ apiId, metric: 'errorRate', threshold: 10, minutes: 5, enabled: true, firing: true, value: 20 });
    const listed = (await post(dev, '/design/search', { pageNum: 1, pageSize: 50 })).body.data.records.find((r: any) => r.id === apiId);
    expect(listed.alerting).toBe(1);
    const o = (await post(approver, '/monitor/overview', { range: 'hour' })).body.data;
    expect(o.apis[0]).toMatchObject({ apiId, alert: { firing: true, value: 20, rule: { metric: 'errorRate', threshold: 10 } } });
    // above the rate now seen: quiet again
    expect((await post(approver, '/alert/save', { apiId, metric: 'errorRate', threshold: 50, minutes: 5 })).body.status).toBe(0);
    expect((await post(dev, '/design/search', { pageNum: 1, pageSize: 50 })).body.data.records.find((r: any) => r.id === apiId).alerting).toBe(0);
    // a p95 rule of 1 ms on calls that took longer: firing; disabled: quiet
    expect((await post(approver, '/alert/save', { apiId, metric: 'p95', threshold: 1, minutes: 60 })).body.status).toBe(0);
    const p95 = (await s.request<any>('GET', `${P}/alert/get?apiId=${apiId}`, undefined, approver)).body.data;
    expect(p95.firing).toBe(p95.value > 1);
    expect((await post(approver, '/alert/save', { apiId, metric: 'p95', threshold: 1, minutes: 60, enabled: false })).body.status).toBe(0);
    expect((await post(dev, '/design/search', { pageNum: 1, pageSize: 50 })).body.data.records.find((r: any) => r.id === apiId).alerting).toBe(0);
    expect((await s.request<any>('GET', `${P}/alert/delete?apiId=${apiId}`, undefined, approver)).body.status).toBe(0);
    expect((await s.request<any>('GET', `${P}/alert/get?apiId=${apiId}`, undefined, approver)).body.data).toBeNull();
  });

  it('lets only those with the monitor permission read it, and refuses bad ranges by name', async () => {
    expect((await post(dev, '/monitor/overview', { range: 'hour' })).http).toBe(403);
    expect((await post(dev, '/monitor/slow', { range: 'hour' })).http).toBe(403);
    expect((await post(null, '/monitor/overview', { range: 'hour' })).http).toBe(401);
    const bad = (await post(approver, '/monitor/overview', { range: "hour'; drop table gemini_api_minute;--" })).body;
    expect(bad.status).toBe(1);
    expect(bad.msg).toContain('时间范围');
    expect((await post(approver, '/monitor/overview', { range: 'hour', apiId: '1; delete' })).body.status).toBe(1);
    expect((await post(approver, '/monitor/slow', { range: 'day', limit: 10_000 })).body.status).toBe(1);
    expect((await post(s.token, '/monitor/overview', { range: 'hour' })).body.status).toBe(0);
  });
});
