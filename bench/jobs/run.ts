// bench/jobs: 1,000 scheduled jobs due in the same minute on two instances of one deployment (PostgreSQL + Redis),
// measured in one run on loopback (npx tsx bench/jobs/run.ts):
//   exactly once   every job's due minute has one run in the log, none twice, none missing (counted in the store)
//   lag            from the due minute to the run's start (start_time − due_time, whole seconds as the log keeps them):
//                  p50, p95, max; and how the runs split between the instances
//   idle cost      with the 1,000 jobs defined and none due, over IDLE_SECONDS: each instance's CPU (utime + stime
//                  from /proc) and the store's transactions per minute (pg_stat_database of the database, both
//                  instances together; nothing else runs on it meanwhile)
// Both instances run as processes of their own (node --import tsx server-stub/main.ts) with the shipped defaults
// (JOB_POLL_MS 2000, JOB_CONCURRENCY 8). Each job calls a published API (a SQLite select), as the owner admin.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { encryptFor } from '../../server-stub/testing/server.js';
import { ready } from '../lib/instances.js';

const PG_URL = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const JOBS = Number(process.env.BENCH_JOBS ?? 1000);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 60);
const PASSWORD = 'Bench#12345';

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-jobs-'));
const schema = `bench_${randomBytes(5).toString('hex')}`;
const portBase = 18000 + Math.floor(Math.random() * 900);
const urlOf = (i: number) => `http://127.0.0.1:${portBase + i}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function start(i: number, id: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'server-stub/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(portBase + i), HOST: '127.0.0.1', NODE_ENV: 'production', DATA_DIR: dataDir, DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, REDIS_URL, SECRET_KEY: 'bench-jobs-key', INSTANCE_ID: id, ADMIN_PASSWORD: PASSWORD, DEMO_DATA: 'off' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}


async function call(base: string, p: string, body?: unknown, token?: string) {
  const res = await fetch(base + p, { method: body === undefined ? 'GET' : 'POST', headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = (await res.json()) as { status: number; msg: string; data: any };
  if (json.status !== 0) throw new Error(`${p}: ${json.msg}`);
  return json.data;
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime: clock ticks (USER_HZ 100)
}

const percentile = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const seconds = (t: string) => new Date(t.replace(' ', 'T')).getTime() / 1000;

const client = new pg.Client({ connectionString: PG_URL });
await client.connect();
const transactions = async () => Number((await client.query('select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()')).rows[0].n);
const servers: ChildProcess[] = [];
try {
  servers.push(start(0, 'a'));
  await ready(urlOf(0));
  servers.push(start(1, 'b'));
  await ready(urlOf(1));
  const pem = await call(urlOf(0), '/api/uams/publicKey');
  const { token } = await call(urlOf(0), '/api/uams/login', { loginType: 'password', area: '+86', mobilePhone: 'admin', password: encryptFor(pem, PASSWORD) });

  // a published API over a SQLite file both instances read
  mkdirSync(path.join(dataDir, 'sqlite'), { recursive: true });
  const file = new Database(path.join(dataDir, 'sqlite', 'shop.db'));
  file.exec("create table goods(id integer primary key, name text); insert into goods(name) values ('apple'), ('pear'), ('plum')");
  file.close();
  await call(urlOf(0), '/api/gemini/datasource/info/save', { dsName: 'shop', dbType: 'sqlite', dbName: 'shop.db' }, token);
  const groupId = await call(urlOf(0), '/api/gemini/api/group/save', { parentId: 0, name: '基准' }, token);
  const apiId = await call(urlOf(0), '/api/gemini/api/design/info/save', { groupId, apiName: 'benchGoods', apiComment: 'benchGoods' }, token);
  await call(urlOf(0), '/api/gemini/api/config/save', { apiId, dsName: 'shop', script: 'select name from goods order by id', cacheable: 0 }, token);
  await call(urlOf(0), '/api/gemini/api/design/info/submit', { id: apiId }, token);
  await call(urlOf(0), '/api/gemini/api/approve/resolveAndOnline', { id: apiId, approveResult: '同意' }, token);
  await call(urlOf(0), `/api/gemini/api/design/limit/save?id=${apiId}`, { ratePerSec: 100_000, burst: 100_000, dailyQuota: 1_000_000_000 }, token);

  // 1,000 jobs, every minute, none due yet (one saved through the page's call, the rest as copies of it in the store)
  await call(urlOf(0), '/api/job/job/save', { jobName: 'bench-0', kind: 'api', target: 'benchGoods', cron: '* * * * *', tz: 'Asia/Shanghai', status: 0, overlap: 0, retries: 1, timeoutSeconds: 60 }, token);
  const far = Math.floor(Date.now() / 60_000) + 100_000;
  await client.query(`update "${schema}".sys_job set next_due = $1 where job_name = 'bench-0'`, [far]);
  await client.query(
    `insert into "${schema}".sys_job (job_name, kind, target, args, cron, tz, status, overlap, retries, timeout_seconds, owner, next_due, failures, alert_firing, alert_notified, create_time, update_time)
     select 'bench-' || g, kind, target, args, cron, tz, status, overlap, retries, timeout_seconds, owner, next_due, 0, 0, 0, create_time, update_time
     from "${schema}".sys_job, generate_series(1, $1) g where job_name = 'bench-0'`,
    [JOBS - 1],
  );
  const ids = (await client.query(`select id from "${schema}".sys_job where job_name like 'bench-%'`)).rows.map((r) => Number(r.id));
  console.log(`${os.cpus().length} cores; two instances (a, b), PostgreSQL and Redis on this machine; ${ids.length} jobs defined`);

  // idle: nothing due
  await sleep(5000);
  const cpu0 = servers.map((s) => cpuSeconds(s.pid!));
  const tx0 = await transactions();
  await sleep(IDLE_SECONDS * 1000);
  const cpu1 = servers.map((s) => cpuSeconds(s.pid!));
  const tx1 = await transactions();
  const perMinute = (tx1 - tx0 - 2) / (IDLE_SECONDS / 60); // two of them are this process's own reads
  console.log(
    `idle, ${IDLE_SECONDS} s with ${ids.length} jobs defined: CPU a ${((100 * (cpu1[0]! - cpu0[0]!)) / IDLE_SECONDS).toFixed(2)} %, b ${((100 * (cpu1[1]! - cpu0[1]!)) / IDLE_SECONDS).toFixed(2)} % of a core; ` +
      `store transactions ${perMinute.toFixed(0)} per minute for both (${(perMinute / 2).toFixed(0)} per instance)`,
  );

  // all due at the next minute
  const due = Math.floor(Date.now() / 60_000) + 1;
  await client.query(`update "${schema}".sys_job set next_due = $1 where id = any($2)`, [due, ids]);
  const dueText = new Date(due * 60_000);
  console.log(`due at ${dueText.toLocaleTimeString('zh-CN', { hour12: false })}; waiting…`);
  await sleep(due * 60_000 - Date.now());
  const started = Date.now();
  let rows: any[] = [];
  for (;;) {
    rows = (await client.query(`select job_id, status, instance, due_time, start_time, end_time from "${schema}".sys_job_log where trigger = 'cron'`)).rows;
    if ((rows.length >= ids.length && rows.every((r) => r.status >= 2)) || Date.now() - started > 180_000) break;
    await sleep(500);
  }
  const allDone = Date.now() - started;
  await client.query(`update "${schema}".sys_job set status = 1 where id = any($1)`, [ids]);
  await sleep(3000); // a second claim of the same minute would have shown by now
  rows = (await client.query(`select job_id, status, instance, due_time, start_time, end_time from "${schema}".sys_job_log where trigger = 'cron'`)).rows;
  const perJob = new Map<number, number>();
  for (const r of rows) perJob.set(Number(r.job_id), (perJob.get(Number(r.job_id)) ?? 0) + 1);
  const twice = [...perJob.values()].filter((n) => n > 1).length;
  const missing = ids.filter((id) => !perJob.has(id)).length;
  const ok = rows.filter((r) => Number(r.status) === 2).length;
  const lags = rows.filter((r) => r.start_time).map((r) => seconds(r.start_time) - seconds(r.due_time));
  const byInstance = rows.reduce<Record<string, number>>((m, r) => ((m[r.instance] = (m[r.instance] ?? 0) + 1), m), {});
  console.log(`runs: ${rows.length} for ${ids.length} jobs — ${perJob.size} jobs ran, ${twice} twice, ${missing} missing; ${ok} succeeded; split ${JSON.stringify(byInstance)}`);
  console.log(`lag from the due minute to the start: p50 ${percentile(lags, 50)} s, p95 ${percentile(lags, 95)} s, max ${Math.max(...lags)} s; every run ended ${(allDone / 1000).toFixed(1)} s after the due minute`);
  if (twice || missing) process.exitCode = 1;
} finally {
  for (const s of servers) if (s.exitCode === null) s.kill('SIGTERM');
  await Promise.all(servers.map((s) => (s.exitCode === null ? new Promise((r) => s.once('exit', r)) : undefined)));
  rmSync(dataDir, { recursive: true, force: true });
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.query(`DROP SCHEMA IF EXISTS "${schema}_queue" CASCADE`);
  await client.end();
}
