// bench/dataset/viewers.ts: 100 viewers of one screen of 20 dataset charts refreshing every 5 s, on the 10,000,000-row
// PostgreSQL fact table (issue 35), measured in one run (npx tsx bench/dataset/viewers.ts; README.md beside it).
// One viewer = one POST /api/dataset/query with the screen's 20 queries (as the screen sends its charts' queries
// together), every PERIOD ms for ROUNDS rounds; viewer i starts i × PERIOD / VIEWERS ms after the first (viewers
// open the screen at different moments), or all at once with BENCH_STAGGER=0.
//   single viewer   one viewer alone whose call runs its 20 statements (a dataset with cacheTtl 0), median of 5
//   100 viewers     for each cacheTtl in BENCH_TTLS (default 60,5,0: the product's default, the refresh period, live), on a
//                   dataset of its own; BENCH_MAX_ACTIVE sets the data source's pool (default 20)
// Counted on the database side, in PostgreSQL's own statistics: the scans of the fact table (pg_stat_user_tables
// seq_scan + idx_scan of `sales`; each chart's statement reads it once). The data source connects as a role without
// parallel query (setup.ts, SERIAL_ROLE): PostgreSQL 15 counts each parallel worker's scan too. A backend keeps its
// counts for 10 s or more before publishing them, except when it exits: before each reading the pool's idle
// connections are ended from the database side (pg_terminate_backend; the pool opens new ones), so each reading is
// exact. Checked against log_statement on the role (2026-11-28, three runs: 692, 678 and 292 statements logged, as
// many scans counted). pg_stat_database's xact_commit was tried first and counts more than the statements (parallel
// workers, connection starts, and at times tens of commits more with nothing logged): README.md.
// Targets: fact-table statements per refresh ≤ 20 (one per distinct query); a viewer's p95 answer time ≤ 2 × a single viewer's.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { DatasetQuery } from '../../common/dataset.js';
import { addDataset, BENCH_DB, ensureFactTable, ensureSerialRole, SERIAL_ROLE, median, percentile, registerSource, ROWS, startServer, urlFor } from './setup.js';

