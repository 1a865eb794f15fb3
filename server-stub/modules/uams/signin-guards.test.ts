// Sign-in guards (security regression): concurrent guesses cannot beat the per-account lock, an unknown
// name is indistinguishable from a wrong password, and sign-in / public key are limited per client address.
// Every suite runs on the SQLite store, the PostgreSQL store (PG_URL) and with Redis (REDIS_URL).
import http from 'node:http';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Envelope } from '../../core/envelope.js';
import { hashPassword } from '../../core/passwords.js';
import { redisThrottle, storeThrottle, type LoginThrottle } from '../../core/throttle.js';
import { encryptFor, serverForSuite, startTestServer, testStores, TEST_PASSWORD, type TestServer } from '../../testing/server.js';
import { LOGINS_PER_ADDRESS, MSG_NOW_LOCKED, MSG_TOO_MANY_REQUESTS, PUBLIC_KEYS_PER_ADDRESS } from './index.js';
import { clientKey } from '../../core/limits.js';

// Every password check the server makes, counted (the real check still runs).
const checks = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../core/passwords.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../core/passwords.js')>();
  return {
    ...real,
    verifyPassword: async (plain: string, stored: string) => {
      checks.count++;
      return real.verifyPassword(plain, stored);
    },
  };
});

const backends = [
  ...testStores.map((store) => ({ name: `${store} store`, store, env: {} as Record<string, string> })),
  ...(process.env.REDIS_URL ? [{ name: 'Redis', store: 'sqlite' as const, env: { REDIS_URL: process.env.REDIS_URL } }] : []),
];

interface Answer {
  http: number;
  body: Envelope;
  ms: number;
  headers: http.IncomingHttpHeaders;
}

