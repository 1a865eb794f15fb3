// Issue 36 over real HTTP: a cached published call reads nothing from the store, a console call's session and
// permissions are read once, not per call (statements counted at the driver, store/watch.ts, only those run on
// behalf of a request: the periodic statistics flush is not a call's); and what is held in memory is dropped the
// moment a key is revoked, a rule saved, an API taken offline, a user disabled, signed out or their role changed —
// on the same instance (SQLite, PostgreSQL) and, with Redis and PostgreSQL, on the other instance of a deployment.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { GOODS_SQL, sqliteFixture } from '../../testing/sqlite.js';
import { startTestServer, testStores, type TestServer, dropStoreSchemas } from '../../testing/server.js';
import { observeCalls } from '../../testing/observe.js';

const P = '/api/gemini/api';

/** A cacheable API `name` (select name from goods) online, and a key of developer's. */
async function publish(s: TestServer, name: string) {
  const dev = await s.loginAs('developer');
  const approver = await s.loginAs('devapprover');
  const post = (token: string, p: string, body: unknown) => s.request('POST', P + p, body, token);
  const groupId = (await post(dev, '/group/save', { parentId: 0, name: `g-${name}` })).body.data;
  const apiId = (await post(dev, '/design/info/save', { groupId, apiName: name, apiComment: '商品' })).body.data;
  expect((await post(dev, '/config/save', { apiId, dsName: 'shop', script: 'select name from goods order by id', cacheable: 1, cacheTime: 600 })).body.status).toBe(0);
  expect((await post(dev, '/design/info/submit', { id: apiId })).body.status).toBe(0);
  const passed = await post(approver, '/approve/resolveAndOnline', { id: apiId, approveResult: '同意' });
  expect(passed.body.status, passed.body.msg).toBe(0);
  const made = (await post(dev, '/key/add', { keyName: `k-${name}` })).body.data;
  return { apiId, key: made.apiKey as string, keyId: made.id as number, dev, approver };
}

/**
 * Writes on `w`, reads on `r` (the same server or another instance of the deployment): each change is seen by
 * the very next call on `r`, which had the thing in memory just before.
 */
async function changesSeenAtOnce(w: TestServer, r: TestServer, name: string) {
  const { apiId, key, keyId, approver } = await publish(w, name);
  const call = (k = key) => r.request('POST', `/open/api/${name}`, {}, null, { 'x-api-key': k });
  const first = await call();
  expect(first.body.status, first.body.msg).toBe(0);
  expect((await call()).headers['x-cache']).toBe('HIT');

  // a rule saved: applied on the next call
  expect((await w.request('POST', `${P}/design/limit/save?id=${apiId}`, { allowIps: '10.9.8.7' }, approver)).body.status).toBe(0);
  expect((await call()).body).toMatchObject({ status: 1, msg: `调用方地址 127.0.0.1 不在接口【${name}】允许的地址列表中` });
  expect((await w.request('POST', `${P}/design/limit/save?id=${apiId}`, { allowIps: '' }, approver)).body.status).toBe(0);
  expect((await call()).body.status).toBe(0);

  // a key revoked: refused on the next call
  expect((await w.request('GET', `${P}/key/revoke?id=${keyId}`)).body.status).toBe(0);
  expect(await call()).toMatchObject({ http: 401, body: { status: 1, msg: 'API Key 无效或已吊销' } });

  // an API taken offline: refused on the next call, and back online served again
  const other = (await w.request('POST', `${P}/key/add`, { keyName: `k2-${name}` })).body.data.apiKey as string;
  expect((await call(other)).body.status).toBe(0);
  expect((await w.request('GET', `${P}/approve/offline?id=${apiId}`, undefined, approver)).body.status).toBe(0);
  expect((await call(other)).body).toMatchObject({ status: 1, msg: `接口【${name}】未上线` });

  // a user disabled: their session is refused on the next call (held a moment before)
  const uid = await userId(w, 'developer');
  const token = await w.loginAs('developer');
  expect((await r.request('GET', '/api/uams/session/find', undefined, token)).body.data.username).toBe('developer');
  expect((await r.request('POST', `${P}/key/search`, {}, token)).body.status).toBe(0);
  expect((await w.request('POST', '/api/system/user/status', { id: uid, status: 1 })).body.status).toBe(0);
  expect((await r.request('GET', '/api/uams/session/find', undefined, token)).http).toBe(401);

  // signed out on one: refused on the next call
  expect((await w.request('POST', '/api/system/user/status', { id: uid, status: 0 })).body.status).toBe(0);
  const again = await w.loginAs('developer');
  expect((await r.request('GET', '/api/uams/session/find', undefined, again)).body.status).toBe(0);
  expect((await w.request('POST', '/api/uams/logout', {}, again)).body.status).toBe(0);
  expect((await r.request('GET', '/api/uams/session/find', undefined, again)).http).toBe(401);

  // their role emptied of its permissions: refused on the next call, their session kept
  const third = await w.loginAs('developer');
  expect((await r.request('POST', `${P}/key/search`, {}, third)).body.status).toBe(0);
  const roles = (await w.request('POST', '/api/system/role/list', { pageNum: 1, pageSize: 50 })).body.data.records as Array<{ id: number; roleKey: string }>;
  const role = (await w.request('GET', `/api/system/role/get?id=${roles.find((x) => x.roleKey === 'default')!.id}`)).body.data;
  const emptied = await w.request('POST', '/api/system/role/save', { id: role.id, roleName: role.roleName, roleKey: role.roleKey, roleType: role.roleType, orderNum: role.orderNum, permKeys: [] });
  expect(emptied.body.status, emptied.body.msg).toBe(0);
  expect((await r.request('POST', `${P}/key/search`, {}, third)).http).toBe(403);
  expect((await r.request('GET', '/api/uams/session/find', undefined, third)).body).toMatchObject({ status: 0, data: { permissions: [] } });
}

