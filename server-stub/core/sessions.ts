// Opaque session tokens kept server-side: in the store by default, in Redis when REDIS_URL is set.
import { createHash, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { now } from '../store/columns.js';
import type { Cache } from './cache.js';
import { tableTopic, type Invalidation } from './invalidation.js';

/** Where and with what a session was made (在线用户). */
export interface SessionMeta {
  address?: string | null;
  userAgent?: string | null;
}

/** One live session as 在线用户 lists it: `id` is the token's hash (the token itself is never kept). */
export interface LiveSession {
  id: string;
  userId: number;
  address: string | null;
  userAgent: string | null;
  /** signed in, 'YYYY-MM-DD HH:mm:ss' */
  createTime: string;
  /** last used (kept at most a minute and a half behind: sessions are held in memory, cachedSessions) */
  lastSeen: string;
}

/** How far behind a session's last-seen time may lag (it is written at most this often per session). */
export const SEEN_EVERY_MS = 60_000;

export interface SessionStore {
  create(userId: number, ttlSeconds: number, meta?: SessionMeta): Promise<string>;
  /** The user id behind a live token, or null when missing, expired or revoked. */
  find(token: string): Promise<number | null>;
  /** As find, with the time (ms) the session ends. */
  lookup(token: string): Promise<{ userId: number; expiresAt: number } | null>;
  revoke(token: string): Promise<void>;
  /** Ends every session of the user; with `why`, a caller presenting one of them is told why (endedWhy). */
  revokeUser(userId: number, why?: string): Promise<void>;
  /** Every live session of this deployment (across its instances when they share Redis or the store). */
  list(): Promise<LiveSession[]>;
  /** Ends the session with this id (its token's hash); false when there was none. With `why`, as revokeUser. */
  revokeId(id: string, why?: string): Promise<boolean>;
  /** Why the token's session was ended by someone else (账号已停用 …), while its lifetime lasts; null otherwise. */
  endedWhy(token: string): Promise<string | null>;
  /** The id of a token's session (to tell a caller's own session in the list). */
  idOf(token: string): string;
  /** Rejects when where the sessions live does not answer (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

const cut = (v: string | null | undefined, n: number) => (v ? v.slice(0, n) : null);
const secondsAgo = (ms: number) => now(new Date(Date.now() - ms));

export function dbSessions(db: Kysely<Database>): SessionStore {
  const lookup: SessionStore['lookup'] = async (token) => {
    const h = hash(token);
    const row = await db.selectFrom('sys_session').select(['user_id', 'expires_at', 'last_seen']).where('token_hash', '=', h).executeTakeFirst();
    if (!row || Number(row.expires_at) < Date.now()) return null;
    // last seen, at most once a minute per session (not a write per request)
    const stale = secondsAgo(SEEN_EVERY_MS);
    if (!row.last_seen || row.last_seen < stale) await db.updateTable('sys_session').set({ last_seen: now() }).where('token_hash', '=', h).execute();
    return { userId: row.user_id, expiresAt: Number(row.expires_at) };
  };
  return {
    async create(userId, ttl, meta = {}) {
      const token = newToken();
      await db.deleteFrom('sys_session').where('expires_at', '<', Date.now()).execute();
      const time = now();
      await db
        .insertInto('sys_session')
        .values({ token_hash: hash(token), user_id: userId, expires_at: Date.now() + ttl * 1000, create_time: time, last_seen: time, address: cut(meta.address, 64), user_agent: cut(meta.userAgent, 300) })
        .execute();
      return token;
    },
    find: async (token) => (await lookup(token))?.userId ?? null,
    lookup,
    async list() {
      const rows = await db.selectFrom('sys_session').selectAll().where('expires_at', '>=', Date.now()).orderBy('create_time', 'desc').execute();
      return rows.map((r) => ({ id: r.token_hash, userId: r.user_id, address: r.address, userAgent: r.user_agent, createTime: r.create_time, lastSeen: r.last_seen ?? r.create_time }));
    },
    async revokeId(id) {
      const r = await db.deleteFrom('sys_session').where('token_hash', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows ?? 0) > 0;
    },
    idOf: (token) => hash(token),
    endedWhy: async () => null,
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
  address?: string | null;
  userAgent?: string | null;
  created?: string;
  seen?: string;
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
  // every session's hash, for 在线用户 (members whose session expired are dropped when listed)
  const allKey = `all-sessions:${deployment}`;
  const parse = (v: string | null): RedisSession | null => {
    if (v == null) return null;
    try {
      const r = JSON.parse(v) as Partial<RedisSession>;
      return r && r.deployment === deployment && Number.isInteger(r.user) ? (r as RedisSession) : null;
    } catch {
      return null;
    }
  };
  const lookup: SessionStore['lookup'] = async (token) => {
    const key = sessionKey(hash(token));
    const [[, raw], [, ttl]] = (await redis.multi().get(key).pttl(key).exec()) as [[unknown, string | null], [unknown, number]];
    const r = parse(raw);
    if (!r || ttl === -2) return null;
    // last seen, at most once a minute per session; the key keeps its time to live
    if (!r.seen || r.seen < secondsAgo(SEEN_EVERY_MS)) await redis.set(key, JSON.stringify({ ...r, seen: now() }), 'KEEPTTL', 'XX');
    return { userId: r.user, expiresAt: ttl >= 0 ? Date.now() + ttl : Number.MAX_SAFE_INTEGER };
  };
  return {
    async create(userId, ttl, meta = {}) {
      const token = newToken();
      const time = now();
      const record: RedisSession = { user: userId, deployment, address: cut(meta.address, 64), userAgent: cut(meta.userAgent, 300), created: time, seen: time };
      await redis.set(sessionKey(hash(token)), JSON.stringify(record), 'EX', Math.ceil(ttl));
      await redis.sadd(userKey(userId), hash(token));
      // the list of a user's sessions lives as long as their newest one (every session has the same lifetime)
      await redis.expire(userKey(userId), Math.ceil(ttl));
      await redis.sadd(allKey, hash(token));
      return token;
    },
    find: async (token) => (await lookup(token))?.userId ?? null,
    lookup,
    async list() {
      const ids = await redis.smembers(allKey);
      if (!ids.length) return [];
      const values = await redis.mget(...ids.map(sessionKey));
      const gone = ids.filter((_, i) => values[i] == null);
      if (gone.length) await redis.srem(allKey, ...gone);
      const out: LiveSession[] = [];
      ids.forEach((id, i) => {
        const r = parse(values[i]);
        if (r) out.push({ id, userId: r.user, address: r.address ?? null, userAgent: r.userAgent ?? null, createTime: r.created ?? '', lastSeen: r.seen ?? r.created ?? '' });
      });
      return out.sort((a, b) => b.createTime.localeCompare(a.createTime));
    },
    async revokeId(id) {
      const n = await redis.del(sessionKey(id));
      await redis.srem(allKey, id);
      return n > 0;
    },
    idOf: (token) => hash(token),
    endedWhy: async () => null,
    async revoke(token) {
      await redis.del(sessionKey(hash(token)));
      await redis.srem(allKey, hash(token));
    },
    async revokeUser(userId) {
      const hashes = await redis.smembers(userKey(userId));
      if (hashes.length) await redis.del(...hashes.map(sessionKey));
      if (hashes.length) await redis.srem(allKey, ...hashes);
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

/**
 * `inner` with each token's session held in memory (issue 36): a console call reads no store for it. Ending a
 * session (revoke, revokeId, revokeUser) is published to every instance (core/invalidation.ts), as is any write to
 * sys_session (store/watch.ts); a held session is read again after half of SEEN_EVERY_MS, so its last-seen time
 * is still written (at most a minute and a half behind) and it is never answered past its end.
 */
export function cachedSessions(inner: SessionStore, bus: Invalidation): SessionStore {
  const held = bus.memo<string, { userId: number; expiresAt: number } | null>([tableTopic('sys_session')], { max: 50_000, maxAgeMs: SEEN_EVERY_MS / 2 });
  bus.on('session', (h) => (h ? held.delete(h) : held.clear()));
  bus.on('user-sessions', (id) => held.deleteWhere((s) => s == null || String(s.userId) === id));
  const lookup = async (token: string) => {
    const s = await held.get(hash(token), () => inner.lookup(token));
    return s && s.expiresAt >= Date.now() ? s : null;
  };
  return {
    ...inner,
    create: (userId, ttl, meta) => inner.create(userId, ttl, meta),
    lookup,
    find: async (token) => (await lookup(token))?.userId ?? null,
    async revoke(token) {
      await inner.revoke(token);
      await bus.publish('session', hash(token));
    },
    async revokeId(id) {
      const gone = await inner.revokeId(id);
      await bus.publish('session', id);
      return gone;
    },
    async revokeUser(userId) {
      await inner.revokeUser(userId);
      await bus.publish('user-sessions', String(userId));
    },
  };
}

/**
 * `inner` telling why a session ended when someone else ended it (issue 34 item 6): an administrator disabling the
 * account, taking a role away, resetting the password or signing the session out. The reason is kept in the
 * platform cache (Redis with REDIS_URL: every instance) under the session's id for the session's lifetime, and the
 * guard answers it to the next call with the token, so the sign-in page can say why instead of 登录已过期.
 */
export function withEndings(inner: SessionStore, cache: Pick<Cache, 'get' | 'set'>, ttlSeconds: number): SessionStore {
  const key = (id: string) => `session-ended:${id}`;
  return {
    ...inner,
    async revokeUser(userId, why) {
      if (why) for (const s of (await inner.list()).filter((x) => x.userId === userId)) await cache.set(key(s.id), why, ttlSeconds);
      await inner.revokeUser(userId);
    },
    async revokeId(id, why) {
      if (why) await cache.set(key(id), why, ttlSeconds);
      return inner.revokeId(id);
    },
    async endedWhy(token) {
      const why = await cache.get<string>(key(hash(token)));
      return typeof why === 'string' ? why : null;
    },
  };
}
