// Sign-in attempt counter: a password check is *reserved* before it is made, atomically, so concurrent
// guesses cannot all pass a read-then-write check. In the platform store by default (one upsert with a
// conditional update, SQLite and PostgreSQL alike), in Redis (one Lua script: INCR + PEXPIRE) when
// REDIS_URL is set. Both are shared by every instance that shares the store or the Redis.
//
// Rule: at most `max` reservations per key while the key is "warm"; each granted reservation keeps it
// warm for `windowMs` more. So no `windowMs` interval ever holds more than `max` checks, and once the
// `max`-th is granted the key is refused until `windowMs` after it (the lock). Refusals never extend
// the lock. A successful sign-in resets the key.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { sql, type Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../store/schema.js';

export interface ThrottleRule {
  /** password checks granted per key before it locks */
  max: number;
  /** quiet time that resets the count; also the lock's length after the max-th check */
  windowMs: number;
}

export type Reservation = { granted: true; attempt: number } | { granted: false; retryAfterMs: number };

export interface LoginThrottle {
  readonly rule: ThrottleRule;
  /** Reserves one password check for `key` (granted with its number 1..max, or refused while locked). */
  reserve(key: string): Promise<Reservation>;
  /** Forgets the key (after a proven password). */
  reset(key: string): Promise<void>;
}

/** sys_login_attempt: one row per throttled key (a known account or a submitted unknown name). */
export interface LoginAttemptTable {
  account_key: string;
  attempts: number;
  /** epoch ms: the count restarts after this; while attempts >= max, the lock lasts until then */
  expires_at: number | string;
}

declare module '../store/schema.js' {
  interface Database {
    sys_login_attempt: LoginAttemptTable;
  }
}

/**
 * A short tag naming the deployment (the store it guards), for keys in a shared Redis: instances of one
 * deployment share counters; other deployments (and test servers) on the same Redis never collide.
 * The store address is hashed, so no credential of DATABASE_URL reaches Redis.
 */
export function deploymentTag(config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>): string {
  const id = config.databaseUrl ? `pg:${config.databaseUrl}#${config.databaseSchema ?? ''}` : `sqlite:${config.dataDir}`;
  return createHash('sha256').update(id).digest('hex').slice(0, 16);
}

export function storeThrottle(db: Kysely<Database>, rule: ThrottleRule): LoginThrottle {
  let lastPurge = 0;
  const purge = async (at: number) => {
    // keys of unknown names would pile up: drop the cold ones, at most once a window per process
    if (at - lastPurge < rule.windowMs) return;
    lastPurge = at;
    await db.deleteFrom('sys_login_attempt').where('expires_at', '<', at).execute();
  };
  return {
    rule,
    async reserve(key) {
      const at = Date.now();
      const until = at + rule.windowMs;
      await purge(at);
      // One statement: insert the first attempt, or count one more — only while the key is cold or under max.
      // PostgreSQL locks the conflicting row for the update (its WHERE is re-checked under the lock);
      // SQLite runs one writer at a time. No row back = refused.
      const granted = await sql<{ attempts: number }>`
        insert into sys_login_attempt (account_key, attempts, expires_at) values (${key}, 1, ${until})
        on conflict (account_key) do update set
          attempts = case when sys_login_attempt.expires_at <= ${at} then 1 else sys_login_attempt.attempts + 1 end,
          expires_at = ${until}
        where sys_login_attempt.expires_at <= ${at} or sys_login_attempt.attempts < ${rule.max}
        returning attempts`.execute(db);
      const row = granted.rows[0];
      if (row) return { granted: true, attempt: Number(row.attempts) };
      const held = await db.selectFrom('sys_login_attempt').select('expires_at').where('account_key', '=', key).executeTakeFirst();
      return { granted: false, retryAfterMs: Math.max(0, Number(held?.expires_at ?? 0) - Date.now()) };
    },
    async reset(key) {
      await db.deleteFrom('sys_login_attempt').where('account_key', '=', key).execute();
    },
  };
}

// KEYS[1] the key; ARGV[1] max; ARGV[2] window ms. Returns { attempt, 0 } when granted, { 0, ms left } when refused.
const RESERVE_LUA = `
local n = redis.call('INCR', KEYS[1])
local max = tonumber(ARGV[1])
if n <= max then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {n, 0}
end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  left = tonumber(ARGV[2])
end
return {0, left}
`;

type ReservingRedis = Redis & { loginReserve(key: string, max: number, windowMs: number): Promise<[number, number]> };

/** `prefix` should carry the deployment tag (see deploymentTag). The caller owns and closes `redis`. */
export function redisThrottle(redis: Redis, prefix: string, rule: ThrottleRule): LoginThrottle {
  const r = redis as ReservingRedis;
  if (typeof r.loginReserve !== 'function') r.defineCommand('loginReserve', { numberOfKeys: 1, lua: RESERVE_LUA });
  const k = (key: string) => `${prefix}${key}`;
  return {
    rule,
    async reserve(key) {
      const [attempt, left] = await r.loginReserve(k(key), rule.max, rule.windowMs);
      return attempt > 0 ? { granted: true, attempt: Number(attempt) } : { granted: false, retryAfterMs: Number(left) };
    },
    async reset(key) {
      await redis.del(k(key));
    },
  };
}
