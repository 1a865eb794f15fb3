// bench/open-api: throughput of published APIs as a ratio to the same server's cheapest authenticated
// route, measured in one run on loopback (npx tsx bench/open-api/run.ts).
//
// The server runs as its own process (tsx server-stub/main.ts, SQLite store, a fresh DATA_DIR); autocannon
// drives it from this process. Three runs of equal length, one after the other:
//   baseline  GET  /api/uams/session/find          (session lookup + user, roles, permissions)
//   cached    POST /open/api/benchCached           (key check, online version, cache hit)
//   uncached  POST /open/api/benchOne              (key check, online version, one-row SQLite query)
//   limited   POST /open/api/benchLimited          (as cached, with a rate limit and a daily quota on the API
//                                                   that the run never reaches: the guard's cost alone)
//   bare      POST /bare on a bare Fastify app (bench/open-api/bare.ts) in a process of its own: the stack's limit
//   uncached-pg  (with PG_URL) as uncached, the one row read from a PostgreSQL data source
// Targets (issue 8): cached ≥ 0.8 × baseline, uncached ≥ 0.5 × baseline; (issue 25) limited ≥ 0.9 × cached;
// (issue 36) cached / bare ≥ 0.35, baseline / bare ≥ 0.35, uncached / bare ≥ 0.2.
// With REDIS_URL set the limits, sessions, the cache and the invalidation channel are in Redis (as on several
// instances), else in-process. The server is the compiled one (dist-server/main.js, built first by
// scripts/build-server.mjs) unless BENCH_SERVER=tsx. BENCH_CPU_PROF=<dir> writes the server's CPU profile there
// (node --cpu-prof); bench/open-api/profile.ts summarises it.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import pg from 'pg';
import { encryptFor } from '../../server-stub/testing/server.js';

const PORT = 18000 + Math.floor(Math.random() * 1000);
const BARE_PORT = PORT + 1000;
const BASE = `http://127.0.0.1:${PORT}`;
const PASSWORD = 'Bench#12345';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 10;

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-open-api-'));

async function call(method: string, p: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(BASE + p, { method, headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers }, body: body ? JSON.stringify(body) : undefined });
  const json = (await res.json()) as { status: number; msg: string; data: any };
  if (json.status !== 0) throw new Error(`${method} ${p}: ${json.msg}`);
  return json.data;
}

async function waitUp(url = `${BASE}/api/uams/publicKey`, init?: RequestInit) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url, init)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

function run(title: string, opts: autocannon.Options): Promise<number> {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts }, (err, result) => {
      if (err) return reject(err);
      if (result.non2xx || result.errors) return reject(new Error(`${title}: ${result.non2xx} non-2xx, ${result.errors} errors`));
      console.log(`${title.padEnd(9)} ${result.requests.average.toFixed(0)} req/s (p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms)`);
      resolve(result.requests.average);
    });
  });
}

