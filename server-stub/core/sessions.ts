// Opaque session tokens kept server-side: in the store by default, in Redis when REDIS_URL is set.
import { createHash, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { now } from '../store/columns.js';

export interface SessionStore {
  create(userId: number, ttlSeconds: number): Promise<string>;
  /** The user id behind a live token, or null when missing, expired or revoked. */
  find(token: string): Promise<number | null>;
  revoke(token: string): Promise<void>;
  revokeUser(userId: number): Promise<void>;
  /** Rejects when where the sessions live does not answer (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

export function dbSessions(db: Kysely<Database>): SessionStore {
  return {
    async create(userId, ttl) {
      const token = newToken();
      await db.deleteFrom('sys_session').where('expires_at', '<', Date.now()).execute();
      await db.insertInto('sys_session').values({ token_hash: hash(token), user_id: userId, expires_at: Date.now() + ttl * 1000, create_time: now() }).execute();
      return token;
    },
    async find(token) {
      const row = await db.selectFrom('sys_session').select(['user_id', 'expires_at']).where('token_hash', '=', hash(token)).executeTakeFirst();
      if (!row || Number(row.expires_at) < Date.now()) return null;
      return row.user_id;
    },
    async revoke(token) {
      await db.deleteFrom('sys_session').where('token_hash', '=', hash(token)).execute();
    },
    async revokeUser(userId) {
      await db.deleteFrom('sys_session').where('user_id', '=', userId).execute();
    },
    async ping() {},
    async close() {},
  };
}

/** What a session key in Redis holds: the user, and the deployment that made the session. */
interface RedisSession {
  user: number;
  deployment: string;
}

/**
 * Sessions in Redis. `deployment` is the deployment tag (core/throttle.ts deploymentTag): every key carries it, and
 * the record names it, so a deployment sharing the Redis (another store, another schema) never reads another's
 * session, not even one written without the tag by an older version (such a record is refused: signed out).
 */
export function redisSessions(url: string, deployment: string): SessionStore {
  const redis = new Redis(url, { maxRetriesPerRequest: 2 });
  const sessionKey = (h: string) => `session:${deployment}:${h}`;
  const userKey = (userId: number) => `user-sessions:${deployment}:${userId}`;
  return {
    async create(userId, ttl) {
      const token = newToken();
      const record: RedisSession = { user: userId, deployment };
      await redis.set(sessionKey(hash(token)), JSON.stringify(record), 'EX', Math.ceil(ttl));
      await redis.sadd(userKey(userId), hash(token));
      // the list of a user's sessions lives as long as their newest one (every session has the same lifetime)
      await redis.expire(userKey(userId), Math.ceil(ttl));
      return token;
    },
    async find(token) {
      const v = await redis.get(sessionKey(hash(token)));
      if (v == null) return null;
      try {
        const r = JSON.parse(v) as Partial<RedisSession>;
        return r && r.deployment === deployment && Number.isInteger(r.user) ? (r.user as number) : null;
      } catch {
        return null;
      }
    },
    async revoke(token) {
      await redis.del(sessionKey(hash(token)));
    },
    async revokeUser(userId) {
      const hashes = await redis.smembers(userKey(userId));
      if (hashes.length) await redis.del(...hashes.map(sessionKey));
      await redis.del(userKey(userId));
    },
    async ping() {
      await redis.ping();
    },
    async close() {
      redis.disconnect();
    },
  };
}