/** One request from a chosen loopback address (all of 127/8 is local on Linux): a client per address. */
function callFrom(base: string, from: string, method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(base + path, { method, localAddress: from, agent: false, headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ http: res.statusCode ?? 0, body: JSON.parse(text), ms: performance.now() - started, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

let hostNo = 0;
/** A loopback address no earlier request of this file used. */
const freshAddress = () => {
  const n = hostNo++;
  return `127.1.${Math.floor(n / 250)}.${(n % 250) + 1}`;
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const same = (a: Answer) => ({ http: a.http, status: a.body.status, msg: a.body.msg.replace(/请 \d+ 秒后再试/, '请 N 秒后再试'), data: a.body.data });

describe.each(backends)('sign-in guards ($name)', ({ store, env }) => {
  let s: TestServer;
  let pem: string;
  const login = (from: string, account: string, password: string, headers?: Record<string, string>) =>
    callFrom(s.url, from, 'POST', '/api/uams/login', { loginType: 'password', area: '+86', mobilePhone: account, password: encryptFor(pem, password) }, headers);

  beforeAll(async () => {
    s = await startTestServer({ store, env });
    pem = (await s.request<string>('GET', '/api/uams/publicKey', undefined, null)).body.data;
    const hash = await hashPassword(TEST_PASSWORD);
    const user = (username: string, extra: object = {}) => ({ username, nick_name: username, phone_number: null, email: null, avatar: null, password_hash: hash, deleted: 0, effective_from: null, failed_logins: 0, locked_until: null, create_time: '2026-01-01 00:00:00', ...extra });
    await s.app.ctx.db
      .insertInto('sys_user')
      .values([user('crowd'), user('known_a'), user('known_b'), user('timed'), user('resets', { phone_number: '13712345678' }), user('gone', { deleted: 1 }), user('later', { effective_from: '2999-01-01 00:00:00' })])
      .execute();
  });
  afterAll(() => s?.close());

  it('checks at most five passwords when sixty wrong ones for one account arrive at once, then refuses the right one', async () => {
    checks.count = 0;
    const wrong = encryptFor(pem, 'wrong-password');
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => callFrom(s.url, freshAddress(), 'POST', '/api/uams/login', { loginType: 'password', area: '+86', mobilePhone: 'crowd', password: wrong })),
    );
    const msgs = answers.map((a) => a.body.msg);
    const triesLeft = msgs.filter((m) => /^账号或密码错误，还可尝试 \d 次$/.test(m));
    const nowLocked = msgs.filter((m) => m === MSG_NOW_LOCKED);
    const refused = msgs.filter((m) => /^密码错误次数过多，账号已锁定，请 \d+ 秒后再试$/.test(m));
    expect(checks.count).toBe(5);
    expect(triesLeft.sort()).toEqual([4, 3, 2, 1].map((n) => `账号或密码错误，还可尝试 ${n} 次`).sort());
    expect(nowLocked).toHaveLength(1);
    expect(refused).toHaveLength(55);
    expect(answers.every((a) => a.http === 200 && a.body.status === 1)).toBe(true);

    const right = await login(freshAddress(), 'crowd', TEST_PASSWORD);
    expect(right.body).toMatchObject({ status: 1, msg: expect.stringMatching(/^密码错误次数过多，账号已锁定，请 (5\d|60) 秒后再试$/) });
    expect(checks.count).toBe(5);
  });

  it('answers an unknown name exactly as a wrong password for an account, deleted or not yet effective ones included', async () => {
    checks.count = 0;
    const unknown = `nobody_${Math.random().toString(36).slice(2, 8)}`;
    const sequences: Record<string, ReturnType<typeof same>[]> = {};
    for (const account of [unknown, 'known_a', 'gone', 'later']) {
      const from = freshAddress();
      const seq: ReturnType<typeof same>[] = [];
      for (let i = 0; i < 6; i++) seq.push(same(await login(from, account, 'wrong-password')));
      sequences[account] = seq;
    }
    expect(sequences[unknown]).toEqual([
      ...[4, 3, 2, 1].map((n) => ({ http: 200, status: 1, msg: `账号或密码错误，还可尝试 ${n} 次`, data: null })),
      { http: 200, status: 1, msg: '密码连续输错 5 次，账号已锁定 1 分钟', data: null },
      { http: 200, status: 1, msg: '密码错误次数过多，账号已锁定，请 N 秒后再试', data: null },
    ]);
    for (const account of ['known_a', 'gone', 'later']) expect(sequences[account], account).toEqual(sequences[unknown]);
    // the unknown name's guesses went through a real password check too (that is what costs the time)
    expect(checks.count).toBe(4 * 5);
    // while locked, even the right password of a deleted account says nothing about the account
    expect((await login(freshAddress(), 'gone', TEST_PASSWORD)).body.msg).toMatch(/^密码错误次数过多，账号已锁定/);
  });

  it('takes as long for an unknown name as for a wrong password (both cost a password hash)', async () => {
    const sample = async () => {
      const t = performance.now();
      await hashPassword('x');
      return performance.now() - t;
    };
    const hashMs: number[] = [];
    for (let i = 0; i < 5; i++) hashMs.push(await sample());
    const known: number[] = [];
    const unknown: number[] = [];
    const from = freshAddress();
    const nobody = `nobody_${Math.random().toString(36).slice(2, 8)}`;
    // interleaved, four each (below the lock), so machine load falls on both alike
    for (let i = 0; i < 4; i++) {
      known.push((await login(from, 'timed', 'wrong-password')).ms);
      unknown.push((await login(from, nobody, 'wrong-password')).ms);
    }
    // the fastest of five hashes: a load spike while sampling must not raise the bar
    const [k, u, h] = [median(known), median(unknown), Math.min(...hashMs)];
    expect(u, `unknown ${u.toFixed(1)} ms, known ${k.toFixed(1)} ms, scrypt ${h.toFixed(1)} ms`).toBeGreaterThan(h * 0.6);
    expect(k).toBeGreaterThan(h * 0.6);
    expect(u * 3).toBeGreaterThan(k);
    expect(k * 3).toBeGreaterThan(u);
  });

  it('counts an account once whichever of its names is typed, and a successful sign-in starts the count again', async () => {
    const from = freshAddress();
    expect((await login(from, 'resets', 'wrong-password')).body.msg).toBe('账号或密码错误，还可尝试 4 次');
    expect((await login(from, '13712345678', 'wrong-password')).body.msg).toBe('账号或密码错误，还可尝试 3 次');
    expect((await login(from, 'resets', 'wrong-password')).body.msg).toBe('账号或密码错误，还可尝试 2 次');
    const ok = await login(from, '13712345678', TEST_PASSWORD);
    expect(ok.body.status).toBe(0);
    expect((await login(from, 'resets', 'wrong-password')).body.msg).toBe('账号或密码错误，还可尝试 4 次');
  });

  it('answers the 21st sign-in a minute from one address with HTTP 429 and the message, a forged X-Forwarded-For notwithstanding', async () => {
    const from = freshAddress();
    const answers: Answer[] = [];
    for (let i = 0; i < LOGINS_PER_ADDRESS + 5; i++) {
      // a different unknown name each time (no account lock in the way) and a different forged forwarding address
      answers.push(await login(from, `spray_${i}`, 'wrong-password', { 'x-forwarded-for': `10.9.${i}.1` }));
    }
    expect(answers.slice(0, LOGINS_PER_ADDRESS).map((a) => a.http)).toEqual(Array(LOGINS_PER_ADDRESS).fill(200));
    for (const a of answers.slice(LOGINS_PER_ADDRESS)) {
      expect(a.http).toBe(429);
      expect(a.body).toEqual({ status: 1, msg: MSG_TOO_MANY_REQUESTS, data: null });
      expect(Number(a.headers['retry-after'])).toBeGreaterThan(0);
    }
    // another address is not held back
    expect((await login(freshAddress(), 'spray_x', 'wrong-password')).http).toBe(200);
  });

  it('limits the public key per address, and nothing else in the module', async () => {
    const from = freshAddress();
    const codes: number[] = [];
    for (let i = 0; i < PUBLIC_KEYS_PER_ADDRESS + 3; i++) codes.push((await callFrom(s.url, from, 'GET', '/api/uams/publicKey')).http);
    expect(codes.slice(0, PUBLIC_KEYS_PER_ADDRESS)).toEqual(Array(PUBLIC_KEYS_PER_ADDRESS).fill(200));
    expect(codes.slice(PUBLIC_KEYS_PER_ADDRESS)).toEqual([429, 429, 429]);
    const limited = await callFrom(s.url, from, 'GET', '/api/uams/publicKey');
    expect(limited.body).toEqual({ status: 1, msg: '请求过于频繁，请稍后再试', data: null });
    const session = await callFrom(s.url, from, 'GET', '/api/uams/session/find', undefined, { authorization: `Bearer ${s.token}` });
    expect(session.http).toBe(200);
    expect(session.headers['x-ratelimit-limit']).toBeUndefined();
  });
});

describe.each(backends)('login-attempt counter ($name)', ({ store, env }) => {
  let s: TestServer;
  let redis: Redis | undefined;
  let throttle: LoginThrottle;
  const rule = { max: 5, windowMs: 600 };
  beforeAll(async () => {
    s = await startTestServer({ store });
    if (env.REDIS_URL) {
      redis = new Redis(env.REDIS_URL);
      throttle = redisThrottle(redis, `test-throttle:${Math.random().toString(36).slice(2)}:`, rule);
    } else throttle = storeThrottle(s.app.ctx.db, rule);
  });
  afterAll(async () => {
    redis?.disconnect();
    await s?.close();
  });

  it('grants exactly max of many concurrent reservations, locks for the window after the last, then starts again', async () => {
    const got = await Promise.all(Array.from({ length: 40 }, () => throttle.reserve('k1')));
    const granted = got.filter((g) => g.granted).map((g) => (g.granted ? g.attempt : 0));
    expect(granted.sort()).toEqual([1, 2, 3, 4, 5]);
    const refused = await throttle.reserve('k1');
    expect(refused.granted).toBe(false);
    if (!refused.granted) expect(refused.retryAfterMs).toBeGreaterThan(0);
    if (!refused.granted) expect(refused.retryAfterMs).toBeLessThanOrEqual(rule.windowMs);
    expect((await throttle.reserve('k2')).granted).toBe(true);
    await new Promise((r) => setTimeout(r, rule.windowMs + 100));
    expect(await throttle.reserve('k1')).toEqual({ granted: true, attempt: 1 });
  });

  it('does not extend a lock by refused attempts, and forgets a key on reset', async () => {
    for (let i = 0; i < 5; i++) await throttle.reserve('k3');
    await new Promise((r) => setTimeout(r, rule.windowMs / 2));
    for (let i = 0; i < 5; i++) expect((await throttle.reserve('k3')).granted).toBe(false);
    await new Promise((r) => setTimeout(r, rule.windowMs / 2 + 100));
    expect(await throttle.reserve('k3')).toEqual({ granted: true, attempt: 1 });
    await throttle.reserve('k3');
    await throttle.reset('k3');
    expect(await throttle.reserve('k3')).toEqual({ granted: true, attempt: 1 });
  });
});

describe('what per-address limits count by', () => {
  const key = (ip: string) => clientKey({ ip } as never);
  it('an IPv4 address as itself, every IPv6 address of one /64 as one', () => {
    expect(key('10.1.2.3')).toBe('10.1.2.3');
    expect(key('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(key('2001:db8:1:2::1')).toBe(key('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(key('2001:db8:1:2::1')).not.toBe(key('2001:db8:1:3::1'));
  });
});

describe('LOGINS_PER_MINUTE', () => {
  const s = serverForSuite({ env: { LOGINS_PER_MINUTE: '3' } });

  it('sets the sign-in limit per address (and the public key three times it)', async () => {
    const from = freshAddress();
    const pem = (await callFrom(s.url, from, 'GET', '/api/uams/publicKey')).body.data as string;
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) {
      codes.push((await callFrom(s.url, from, 'POST', '/api/uams/login', { mobilePhone: `spray_${i}`, password: encryptFor(pem, 'wrong-password') })).http);
    }
    expect(codes).toEqual([200, 200, 200, 429, 429]);
    const keys: number[] = [];
    for (let i = 0; i < 9; i++) keys.push((await callFrom(s.url, from, 'GET', '/api/uams/publicKey')).http);
    // one fetched above: nine allowed in all
    expect(keys).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429]);
  });
});
