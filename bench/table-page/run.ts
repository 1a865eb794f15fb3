// bench/table-page: a page generated on a 1,000,000-row PostgreSQL table (issue 24 item 5), ratios measured in one
// run (npx tsx bench/table-page/run.ts; needs PG_URL). The real server (server-stub/testing: SQLite store, the
// PostgreSQL table registered as a data source) answers POST /api/lowcode/data/<page>/search over HTTP; the
// hand-written statement runs through the very same path below the route (app.sql.run: the data source's pool
// process), so the ratio is the route's own cost plus its SQL's against the hand-written SQL's.
//   page 1              the route, first page (10 rows, newest first)
//   page 10,000         the route, rows 99,991–100,000 (deferred join: the window of keys first, then their rows)
//   after cursor        the route, the same rows by the keyset cursor (`after`: no OFFSET)
//   hand LIMIT/OFFSET   SELECT … ORDER BY id DESC LIMIT 10 OFFSET 99990 through app.sql.run
//   hand keyset         SELECT … WHERE id < … ORDER BY id DESC LIMIT 10 through app.sql.run
// and the two SQL forms on the bare connection (pg), for what the database alone does.
// Targets: page 10,000 ≤ 2 × page 1; page 10,000 ≤ 1.2 × the hand-written SELECT … LIMIT of the same rows.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startTestServer } from '../../server-stub/testing/server.js';

if (!process.env.PG_URL) throw new Error('PG_URL is not set');
const PG_URL: string = process.env.PG_URL;
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const schema = 'bench_table_page';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const c = new pg.Client(PG_URL);
  await c.connect();
  const have = await c.query(`select count(*)::int as n from information_schema.tables where table_schema = $1 and table_name = 'big'`, [schema]);
  if (!have.rows[0].n || process.env.BENCH_REBUILD) {
    console.log(`building ${schema}.big with ${ROWS} rows…`);
    await c.query(`drop schema if exists ${schema} cascade; create schema ${schema};
      create table ${schema}.big(id int generated always as identity primary key, name varchar(40) not null, price numeric(10,2), active boolean not null default true, created timestamp not null default now(), note text);
      insert into ${schema}.big(name, price, active, created, note) select 'name ' || g, (g % 100000) / 100.0, g % 3 <> 0, timestamp '2026-01-01' + g * interval '1 second', repeat('x', 40) from generate_series(1, ${ROWS}) g;
      analyze ${schema}.big;`);
    // as autovacuum leaves a table: the visibility map set, so that a scan of the key index needs no row visits
    await c.query(`vacuum analyze ${schema}.big`);
  }
  const s = await startTestServer({});
  try {
    const u = new URL(PG_URL);
    const ds = await s.request('POST', '/api/gemini/datasource/info/save', { dsName: 'bench_pg', dbType: 'postgresql', hostName: u.hostname, port: Number(u.port || 5432), dbName: u.pathname.slice(1), username: u.username || 'postgres', pwd: 'unused' });
    if (ds.body.status !== 0) throw new Error(ds.body.msg);
    const gen = await s.request('POST', '/api/lowcode/source/generate', { dsId: ds.body.data, table: 'big', schema, pageKey: 'bench_big' });
    if (gen.body.status !== 0) throw new Error(gen.body.msg);
    const saved = await s.request('POST', '/api/lowcode/page/save', { pageKey: 'bench_big', declaration: gen.body.data.declaration });
    if (saved.body.status !== 0) throw new Error(saved.body.msg);
    const row = (await s.app.sql.source('datasource', { id: ds.body.data }))!;
    const req = { user: { username: 'admin' }, log: { warn: () => undefined } } as never;

    const search = async (body: object) => {
      const r = await s.request('POST', '/api/lowcode/data/bench_big/search', body);
      if (r.body.status !== 0) throw new Error(r.body.msg);
      return r.body.data;
    };
    const deep = await search({ pageSize: 10, pageNum: 10_000 });
    const p9999 = await search({ pageSize: 10, pageNum: 9_999 });
    const after = p9999.records[p9999.records.length - 1].id;
    const byCursor = await search({ pageSize: 10, after });
    if (JSON.stringify(byCursor.records) !== JSON.stringify(deep.records)) throw new Error('cursor and page 10,000 differ');
    const first = await search({ pageSize: 10 });
    console.log(`total ${first.total}${first.totalEstimated ? ' (estimated)' : ''}; page 10,000 ids ${deep.records[0].id}…${deep.records[9].id}`);
    const cols = '"id", "name", "price", "active", "created", "note"';
    const handOffset = `select ${cols} from "${schema}"."big" order by "id" desc limit 10 offset 99990`;
    const handKeyset = `select ${cols} from "${schema}"."big" where "id" < $1 order by "id" desc limit 10`;
    const ours = `select t."id", t."name", t."price", t."active", t."created", t."note" from "${schema}"."big" t join (select "id" from "${schema}"."big" order by "id" desc limit 10 offset 99990) k on t."id" = k."id" order by k."id" desc`;
    const hand = await s.app.sql.run('datasource', row, handOffset, [], req);
    if (JSON.stringify(hand.rows.map((r) => r.id)) !== JSON.stringify(deep.records.map((r: any) => r.id))) throw new Error('hand-written rows differ');

    const cases: Record<string, () => Promise<unknown>> = {
      'page 1': () => search({ pageSize: 10 }),
      'page 10,000': () => search({ pageSize: 10, pageNum: 10_000 }),
      'after cursor': () => search({ pageSize: 10, after }),
      'hand LIMIT/OFFSET': () => s.app.sql.run('datasource', row, handOffset, [], req),
      'hand keyset': () => s.app.sql.run('datasource', row, handKeyset, [after], req),
      'pg: plain OFFSET': () => c.query(handOffset),
      'pg: deferred join': () => c.query(ours),
    };
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
    for (let i = 0; i < ROUNDS + 3; i++) {
      // interleaved, so that the machine's drift touches every case alike
      for (const [k, f] of Object.entries(cases)) {
        const t0 = performance.now();
        await f();
        if (i >= 3) times[k].push(performance.now() - t0);
      }
    }
    const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
    for (const [k, v] of Object.entries(m)) console.log(`${k.padEnd(18)} median ${v.toFixed(2)} ms`);
    console.log(`ratio page 10,000 / page 1: ${(m['page 10,000'] / m['page 1']).toFixed(2)} (target ≤ 2)`);
    console.log(`ratio page 10,000 / hand LIMIT/OFFSET: ${(m['page 10,000'] / m['hand LIMIT/OFFSET']).toFixed(2)} (target ≤ 1.2)`);
    console.log(`ratio after cursor / page 1: ${(m['after cursor'] / m['page 1']).toFixed(2)}`);
    console.log(`ratio after cursor / hand keyset: ${(m['after cursor'] / m['hand keyset']).toFixed(2)}`);
    console.log(`ratio pg deferred join / plain OFFSET: ${(m['pg: deferred join'] / m['pg: plain OFFSET']).toFixed(2)}`);
  } finally {
    await s.close();
    if (process.env.BENCH_DROP) await c.query(`drop schema ${schema} cascade`);
    await c.end();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
