// Health, readiness, drain and request ids (issue 28): /healthz and /readyz answer without a session and tell
// nothing more; a draining instance is not ready at once; SIGTERM during a stream of calls cuts none of them and
// the process exits 0 within its grace; X-Request-Id is unique across instances and kept only from a trusted proxy.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptFor, startTestServer, type TestServer } from '../testing/server.js';

const repo = path.resolve(import.meta.dirname, '../..');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('health and readiness', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    [a, b] = await Promise.all([startTestServer(), startTestServer({ env: { TRUST_PROXY: '127.0.0.1' } })]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('answer without a session, saying nothing but ok', async () => {
    for (const p of ['/healthz', '/readyz']) {
      const res = await fetch(a.url + p);
      expect(res.status, p).toBe(200);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ status: 0, msg: 'ok', data: null });
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-powered-by')).toBeNull();
      expect(res.headers.get('server')).toBeNull();
    }
    const route = a.app.routeTable.filter((r) => r.url === '/healthz' || r.url === '/readyz');
    expect(route.every((r) => r.public)).toBe(true);
  });

  it('readiness turns 503 at once when the instance drains, with no detail', async () => {
    const s = await startTestServer();
    try {
      s.app.lifecycle.draining = true;
      const res = await fetch(s.url + '/readyz');
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: 1, msg: '未就绪', data: null });
      expect((await fetch(s.url + '/healthz')).status).toBe(200);
      // calls are still answered while draining, each asking its client to close the connection
      const menu = await fetch(s.url + '/api/menu/routes/get', { headers: { authorization: `Bearer ${s.token}` } });
      expect(menu.status).toBe(200);
      expect(menu.headers.get('connection')).toBe('close');
    } finally {
      await s.close();
    }
  });

  it('gives every answer an X-Request-Id unique across instances, in the log line of its call', async () => {
    const ids: string[] = [];
    for (const s of [a, b]) {
      for (let i = 0; i < 20; i++) {
        const res = await fetch(s.url + (i % 2 ? '/api/menu/routes/get' : '/api/no/such'), { headers: { authorization: `Bearer ${s.token}` } });
        await res.arrayBuffer();
        ids.push(res.headers.get('x-request-id') ?? '');
      }
    }
    // the guard's early 401 carries one too
    const refused = await fetch(a.url + '/api/menu/routes/get');
    expect(refused.status).toBe(401);
    ids.push(refused.headers.get('x-request-id') ?? '');
    expect(ids.every((id) => UUID.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const log = readFileSync(path.join(a.dataDir, 'logs', 'admin.log'), 'utf8');
    expect(log).toContain(`"reqId":"${ids[1]}"`);
  });

  it('keeps an id sent by a trusted proxy only', async () => {
    const sent = { 'x-request-id': 'edge-4f2a-0001', authorization: '' };
    const fromClient = await fetch(a.url + '/api/menu/routes/get', { headers: { ...sent, authorization: `Bearer ${a.token}` } });
    expect(fromClient.headers.get('x-request-id')).toMatch(UUID);
    const viaProxy = await fetch(b.url + '/api/menu/routes/get', { headers: { ...sent, authorization: `Bearer ${b.token}` } });
    expect(viaProxy.headers.get('x-request-id')).toBe('edge-4f2a-0001');
    // the request log is written asynchronously, after the answer: wait for the line
    await expect.poll(() => readFileSync(path.join(b.dataDir, 'logs', 'admin.log'), 'utf8'), { timeout: 5000 }).toContain('"reqId":"edge-4f2a-0001"');
    // not plain text: a new id instead
    const odd = await fetch(b.url + '/api/menu/routes/get', { headers: { 'x-request-id': 'a b\t<c>', authorization: `Bearer ${b.token}` } });
    expect(odd.headers.get('x-request-id')).toMatch(UUID);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

describe('SIGTERM during a stream of calls', () => {
  it('is not ready at once, answers every call it accepted, and exits 0 within its grace', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'drain-'));
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repo, 'server-stub/main.ts')], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DIST_DIR: path.join(dataDir, 'no-dist'), ADMIN_PASSWORD: 'Drain@12345', DEMO_DATA: 'off', SHUTDOWN_DELAY: '1', SHUTDOWN_GRACE: '20', DATABASE_URL: '', REDIS_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const url = `http://127.0.0.1:${port}`;
    try {
      for (let i = 0; ; i++) {
        const up = await fetch(url + '/readyz').then((r) => r.status, () => 0);
        if (up === 200) break;
        if (i > 300) throw new Error(`server did not start: ${stderr}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const pem = ((await (await fetch(url + '/api/uams/publicKey')).json()) as { data: string }).data;
      const login = await fetch(url + '/api/uams/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ loginType: 'password', area: '+86', mobilePhone: 'admin', password: encryptFor(pem, 'Drain@12345') }),
      });
      const token = ((await login.json()) as { data: { token: string } }).data.token;
      const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

      let answered = 0;
      const cut: string[] = [];
      let termAt = 0;
      // a balancer: checks /readyz every 100 ms (less than SHUTDOWN_DELAY) and sends no new call once it fails.
      // (A client that goes on opening connections to an instance whose listener closes can meet a reset for a
      // connection still in the kernel's accept queue at that moment: TCP itself, which SHUTDOWN_DELAY avoids.)
      let routed = true;
      let notReadyAt = 0;
      const balancer = (async () => {
        while (routed) {
          await new Promise((r) => setTimeout(r, 100));
          const st = await fetch(url + '/readyz').then((r) => r.status, () => 0);
          if (st !== 200 && termAt) {
            routed = false;
            notReadyAt = Date.now();
          }
        }
      })();
      const worker = async (n: number) => {
        for (let i = 0; routed; i++) {
          const call = (n + i) % 2 ? fetch(url + '/api/menu/routes/get', { headers: auth }) : fetch(url + '/api/uams/user/search', { method: 'POST', headers: auth, body: JSON.stringify({ pageNum: 1, pageSize: 10 }) });
          try {
            const res = await call;
            const body = (await res.json()) as { status: number };
            if (res.status !== 200 || body.status !== 0) cut.push(`${res.status} ${JSON.stringify(body).slice(0, 80)}`);
            else answered++;
          } catch (e) {
            const code = (e as { cause?: { code?: string } }).cause?.code;
            cut.push(`${code ?? (e as Error).message} +${termAt ? Date.now() - termAt : -1}ms`);
            return;
          }
        }
      };
      const workers = Array.from({ length: 6 }, (_, n) => worker(n));
      await new Promise((r) => setTimeout(r, 800));
      const before = answered;
      termAt = Date.now();
      child.kill('SIGTERM');
      await Promise.all([balancer, ...workers]);
      // the signal reaches the process a moment later: not ready within a few hundred milliseconds
      expect(notReadyAt - termAt).toBeLessThan(500);
      const code = await exited;
      const took = Date.now() - termAt;
      expect(cut).toEqual([]);
      expect(before).toBeGreaterThan(10);
      // it went on answering the calls that reached it while not ready
      expect(answered).toBeGreaterThan(before);
      expect(code).toBe(0);
      expect(took).toBeLessThan(20_000);
      // every answered call was logged before the exit
      const lines = readFileSync(path.join(dataDir, 'logs', 'admin.log'), 'utf8').split('\n').filter((l) => l.includes('"route":"/api/menu/routes/get"'));
      const platform = readFileSync(path.join(dataDir, 'logs', 'auth.log'), 'utf8').split('\n').filter((l) => l.includes('"route":"/api/uams/user/search"'));
      expect(lines.length + platform.length).toBe(answered);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('start refusals of several instances', () => {
  it('refuses INSTANCE_ID without SECRET_KEY, and PostgreSQL without Redis, in Chinese', async () => {
    const { loadConfig, startRefusal } = await import('../config.js');
    const base = { DATA_DIR: os.tmpdir() };
    expect(startRefusal(loadConfig(base))).toBeNull();
    expect(startRefusal(loadConfig({ ...base, INSTANCE_ID: 'a' }))).toContain('必须设置 SECRET_KEY');
    expect(startRefusal(loadConfig({ ...base, INSTANCE_ID: 'a', SECRET_KEY: 'k', DATABASE_URL: 'postgres://x/y' }))).toContain('必须设置 REDIS_URL');
    expect(startRefusal(loadConfig({ ...base, INSTANCE_ID: 'a', SECRET_KEY: 'k', DATABASE_URL: 'postgres://x/y', REDIS_URL: 'redis://r' }))).toBeNull();
    // the real entry point says so and exits 1 before touching anything
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repo, 'server-stub/main.ts')], {
      env: { ...process.env, INSTANCE_ID: 'node-a', SECRET_KEY: '', DATA_DIR: path.join(os.tmpdir(), 'never-made-by-refusal-test'), PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('拒绝启动：多实例部署（已设置 INSTANCE_ID）必须设置 SECRET_KEY');
  });
});
