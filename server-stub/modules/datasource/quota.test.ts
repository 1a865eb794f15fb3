// Security regression: one account cannot hold every data-source process. Each data source runs in a process of
// its own and at most 16 run at once; before the per-caller quota, a developer sending long statements to 16
// data sources left every other user 同时使用的数据源过多. Here the quota is 1 data source per caller: the
// developer's second data source waits for the first, over real HTTP, while the admin is not held up.
import { startTestServer, type TestServer } from '../../testing/server.js';
import { GOODS_SQL, sqliteFixture } from '../../testing/sqlite.js';

/** About 1.5–3 s of SQLite work on this machine; long enough for the other calls to overtake it. */
const SLOW = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 12000000) SELECT count(*) AS n FROM c';
const FAST = 'select count(*) as n from goods';

describe('a caller keeps at most SQL_SOURCES_PER_CALLER data sources busy', () => {
  let s: TestServer;
  let dev: string;
  let admin: string;

  beforeAll(async () => {
    s = await startTestServer({ env: { SQL_SOURCES_PER_CALLER: '1' } });
    await sqliteFixture(s, 'one.db', GOODS_SQL, 'one');
    await sqliteFixture(s, 'two.db', GOODS_SQL, 'two');
    dev = await s.loginAs('developer');
    admin = await s.loginAs('admin');
  });
  afterAll(async () => {
    await s?.close();
  });

  const run = (dsName: string, script: string, token: string) => s.request('POST', '/api/gemini/sqlQuery/execute', { queryType: 'SQL', dsName, script }, token);

  it("the developer's statement on a second data source waits for the first; the admin's does not", async () => {
    // both data sources' processes started first, so that start-up time does not decide the order
    for (const ds of ['one', 'two']) expect((await run(ds, FAST, dev)).body).toMatchObject({ status: 0, data: { rows: [{ n: 3 }] } });

    const finished: string[] = [];
    const mark = (name: string) => (r: Awaited<ReturnType<typeof run>>) => {
      finished.push(name);
      return r;
    };
    const slow = run('one', SLOW, dev).then(mark('dev slow on one'));
    await new Promise((r) => setTimeout(r, 200));
    const devOther = run('two', FAST, dev).then(mark('dev fast on two'));
    const devSame = run('one', FAST, dev).then(mark('dev fast on one'));
    const adminOther = run('two', FAST, admin).then(mark('admin fast on two'));
    const answers = await Promise.all([slow, devOther, devSame, adminOther]);
    for (const r of answers) expect(r.body, r.body.msg).toMatchObject({ status: 0 });

    // the admin is not held up by the developer's share (a statement on the data source the developer already
    // uses is within the share too; SQLite runs it after the slow one, so only its answer is checked)
    expect(finished.indexOf('admin fast on two')).toBeLessThan(finished.indexOf('dev slow on one'));
    // the developer's second data source waited for the first
    expect(finished.indexOf('dev fast on two')).toBeGreaterThan(finished.indexOf('dev slow on one'));
  });
});
