// Operating published APIs (issue 25 items 1-2) over real HTTP: rate limits with a burst and daily quotas per
// key and per API, answered 429 with Retry-After and a Chinese message; allow-lists per key and per API (403);
// refused calls run nothing and are counted in the key's usage, which its owner and admins can read; who may
// set what; and, with Redis, two instances of one deployment counting one key's calls together.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addressAllowed, parseAllowList } from './guard.js';
import { GOODS_SQL, sqliteFixture } from '../../testing/sqlite.js';
import { startTestServer, testStores, type TestServer } from '../../testing/server.js';

const P = '/api/gemini/api';
const redisUrl = process.env.REDIS_URL;

/** Designs, approves and puts online `select name from goods` as `name`; returns its id and a new key of developer's. */
async function publish(s: TestServer, name: string): Promise<{ apiId: number; key: string; keyId: number }> {
  const dev = await s.loginAs('developer');
  const approver = await s.loginAs('devapprover');
  const post = (token: string, p: string, body: unknown) => s.request('POST', P + p, body, token);
  const groupId = (await post(dev, '/group/save', { parentId: 0, name: `g-${name}` })).body.data;
  const apiId = (await post(dev, '/design/info/save', { groupId, apiName: name, apiComment: '商品' })).body.data;
  expect((await post(dev, '/config/save', { apiId, dsName: 'shop', script: 'select name from goods order by id', cacheable: 0 })).body.status).toBe(0);
  expect((await post(dev, '/design/info/submit', { id: apiId })).body.status).toBe(0);
  const passed = await post(approver, '/approve/resolveAndOnline', { id: apiId, approveResult: '同意' });
  expect(passed.body.status, passed.body.msg).toBe(0);
  const made = (await post(dev, '/key/add', { keyName: `k-${name}` })).body.data;
  return { apiId, key: made.apiKey, keyId: made.id };
}

describe('allow-lists', () => {
  it('parse addresses and networks of both families, and refuse anything else by name', () => {
    const list = parseAllowList('10.0.0.0/8\n192.168.1.7, 2001:db8::/32 ::ffff:172.16.0.1');
    expect(addressAllowed(list, '10.1.2.3')).toBe(true);
    expect(addressAllowed(list, '::ffff:10.1.2.3')).toBe(true);
    expect(addressAllowed(list, '192.168.1.7')).toBe(true);
    expect(addressAllowed(list, '192.168.1.8')).toBe(false);
    expect(addressAllowed(list, '2001:db8:1::5')).toBe(true);
    expect(addressAllowed(list, '2001:db9::5')).toBe(false);
    expect(addressAllowed(list, '172.16.0.1')).toBe(true);
    expect(addressAllowed(list, 'not an address')).toBe(false);
    expect(addressAllowed([], '8.8.8.8')).toBe(true);
    expect(() => parseAllowList('10.0.0.0/33')).toThrow('允许的地址【10.0.0.0/33】不是合法的 IP 地址或网段');
    expect(() => parseAllowList("1.2.3.4' or 1=1")).toThrow(/不是合法的 IP 地址或网段/);
    expect(() => parseAllowList(Array.from({ length: 101 }, (_, i) => `10.0.0.${i % 250}`).join('\n'))).toThrow('允许的地址最多 100 条');
  });
});

