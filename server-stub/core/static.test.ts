// The built app is served by the same process: files by path, client routes get index.html,
// a missing asset stays a 404 (never HTML under a .js name), and /api stays JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/server.js';
import { rawRequest, spellings } from '../security/sweep.js';

describe('serving the built app', () => {
  let s: TestServer;
  const dist = mkdtempSync(path.join(os.tmpdir(), 'dist-'));
  beforeAll(async () => {
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>数据服务平台</title>');
    writeFileSync(path.join(dist, 'assets', 'app-1.js'), 'console.log(1)');
    s = await startTestServer({ env: { DIST_DIR: dist } });
  });
  afterAll(() => s?.close());

  it('serves files, falls back to index.html for client routes only', async () => {
    const asset = await fetch(`${s.url}/assets/app-1.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    const route = await fetch(`${s.url}/data/datasource?x=1`);
    expect(route.status).toBe(200);
    expect(await route.text()).toContain('数据服务平台');
    const missing = await fetch(`${s.url}/assets/app-2.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('json');
    // Under /api nothing is answered without a session, not even "does not exist".
    const anonymous = await fetch(`${s.url}/api/nope`);
    expect(anonymous.status).toBe(401);
    const api = await s.request('GET', '/api/nope');
    expect(api.http).toBe(404);
    expect(api.body).toMatchObject({ status: 1, msg: '接口不存在' });
  });

  it('keeps /api guarded behind the app files catch-all, however the path is spelled', async () => {
    for (const p of spellings('/api/uams/session/find').concat(spellings('/api/nope')).filter((x) => x.startsWith('/'))) {
      const a = await rawRequest(s.url, 'GET', p);
      expect(a.http, p).toBe(401);
    }
  });

  it('serves a file added after the start (a rebuild while running)', async () => {
    writeFileSync(path.join(dist, 'assets', 'app-3.js'), 'console.log(3)');
    expect((await fetch(`${s.url}/assets/app-3.js`)).status).toBe(200);
  });
});
