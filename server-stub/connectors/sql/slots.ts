// A data source's maxActive counted across every instance of a deployment (with REDIS_URL). Each instance's
// pool already holds at most maxActive connections (drivers.ts, a Gate in front of the pool); without this, N
// instances would run N × maxActive statements on one data source. Each statement takes a slot first: a lease
// in Redis (a sorted set per data source under sql-active:<deployment tag>:, one member per statement, scored by
// its expiry), granted by one Lua script while fewer than maxActive are held, renewed while the statement runs
// and gone leaseMs after its instance dies. Over the limit a statement waits up to the data source's maxWaitTime,
// then is refused as a full pool is (获取数据库连接超时（N秒）).
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { holdLease, waitForLease } from './leases.js';
import { SqlConnectorError } from './types.js';

export const SLOT_MSG = {
  timeout: (ms: number) => `获取数据库连接超时（${Math.round(ms / 1000)}秒）`,
  closed: '连接池已关闭',
} as const;

export interface SharedSlotsOptions {
  redis: Redis;
  /** carries the deployment tag: sql-active:<tag>: */
  prefix: string;
  /** default 15 s */
  leaseMs?: number;
}

// KEYS[1] the data source's slots; ARGV: now, expiry, max, member, key lifetime ms. Granted (1) below max.
const SLOT_LUA = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  return 1
end
return 0
`;

type SlotRedis = Redis & { sqlActiveSlot(key: string, now: number, expiry: number, max: number, member: string, ttl: number): Promise<number> };

export class SharedSlots {
  private closed = false;
  private readonly leaseMs: number;
  constructor(private readonly o: SharedSlotsOptions) {
    this.leaseMs = o.leaseMs ?? 15_000;
    const r = o.redis as SlotRedis;
    if (typeof r.sqlActiveSlot !== 'function') r.defineCommand('sqlActiveSlot', { numberOfKeys: 1, lua: SLOT_LUA });
  }

  /** Waits (up to waitMs) for one of the data source's max slots across instances; answers its release. */
  async acquire(source: string, max: number, waitMs: number): Promise<() => void> {
    const r = this.o.redis as SlotRedis;
    const key = `${this.o.prefix}${source}`;
    const member = randomUUID();
    await waitForLease({
      tryTake: async (now, expiry) => (await r.sqlActiveSlot(key, now, expiry, max, member, this.leaseMs * 2)) === 1,
      waitMs,
      leaseMs: this.leaseMs,
      isClosed: () => this.closed,
      closed: () => new SqlConnectorError(SLOT_MSG.closed),
      timedOut: () => new SqlConnectorError(SLOT_MSG.timeout(waitMs), 'WAIT_TIMEOUT'),
    });
    return holdLease(this.o.redis, key, member, this.leaseMs);
  }

  /** Slots of the data source held now across instances (tests, the log). */
  async held(source: string): Promise<number> {
    const key = `${this.o.prefix}${source}`;
    await this.o.redis.zremrangebyscore(key, '-inf', Date.now());
    return this.o.redis.zcard(key);
  }

  /** The app is closing: waiters stop waiting; statements already running end as they would. */
  close(): void {
    this.closed = true;
  }
}
