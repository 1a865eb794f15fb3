// bench/dataset/query.ts: one chart's answer on a 10,000,000-row PostgreSQL fact table (issue 35), ratios measured in
// one run (npx tsx bench/dataset/query.ts; README.md beside it).
//   route uncached  POST /api/dataset/query, sum of amount by month and region, on a dataset with cacheTtl 0
//                   (every call runs the statement), over HTTP against the compiled server in a process of its own
//   pg              the route's own statement (compile.ts, the dataset's saved fields), sent straight through `pg` on a
//                   connection of this process: the same GROUP BY, what the database alone does
//   pg hand-written `select to_char(sold_on, 'YYYY-MM'), region, sum(amount) … group by 1, 2` as one would type it
//   route cached    the same query on a second dataset of the same table with cacheTtl 3600, once answered
// Targets: route uncached ≤ 1.1 × pg; route cached ≥ 20 × faster than route uncached. Medians of BENCH_ROUNDS (9)
// interleaved rounds after one warm-up, and of 50 cached calls; the ratio of the fastest runs is printed too.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { DatasetField, DatasetQuery } from '../../common/dataset.js';
import { buildQuery } from '../../server-stub/modules/dataset/compile.js';
import { addDataset, BENCH_DB, ensureFactTable, median, registerSource, ROWS, startServer, urlFor } from './setup.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const CACHED_CALLS = Number(process.env.BENCH_CACHED_CALLS ?? 50);
const HAND = `select to_char(sold_on, 'YYYY-MM') as month, region, sum(amount) as amount from sales group by 1, 2`;

await ensureFactTable();
const direct = new pg.Client(urlFor(BENCH_DB));
await direct.connect();
const s = await startServer();
try {
  const dsId = await registerSource(s);
  const live = await addDataset(s, dsId, 'sales_live', 0);
  const cachedId = await addDataset(s, dsId, 'sales_cached', 3600);
  const question = (datasetId: number): DatasetQuery => ({ datasetId, dimensions: [{ field: 'sold_on', dateGroup: 'month' }, { field: 'region' }], measures: [{ field: 'amount', agg: 'sum' }] });
  const ask = async (datasetId: number) => {
    const [a] = await s.call<Array<{ rows: Array<Record<string, unknown>>; cached: boolean; error?: string }>>('POST', '/api/dataset/query', { queries: [question(datasetId)] });
    if (a.error) throw new Error(a.error);
    return a;
  };

  // the statement the route sends, compiled from the saved dataset as the server does
  const info = await s.call<{ fields: DatasetField[] }>('GET', `/api/dataset/info/get?id=${live}`);
  const st = buildQuery({ dialect: 'postgresql', source: { kind: 'table', schema: 'public', table: 'sales' }, fields: info.fields }, question(live), () => null);
  if (Object.keys(st.params).length) throw new Error('expected a statement without parameters');
  console.log(`route's statement: ${st.sql}`);
  // the same answer every way
  const mine = await ask(live);
  const hand = await direct.query(HAND);
  const same = await direct.query(st.sql);
  if (same.rows.length !== hand.rows.length) throw new Error('the route statement and the hand-written one differ');
  const total = (xs: number[]) => xs.reduce((x, y) => x + y, 0);
  const a = total(mine.rows.map((r) => Number(r.amount_sum)));
  const b = total(hand.rows.map((r) => Number(r.amount)));
  if (mine.rows.length !== hand.rows.length || Math.abs(a - b) > 0.01 * Math.max(1, mine.rows.length)) throw new Error(`answers differ: ${mine.rows.length} rows, ${a} vs ${hand.rows.length} rows, ${b}`);
  console.log(`${ROWS.toLocaleString('en')} rows; ${mine.rows.length} groups (month × region), sum ${a.toFixed(2)} both ways`);

  const times = { route: [] as number[], pg: [] as number[], hand: [] as number[] };
  for (let i = 0; i < ROUNDS + 1; i++) {
    // interleaved (warm-up round first), so that the machine's drift touches both alike
    let t0 = performance.now();
    const r = await ask(live);
    const tRoute = performance.now() - t0;
    if (r.cached) throw new Error('cacheTtl 0 answered from the cache');
    t0 = performance.now();
    await direct.query(st.sql);
    const tPg = performance.now() - t0;
    t0 = performance.now();
    await direct.query(HAND);
    const tHand = performance.now() - t0;
    if (i > 0) {
      times.route.push(tRoute);
      times.pg.push(tPg);
      times.hand.push(tHand);
    }
  }

  await ask(cachedId);
  const cachedTimes: number[] = [];
  for (let i = 0; i < CACHED_CALLS; i++) {
    const t0 = performance.now();
    const r = await ask(cachedId);
    cachedTimes.push(performance.now() - t0);
    if (!r.cached) throw new Error('the cached dataset answered uncached');
  }

  const mRoute = median(times.route);
  const mPg = median(times.pg);
  const mHand = median(times.hand);
  const mCached = median(cachedTimes);
  console.log(`route uncached  median ${mRoute.toFixed(1)} ms  (${times.route.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`pg              median ${mPg.toFixed(1)} ms  (${times.pg.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`pg hand-written median ${mHand.toFixed(1)} ms  (${times.hand.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`route cached    median ${mCached.toFixed(2)} ms  (${CACHED_CALLS} calls; min ${Math.min(...cachedTimes).toFixed(2)}, max ${Math.max(...cachedTimes).toFixed(2)})`);
  console.log(`\ncompiled server; cache ${process.env.REDIS_URL ? 'in Redis' : 'in-process'}; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log(`route uncached / pg      = ${(mRoute / mPg).toFixed(2)}  (target ≤ 1.1: the route's statement through pg; medians)`);
  // on a loaded machine a single run can fall on a busy second: the fastest of each shows what the route itself adds
  console.log(`  fastest of each         = ${(Math.min(...times.route) / Math.min(...times.pg)).toFixed(2)}`);
  console.log(`route uncached / pg hand = ${(mRoute / mHand).toFixed(2)}  (the hand-written GROUP BY: to_char of a date casts it to timestamptz)`);
  console.log(`route uncached / cached  = ${(mRoute / mCached).toFixed(0)}  (target ≥ 20)`);
} finally {
  await s.stop();
  await direct.end();
}