const compiled = process.env.BENCH_SERVER !== 'tsx';
if (compiled) execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_CPU_PROF)] : [];
const server = spawn(process.execPath, [...prof, ...(compiled ? ['dist-server/main.js'] : ['--import', 'tsx', 'server-stub/main.ts'])], {
  cwd: root,
  env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, DEMO_DATA: 'off', NODE_ENV: 'production', REDIS_URL: process.env.REDIS_URL ?? '', DATABASE_URL: '' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const bare = spawn(process.execPath, ['--import', 'tsx', 'bench/open-api/bare.ts'], { cwd: root, env: { ...process.env, PORT: String(BARE_PORT) }, stdio: ['ignore', 'ignore', 'inherit'] });
const pgUrl = process.env.PG_URL;
const pgTable = `bench_item_${process.pid}`;
try {
  await waitUp();
  await waitUp(`http://127.0.0.1:${BARE_PORT}/bare`, { method: 'POST' });
  // a SQLite data source with 1,000 rows
  mkdirSync(path.join(dataDir, 'sqlite'), { recursive: true });
  const file = new Database(path.join(dataDir, 'sqlite', 'bench.db'));
  file.exec('create table item(id integer primary key, name text, price real)');
  const ins = file.prepare('insert into item(name, price) values (?, ?)');
  file.transaction(() => {
    for (let i = 1; i <= 1000; i++) ins.run(`item${i}`, i);
  })();
  file.close();

  const pem = await call('GET', '/api/uams/publicKey');
  const { token } = await call('POST', '/api/uams/login', { loginType: 'password', area: '+86', mobilePhone: 'admin', password: encryptFor(pem, PASSWORD) });
  const auth = { authorization: `Bearer ${token}` };
  await call('POST', '/api/gemini/datasource/info/save', { dsName: 'bench', dbType: 'sqlite', dbName: 'bench.db' }, auth);
  const groupId = await call('POST', '/api/gemini/api/group/save', { parentId: 0, name: '基准' }, auth);
  const publish = async (apiName: string, cacheable: number): Promise<number> => {
    const reqParamList = [{ paramName: 'id', paramType: 'integer', paramValue: '1' }];
    const id = await call('POST', '/api/gemini/api/design/info/save', { groupId, apiName, apiComment: apiName, reqParamList }, auth);
    await call('POST', '/api/gemini/api/config/save', { apiId: id, dsName: 'bench', script: 'select id, name, price from item where id = :id', reqParamList, cacheable, cacheTime: cacheable ? '600' : null }, auth);
    await call('POST', '/api/gemini/api/design/info/submit', { id }, auth);
    await call('POST', '/api/gemini/api/approve/resolveAndOnline', { id }, auth);
    return id;
  };
  await publish('benchCached', 1);
  await publish('benchOne', 0);
  if (pgUrl) {
    // the same one-row table in PostgreSQL (public schema of PG_URL's database), as a data source of its own
    const u = new URL(pgUrl);
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await client.query(`create table ${pgTable}(id integer primary key, name text, price real)`);
    await client.query(`insert into ${pgTable} select i, 'item' || i, i from generate_series(1, 1000) i`);
    await client.end();
    await call('POST', '/api/gemini/datasource/info/save', { dsName: 'benchpg', dbType: 'postgresql', hostName: u.hostname, port: Number(u.port || 5432), dbName: u.pathname.slice(1), username: decodeURIComponent(u.username), pwd: decodeURIComponent(u.password) || 'unused' }, auth);
    const reqParamList = [{ paramName: 'id', paramType: 'integer', paramValue: '1' }];
    const id = await call('POST', '/api/gemini/api/design/info/save', { groupId, apiName: 'benchPg', apiComment: 'benchPg', reqParamList }, auth);
    await call('POST', '/api/gemini/api/config/save', { apiId: id, dsName: 'benchpg', script: `select id, name, price from ${pgTable} where id = :id`, reqParamList, cacheable: 0, cacheTime: null }, auth);
    await call('POST', '/api/gemini/api/design/info/submit', { id }, auth);
    await call('POST', '/api/gemini/api/approve/resolveAndOnline', { id }, auth);
  }
  // a rule on the API the run never reaches: 100,000 a second, a billion a day
  const limitedId = await publish('benchLimited', 1);
  await call('POST', `/api/gemini/api/design/limit/save?id=${limitedId}`, { ratePerSec: 100_000, burst: 100_000, dailyQuota: 1_000_000_000 }, auth);
  const { apiKey } = await call('POST', '/api/gemini/api/key/add', { keyName: 'bench' }, auth);
  const open = (name: string) => ({ url: `${BASE}/open/api/${name}`, method: 'POST' as const, headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body: JSON.stringify({ id: 42 }) });
  // warm-up (JIT, pools, the cache entry)
  await run('warm-up', { ...open('benchCached'), duration: 2 });
  await run('warm-up', { ...open('benchOne'), duration: 2 });
  await run('warm-up', { ...open('benchLimited'), duration: 2 });
  await run('warm-up', { url: `${BASE}/api/uams/session/find`, headers: auth, duration: 2 });
  const bareCall = { url: `http://127.0.0.1:${BARE_PORT}/bare`, method: 'POST' as const };
  await run('warm-up', { ...bareCall, duration: 2 });
  if (pgUrl) await run('warm-up', { ...open('benchPg'), duration: 2 });

  const bareRate = await run('bare', bareCall);
  const baseline = await run('baseline', { url: `${BASE}/api/uams/session/find`, headers: auth });
  const cached = await run('cached', open('benchCached'));
  const uncached = await run('uncached', open('benchOne'));
  const limited = await run('limited', open('benchLimited'));
  // the cached call once more after it: limited / cached compares neighbours in time, not the start and the end
  const cachedAgain = await run('cached', open('benchCached'));
  const cachedMean = (cached + cachedAgain) / 2;
  const uncachedPg = pgUrl ? await run('uncached-pg', open('benchPg')) : null;
  // the bare route once more at the end: the ratios compare with the mean of the two
  const bareAgain = await run('bare', bareCall);
  const bareMean = (bareRate + bareAgain) / 2;
  console.log(`\n${compiled ? 'compiled server' : 'server from TypeScript (tsx)'}; limits, sessions and cache ${process.env.REDIS_URL ? 'in Redis' : 'in-process'}`);
  console.log(`cached / bare       = ${(cachedMean / bareMean).toFixed(2)}  (target ≥ 0.35; bare runs ${bareRate.toFixed(0)} and ${bareAgain.toFixed(0)} req/s)`);
  console.log(`baseline / bare     = ${(baseline / bareMean).toFixed(2)}  (target ≥ 0.35: GET /api/uams/session/find)`);
  console.log(`uncached / bare     = ${(uncached / bareMean).toFixed(2)}  (target ≥ 0.2: one row from SQLite)`);
  if (uncachedPg != null) console.log(`uncached-pg / bare  = ${(uncachedPg / bareMean).toFixed(2)}  (target ≥ 0.2: one row from PostgreSQL)`);
  console.log(`cached / baseline   = ${(cached / baseline).toFixed(2)}  (target ≥ 0.8)`);
  console.log(`uncached / baseline = ${(uncached / baseline).toFixed(2)}  (target ≥ 0.5)`);
  console.log(`limited / cached    = ${(limited / cachedMean).toFixed(2)}  (target ≥ 0.9; cached runs ${cached.toFixed(0)} and ${cachedAgain.toFixed(0)} req/s)`);
} finally {
  // SIGTERM: the server drains and exits, and writes its CPU profile when asked to
  server.kill('SIGTERM');
  bare.kill();
  if (prof.length) await new Promise((r) => server.once('exit', r));
  if (pgUrl) {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await client.query(`drop table if exists ${pgTable}`);
    await client.end();
  }
  rmSync(dataDir, { recursive: true, force: true });
}
