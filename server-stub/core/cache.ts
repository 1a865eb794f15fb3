// A small cache: in-process LRU by default, Redis when REDIS_URL is set (shared by several instances).
import { LRUCache } from 'lru-cache';
import { Redis } from 'ioredis';

export interface Cache {
  get<T>(key: string): Promise<T | undefined>;
  /** ttl in seconds. */
  set(key: string, value: unknown, ttl?: number): Promise<void>;
  del(key: string): Promise<void>;
  /** Rejects when the shared cache (Redis) does not answer; the in-process one always answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** `deployment` (core/throttle.ts deploymentTag) prefixes every Redis key: deployments sharing a Redis never meet. */
export function createCache(redisUrl?: string, deployment = ''): Cache {
  if (redisUrl) {
    const redis = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 });
    const k = (key: string) => `cache:${deployment}:${key}`;
    return {
      async get<T>(key: string) {
        const raw = await redis.get(k(key));
        return raw == null ? undefined : (JSON.parse(raw) as T);
      },
      async set(key, value, ttl) {
        if (ttl) await redis.set(k(key), JSON.stringify(value), 'EX', Math.ceil(ttl));
        else await redis.set(k(key), JSON.stringify(value));
      },
      async del(key) {
        await redis.del(k(key));
      },
      async ping() {
        await redis.ping();
      },
      async close() {
        redis.disconnect();
      },
    };
  }
  const lru = new LRUCache<string, { v: unknown }>({ max: 5000 });
  return {
    async get<T>(key: string) {
      return lru.get(key)?.v as T | undefined;
    },
    async set(key, value, ttl) {
      lru.set(key, { v: value }, ttl ? { ttl: ttl * 1000 } : undefined);
    },
    async del(key) {
      lru.delete(key);
    },
    async ping() {},
    async close() {
      lru.clear();
    },
  };
}
