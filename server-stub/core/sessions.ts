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
    async close() {},
  };
}

export function redisSessions(url: string): SessionStore {
  const redis = new Redis(url, { maxRetriesPerRequest: 2 });
  const key = (token: string) => `session:${hash(token)}`;
  return {
    async create(userId, ttl) {
      const token = newToken();
      await redis.set(key(token), String(userId), 'EX', Math.ceil(ttl));
      await redis.sadd(`user-sessions:${userId}`, hash(token));
      return token;
    },
    async find(token) {
      const v = await redis.get(key(token));
      return v == null ? null : Number(v);
    },
    async revoke(token) {
      await redis.del(key(token));
    },
    async revokeUser(userId) {
      const hashes = await redis.smembers(`user-sessions:${userId}`);
      if (hashes.length) await redis.del(...hashes.map((h) => `session:${h}`));
      await redis.del(`user-sessions:${userId}`);
    },
    async close() {
      redis.disconnect();
    },
  };
}
