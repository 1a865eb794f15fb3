// With REDIS_URL, sessions live in Redis: a token issued by one instance works on another instance of the same
// deployment (the same store), and logging out on one ends it everywhere; a deployment sharing the Redis with
// another store never accepts its tokens (every key and every session record carries the deployment tag).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { startTestServer, testStores } from '../testing/server.js';
import { deploymentTag } from './throttle.js';

const redisUrl = process.env.REDIS_URL;
const sha = (t: string) => createHash('sha256').update(t).digest('hex');

describe.skipIf(!redisUrl)('sessions shared through Redis', () => {
  it('lets two instances of one deployment share one session and one logout', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'shared-'));
    const a = await startTestServer({ env: { REDIS_URL: redisUrl!, DATA_DIR: dataDir } });
    const b = await startTestServer({ env: { REDIS_URL: redisUrl!, DATA_DIR: dataDir } });
    try {
      const token = await a.loginAs('developer');
      const onB = await b.request('GET', '/api/uams/session/find', undefined, token);
      expect(onB.body.status).toBe(0);
      expect(onB.body.data.username).toBe('developer');
      await b.request('POST', '/api/uams/logout', undefined, token);
      const onA = await a.request('GET', '/api/uams/session/find', undefined, token);
      expect(onA.http).toBe(401);
    } finally {
      await a.close();
      await b.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.each(testStores)('answers 401 to a token of another deployment on the same Redis (%s)', async (store) => {
    const a = await startTestServer({ store, env: { REDIS_URL: redisUrl! } });
    const b = await startTestServer({ store, env: { REDIS_URL: redisUrl! } });
    const redis = new Redis(redisUrl!);
    try {
      // both stores have an admin with the same id: the other deployment must not answer as its own admin
      const onB = await b.request('GET', '/api/uams/session/find', undefined, a.token);
      expect(onB.http).toBe(401);
      expect(onB.body.status).toBe(2);
      expect((await a.request('GET', '/api/uams/session/find', undefined, a.token)).body.status).toBe(0);
      // the session's key starts with its deployment's tag, and its record names the deployment
      const tagA = deploymentTag(a.app.ctx.config);
      expect(await redis.exists(`session:${sha(a.token)}`)).toBe(0);
      const record = JSON.parse((await redis.get(`session:${tagA}:${sha(a.token)}`))!);
      expect(record.deployment).toBe(tagA);
      // a record copied under the other deployment's key is still refused there: it names its deployment
      const tagB = deploymentTag(b.app.ctx.config);
      await redis.set(`session:${tagB}:${sha(a.token)}`, JSON.stringify(record), 'EX', 60);
      expect((await b.request('GET', '/api/uams/session/find', undefined, a.token)).http).toBe(401);
      // the cache keys carry it too
      await a.app.ctx.cache.set('probe', 1, 60);
      expect(await redis.get(`cache:${tagA}:probe`)).toBe('1');
      expect(await b.app.ctx.cache.get('probe')).toBeUndefined();
    } finally {
      redis.disconnect();
      await a.close();
      await b.close();
    }
  });
});
if (!redisUrl) console.log('sessions.test: REDIS_URL is not set, the shared-session test is skipped');
