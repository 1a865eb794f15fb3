// bench/instances: throughput of two instances against one on the same store (PostgreSQL + Redis), and the time
// from SIGTERM to exit under load, measured in one run on loopback (npx tsx bench/instances/run.ts).
//
// Both instances run as processes of their own (tsx server-stub/main.ts), one deployment: one fresh PostgreSQL
// schema, one Redis, one DATA_DIR, one SECRET_KEY, INSTANCE_ID a and b. autocannon drives them from this process
// with the same number of connections in all (20: all on a; or 10 on a and 10 on b at once), BENCH_SECONDS each:
//   session  GET  /api/uams/session/find            (Redis session, user, roles, permissions)
//   list     POST /api/gemini/datasource/search     (a page of data sources from the PostgreSQL store)
//   open     POST /open/api/benchCached             (issue 25: a cached published call with an API key and a rate
//                                                   limit on the API it never reaches, counted in Redis by both)
// Then, while autocannon keeps a busy, 10 callers send calls to b in a loop and b gets SIGTERM: the time until it
// exits, its exit code, and what its callers met (answered, cut = reset mid-call, refused = not accepted after
// its listener closed; a balancer that checks /readyz sends those elsewhere).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Redis } from 'ioredis';
import { encryptFor } from '../../server-stub/testing/server.js';
import { ready } from '../lib/instances.js';
import { deploymentTag } from '../../server-stub/core/throttle.js';

const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 20;
const PASSWORD = 'Bench#12345';

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-instances-'));
const schema = `bench_${randomBytes(5).toString('hex')}`;
const secretKey = randomBytes(32).toString('hex');
const portBase = 18000 + Math.floor(Math.random() * 900);
const urlOf = (i: number) => `http://127.0.0.1:${portBase + i}`;

function start(i: number, id: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'server-stub/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(portBase + i),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      DATABASE_URL: PG_URL,
      DATABASE_SCHEMA: schema,
      REDIS_URL,
      SECRET_KEY: secretKey,
      INSTANCE_ID: id,
      ADMIN_PASSWORD: PASSWORD,
      DEMO_DATA: 'off',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}


async function call(base: string, method: string, p: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(base + p, { method, headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers }, body: body ? JSON.stringify(body) : undefined });
  const json = (await res.json()) as { status: number; msg: string; data: any };
  if (json.status !== 0) throw new Error(`${method} ${p}: ${json.msg}`);
  return json.data;
}

interface Target {
  path: string;
  method: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
}

function drive(base: string, t: Target, headers: Record<string, string>, connections: number, seconds: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url: base + t.path, method: t.method, body: t.body, headers: { ...headers, ...t.headers, ...(t.body ? { 'content-type': 'application/json' } : {}) }, connections, duration: seconds }, (err, result) => {
      if (err) return reject(err);
      if (result.non2xx || result.errors) return reject(new Error(`${base}${t.path}: ${result.non2xx} non-2xx, ${result.errors} errors`));
      resolve(result);
    });
  });
}

