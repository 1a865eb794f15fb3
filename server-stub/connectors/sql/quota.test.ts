import { QUOTA_MSG, SourceQuota } from './quota.js';

/** A statement that runs until its finish() is called. */
function held<T = string>(value: T) {
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  return { fn: () => done.then(() => value), finish };
}
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('SourceQuota: how many data sources one caller keeps busy', () => {
  it('runs any number of statements on sources already in use, and one more source waits for a free share', async () => {
    const q = new SourceQuota({ maxSources: 2, waitMs: 5_000 });
    const a = held('a');
    const b = held('b');
    const pa = q.run('u', 'A', a.fn);
    const pb = q.run('u', 'B', b.fn);
    // a third and fourth statement on A and B go at once: the share is per data source, not per statement
    const again = await Promise.all([q.run('u', 'A', async () => 'a2'), q.run('u', 'B', async () => 'b2')]);
    expect(again).toEqual(['a2', 'b2']);
    const order: string[] = [];
    const pc = q.run('u', 'C', async () => {
      order.push('C ran');
      return 'c';
    });
    await tick();
    expect(order).toEqual([]);
    expect(q.busySources('u')).toBe(2);
    order.push('A finishing');
    a.finish();
    expect(await pa).toBe('a');
    expect(await pc).toBe('c');
    expect(order).toEqual(['A finishing', 'C ran']);
    b.finish();
    await pb;
    expect(q.busySources('u')).toBe(0);
  });

  it('another caller is not held up by one that has used its share', async () => {
    const q = new SourceQuota({ maxSources: 1, waitMs: 5_000 });
    const a = held('a');
    const pa = q.run('mallory', 'A', a.fn);
    expect(await q.run('alice', 'B', async () => 'b')).toBe('b');
    a.finish();
    await pa;
  });

  it('refuses with the Chinese message after the wait, and at once beyond the waiting bound', async () => {
    const q = new SourceQuota({ maxSources: 1, waitMs: 50, maxWaiting: 2 });
    const a = held('a');
    const pa = q.run('u', 'A', a.fn);
    const w1 = q.run('u', 'B', async () => 'b').catch((e: Error) => e);
    const w2 = q.run('u', 'C', async () => 'c').catch((e: Error) => e);
    // the third waiter is refused at once, before the others time out
    const at = Date.now();
    await expect(q.run('u', 'D', async () => 'd')).rejects.toThrow(QUOTA_MSG.full(1));
    expect(Date.now() - at).toBeLessThan(40);
    for (const w of [await w1, await w2]) expect((w as Error).message).toBe(QUOTA_MSG.full(1));
    a.finish();
    await pa;
    expect(await q.run('u', 'B', async () => 'b')).toBe('b');
  });

  it('gives the share back when the statement fails, and forgets idle callers', async () => {
    const q = new SourceQuota({ maxSources: 1, waitMs: 1_000 });
    await expect(q.run('u', 'A', async () => Promise.reject(new Error('syntax error')))).rejects.toThrow('syntax error');
    expect(q.busySources('u')).toBe(0);
    expect(await q.run('u', 'B', async () => 'b')).toBe('b');
    for (let i = 0; i < 1000; i++) await q.run(`caller${i}`, 'A', async () => i);
    expect((q as unknown as { shares: Map<string, unknown> }).shares.size).toBe(0);
  });

  it('lets waiters in by arrival order, each as soon as its source fits', async () => {
    const q = new SourceQuota({ maxSources: 1, waitMs: 5_000 });
    const a = held('a');
    const pa = q.run('u', 'A', a.fn);
    const order: string[] = [];
    const b = held('b');
    const pb = q.run('u', 'B', () => {
      order.push('B');
      return b.fn();
    });
    const pc = q.run('u', 'C', async () => void order.push('C'));
    // a statement on B, queued behind B's first, goes with it: B is then busy, so it fits
    const pb2 = q.run('u', 'B', async () => void order.push('B2'));
    a.finish();
    await pa;
    await tick();
    expect(order).toEqual(['B', 'B2']);
    b.finish();
    await Promise.all([pb, pb2, pc]);
    expect(order).toEqual(['B', 'B2', 'C']);
  });

  it('on close, waiters fail and nothing new starts', async () => {
    const q = new SourceQuota({ maxSources: 1, waitMs: 5_000 });
    const a = held('a');
    const pa = q.run('u', 'A', a.fn);
    let started = false;
    const waiting = q.run('u', 'B', async () => {
      started = true;
    });
    q.close();
    await expect(waiting).rejects.toThrow(QUOTA_MSG.closed);
    await expect(q.run('v', 'C', async () => 'c')).rejects.toThrow(QUOTA_MSG.closed);
    a.finish();
    expect(await pa).toBe('a'); // what ran, ends as it would
    expect(started).toBe(false);
  });
});

describe.skipIf(!process.env.REDIS_URL)('SourceQuota across instances (REDIS_URL)', () => {
  it('counts one caller across two instances, and a dead instance’s lease expires', async () => {
    const { Redis } = await import('ioredis');
    const redis = new Redis(process.env.REDIS_URL!);
    const prefix = `sql-sources-test:${Math.random().toString(36).slice(2)}:`;
    const one = new SourceQuota({ maxSources: 1, waitMs: 5_000, shared: { redis, prefix, leaseMs: 400 } });
    const two = new SourceQuota({ maxSources: 1, waitMs: 5_000, shared: { redis, prefix, leaseMs: 400 } });
    try {
      const a = held('a');
      const pa = one.run('u', 'A', a.fn);
      await new Promise((r) => setTimeout(r, 50));
      // the same data source on the other instance goes at once; another one waits while A runs
      expect(await two.run('u', 'A', async () => 'a2')).toBe('a2');
      const order: string[] = [];
      const pb = two.run('u', 'B', async () => {
        order.push('B ran');
        return 'b';
      });
      // another caller is not held up
      expect(await two.run('v', 'B', async () => 'v')).toBe('v');
      await new Promise((r) => setTimeout(r, 600));
      expect(order).toEqual([]); // A's lease is renewed while it runs
      order.push('A finishing');
      a.finish();
      expect(await pa).toBe('a');
      expect(await pb).toBe('b');
      expect(order).toEqual(['A finishing', 'B ran']);
      // an instance that died holding A: its lease runs out, then B goes
      await redis.zadd(`${prefix}u`, Date.now() + 400, 'A|dead-instance');
      const started = Date.now();
      expect(await two.run('u', 'B', async () => 'b2')).toBe('b2');
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      // past waitMs it is refused with the quota's message
      const short = new SourceQuota({ maxSources: 1, waitMs: 200, shared: { redis, prefix, leaseMs: 5_000 } });
      const c = held('c');
      const pc = one.run('u', 'C', c.fn);
      await new Promise((r) => setTimeout(r, 50));
      await expect(short.run('u', 'D', async () => 'd')).rejects.toThrow(QUOTA_MSG.full(1));
      c.finish();
      await pc;
    } finally {
      await redis.del(`${prefix}u`, `${prefix}v`);
      redis.disconnect();
    }
  });
});
