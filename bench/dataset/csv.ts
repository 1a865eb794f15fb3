// bench/dataset/csv.ts: a 1,000,000-row CSV uploaded as a dataset (issue 35, "Measure"), recorded in one run
// (npx tsx bench/dataset/csv.ts; README.md beside it):
//   upload       POST /api/dataset/file/upload, mode=commit, action=create: the file read by DuckDB, its types found,
//                its DuckDB file written (wall time over HTTP, the file generated beforehand)
//   duckdb       sum of amount by month and region on the file dataset (cacheTtl 0: every call runs the statement)
//   postgresql   the same question on the same rows loaded into PostgreSQL (COPY) as a table dataset (cacheTtl 0)
// Medians of BENCH_ROUNDS (9) interleaved rounds after a warm-up; the answers are checked equal first.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { DatasetField, DatasetQuery } from '../../common/dataset.js';
import { median, PG_SERVER, startServer, urlFor } from './setup.js';

const ROWS = Number(process.env.BENCH_CSV_ROWS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const DB = process.env.BENCH_CSV_DB ?? 'bench_dataset_csv';
const REGIONS = ['华东', '华南', '华北', '华中', '西南', '西北', '东北'];
const CHANNELS = ['线上', '门店', '代理'];

// the file: day, region, channel, amount, qty — deterministic, so every run uploads the same bytes
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-csv-'));
const file = path.join(dir, 'sales.csv');
{
  const lines = ['day,region,channel,amount,qty'];
  let x = 12345;
  const rnd = () => (x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const start = Date.UTC(2024, 0, 1);
  for (let i = 0; i < ROWS; i++) {
    const day = new Date(start + Math.floor((i / ROWS) * 1095) * 86_400_000).toISOString().slice(0, 10);
    lines.push(`${day},${REGIONS[Math.floor(rnd() * REGIONS.length)]},${CHANNELS[Math.floor(rnd() * CHANNELS.length)]},${(rnd() * 1000).toFixed(2)},${1 + Math.floor(rnd() * 9)}`);
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
}
const bytes = readFileSync(file);
console.log(`CSV: ${ROWS.toLocaleString()} rows, ${(bytes.length / 1024 / 1024).toFixed(1)} MB`);

// the same rows in PostgreSQL
const admin = new pg.Client(PG_SERVER);
await admin.connect();
const exists = await admin.query('select 1 from pg_database where datname = $1', [DB]);
if (!exists.rowCount) await admin.query(`create database ${DB}`);
await admin.end();
const direct = new pg.Client(urlFor(DB));
await direct.connect();
await direct.query('drop table if exists sales; create table sales(day date, region text, channel text, amount numeric(12,2), qty integer)');
const t0 = performance.now();
await direct.query(`copy sales from '${file}' with (format csv, header true)`).catch(async () => {
  // the server cannot read the bench's file (another machine or user): insert from here in chunks
  const rows = bytes.toString('utf8').trim().split('\n').slice(1);
  for (let i = 0; i < rows.length; i += 5000) {
    const chunk = rows.slice(i, i + 5000).map((l) => l.split(','));
    const values = chunk.map((_, k) => `($${k * 5 + 1}, $${k * 5 + 2}, $${k * 5 + 3}, $${k * 5 + 4}, $${k * 5 + 5})`).join(', ');
    await direct.query(`insert into sales values ${values}`, chunk.flat());
  }
});
await direct.query('analyze sales');
const pgLoadMs = performance.now() - t0;

const s = await startServer({ DATASET_FILE_MAX_MB: '200' });
try {
  // the upload, as the dataset editor sends it
  const form = new FormData();
  form.append('mode', 'commit');
  form.append('action', 'create');
  form.append('name', 'csv_sales');
  form.append('file', new Blob([new Uint8Array(bytes)]), 'sales.csv');
  const u0 = performance.now();
  const res = await fetch(`${s.base}/api/dataset/file/upload`, { method: 'POST', headers: s.auth, body: form });
  const uploadMs = performance.now() - u0;
  const made = (await res.json()) as { status: number; msg: string; data: Array<{ id: number }> };
  if (made.status !== 0) throw new Error(made.msg);
  const fileId = made.data[0].id;
  const fileInfo = await s.call<{ fields: DatasetField[] } & Record<string, unknown>>('GET', `/api/dataset/info/get?id=${fileId}`);
  await s.call('POST', '/api/dataset/info/save', { ...fileInfo, id: fileId, cacheTtl: 0 });

  const u = new URL(PG_SERVER);
  const dsId = await s.call<number>('POST', '/api/gemini/datasource/info/save', { dsName: 'bench_csv', dbType: 'postgresql', hostName: u.hostname, port: Number(u.port || 5432), dbName: DB, username: decodeURIComponent(u.username) || 'postgres', pwd: decodeURIComponent(u.password) || 'unused' });
  const definition = { table: { schema: 'public', table: 'sales' } };
  const fields = await s.call<DatasetField[]>('POST', '/api/dataset/fields', { kind: 'table', dsId, definition });
  const pgId = await s.call<number>('POST', '/api/dataset/info/save', { name: 'pg_sales', kind: 'table', dsId, definition, fields, cacheTtl: 0 });

  const f = Object.fromEntries(fileInfo.fields.map((x) => [x.label, x.name]));
  const question = (datasetId: number, day: string, region: string, amount: string): DatasetQuery => ({ datasetId, dimensions: [{ field: day, dateGroup: 'month' }, { field: region }], measures: [{ field: amount, agg: 'sum' }] });
  const qFile = question(fileId, f.day, f.region, f.amount);
  const qPg = question(pgId, 'day', 'region', 'amount');
  const ask = async (q: DatasetQuery) => {
    const [a] = await s.call<Array<{ rows: Array<Record<string, unknown>>; cached: boolean; error?: string }>>('POST', '/api/dataset/query', { queries: [q] });
    if (a.error) throw new Error(a.error);
    if (a.cached) throw new Error('expected a live answer');
    return a.rows;
  };
  // the same answer on both engines (groups and total, to the cent)
  const total = (rows: Array<Record<string, unknown>>, key: string) => Math.round(rows.reduce((n, r) => n + Number(r[key]), 0) * 100);
  const a = await ask(qFile);
  const b = await ask(qPg);
  if (a.length !== b.length || total(a, `${f.amount}_sum`) !== total(b, 'amount_sum')) throw new Error(`answers differ: ${a.length} vs ${b.length} groups`);

  const times = { duckdb: [] as number[], postgresql: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const [k, q] of [['duckdb', qFile], ['postgresql', qPg]] as const) {
      const t = performance.now();
      await ask(q);
      times[k].push(performance.now() - t);
    }
  }
  const d = median(times.duckdb);
  const p = median(times.postgresql);
  console.log(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}, ${os.cpus().length} cores`);
  console.log(`upload (commit, over HTTP): ${(uploadMs / 1000).toFixed(2)} s  (PostgreSQL COPY of the same file: ${(pgLoadMs / 1000).toFixed(2)} s)`);
  console.log(`sum of amount by month and region, ${a.length} groups, median of ${ROUNDS}: DuckDB ${d.toFixed(0)} ms, PostgreSQL ${p.toFixed(0)} ms  → PostgreSQL / DuckDB ${(p / d).toFixed(2)}`);
} finally {
  await s.stop();
  await direct.end();
  rmSync(dir, { recursive: true, force: true });
}