async function userId(s: TestServer, username: string): Promise<number> {
  const list = (await s.request('POST', '/api/system/user/list', { search: username, pageNum: 1, pageSize: 10 })).body.data.records as Array<{ id: number; username: string }>;
  return list.find((u) => u.username === username)!.id;
}

describe.each(testStores)('calls answered from memory (%s store)', (store) => {
  const seen: string[] = [];
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ store, setup: observeCalls(seen) });
    await sqliteFixture(s, 'shop.db', GOODS_SQL, 'shop');
  });
  afterAll(() => s?.close());

  it('runs no store statement for 100 cached published calls', async () => {
    const { key } = await publish(s, 'hotCached');
    const call = () => s.request('POST', '/open/api/hotCached', {}, null, { 'x-api-key': key });
    expect((await call()).headers['x-cache']).toBe('MISS');
    expect((await call()).headers['x-cache']).toBe('HIT');
    seen.length = 0;
    for (let i = 0; i < 10; i++) {
      const answers = await Promise.all(Array.from({ length: 10 }, call));
      for (const a of answers) expect(a).toMatchObject({ http: 200, body: { status: 0, data: [{ name: 'apple' }, { name: 'pear' }, { name: 'plum' }] }, headers: { 'x-cache': 'HIT' } });
    }
    expect(seen).toEqual([]);
    // the same calls before issue 36 read the key, the API, its version and its rules: the counter does count
    await s.request('POST', `${P}/key/add`, { keyName: 'another' });
    seen.length = 0;
    await call();
    expect(seen.length).toBeGreaterThan(0);
  });

  it('reads a console session and its permissions once, not per call', async () => {
    const token = await s.loginAs('developer');
    expect((await s.request('GET', '/api/uams/session/find', undefined, token)).body.status).toBe(0);
    seen.length = 0;
    for (let i = 0; i < 10; i++) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => s.request('GET', '/api/uams/session/find', undefined, token)));
      for (const a of answers) expect(a.body.data.username).toBe('developer');
    }
    // a session is read again at most every 30 s (its last-seen time): within this test, nothing
    expect(seen).toEqual([]);
  });

  it('drops what it holds the moment a key, a rule, an API, a user, a session or a role changes', async () => {
    await changesSeenAtOnce(s, s, 'hotOne');
  });
});

const redisUrl = process.env.REDIS_URL;
const pgUrl = process.env.PG_URL;

describe.skipIf(!redisUrl || !pgUrl)('two instances of one deployment (PostgreSQL store, Redis)', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hot-two-'));
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const seenB: string[] = [];
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const env = { DATA_DIR: dataDir, DATABASE_URL: pgUrl!, DATABASE_SCHEMA: schema, REDIS_URL: redisUrl!, LOGINS_PER_MINUTE: '1000' };
    a = await startTestServer({ env: { ...env, INSTANCE_ID: 'a' } });
    b = await startTestServer({ env: { ...env, INSTANCE_ID: 'b' }, setup: observeCalls(seenB) });
    await sqliteFixture({ ...a, dataDir } as TestServer, 'shop.db', GOODS_SQL, 'shop');
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    rmSync(dataDir, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await dropStoreSchemas(client, schema);
    await client.end();
  });

  it('serves cached calls on the other instance without the store', async () => {
    const { key } = await publish(a, 'twoCached');
    const call = () => b.request('POST', '/open/api/twoCached', {}, null, { 'x-api-key': key });
    expect((await call()).body.status).toBe(0);
    seenB.length = 0;
    for (let i = 0; i < 20; i++) expect((await call()).headers['x-cache']).toBe('HIT');
    expect(seenB).toEqual([]);
  });

  it('drops on the other instance, at once, what a change on one touched', async () => {
    await changesSeenAtOnce(a, b, 'twoOne');
  });
});
