// Hostile input sweep: the real server in its own process (as `npm run serve` starts it), every route
// from Fastify's own table, bodies and query strings generated from each route's declared fields and
// from shapes no route expects. With the process watched: no answer ≥ 500, and the process lives.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../core/auth.js';
import { encryptFor, startTestServer, TEST_PASSWORD } from '../testing/server.js';
import { concrete, rawRequest, routesOf } from './sweep.js';

const root = path.resolve(import.meta.dirname, '../..');
let table: RouteEntry[] = [];
let child: ChildProcess;
let exited: string | null = null;
let output = '';
let base = '';
let token = '';
let dataDir = '';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const probe = await startTestServer();
  table = probe.app.routeTable;
  await probe.close();

  dataDir = mkdtempSync(path.join(os.tmpdir(), 'console-hostile-'));
  // the free port may be taken by a parallel suite before the server listens: then start again on another
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_PASSWORD: TEST_PASSWORD, DEMO_PASSWORD: TEST_PASSWORD, DIST_DIR: path.join(dataDir, 'no-dist') };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    output = '';
    exited = null;
    const started = spawn(process.execPath, ['--import', 'tsx', 'server-stub/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    started.stdout!.on('data', (d) => (output += d));
    started.stderr!.on('data', (d) => (output += d));
    started.on('exit', (code, signal) => {
      if (child === started) exited = `exit ${code} ${signal ?? ''}`;
    });
    base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 200 && !/已启动/.test(output) && !exited; i++) await new Promise((r) => setTimeout(r, 100));
    if (/已启动/.test(output)) break;
    if (exited && /EADDRINUSE/.test(output) && attempt < 3) continue;
    throw new Error(`server did not start: ${output}`);
  }
  const pem = (await rawRequest(base, 'GET', '/api/uams/publicKey')).body.data;
  const login = await rawRequest(base, 'POST', '/api/uams/login', { body: JSON.stringify({ mobilePhone: 'admin', password: encryptFor(pem, TEST_PASSWORD) }) });
  token = login.body.data.token;
}, 60_000);

afterAll(() => {
  child?.kill('SIGTERM');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

// plausible values, so that a hostile value in one field reaches the code behind the others' checks
const PLAUSIBLE: Record<string, unknown> = {
  ip: '127.0.0.1',
  hostName: '127.0.0.1',
  port: 1,
  username: 'u',
  password: 'p',
  dbType: 'SQLite',
  dsName: 'demo_sqlite',
  dbName: 'demo.db',
  queryType: 'SQL',
  script: 'select 1',
  pageNum: 1,
  pageSize: 10,
  isAsc: 'asc',
  maxWaitTime: 2,
};

const MB = 'x'.repeat(1024 * 1024);
const HOSTILE: unknown[] = ['\ud800', '\udfff', 'a\u0000b', '__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', "' or 1=1 --", -1, 1e308, 3.5, true, null, [], [['x']], {}, { a: { b: 'c' } }, 'x'.repeat(100_000)];
const RAW_BODIES = [
  '[]',
  '"x"',
  'null',
  '123',
  '{',
  '{"a":1}{}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"a":"\\ud800"}',
  '{"\\ud800":1}',
  '{"a":"\\u0000"}',
  '[' .repeat(5000) + ']'.repeat(5000),
  '{"a":'.repeat(5000) + '1' + '}'.repeat(5000),
  JSON.stringify({ search: MB }),
];
const ODD_CONTENT = [
  { 'content-type': 'multipart/form-data' },
  { 'content-type': 'multipart/form-data; boundary=' },
  { 'content-type': 'multipart/form-data; boundary=zzz' },
  { 'content-type': 'text/plain' },
  { 'content-type': 'application/x-www-form-urlencoded' },
  { 'content-type': 'application/json; charset=utf-7' },
];
const QUERIES = ['constructor', '__proto__', '-1', '0', '99999999999999999999', '1.5', '%00', '%ED%A0%80', '%FF', 'x'.repeat(10_000)];

interface Shot {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

function shotsFor(r: RouteEntry): Shot[] {
  const p = concrete(r.url);
  const shots: Shot[] = [];
  const fields = [...new Set([...r.bodyFields, 'id', 'search', 'orderByColumn'])];
  const plausible = Object.fromEntries(r.bodyFields.filter((f) => f in PLAUSIBLE).map((f) => [f, PLAUSIBLE[f]]));
  if (r.method === 'POST') {
    for (const f of fields) for (const v of HOSTILE) shots.push({ method: 'POST', path: p, body: JSON.stringify({ ...plausible, [f]: v }) });
    shots.push({ method: 'POST', path: p, body: JSON.stringify({ ...plausible, [fields[0]]: MB }) });
    for (const b of RAW_BODIES) shots.push({ method: 'POST', path: p, body: b });
    for (const h of ODD_CONTENT) shots.push({ method: 'POST', path: p, body: '--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nx\r\n--zzz--\r\n', headers: h });
    // a body that stops inside a file part (busboy: "Part terminated early")
    for (const name of ['file', 'files']) shots.push({ method: 'POST', path: p, body: `--zzz\r\nContent-Disposition: form-data; name="${name}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG`, headers: { 'content-type': 'multipart/form-data; boundary=zzz' } });
  }
  for (const f of [...new Set([...r.queryFields, 'id'])]) for (const q of QUERIES) shots.push({ method: r.method, path: `${p}?${f}=${q}`, body: r.method === 'POST' ? '{}' : undefined });
  shots.push({ method: r.method, path: `${p}?__proto__[x]=1&constructor[prototype][x]=1&id[]=1&id[]=2`, body: r.method === 'POST' ? '{}' : undefined });
  return shots;
}

async function inBatches<T>(items: T[], size: number, f: (x: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(f));
}

describe('hostile input sweep', () => {
  it('answers every generated request below 500 and the server process survives', async () => {
    const routes = routesOf(table, (r) => r.method !== 'HEAD' && !/logout/.test(r.url));
    const shots = routes.flatMap(shotsFor);
    expect(shots.length).toBeGreaterThan(1000);
    const bad: string[] = [];
    let n = 0;
    await inBatches(shots, 8, async (s) => {
      // each shot from its own loopback address, so the per-address sign-in limit lets them reach the handlers
      const i = n++;
      const localAddress = `127.3.${(i >> 8) & 255}.${(i & 255) || 1}`;
      try {
        const a = await rawRequest(base, s.method, s.path, { body: s.body, token, headers: s.headers, timeoutMs: 60_000, localAddress });
        if (a.http >= 500 || a.http === 0) bad.push(`${s.method} ${s.path.slice(0, 80)} ${String(s.body).slice(0, 60)} → ${a.http} ${a.text.slice(0, 80)}`);
      } catch (err) {
        bad.push(`${s.method} ${s.path.slice(0, 80)} ${String(s.body).slice(0, 60)} → ${(err as Error).message}`);
      }
    });
    expect(exited, output.slice(-2000)).toBeNull();
    expect(() => process.kill(child.pid!, 0)).not.toThrow();
    expect(bad.slice(0, 40)).toEqual([]);
  }, 600_000);
});