const servers: ChildProcess[] = [];
try {
  const a = start(0, 'a');
  servers.push(a);
  await ready(urlOf(0));
  // the second one starts on the migrated, seeded store, as in a rolling deployment
  const b = start(1, 'b');
  servers.push(b);
  await ready(urlOf(1));

  const pem = await call(urlOf(0), 'GET', '/api/uams/publicKey');
  const { token } = await call(urlOf(0), 'POST', '/api/uams/login', { loginType: 'password', area: '+86', mobilePhone: 'admin', password: encryptFor(pem, PASSWORD) });
  const auth = { authorization: `Bearer ${token}` };
  for (let i = 0; i < 20; i++) await call(urlOf(i % 2), 'POST', '/api/gemini/datasource/info/save', { dsName: `bench${i}`, dbType: 'sqlite', dbName: `bench${i}.db` }, auth);

  // a published, cached API on a SQLite file of 1,000 rows, limited far above what the run reaches, and a key
  mkdirSync(path.join(dataDir, 'sqlite'), { recursive: true });
  const file = new Database(path.join(dataDir, 'sqlite', 'bench0.db'));
  file.exec('create table item(id integer primary key, name text, price real)');
  const ins = file.prepare('insert into item(name, price) values (?, ?)');
  file.transaction(() => {
    for (let i = 1; i <= 1000; i++) ins.run(`item${i}`, i);
  })();
  file.close();
  const groupId = await call(urlOf(0), 'POST', '/api/gemini/api/group/save', { parentId: 0, name: '基准' }, auth);
  const reqParamList = [{ paramName: 'id', paramType: 'integer', paramValue: '1' }];
  const apiId = await call(urlOf(0), 'POST', '/api/gemini/api/design/info/save', { groupId, apiName: 'benchCached', apiComment: 'benchCached', reqParamList }, auth);
  await call(urlOf(0), 'POST', '/api/gemini/api/config/save', { apiId, dsName: 'bench0', script: 'select id, name, price from item where id = :id', reqParamList, cacheable: 1, cacheTime: '600' }, auth);
  await call(urlOf(0), 'POST', '/api/gemini/api/design/info/submit', { id: apiId }, auth);
  await call(urlOf(0), 'POST', '/api/gemini/api/approve/resolveAndOnline', { id: apiId }, auth);
  await call(urlOf(0), 'POST', `/api/gemini/api/design/limit/save?id=${apiId}`, { ratePerSec: 100_000, burst: 100_000, dailyQuota: 1_000_000_000 }, auth);
  const { apiKey } = await call(urlOf(0), 'POST', '/api/gemini/api/key/add', { keyName: 'bench' }, auth);

  const targets: Record<string, Target> = {
    session: { path: '/api/uams/session/find', method: 'GET' },
    list: { path: '/api/gemini/datasource/search', method: 'POST', body: JSON.stringify({ pageNum: 1, pageSize: 10 }) },
    open: { path: '/open/api/benchCached', method: 'POST', body: JSON.stringify({ id: 42 }), headers: { 'x-api-key': apiKey } },
  };
  for (const t of Object.values(targets)) for (const i of [0, 1]) await drive(urlOf(i), t, auth, 4, 2); // warm-up

  const cpus = os.cpus().length;
  const load1 = () => os.loadavg()[0].toFixed(1);
  console.log(`${cpus} cores (${os.cpus()[0]?.model ?? '?'}); autocannon, PostgreSQL and Redis share them with the instances; ${CONNECTIONS} connections, ${SECONDS} s per run; load average ${load1()} before`);
  for (const [name, t] of Object.entries(targets)) {
    const one = (await drive(urlOf(0), t, auth, CONNECTIONS, SECONDS)).requests.average;
    const both = await Promise.all([0, 1].map((i) => drive(urlOf(i), t, auth, CONNECTIONS / 2, SECONDS)));
    const two = both[0].requests.average + both[1].requests.average;
    console.log(`${name.padEnd(8)} (load ${load1()}) one instance ${one.toFixed(0)} req/s, two ${two.toFixed(0)} req/s (${both.map((r) => r.requests.average.toFixed(0)).join(' + ')})  two / one = ${(two / one).toFixed(2)}`);
  }

  // SIGTERM to b while a is under load and b's callers keep calling
  const load = drive(urlOf(0), targets.list, auth, 10, 12);
  const met = { answered: 0, cut: 0, refused: 0, other: 0 };
  const cutBy: Record<string, number> = {};
  let going = true;
  const caller = async () => {
    while (going) {
      try {
        const res = await fetch(urlOf(1) + targets.session.path, { headers: auth });
        if (res.ok && ((await res.json()) as { status: number }).status === 0) met.answered++;
        else met.other++;
      } catch (e) {
        const code = ((e as Error & { cause?: { code?: string } }).cause?.code ?? '') as string;
        if (code === 'ECONNREFUSED') {
          met.refused++;
          await new Promise((r) => setTimeout(r, 20));
        } else if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
          met.cut++;
          cutBy[code] = (cutBy[code] ?? 0) + 1;
        }
        else met.other++;
      }
    }
  };
  const callers = Array.from({ length: 10 }, caller);
  await new Promise((r) => setTimeout(r, 2000));
  const before = met.answered;
  const sent = Date.now();
  const exited = new Promise<{ code: number | null; ms: number }>((resolve) => b.once('exit', (code) => resolve({ code, ms: Date.now() - sent })));
  b.kill('SIGTERM');
  const { code, ms } = await exited;
  await new Promise((r) => setTimeout(r, 300));
  going = false;
  await Promise.all(callers);
  await load;
  console.log(`\nSIGTERM → exit under load: ${(ms / 1000).toFixed(2)} s, exit code ${code} (SHUTDOWN_DELAY 2 s, SHUTDOWN_GRACE 25 s)`);
  console.log(`b's 10 callers: ${met.answered - before} answered after SIGTERM, ${met.cut} cut${met.cut ? ` (${JSON.stringify(cutBy)})` : ''}, ${met.refused} refused after its listener closed, ${met.other} other`);
} finally {
  for (const s of servers) if (s.exitCode === null) s.kill('SIGTERM');
  await Promise.all(servers.map((s) => (s.exitCode === null ? new Promise((r) => s.once('exit', r)) : undefined)));
  rmSync(dataDir, { recursive: true, force: true });
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.query(`DROP SCHEMA IF EXISTS "${schema}_queue" CASCADE`); // the scheduler's (pg-boss) beside it
  await client.end();
  // the deployment's Redis keys (sessions, cache, counters, leases) all carry its tag
  const redis = new Redis(REDIS_URL);
  const tag = deploymentTag({ databaseUrl: PG_URL, databaseSchema: schema, dataDir });
  for (let cursor = '0'; ; ) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `*${tag}*`, 'COUNT', 500);
    if (keys.length) await redis.del(...keys);
    if ((cursor = next) === '0') break;
  }
  redis.disconnect();
}