describe.each(testStores)('limits, quotas and allow-lists of published APIs (%s store)', (store) => {
  let s: TestServer;
  let dev: string;
  let approver: string;
  beforeAll(async () => {
    s = await startTestServer({ store });
    await sqliteFixture(s, 'shop.db', GOODS_SQL, 'shop');
    dev = await s.loginAs('developer');
    approver = await s.loginAs('devapprover');
  });
  afterAll(() => s?.close());
  const call = (name: string, key: string) => s.request('POST', `/open/api/${name}`, {}, null, { 'x-api-key': key });

  it('lets only those who put APIs online limit an API, only admins limit a key, and checks what they set', async () => {
    const { apiId, keyId } = await publish(s, 'who');
    expect((await s.request('POST', `${P}/design/limit/save?id=${apiId}`, { ratePerSec: 5 }, dev)).http).toBe(403);
    expect((await s.request('POST', `${P}/key/limit/save?id=${keyId}`, { ratePerSec: 5 }, dev)).http).toBe(403);
    expect((await s.request('POST', `${P}/key/limit/save?id=${keyId}`, { ratePerSec: 5 }, approver)).http).toBe(403);
    expect((await s.request('POST', `${P}/design/limit/save?id=${apiId}`, { ratePerSec: 5 }, null)).http).toBe(401);
    expect((await s.request('POST', `${P}/design/limit/save?id=${apiId}`, { ratePerSec: 5, burst: 2 }, approver)).body).toMatchObject({ status: 1, msg: '突发上限不能小于每秒请求数' });
    expect((await s.request('POST', `${P}/design/limit/save?id=${apiId}`, { ratePerSec: 0 }, approver)).body.status).toBe(1);
    expect((await s.request('POST', `${P}/design/limit/save?id=${apiId}`, { allowIps: '10.0.0.1; drop table x' }, approver)).body).toMatchObject({ status: 1, msg: expect.stringContaining('【drop】不是合法的 IP 地址或网段') });
    expect((await s.request('POST', `${P}/design/limit/save?id=${999999}`, { ratePerSec: 5 }, approver)).body).toMatchObject({ status: 1, msg: '接口不存在' });
    expect((await s.request('POST', `${P}/design/limit/save?id=${apiId}`, { ratePerSec: 5, burst: 10, dailyQuota: 1000, allowIps: '127.0.0.1\n10.0.0.0/8' }, approver)).body).toMatchObject({ status: 0, msg: '保存成功' });
    expect((await s.request('GET', `${P}/design/limit?id=${apiId}`, undefined, dev)).body.data).toEqual({ id: apiId, ratePerSec: 5, burst: 10, dailyQuota: 1000, allowIps: '127.0.0.1\n10.0.0.0/8' });
    expect((await s.request('POST', `${P}/key/limit/save?id=${keyId}`, { dailyQuota: 7 }, s.token)).body.status).toBe(0);
    expect((await s.request('GET', `${P}/key/limit?id=${keyId}`, undefined, dev)).body.data).toMatchObject({ dailyQuota: 7, ratePerSec: null });
  });

  it("refuses a key's calls beyond its rate with 429, Retry-After and a Chinese message, and serves again after a second", async () => {
    const { apiId, key, keyId } = await publish(s, 'rated');
    expect((await s.request('POST', `${P}/key/limit/save?id=${keyId}`, { ratePerSec: 1, burst: 3 }, s.token)).body.status).toBe(0);
    const statsBefore = (await s.request('GET', `${P}/design/stats?id=${apiId}`, undefined, dev)).body.data.count;
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 12 }, () => call('rated', key)));
    const seconds = (Date.now() - started) / 1000;
    const passed = answers.filter((a) => a.http === 200);
    const refused = answers.filter((a) => a.http === 429);
    // three in the bucket, and what one a second refilled while the calls were made
    expect(passed.length).toBeGreaterThanOrEqual(3);
    expect(passed.length).toBeLessThanOrEqual(3 + Math.ceil(seconds));
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBe(12 - passed.length);
    expect(refused[0].body).toMatchObject({ status: 1, msg: '调用过于频繁：此 API Key 每秒最多 1 次，请稍后再试' });
    // the answer says when to come back: after that, the key is served again
    let extra = 0;
    let raw: Response | undefined;
    for (let i = 0; i < 10; i++) {
      raw = await fetch(`${s.url}/open/api/rated`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: '{}' });
      if (raw.status === 429) break;
      extra += 1;
    }
    expect(raw!.status).toBe(429);
    const retryAfter = Number(raw!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, retryAfter * 1000 + 100));
    expect((await call('rated', key)).http).toBe(200);
    // refused calls ran nothing: the API's statistics count only the calls that went
    const statsAfter = (await s.request('GET', `${P}/design/stats?id=${apiId}`, undefined, dev)).body.data.count;
    expect(statsAfter - statsBefore).toBe(passed.length + extra + 1);
  });

  it("refuses an API's calls beyond its own rate whoever calls, sessions included", async () => {
    const { apiId } = await publish(s, 'apirated');
    expect((await s.request('POST', `${P}/design/limit/save?id=${apiId}`, { ratePerSec: 2 }, approver)).body.status).toBe(0);
    const answers = await Promise.all(Array.from({ length: 8 }, () => s.request('POST', '/open/api/apirated', {}, dev)));
    expect(answers.filter((a) => a.http === 200).length).toBeLessThanOrEqual(4);
    expect(answers.find((a) => a.http === 429)?.body.msg).toBe('调用过于频繁：接口【apirated】每秒最多 2 次，请稍后再试');
  });

  it("counts a key's daily quota, and shows the day's calls and refusals to its owner and admins only", async () => {
    const { key, keyId } = await publish(s, 'quota');
    expect((await s.request('POST', `${P}/key/limit/save?id=${keyId}`, { dailyQuota: 3 }, s.token)).body.status).toBe(0);
    for (let i = 0; i < 3; i++) expect((await call('quota', key)).http).toBe(200);
    const over = await fetch(`${s.url}/open/api/quota`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: '{}' });
    expect(over.status).toBe(429);
    expect((await over.json()).msg).toBe('此 API Key 今日调用次数已达上限（每日 3 次），次日 0 点恢复');
    const retry = Number(over.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(24 * 3600);
    expect((await call('quota', key)).http).toBe(429);
    const usage = await s.request('POST', `${P}/key/usage/search`, { keyId }, dev);
    expect(usage.body.data.records).toEqual([{ id: expect.any(Number), day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), apiId: expect.any(Number), apiName: 'quota', calls: 3, refused: 2 }]);
    expect((await s.request('POST', `${P}/key/usage/search`, { keyId }, s.token)).body.data.records[0].calls).toBe(3);
    expect((await s.request('POST', `${P}/key/usage/search`, { keyId }, approver)).http).toBe(403);
    // another's key: not its creator, and not one who may limit keys
    const admins = (await s.request('POST', `${P}/key/add`, { keyName: '管理员的' })).body.data;
    expect((await s.request('POST', `${P}/key/usage/search`, { keyId: admins.id }, dev))).toMatchObject({ http: 403, body: { msg: '只有 API Key 的创建人和管理员可以查看它的用量' } });
    // raising the quota lets the key call again today
    expect((await s.request('POST', `${P}/key/limit/save?id=${keyId}`, { dailyQuota: 10 }, s.token)).body.status).toBe(0);
    expect((await call('quota', key)).http).toBe(200);
  });

  it('refuses callers outside an allow-list (key or API) with 403 naming their address, before anything runs', async () => {
    const { apiId, key, keyId } = await publish(s, 'listed');
    expect((await s.request('POST', `${P}/key/limit/save?id=${keyId}`, { allowIps: '10.0.0.0/8' }, s.token)).body.status).toBe(0);
    const refused = await call('listed', key);
    expect(refused).toMatchObject({ http: 403, body: { status: 1, msg: '调用方地址 127.0.0.1 不在此 API Key 允许的地址列表中' } });
    expect((await s.request('POST', `${P}/key/limit/save?id=${keyId}`, { allowIps: '127.0.0.0/8 ::1' }, s.token)).body.status).toBe(0);
    expect((await call('listed', key)).http).toBe(200);
    expect((await s.request('POST', `${P}/design/limit/save?id=${apiId}`, { allowIps: '192.168.0.0/16' }, approver)).body.status).toBe(0);
    expect((await call('listed', key)).body.msg).toBe('调用方地址 127.0.0.1 不在接口【listed】允许的地址列表中');
    expect((await s.request('POST', '/open/api/listed', {}, dev)).http).toBe(403);
    const usage = (await s.request('POST', `${P}/key/usage/search`, { keyId }, dev)).body.data.records;
    expect(usage[0]).toMatchObject({ calls: 1, refused: 2 });
  });
});

