// A data source's maxActive across instances (issue 28 item 4): with REDIS_URL, two instances together never run
// more than maxActive statements on one data source; one over the limit waits up to maxWaitTime, then is refused.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Redis as RedisClient } from 'ioredis';
import { PoolRegistry, SLOT_MSG, SharedSlots, type SqlSettings } from './index.js';
import { startTestServer, testStores, type TestServer } from '../../testing/server.js';

const REDIS_URL = process.env.REDIS_URL;
const PG_URL = process.env.PG_URL;
if (!REDIS_URL) console.log('[skip] maxActive across instances: REDIS_URL is not set');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!REDIS_URL)('SharedSlots: one data source’s maxActive across instances', () => {
  let redis: RedisClient;
  const prefix = `sql-active-test:${randomBytes(6).toString('hex')}:`;
  beforeAll(async () => {
    const { Redis } = await import('ioredis');
    redis = new Redis(REDIS_URL!);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('two instances hold at most max slots together; one more waits for a release, other data sources do not', async () => {
    const one = new SharedSlots({ redis, prefix, leaseMs: 300 });
    const two = new SharedSlots({ redis, prefix, leaseMs: 300 });
    const a = await one.acquire('ds:1', 2, 5_000);
    const b = await two.acquire('ds:1', 2, 5_000);
    expect(await one.held('ds:1')).toBe(2);
    let third = false;
    const c = one.acquire('ds:1', 2, 5_000).then((r) => ((third = true), r));
    // another data source has its own slots
    (await two.acquire('ds:2', 2, 5_000))();
    // held well past the set's own lifetime (2 × leaseMs): the renewals keep both slots
    await sleep(900);
    expect(third).toBe(false);
    b();
    (await c)();
    expect(third).toBe(true);
    a();
    await sleep(20);
    expect(await one.held('ds:1')).toBe(0);
  });

  it('past maxWaitTime the statement is refused as a full pool is; a dead instance’s slot runs out', async () => {
    const one = new SharedSlots({ redis, prefix, leaseMs: 5_000 });
    const two = new SharedSlots({ redis, prefix, leaseMs: 5_000 });
    const a = await one.acquire('ds:3', 1, 5_000);
    const at = Date.now();
    await expect(two.acquire('ds:3', 1, 300)).rejects.toThrow(SLOT_MSG.timeout(300));
    expect(Date.now() - at).toBeGreaterThanOrEqual(250);
    a();
    // an instance that died holding the only slot: its lease expires, then the next statement goes
    await redis.zadd(`${prefix}ds:3`, Date.now() + 400, 'dead-instance');
    const started = Date.now();
    (await two.acquire('ds:3', 1, 5_000))();
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    // closing: a waiter stops waiting
    const b = await one.acquire('ds:3', 1, 5_000);
    const waiting = two.acquire('ds:3', 1, 5_000);
    two.close();
    await expect(waiting).rejects.toThrow(SLOT_MSG.closed);
    b();
  });

  it.skipIf(!PG_URL)('two pool registries (two instances) run one statement at a time on a PostgreSQL data source with maxActive 1', async () => {
    const u = new URL(PG_URL!);
    const s: SqlSettings = { dbType: 'postgresql', hostName: u.hostname, port: Number(u.port) || 5432, dbName: u.pathname.slice(1), username: decodeURIComponent(u.username), password: decodeURIComponent(u.password), maxActive: 1, maxWaitTime: 5 };
    const regs = [new PoolRegistry({}, new SharedSlots({ redis, prefix })), new PoolRegistry({}, new SharedSlots({ redis, prefix }))];
    try {
      // each pool's process is started first, so start-up time does not decide the order
      for (const r of regs) await r.execute('ds:pg', s, 'select 1');
      const order: string[] = [];
      const slow = regs[0].execute('ds:pg', s, 'select pg_sleep(0.8)').then(() => order.push('slow on one'));
      await sleep(150);
      const fast = regs[1].execute('ds:pg', s, 'select 1').then(() => order.push('fast on two'));
      await Promise.all([slow, fast]);
      expect(order).toEqual(['slow on one', 'fast on two']);
      // with a short maxWaitTime, the other instance's statement is refused while the slow one runs
      const short = { ...s, maxWaitTime: 0.3 };
      const slow2 = regs[0].execute('ds:pg', short, 'select pg_sleep(1)');
      await sleep(150);
      await expect(regs[1].execute('ds:pg', short, 'select 1')).rejects.toThrow(SLOT_MSG.timeout(300));
      await slow2;
    } finally {
      await Promise.all(regs.map((r) => r.closeAll()));
    }
  });
});

describe.skipIf(!REDIS_URL || !PG_URL).each(testStores)('maxActive across two app instances over HTTP (%s store)', (store) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'slots-'));
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const servers: TestServer[] = [];
  beforeAll(async () => {
    // one deployment (one store, so one deployment tag and one set of Redis keys), two instances
    const env = { DATA_DIR: dataDir, REDIS_URL: REDIS_URL!, ...(store === 'pg' ? { DATABASE_SCHEMA: schema } : {}) };
    servers.push(await startTestServer({ store, env }));
    servers.push(await startTestServer({ store, env }));
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (store !== 'pg') return;
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  it('a statement on the other instance waits for the only connection, and past maxWaitTime is refused in Chinese', async () => {
    const [a, b] = servers;
    const u = new URL(PG_URL!);
    // the platform's own database is no data source: the server's "postgres" database is
    const add = await a.request('POST', '/api/gemini/model/info/add', { dsName: `one_${store}`, dbType: 'postgresql', hostName: u.hostname, port: Number(u.port) || 5432, dbName: 'postgres', username: decodeURIComponent(u.username), pwd: decodeURIComponent(u.password) || 'unused', maxActive: 1, maxWaitTime: 1 });
    expect(add.body, add.body.msg).toMatchObject({ status: 0 });
    const run = (s: TestServer, sql: string) => s.request('POST', '/api/gemini/model/execute', { id: add.body.data, sql });
    for (const s of servers) expect((await run(s, 'select 1 as n')).body).toMatchObject({ status: 0, data: { rows: [{ n: 1 }] } });

    const order: string[] = [];
    const slow = run(a, 'select pg_sleep(0.6)').then((r) => (order.push('slow on a'), r));
    await sleep(150);
    const fast = run(b, 'select 2 as n').then((r) => (order.push('fast on b'), r));
    for (const r of await Promise.all([slow, fast])) expect(r.body, r.body.msg).toMatchObject({ status: 0 });
    expect(order).toEqual(['slow on a', 'fast on b']);

    const long = run(a, 'select pg_sleep(2.5)');
    await sleep(150);
    const at = Date.now();
    expect((await run(b, 'select 3 as n')).body).toMatchObject({ status: 1, msg: `执行失败：${SLOT_MSG.timeout(1000)}` });
    expect(Date.now() - at).toBeGreaterThanOrEqual(900);
    expect((await long).body).toMatchObject({ status: 0 });
  });
});
