// How many data sources one caller may keep busy at once. Every data source runs in a process of its own, and
// at most MAX_PROCESSES run (pool-process.ts): without a share per caller, one account sending long statements
// to 16 data sources would leave everyone else 同时使用的数据源过多. A caller may run any number of statements on
// the data sources it already uses (each pool's maxActive bounds those); a statement on one more data source
// waits until one of the caller's others is done, for up to waitMs, then is refused.
// With REDIS_URL the share is counted across all instances of the deployment (`shared`): each statement also holds
// a lease in Redis (a sorted set per caller, one member per statement, scored by its expiry; leases.ts), renewed
// while it runs (the set's lifetime too, however long it runs); a lease of an instance that died expires after
// leaseMs, so its shares come back on their own.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { holdLease, waitForLease } from './leases.js';
import { SqlConnectorError } from './types.js';

export const QUOTA_MSG = {
  full: (n: number) => `您同时查询的数据源已达上限（${n}个），请等已有查询结束后再试`,
  closed: '服务正在停止，请稍后再试',
} as const;

interface Waiter {
  source: string;
  grant(): void;
  fail(err: Error): void;
}

interface Share {
  /** statements running now, per data source */
  busy: Map<string, number>;
  waiting: Waiter[];
}

export interface SourceQuotaOptions {
  /** data sources one caller may keep busy at once */
  maxSources: number;
  /** how long a statement on one more data source waits for a free share */
  waitMs: number;
  /** statements a caller may have waiting; beyond, refused at once (bounds the memory a caller can hold) */
  maxWaiting?: number;
  /** count across instances: the deployment's Redis, a key prefix carrying its tag, and the lease (default 15 s) */
  shared?: { redis: Redis; prefix: string; leaseMs?: number };
}

// KEYS[1] the caller's leases; ARGV: now, expiry, source, member, max sources, key lifetime ms.
// Granted (1) when the source is already held by one of the caller's leases or fewer than max sources are held.
const LEASE_LUA = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local held = {}
local n = 0
for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local src = string.match(m, '^(.*)|[^|]*$')
  if src and not held[src] then held[src] = true n = n + 1 end
end
if held[ARGV[3]] or n < tonumber(ARGV[5]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
  return 1
end
return 0
`;

type LeasingRedis = Redis & { sqlSourceLease(key: string, now: number, expiry: number, source: string, member: string, max: number, ttl: number): Promise<number> };

/** Takes a lease on `source` in the caller's share across instances, waiting up to waitMs; answers its release. */
async function takeLease(o: SourceQuotaOptions, caller: string, source: string, closed: () => boolean): Promise<() => void> {
  const { redis, prefix } = o.shared!;
  const leaseMs = o.shared!.leaseMs ?? 15_000;
  const r = redis as LeasingRedis;
  if (typeof r.sqlSourceLease !== 'function') r.defineCommand('sqlSourceLease', { numberOfKeys: 1, lua: LEASE_LUA });
  const key = `${prefix}${caller}`;
  const member = `${source}|${randomUUID()}`;
  await waitForLease({
    tryTake: async (now, expiry) => (await r.sqlSourceLease(key, now, expiry, source, member, o.maxSources, leaseMs * 2)) === 1,
    waitMs: o.waitMs,
    leaseMs,
    isClosed: closed,
    closed: () => new SqlConnectorError(QUOTA_MSG.closed),
    timedOut: () => new SqlConnectorError(QUOTA_MSG.full(o.maxSources), 'WAIT_TIMEOUT'),
  });
  return holdLease(redis, key, member, leaseMs);
}

export class SourceQuota {
  private readonly shares = new Map<string, Share>();
  private readonly maxWaiting: number;
  private closed = false;
  constructor(private readonly o: SourceQuotaOptions) {
    this.maxWaiting = o.maxWaiting ?? 100;
  }

  /** Runs fn with a share of the caller's quota for source; the share is given back when fn settles. */
  async run<T>(caller: string, source: string, fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire(caller, source);
    let lease: (() => void) | undefined;
    try {
      // this instance's share first (no Redis call for what it must refuse anyway), then the deployment's
      if (this.o.shared) lease = await takeLease(this.o, caller, source, () => this.closed);
      return await fn();
    } finally {
      lease?.();
      release();
    }
  }

  /** Data sources the caller keeps busy now (for tests and the log). */
  busySources(caller: string): number {
    return this.shares.get(caller)?.busy.size ?? 0;
  }

  /** The app is closing: waiters fail, and nothing new starts (it would start a data-source process). */
  close(): void {
    this.closed = true;
    for (const share of this.shares.values()) share.waiting.splice(0).forEach((w) => w.fail(new SqlConnectorError(QUOTA_MSG.closed)));
  }

  private acquire(caller: string, source: string): Promise<() => void> {
    if (this.closed) return Promise.reject(new SqlConnectorError(QUOTA_MSG.closed));
    let share = this.shares.get(caller);
    if (!share) {
      share = { busy: new Map(), waiting: [] };
      this.shares.set(caller, share);
    }
    if (this.fits(share, source)) return Promise.resolve(this.take(caller, share, source));
    if (share.waiting.length >= this.maxWaiting) return Promise.reject(this.refusal());
    const s = share;
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        source,
        grant: () => {
          clearTimeout(timer);
          resolve(this.take(caller, s, source));
        },
        fail: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      const timer = setTimeout(() => {
        const i = s.waiting.indexOf(waiter);
        if (i >= 0) s.waiting.splice(i, 1);
        this.forget(caller, s);
        reject(this.refusal());
      }, this.o.waitMs);
      timer.unref();
      s.waiting.push(waiter);
    });
  }

  private fits(share: Share, source: string): boolean {
    return share.busy.has(source) || share.busy.size < this.o.maxSources;
  }

  private take(caller: string, share: Share, source: string): () => void {
    share.busy.set(source, (share.busy.get(source) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (share.busy.get(source) ?? 1) - 1;
      if (left > 0) share.busy.set(source, left);
      else share.busy.delete(source);
      // waiters in arrival order, each as soon as it fits (a waiter on a source already busy always fits)
      for (let i = 0; i < share.waiting.length && !this.closed; ) {
        const w = share.waiting[i];
        if (!this.fits(share, w.source)) {
          i++;
          continue;
        }
        share.waiting.splice(i, 1);
        w.grant();
      }
      this.forget(caller, share);
    };
  }

  /** A caller with nothing running and nothing waiting is dropped, so the map holds only active callers. */
  private forget(caller: string, share: Share): void {
    if (share.busy.size === 0 && share.waiting.length === 0 && this.shares.get(caller) === share) this.shares.delete(caller);
  }

  private refusal(): SqlConnectorError {
    return new SqlConnectorError(QUOTA_MSG.full(this.o.maxSources), 'WAIT_TIMEOUT');
  }
}