describe.skipIf(!redisUrl)('limits across two instances of one deployment (Redis)', () => {
  it("holds a key limited to 5 a second to 5 a second across both instances together, and its quota too", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'limits-'));
    const a = await startTestServer({ env: { REDIS_URL: redisUrl!, DATA_DIR: dataDir } });
    const b = await startTestServer({ env: { REDIS_URL: redisUrl!, DATA_DIR: dataDir } });
    try {
      // the file goes where both instances look (their DATA_DIR), not into the test server's own temp folder: the
      // approval takes the SQL's plan on it
      await sqliteFixture({ ...a, dataDir } as TestServer, 'shop.db', GOODS_SQL, 'shop');
      const { key, keyId } = await publish(a, 'twice');
      expect((await a.request('POST', `${P}/key/limit/save?id=${keyId}`, { ratePerSec: 5, dailyQuota: 14 }, a.token)).body.status).toBe(0);
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).request('POST', '/open/api/twice', {}, null, { 'x-api-key': key })));
      const seconds = (Date.now() - started) / 1000;
      const passed = answers.filter((r) => r.http === 200).length;
      expect(passed).toBeGreaterThanOrEqual(5);
      // one bucket for both: five at once, plus what five a second refill while the calls ran
      expect(passed).toBeLessThanOrEqual(5 + Math.ceil(seconds * 5));
      expect(answers.filter((r) => r.http === 429).length).toBe(20 - passed);
      // the quota (14 a day) is one count for both instances too
      let more = passed;
      for (let round = 0; round < 6 && more < 14; round++) {
        await new Promise((r) => setTimeout(r, 1100));
        for (const inst of [a, b, a, b, a]) if ((await inst.request('POST', '/open/api/twice', {}, null, { 'x-api-key': key })).http === 200) more += 1;
      }
      expect(more).toBe(14);
      await new Promise((r) => setTimeout(r, 1100));
      expect((await b.request('POST', '/open/api/twice', {}, null, { 'x-api-key': key })).body.msg).toBe('此 API Key 今日调用次数已达上限（每日 14 次），次日 0 点恢复');
      expect((await a.request('POST', '/open/api/twice', {}, null, { 'x-api-key': key })).http).toBe(429);
    } finally {
      await a.close();
      await b.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