const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 100);
const PERIOD = Number(process.env.BENCH_PERIOD_MS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TTLS = (process.env.BENCH_TTLS ?? '60,5,0').split(',').filter((x) => x.trim() !== '').map(Number);
const STAGGER = process.env.BENCH_STAGGER !== '0';
/** the data source's pool size (maxActive); the product's default, 20, unless set */
const MAX_ACTIVE = process.env.BENCH_MAX_ACTIVE ? Number(process.env.BENCH_MAX_ACTIVE) : undefined;

/** The screen: 20 charts on the last month of the table (the screen's period filter), each a distinct query. */
function screen(datasetId: number): DatasetQuery[] {
  const period = [{ field: 'sold_on', op: 'gte' as const, value: '2026-12-01' }];
  const day = { field: 'sold_on', dateGroup: 'day' as const };
  const q = (dimensions: DatasetQuery['dimensions'], measures: DatasetQuery['measures'], extra: Partial<DatasetQuery> = {}): DatasetQuery => ({ datasetId, dimensions, measures, filters: period, ...extra });
  return [
    q([], [{ field: 'amount', agg: 'sum' }]),
    q([], [{ field: 'id', agg: 'count' }]),
    q([], [{ field: 'qty', agg: 'sum' }]),
    q([], [{ field: 'amount', agg: 'avg' }]),
    q([{ field: 'region' }], [{ field: 'amount', agg: 'sum' }]),
    q([{ field: 'channel' }], [{ field: 'amount', agg: 'sum' }]),
    q([day], [{ field: 'amount', agg: 'sum' }], { sort: [{ field: 'sold_on', dir: 'asc' }] }),
    q([day], [{ field: 'id', agg: 'count' }], { sort: [{ field: 'sold_on', dir: 'asc' }] }),
    q([{ field: 'region' }], [{ field: 'qty', agg: 'sum' }]),
    q([{ field: 'product_id' }], [{ field: 'amount', agg: 'sum' }], { top: { n: 10, rest: 'drop' } }),
    q([{ field: 'channel' }], [{ field: 'amount', agg: 'avg' }]),
    q([{ field: 'region' }, { field: 'channel' }], [{ field: 'amount', agg: 'sum' }]),
    q([{ field: 'region' }], [{ field: 'amount', agg: 'max' }]),
    q([{ field: 'channel' }], [{ field: 'amount', agg: 'min' }]),
    q([{ field: 'region' }], [{ field: 'product_id', agg: 'countDistinct' }]),
    q([day], [{ field: 'qty', agg: 'sum' }], { sort: [{ field: 'sold_on', dir: 'asc' }] }),
    q([{ field: 'sold_on', dateGroup: 'week' }], [{ field: 'amount', agg: 'sum' }]),
    q([{ field: 'channel' }], [{ field: 'id', agg: 'count' }]),
    q([{ field: 'product_id' }], [{ field: 'qty', agg: 'sum' }]),
    q([{ field: 'region' }], [{ field: 'qty', agg: 'avg' }]),
  ];
}

await ensureFactTable();
await ensureSerialRole();
// the data source's connections are ended from another database
const stats = new pg.Client(urlFor('postgres'));
await stats.connect();
// the fact table's counts can only be read in its own database: this connection never reads the table itself
const factStats = new pg.Client(urlFor(BENCH_DB));
await factStats.connect();
/** The fact table's scans so far, once the data source's connections have ended (a backend publishes its counts as it exits). */
async function scans(): Promise<number> {
  for (let i = 0; ; i++) {
    const r = await stats.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and usename = $2 and state = 'idle'`, [BENCH_DB, SERIAL_ROLE]);
    const left = await stats.query('select count(*)::int as n from pg_stat_activity where datname = $1 and usename = $2', [BENCH_DB, SERIAL_ROLE]);
    if (!r.rowCount && !left.rows[0].n) break;
    if (i > 100) throw new Error("the data source's connections did not end");
    await new Promise((res) => setTimeout(res, 100));
  }
  // the pool hears of its ended connections and drops them before the next call
  await new Promise((res) => setTimeout(res, 300));
  const t = await factStats.query(`select coalesce(seq_scan, 0) + coalesce(idx_scan, 0) as n from pg_stat_user_tables where relid = 'public.sales'::regclass`);
  return Number(t.rows[0].n);
}
const s = await startServer();
try {
  const dsId = await registerSource(s, SERIAL_ROLE, MAX_ACTIVE);
  type Answer = { rows: unknown[]; cached: boolean; error?: string };
  /** One viewer's refresh: the screen's queries in one call; answers the time and how many answers came from the cache. */
  const view = async (queries: DatasetQuery[]) => {
    const t0 = performance.now();
    const res = await fetch(`${s.base}/api/dataset/query`, { method: 'POST', headers: { 'content-type': 'application/json', ...s.auth }, body: JSON.stringify({ queries }) });
    const json = (await res.json()) as { status: number; msg: string; data: Answer[] };
    const ms = performance.now() - t0;
    if (json.status !== 0) throw new Error(json.msg);
    const failed = json.data.find((a) => a.error);
    if (failed) throw new Error(failed.error);
    return { ms, cached: json.data.filter((a) => a.cached).length };
  };

  // one viewer alone, every statement run (cacheTtl 0)
  const live = await addDataset(s, dsId, 'sales_single', 0);
  const single = screen(live);
  if (new Set(single.map((q) => JSON.stringify(q))).size !== 20) throw new Error('the screen should ask 20 distinct queries');
  let c0 = await scans();
  await view(single);
  const singleTimes: number[] = [];
  for (let i = 0; i < 5; i++) singleTimes.push((await view(single)).ms);
  const singleScans = (await scans()) - c0;
  const singleMs = median(singleTimes);
  console.log(`${ROWS.toLocaleString('en')} rows; the screen's 20 queries over the last month (${(ROWS / 1096 * 31).toFixed(0)} rows, by the index on the day)`);
  console.log(`single viewer: median ${singleMs.toFixed(0)} ms (${singleTimes.map((x) => x.toFixed(0)).join(', ')}); ${singleScans} fact-table statements for 6 calls with the first (${(singleScans / 6).toFixed(1)} a call)`);

  const results: Array<{ ttl: number; perRefresh: number; p95: number; p50: number; max: number; cachedShare: number }> = [];
  for (const ttl of TTLS) {
    const id = await addDataset(s, dsId, `sales_ttl${ttl}`, ttl);
    const queries = screen(id);
    c0 = await scans();
    const times: number[] = [];
    let cached = 0;
    const start = performance.now() + 50;
    const at = (t: number) => new Promise((r) => setTimeout(r, Math.max(0, t - performance.now())));
    await Promise.all(
      Array.from({ length: VIEWERS }, async (_, v) => {
        const offset = STAGGER ? (v * PERIOD) / VIEWERS : 0;
        const calls: Array<Promise<void>> = [];
        // a refresh timer: each round at its time, whether or not the previous answer has arrived
        for (let r = 0; r < ROUNDS; r++) {
          await at(start + offset + r * PERIOD);
          calls.push(
            view(queries).then((x) => {
              times.push(x.ms);
              cached += x.cached;
            }),
          );
        }
        await Promise.all(calls);
      }),
    );
    const wall = performance.now() - start;
    const n = (await scans()) - c0;
    const r = { ttl, perRefresh: n / ROUNDS, p95: percentile(times, 95), p50: median(times), max: Math.max(...times), cachedShare: cached / (times.length * 20) };
    results.push(r);
    console.log(
      `${VIEWERS} viewers, cacheTtl ${ttl}: ${times.length} calls in ${(wall / 1000).toFixed(1)} s; ${n} fact-table statements (${r.perRefresh.toFixed(1)} a refresh); answer p50 ${r.p50.toFixed(0)} ms, p95 ${r.p95.toFixed(0)} ms, max ${r.max.toFixed(0)} ms; ${(r.cachedShare * 100).toFixed(1)} % of answers from the cache`,
    );
  }

  console.log(`\ncompiled server; cache ${process.env.REDIS_URL ? 'in Redis' : 'in-process'}; viewers ${STAGGER ? 'staggered over the period' : 'all at once'}; pool of ${MAX_ACTIVE ?? 20}; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  for (const r of results) {
    console.log(`cacheTtl ${String(r.ttl).padEnd(3)} fact-table statements per refresh = ${r.perRefresh.toFixed(1)}  (target ≤ 20)`);
    console.log(`cacheTtl ${String(r.ttl).padEnd(3)} viewer p95 / single               = ${(r.p95 / singleMs).toFixed(2)}  (target ≤ 2; ${r.p95.toFixed(0)} vs ${singleMs.toFixed(0)} ms)`);
  }
} finally {
  await s.stop();
  await stats.end();
  await factStats.end();
}
