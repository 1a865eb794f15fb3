// Two instances of one deployment on one PostgreSQL store and one Redis (issue 25 §8), over real HTTP: a session
// from one works on the other; publishing, taking offline and approving a new version on one is what the other
// serves within a second (its cached answers are dead); one key's rate limit is counted for both together; the
// sign-in lockout too; an image uploaded through one is served by the other (DATA_DIR on a shared volume, as the
// README's "Several instances" asks).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from './passwords.js';
import { encryptFor, startTestServer, TEST_PASSWORD, type TestServer, dropStoreSchemas } from '../testing/server.js';
import { GOODS_SQL, sqliteFile } from '../testing/sqlite.js';
import { MSG_NOW_LOCKED } from '../modules/uams/index.js';

const redisUrl = process.env.REDIS_URL;
const pgUrl = process.env.PG_URL;
const P = '/api/gemini/api';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Asks `probe` every 50 ms until `until` holds of its answer; resolves with the milliseconds it took (fails after `withinMs`). */
async function within<T>(withinMs: number, probe: () => Promise<T>, until: (t: T) => boolean): Promise<number> {
  const started = Date.now();
  for (;;) {
    const t = await probe();
    if (until(t)) return Date.now() - started;
    if (Date.now() - started > withinMs) throw new Error(`not seen within ${withinMs} ms: ${JSON.stringify(t).slice(0, 300)}`);
    await sleep(50);
  }
}

