// Search texts never over-match, on every list route that takes one (read from the route table):
// `%` and `_` match themselves, and a NUL (which ends SQLite's LIKE early) is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testStores, type TestServer } from '../testing/server.js';
import { concrete, routesOf } from './sweep.js';

describe.each(testStores)('search texts (%s store)', (store) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ store });
    for (const [n, v] of [['A_PCT', '100%'], ['B_UND', 'a_b'], ['C_PLAIN', 'plain']]) {
      expect((await s.request('POST', '/api/sys/var/save', { variableName: n, variableValue: v })).body.status).toBe(0);
    }
  });
  afterAll(() => s?.close());

  const searchRoutes = () => routesOf(s.app.routeTable, (r) => r.method === 'POST' && r.bodyFields.includes('search'));

  it('treats % and _ literally on every list route', async () => {
    expect(searchRoutes().length).toBeGreaterThan(5);
    const wrong: string[] = [];
    const checked = new Set<string>();
    for (const r of searchRoutes()) {
      for (const ch of ['%', '_']) {
        const a = await s.request('POST', concrete(r.url), { search: ch, pageNum: 1, pageSize: 100 });
        if (a.body.status !== 0) continue; // a route that needs more than a search text (e.g. an unknown page key)
        // a route that counts rather than lists (the log monitor's count: a substring test, never LIKE) has no
        // records to check one by one
        if (!Array.isArray(a.body.data?.records)) continue;
        checked.add(r.url);
        for (const rec of a.body.data.records) if (!JSON.stringify(rec).includes(ch)) wrong.push(`${r.url} '${ch}' matched ${JSON.stringify(rec).slice(0, 80)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(checked.size).toBeGreaterThan(5);
    const pct = await s.request('POST', '/api/sys/var/searchList', { search: '%' });
    expect(pct.body.data.records.map((x: any) => x.variableName)).toEqual(['A_PCT']);
    const users = await s.request('POST', '/api/uams/user/search', { search: '_' });
    expect(users.body.data.total).toBe(0);
  });

  it('refuses a NUL in a search text on every list route', async () => {
    for (const r of searchRoutes()) {
      const a = await s.request('POST', concrete(r.url), { search: 'a\u0000' });
      expect(a.body.status, r.url).toBe(1);
      expect(a.http, r.url).toBeLessThan(500);
      expect(a.body.msg).toContain('search');
    }
  });
});
