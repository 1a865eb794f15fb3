// bench/data-scope: page 1 of a page on a 1,000,000-row PostgreSQL table under a data scope (issue 34) against the
// same page without one, ratios measured in one run (npx tsx bench/data-scope/run.ts; needs PG_URL).
// 100 departments four levels deep are made in the platform store (4 at the top, 3 below each, 3 below those, then
// 48 at the fourth level, spread over the third-level ones in turn); the table's rows are spread over them evenly
// (dept_id, indexed) and over 1,000 owners. The page names owner_id and dept_id as its owner and department columns.
// A user of the first top department whose role's scope is 本部门及以下 (31 departments, 31 % of the rows) and the
// administrator (全部) ask for page 1 over HTTP, interleaved round by round.
// Target: page 1 under the scope ≤ 1.3 × page 1 without it.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { encryptFor, startTestServer } from '../../server-stub/testing/server.js';

if (!process.env.PG_URL) throw new Error('PG_URL is not set');
const PG_URL: string = process.env.PG_URL;
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const schema = 'bench_data_scope';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const s = await startTestServer({});
  const c = new pg.Client(PG_URL);
  await c.connect();
  try {
    const must = async (method: 'GET' | 'POST', path: string, body?: unknown, token?: string) => {
      const r = await s.request(method, path, body, token);
      if (r.body.status !== 0) throw new Error(`${path}: ${r.body.msg}`);
      return r.body.data;
    };
    // 100 departments, depth 4 (the store is new each run: ids 1…100 in this order)
    const depts: number[] = [];
    const add = async (name: string, parentId: number) => {
      const id = await must('POST', '/api/system/dept/save', { deptName: name, parentId, orderNum: 0 });
      depts.push(id);
      return id;
    };
    const tops: number[] = [];
    const third: number[] = [];
    for (let a = 0; a < 4; a++) {
      const top = await add(`部门${a}`, 0);
      tops.push(top);
      for (let b = 0; b < 3; b++) {
        const mid = await add(`部门${a}-${b}`, top);
        for (let k = 0; k < 3; k++) third.push(await add(`部门${a}-${b}-${k}`, mid));
      }
    }
    // 4 + 12 + 36 = 52 so far; then 48 at the fourth level, below the third-level ones in turn
    for (let i = 0; depts.length < 100; i++) await add(`末级${i}`, third[i % third.length]);
    if (depts.length !== 100) throw new Error(`${depts.length} departments`);

    const have = await c.query(`select count(*)::int as n from information_schema.tables where table_schema = $1 and table_name = 'orders'`, [schema]);
    const sameDepts = have.rows[0].n ? (await c.query(`select count(distinct dept_id)::int as n, min(dept_id) as lo, max(dept_id) as hi from ${schema}.orders`)).rows[0] : null;
    if (!have.rows[0].n || process.env.BENCH_REBUILD || !(sameDepts?.n === 100 && sameDepts.lo === Math.min(...depts) && sameDepts.hi === Math.max(...depts))) {
      console.log(`building ${schema}.orders with ${ROWS} rows…`);
      await c.query(`drop schema if exists ${schema} cascade; create schema ${schema};
        create table ${schema}.orders(id int generated always as identity primary key, title varchar(40) not null, amount numeric(10,2), owner_id int not null, dept_id int not null, created timestamp not null default now());
        insert into ${schema}.orders(title, amount, owner_id, dept_id, created)
          select 'order ' || g, (g % 100000) / 100.0, 1 + g % 1000, (array[${depts.join(',')}])[1 + g % 100], timestamp '2026-01-01' + g * interval '1 second' from generate_series(1, ${ROWS}) g;
        create index ix_orders_dept on ${schema}.orders(dept_id);
        create index ix_orders_owner on ${schema}.orders(owner_id);`);
      await c.query(`vacuum analyze ${schema}.orders`);
    }

    const u = new URL(PG_URL);
    const dsId = await must('POST', '/api/gemini/datasource/info/save', { dsName: 'bench_scope', dbType: 'postgresql', hostName: u.hostname, port: Number(u.port || 5432), dbName: u.pathname.slice(1), username: u.username || 'postgres', pwd: 'unused' });
    const gen = await must('POST', '/api/lowcode/source/generate', { dsId, table: 'orders', schema, pageKey: 'bench_scope' });
    gen.declaration.source = { ...gen.declaration.source, ownerColumn: 'owner_id', deptColumn: 'dept_id' };
    const roleId = await must('POST', '/api/system/role/save', { roleName: '本部门及以下', roleKey: 'bench_below', roleType: 'default', orderNum: 9, dataScope: '4', permKeys: [] });
    await must('POST', '/api/lowcode/page/save', { pageKey: 'bench_scope', declaration: gen.declaration, published: true, roles: ['bench_below'] });
    await s.app.ctx.db.insertInto('sys_role_permission').values({ role_id: roleId, permission: 'lowcode:bench_scope:list' }).execute();
    const made = await must('POST', '/api/system/user/save', { username: 'bench.scope', nickName: 'bench', roleIds: [roleId], deptId: tops[0], status: 0 });
    const pem = (await s.request<string>('GET', '/api/uams/publicKey', undefined, null)).body.data;
    const first = await s.loginAs('bench.scope', made.password);
    const token = (await must('POST', '/api/uams/user/password', { oldPassword: encryptFor(pem, made.password), newPassword: encryptFor(pem, 'Bench#Pass2026') }, first)).token as string;
    const scope = await s.app.org.scopeOf({ id: made.id, username: 'bench.scope', nickName: 'bench', roles: ['bench_below'], permissions: ['lowcode:bench_scope:list'] });
    console.log(`scope: ${scope.deptIds.length} departments of 100`);

    const search = async (tok?: string) => {
      const r = await s.request('POST', '/api/lowcode/data/bench_scope/search', { pageSize: 10 }, tok);
      if (r.body.status !== 0) throw new Error(r.body.msg);
      return r.body.data;
    };
    const all = await search();
    const scoped = await search(token);
    console.log(`without scope: total ${all.total}${all.totalEstimated ? ' (estimated)' : ''}; under scope: total ${scoped.total}${scoped.totalEstimated ? ' (estimated)' : ''}`);
    if (scoped.records.some((r: any) => !scope.deptIds.includes(r.dept_id))) throw new Error('a row outside the scope');

    const cases: Record<string, () => Promise<unknown>> = { 'page 1, 全部': () => search(), 'page 1, 本部门及以下': () => search(token) };
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
    for (let i = 0; i < ROUNDS + 3; i++) {
      for (const [k, f] of Object.entries(cases)) {
        const t0 = performance.now();
        await f();
        if (i >= 3) times[k].push(performance.now() - t0);
      }
    }
    const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
    for (const [k, v] of Object.entries(m)) console.log(`${k.padEnd(16)} median ${v.toFixed(2)} ms`);
    console.log(`ratio page 1 under scope / without: ${(m['page 1, 本部门及以下'] / m['page 1, 全部']).toFixed(2)} (target ≤ 1.3)`);
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
