// Issue 39 item 1 on several instances: two instances of one deployment on one PostgreSQL store (pg-boss beside it)
// and one Redis. Many jobs due in the same minute each run exactly once, spread over both instances; a run queued
// by one instance and not yet taken is run by the other when the first stops.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../testing/server.js';
import { twoInstancesForSuite } from '../../testing/deployment.js';
import { GOODS_SQL, publishApi, sqliteFixture } from '../../testing/sqlite.js';
import { RUN } from './index.js';
import { waitFor } from '../../testing/wait.js';

const pgUrl = process.env.PG_URL;
const redisUrl = process.env.REDIS_URL;
const JOBS = 60;

describe.skipIf(!pgUrl || !redisUrl)('定时任务 on two instances (PostgreSQL + Redis)', () => {
  const two = twoInstancesForSuite({ JOB_POLL_MS: '100', JOB_CONCURRENCY: '4' });
  let a: TestServer;
  beforeAll(async () => {
    a = two.a;
    await sqliteFixture({ ...a, dataDir: two.dataDir } as TestServer, 'shop.db', GOODS_SQL, 'shop');
    await publishApi(a, 'goods_two', 'select name from goods order by id');
  });

  it(`${JOBS} jobs due in the same minute: each runs exactly once, on one instance or the other`, async () => {
    expect(a.app.scheduler.engine).toBe('pg-boss');
    for (let i = 0; i < JOBS; i++) {
      const r = await a.request('POST', '/api/job/job/save', { jobName: `两实例-${i}`, kind: 'api', target: 'goods_two', cron: '0 0 1 1 *', tz: 'UTC', status: 0, overlap: 0, retries: 1, timeoutSeconds: 60 });
      expect(r.body.status, r.body.msg).toBe(0);
    }
    const db = a.app.ctx.db;
    const ids = (await db.selectFrom('sys_job').select('id').where('job_name', 'like', '两实例-%').execute()).map((r) => r.id);
    expect(ids).toHaveLength(JOBS);
    // the minute comes for all of them at once, on both instances' clocks
    await db.updateTable('sys_job').set({ next_due: Math.floor(Date.now() / 60_000) }).where('id', 'in', ids).execute();
    const runs = await waitFor(
      () => db.selectFrom('sys_job_log').select(['job_id', 'status', 'instance', 'attempts', 'message']).where('job_id', 'in', ids).execute(),
      (rows) => rows.length >= JOBS && rows.every((r) => r.status >= RUN.ok),
      60_000,
    );
    await new Promise((r) => setTimeout(r, 1000)); // a second claim would show by now
    const again = await db.selectFrom('sys_job_log').select(['job_id']).where('job_id', 'in', ids).execute();
    expect(again).toHaveLength(JOBS);
    expect(new Set(runs.map((r) => r.job_id)).size).toBe(JOBS);
    expect(runs.every((r) => r.status === RUN.ok && r.attempts === 1)).toBe(true);
    // both instances took runs from the queue
    expect(new Set(runs.map((r) => r.instance))).toEqual(new Set(['a', 'b']));
    // and every job's next due time moved on
    const next = await db.selectFrom('sys_job').select('next_due').where('id', 'in', ids).execute();
    expect(next.every((r) => (r.next_due ?? 0) > Math.floor(Date.now() / 60_000))).toBe(true);
  });
});
