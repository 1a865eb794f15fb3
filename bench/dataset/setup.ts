// What bench/dataset's two runs share: the fact table (10,000,000 rows in a database of its own, built once and kept),
// the compiled server as a process of its own, the admin's sign-in, and the table registered as a data source and
// a dataset through the real HTTP calls.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { encryptFor } from '../../server-stub/testing/server.js';

/** The server PostgreSQL (any database on it): the bench's own database is made there. */
export const PG_SERVER = process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const BENCH_DB = process.env.BENCH_DB ?? 'bench_dataset';
export const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
export const PASSWORD = 'Bench#12345';

export const urlFor = (database: string) => {
  const u = new URL(PG_SERVER);
  u.pathname = `/${database}`;
  return u.toString();
};

const LAYOUT = 'bench/dataset v1';

/**
 * `sales` in database BENCH_DB: ROWS rows over three years (2024-01-01 … 2026-12-31, in date order as a fact table
 * is appended), 8 regions, 50 products, 4 channels, amount numeric(12,2); an index on the day. Built by one
 * INSERT … SELECT generate_series, then VACUUM ANALYZE (as autovacuum leaves it); kept and reused while it holds
 * ROWS rows and this layout (the table's comment).
 */
export async function ensureFactTable(): Promise<void> {
  const admin = new pg.Client(urlFor('postgres'));
  await admin.connect();
  try {
    const has = await admin.query('select 1 from pg_database where datname = $1', [BENCH_DB]);
    if (!has.rowCount) await admin.query(`create database ${BENCH_DB}`);
  } finally {
    await admin.end();
  }
  const c = new pg.Client(urlFor(BENCH_DB));
  await c.connect();
  try {
    const exists = await c.query(`select obj_description(to_regclass('public.sales'), 'pg_class') as layout`);
    if (exists.rows[0].layout === LAYOUT && !process.env.BENCH_REBUILD) {
      const n = await c.query('select count(*)::bigint as n from sales');
      if (Number(n.rows[0].n) === ROWS) return;
    }
    console.log(`building ${BENCH_DB}.sales with ${ROWS.toLocaleString('en')} rows…`);
    const t0 = Date.now();
    await c.query('drop table if exists sales');
    await c.query(`create table sales(
      id bigint primary key,
      sold_on date not null,
      region text not null,
      product_id int not null,
      channel text not null,
      amount numeric(12,2) not null,
      qty int not null)`);
    // spread evenly over 2024-01-01 … 2026-12-31 (1,096 days) in row order; the rest from cheap hashes of the row number
    await c.query(`insert into sales
      select g,
        date '2024-01-01' + ((g - 1) * 1096 / ${ROWS})::int,
        (array['华东','华南','华北','华中','西南','西北','东北','港澳台'])[1 + (g * 7 % 8)::int],
        1 + (g * 13 % 50)::int,
        (array['门店','网店','批发','直播'])[1 + (g * 3 % 4)::int],
        round(((g * 37 % 100000) / 100.0 + 1)::numeric, 2),
        1 + (g % 9)::int
      from generate_series(1::bigint, ${ROWS}) g`);
    await c.query('create index sales_sold_on on sales(sold_on)');
    await c.query('vacuum analyze sales');
    await c.query(`comment on table sales is '${LAYOUT}'`);
    console.log(`built in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  } finally {
    await c.end();
  }
}

/**
 * A role that reads `sales` and never plans parallel query (a role setting, not the database's): the viewers
 * bench's data source connects as it so that each statement is one transaction in pg_stat_database (PostgreSQL 15
 * counts a parallel worker's transactions in xact_commit too, as many as the workers it got).
 */
export const SERIAL_ROLE = 'bench_dataset_serial';
export async function ensureSerialRole(): Promise<void> {
  const c = new pg.Client(urlFor(BENCH_DB));
  await c.connect();
  try {
    const has = await c.query('select 1 from pg_roles where rolname = $1', [SERIAL_ROLE]);
    if (!has.rowCount) await c.query(`create role ${SERIAL_ROLE} login`);
    await c.query(`grant connect on database ${BENCH_DB} to ${SERIAL_ROLE}; grant usage on schema public to ${SERIAL_ROLE}; grant select on sales to ${SERIAL_ROLE}`);
    await c.query(`alter role ${SERIAL_ROLE} set max_parallel_workers_per_gather = 0`);
  } finally {
    await c.end();
  }
}

export interface Server {
  base: string;
  proc: ChildProcess;
  auth: Record<string, string>;
  call<T = any>(method: string, p: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

/** The compiled server (dist-server/main.js, built here; BENCH_SERVER=tsx runs the TypeScript), SQLite store, fresh DATA_DIR, signed in as admin. */
export async function startServer(env: Record<string, string> = {}): Promise<Server> {
  const root = path.resolve(import.meta.dirname, '../..');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-dataset-'));
  const port = 18000 + Math.floor(Math.random() * 1000);
  const base = `http://127.0.0.1:${port}`;
  const compiled = process.env.BENCH_SERVER !== 'tsx';
  if (compiled) execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_CPU_PROF)] : [];
  const proc = spawn(process.execPath, [...prof, ...(compiled ? ['dist-server/main.js'] : ['--import', 'tsx', 'server-stub/main.ts'])], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, DEMO_DATA: 'off', NODE_ENV: 'production', REDIS_URL: process.env.REDIS_URL ?? '', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const headers: Record<string, string> = {};
  const call = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
    const res = await fetch(base + p, { method, headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers }, body: body ? JSON.stringify(body) : undefined });
    const json = (await res.json()) as { status: number; msg: string; data: T };
    if (json.status !== 0) throw new Error(`${method} ${p}: ${json.msg}`);
    return json.data;
  };
  const stop = async () => {
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/readyz`)).ok) break;
      } catch {
        /* not yet */
      }
      if (i > 600) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const pem = await call<string>('GET', '/api/uams/publicKey');
    const { token } = await call<{ token: string }>('POST', '/api/uams/login', { loginType: 'password', area: '+86', mobilePhone: 'admin', password: encryptFor(pem, PASSWORD) });
    headers.authorization = `Bearer ${token}`;
  } catch (err) {
    await stop();
    throw err;
  }
  return { base, proc, auth: { ...headers }, call, stop };
}

/** Registers BENCH_DB as a PostgreSQL data source (PG_URL's user unless `user`; a pool of `maxActive`, else the default 20); answers its id. */
export async function registerSource(s: Server, user?: string, maxActive?: number): Promise<number> {
  const u = new URL(PG_SERVER);
  return s.call<number>('POST', '/api/gemini/datasource/info/save', {
    dsName: 'bench_sales',
    dbType: 'postgresql',
    hostName: u.hostname,
    port: Number(u.port || 5432),
    dbName: BENCH_DB,
    username: user ?? (decodeURIComponent(u.username) || 'postgres'),
    pwd: (!user && decodeURIComponent(u.password)) || 'unused',
    ...(maxActive ? { maxActive } : {}),
  });
}

/** `sales` as a table dataset on the data source (the fields as the editor proposes them), cached `cacheTtl` seconds; answers its id. */
export async function addDataset(s: Server, dsId: number, name: string, cacheTtl: number): Promise<number> {
  const definition = { table: { schema: 'public', table: 'sales' } };
  const fields = await s.call<unknown[]>('POST', '/api/dataset/fields', { kind: 'table', dsId, definition });
  return s.call<number>('POST', '/api/dataset/info/save', { name, kind: 'table', dsId, definition, fields, cacheTtl });
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
