// With REDIS_URL, sessions live in Redis: a token issued by one instance works on another,
// and logging out on one ends it everywhere.
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../testing/server.js';

const redisUrl = process.env.REDIS_URL;

describe.skipIf(!redisUrl)('sessions shared through Redis', () => {
  it('lets two instances share one session and one logout', async () => {
    const a = await startTestServer({ env: { REDIS_URL: redisUrl! } });
    const b = await startTestServer({ env: { REDIS_URL: redisUrl! } });
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
    }
  });
});
if (!redisUrl) console.log('sessions.test: REDIS_URL is not set, the shared-session test is skipped');