describe.skipIf(!redisUrl || !pgUrl)('two instances on one PostgreSQL store and one Redis', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'two-'));
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const env = { DATA_DIR: dataDir, DATABASE_URL: pgUrl!, DATABASE_SCHEMA: schema, REDIS_URL: redisUrl!, LOGINS_PER_MINUTE: '1000' };
    a = await startTestServer({ env: { ...env, INSTANCE_ID: 'a' } });
    b = await startTestServer({ env: { ...env, INSTANCE_ID: 'b' } });
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

  it('serves on one what was published, taken offline or approved anew on the other, within a second', async () => {
    // a session from one works on the other
    const dev = await a.loginAs('developer');
    const approver = await b.loginAs('devapprover');
    expect((await b.request('GET', '/api/uams/session/find', undefined, dev)).body.data.username).toBe('developer');
    sqliteFile({ dataDir }, 'shop.db', GOODS_SQL);
    expect((await a.request('POST', '/api/gemini/datasource/info/save', { dsName: 'shop', dbType: 'sqlite', dbName: 'shop.db' })).body.status).toBe(0);
    const groupId = (await a.request('POST', `${P}/group/save`, { parentId: 0, name: '两实例' }, dev)).body.data;
    const apiId = (await a.request('POST', `${P}/design/info/save`, { groupId, apiName: 'goods2', apiComment: '商品' }, dev)).body.data;
    const config = (script: string) => a.request('POST', `${P}/config/save`, { apiId, dsName: 'shop', script, cacheable: 1, cacheTime: 600 }, dev);
    expect((await config('select name from goods order by id')).body.status).toBe(0);
    expect((await a.request('POST', `${P}/design/info/submit`, { id: apiId }, dev)).body.status).toBe(0);
    const callB = () => b.request('POST', '/open/api/goods2', {}, dev);
    const callA = () => a.request('POST', '/open/api/goods2', {}, dev);
    expect((await callB()).body.msg).toBe('接口【goods2】未上线');

    // approved and put online on A: B serves it
    expect((await a.request('POST', `${P}/approve/resolveAndOnline`, { id: apiId, approveResult: '同意' }, await a.loginAs('devapprover'))).body.status).toBe(0);
    const online = await within(1000, callB, (r) => r.body.status === 0);
    expect((await callB()).body.data).toEqual([{ name: 'apple' }, { name: 'pear' }, { name: 'plum' }]);
    expect((await callA()).body.data).toHaveLength(3); // both have it cached now (600 s)

    // offline on B: A refuses it at once, its cached answer dead
    expect((await b.request('GET', `${P}/approve/offline?id=${apiId}`, undefined, approver)).body.status).toBe(0);
    const offline = await within(1000, callA, (r) => r.body.msg === '接口【goods2】未上线');

    // a new version approved and online on B: A serves V2, not its cached V1
    expect((await b.request('GET', `${P}/approve/online?id=${apiId}`, undefined, approver)).body.status).toBe(0);
    await within(1000, callA, (r) => r.body.status === 0);
    expect((await config('select name from goods where price > 4 order by id')).body.status).toBe(0);
    expect((await a.request('POST', `${P}/design/info/submit`, { id: apiId }, dev)).body.status).toBe(0);
    expect((await b.request('POST', `${P}/approve/resolveAndOnline`, { id: apiId, approveResult: '同意' }, approver)).body.status).toBe(0);
    const v2 = await within(1000, callA, (r) => Array.isArray(r.body.data) && r.body.data.length === 2);
    expect((await callA()).body.data).toEqual([{ name: 'pear' }, { name: 'plum' }]);
    console.log(`[two instances] seen on the other: online ${online} ms, offline ${offline} ms, new version ${v2} ms`);

    // one key limited to 5 a second with a burst of 5: the two instances together pass no more
    const key = (await a.request('POST', `${P}/key/add`, { keyName: 'both' }, dev)).body.data;
    expect((await b.request('POST', `${P}/key/limit/save?id=${key.id}`, { ratePerSec: 5, burst: 5 }, b.token)).body.status).toBe(0);
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 ? a : b).request('POST', '/open/api/goods2', {}, null, { 'x-api-key': key.apiKey })));
    const seconds = (Date.now() - started) / 1000;
    const passed = answers.filter((r) => r.http === 200).length;
    expect(passed).toBeGreaterThanOrEqual(5);
    expect(passed).toBeLessThanOrEqual(5 + Math.ceil(seconds * 5));
    expect(answers.filter((r) => r.http === 429)).toHaveLength(16 - passed);
  });

  it('counts failed sign-ins on both instances together, and serves on one the image uploaded through the other', async () => {
    await a.app.ctx.db
      .insertInto('sys_user')
      .values({ username: 'lockme', nick_name: 'lockme', phone_number: null, email: null, avatar: null, password_hash: await hashPassword(TEST_PASSWORD), deleted: 0, effective_from: null, failed_logins: 0, locked_until: null, create_time: '2026-01-01 00:00:00' } as never)
      .execute();
    const pem = (await a.request<string>('GET', '/api/uams/publicKey', undefined, null)).body.data;
    expect((await b.request<string>('GET', '/api/uams/publicKey', undefined, null)).body.data).toBe(pem);
    const login = (s: TestServer, password: string) => s.request('POST', '/api/uams/login', { loginType: 'password', area: '+86', mobilePhone: 'lockme', password: encryptFor(pem, password) }, null);
    const msgs: string[] = [];
    for (let i = 0; i < 5; i++) msgs.push((await login(i % 2 ? b : a, 'wrong-password')).body.msg);
    expect(msgs.slice(0, 4)).toEqual([4, 3, 2, 1].map((n) => `账号或密码错误，还可尝试 ${n} 次`));
    expect(msgs[4]).toBe(MSG_NOW_LOCKED);
    for (const s of [a, b]) expect((await login(s, TEST_PASSWORD)).body.msg).toMatch(/^密码错误次数过多，账号已锁定，请 \d+ 秒后再试$/);

    const form = new FormData();
    form.append('bucketName', 'gemini');
    form.append('files', new Blob([new Uint8Array(PNG)]), 'both.png');
    const up = await fetch(`${a.url}/api/file/image/uploadImage`, { method: 'POST', body: form, headers: { authorization: `Bearer ${a.token}` } });
    const fileUrl = ((await up.json()) as { data: Array<{ fileUrl: string }> }).data[0].fileUrl;
    const served = await fetch(b.url + fileUrl);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    const listed = await b.request('POST', '/api/file/image/searchImageList', { search: 'both' }, b.token);
    expect(listed.body.data.records.map((r: { fileName: string }) => r.fileName)).toContain('both.png');
  });
});
