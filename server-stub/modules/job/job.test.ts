// Issue 39 items 1–2: 定时任务 over real HTTP on every store — cron read and described in Chinese (five next times),
// refused with the reason (seconds, out of range, an unknown zone); a job calling a published API runs when due,
// once, and its run is in the log; 立即运行, 暂停 / 恢复; a job runs as its owner, checked at every run (an owner who
// lost the right or was disabled makes the run fail, never run); no overlap unless allowed; the clean-up job ships
// with the store; the weakest role is refused every call.
import { beforeAll, describe, expect, it } from 'vitest';
import { serverForSuite, testStores, type TestServer } from '../../testing/server.js';
import { addPerson } from '../../testing/people.js';
import { GOODS_SQL, publishApi, sqliteFixture } from '../../testing/sqlite.js';
import { waitFor } from '../../testing/wait.js';
import { RUN } from './index.js';

const J = '/api/job/job';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const jobsOf = async (s: TestServer, token?: string) => (await s.request<any>('POST', `${J}/list`, { pageNum: 1, pageSize: 100 }, token)).body.data.records as any[];
const runsOf = async (s: TestServer, jobId: number) => (await s.request<any>('POST', '/api/job/log/list', { pageNum: 1, pageSize: 100, jobId })).body.data.records as any[];

/** Makes the job due now (its next due minute is this one), as the clock would. */
const dueNow = (s: TestServer, id: number) => s.exec(`update sys_job set next_due = ${Math.floor(Date.now() / 60_000)} where id = ${id}`);

const finished = (rows: any[]) => rows.length > 0 && rows.every((r) => r.status >= RUN.ok);

for (const store of testStores) {
  describe(`定时任务 (${store} store)`, () => {
    const s = serverForSuite({ store, env: { JOB_POLL_MS: '150', LOGINS_PER_MINUTE: '1000' } });
    let apiName: string;
    beforeAll(async () => {
      await sqliteFixture(s, 'shop.db', GOODS_SQL, 'shop');
      apiName = `goods_${store}`;
      await publishApi(s, apiName, 'select name from goods order by id');
    });

    it('queues on pg-boss beside a PostgreSQL store, in-process on SQLite', () => {
      expect(s.app.scheduler.engine).toBe(store === 'pg' ? 'pg-boss' : 'in-process');
    });

    it('reads a cron expression in its time zone, says it in Chinese with the next five times, and refuses what it cannot run', async () => {
      const ok = await s.request<any>('GET', `${J}/cron?cron=${encodeURIComponent('*/5 9-18 * * 1-5')}&tz=Asia/Shanghai`);
      expect(ok.body.data.description).toBe('每隔 5 分钟, 在 09:00 和 18:59 之间, 星期一至星期五');
      expect(ok.body.data.lines).toHaveLength(5);
      expect(ok.body.data.lines[0]).toMatch(/^第 1 次：\d{4}-\d{2}-\d{2} (09|1\d):\d[05]$/);
      const refused = async (cron: string, tz = 'Asia/Shanghai') => (await s.request<any>('GET', `${J}/cron?cron=${encodeURIComponent(cron)}&tz=${encodeURIComponent(tz)}`)).body.msg;
      expect(await refused('*/10 * * * * *')).toBe('Cron 表达式不支持秒：最短每分钟运行一次，请写 5 段（分 时 日 月 周）');
      expect(await refused('61 * * * *')).toBe('第 1 段（分钟）的 61 超出范围 0–59');
      expect(await refused('0 25 * * *')).toBe('第 2 段（小时）的 25 超出范围 0–23');
      expect(await refused('0 0 30 2 *')).toBe('Cron 表达式永远不会运行（所写的日期不存在，如 2 月 30 日）');
      expect(await refused('* * *')).toBe('Cron 表达式须为 5 段（分 时 日 月 周），这里有 3 段');
      expect(await refused("0 8 * * 1'; drop table sys_job; --")).toMatch(/^Cron 表达式须为 5 段|含有不允许的字符/);
      expect(await refused('0 8 * * *', 'Mars/Olympus')).toBe('未知的时区：Mars/Olympus');
      // and a save is refused the same way
      const bad = await s.request('POST', `${J}/save`, { jobName: '每秒', kind: 'cleanLogs', cron: '* * * * * *', tz: 'UTC', status: 0, overlap: 0, retries: 0, timeoutSeconds: 60 });
      expect(bad.body.msg).toBe('Cron 表达式不支持秒：最短每分钟运行一次，请写 5 段（分 时 日 月 周）');
    });

    it('ships the clean-up job, owned by admin, due daily at 03:00', async () => {
      const clean = (await jobsOf(s)).find((j) => j.kind === 'cleanLogs');
      expect(clean).toMatchObject({ jobName: '清理过期日志', cron: '0 3 * * *', status: 0, owner: 'admin', cronText: '在03:00' });
      expect(clean.nextRun).toMatch(/ 03:00$/);
      expect((await s.request('POST', `${J}/run?id=${clean.id}`)).body.msg).toBe('已开始运行，结果见运行记录');
      const [run] = await waitFor(() => runsOf(s, clean.id), finished);
      expect(run).toMatchObject({ status: RUN.ok, trigger: 'manual', attempts: 1 });
      expect(run.message).toMatch(/^删除操作与登录日志 \d+ 条（超过 180 天），任务运行记录 \d+ 条、通知记录 \d+ 条（超过 30 天）$/);
    });

    it('a job calling a published API runs when due, once, and its run is in the log; the next due time moves on', async () => {
      const saved = await s.request<number>('POST', `${J}/save`, { jobName: '每分钟调用', kind: 'api', target: apiName, args: '{}', cron: '* * * * *', tz: 'Asia/Shanghai', status: 0, overlap: 0, retries: 1, timeoutSeconds: 60 });
      expect(saved.body.msg).toBe('保存成功');
      const job = (await jobsOf(s)).find((j) => j.jobName === '每分钟调用');
      expect(job).toMatchObject({ owner: 'admin', cronText: '每分钟', target: apiName });
      await dueNow(s, job.id);
      const runs = await waitFor(() => runsOf(s, job.id), finished);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ trigger: 'cron', status: RUN.ok, attempts: 1, message: `调用接口【${apiName}】成功，返回 3 行` });
      expect(runs[0].dueTime).toMatch(/:00$/);
      expect(runs[0].durationMs).toBeGreaterThanOrEqual(0);
      await sleep(600);
      expect(await runsOf(s, job.id)).toHaveLength(1); // claimed once: the due minute is not run again
      const after = (await jobsOf(s)).find((j) => j.id === job.id);
      expect(after).toMatchObject({ lastStatus: RUN.ok, failures: 0 });
      expect(after.nextDue).toBeGreaterThan(Math.floor(Date.now() / 60_000) - 1);
      // the session it ran with is gone: nobody is left signed in as the job
      const online = (await s.request<any>('POST', '/api/system/online/list', { pageNum: 1, pageSize: 100 })).body.data;
      expect(JSON.stringify(online ?? '')).not.toContain('定时任务 #');
    });

    it('paused, a job does not run when due; resumed, it counts from now; a save with a bad target or parameters is refused', async () => {
      const job = (await jobsOf(s)).find((j) => j.jobName === '每分钟调用');
      expect((await s.request('POST', `${J}/pause?id=${job.id}`)).body.msg).toBe('已暂停');
      const before = (await runsOf(s, job.id)).length;
      await s.exec(`update sys_job set next_due = ${Math.floor(Date.now() / 60_000)} where id = ${job.id}`);
      await sleep(800);
      expect(await runsOf(s, job.id)).toHaveLength(before);
      expect((await jobsOf(s)).find((j) => j.id === job.id)).toMatchObject({ status: 1, nextRun: null });
      expect((await s.request('POST', `${J}/resume?id=${job.id}`)).body.msg).toBe('已恢复');
      expect((await jobsOf(s)).find((j) => j.id === job.id).nextRun).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      expect((await s.request('POST', `${J}/pause?id=${job.id}`)).body.msg).toBe('已暂停');

      const base = { kind: 'api', cron: '0 8 * * *', tz: 'Asia/Shanghai', status: 0, overlap: 0, retries: 0, timeoutSeconds: 60 };
      expect((await s.request('POST', `${J}/save`, { ...base, jobName: '无此接口', target: 'no_such_api' })).body.msg).toBe('接口【no_such_api】不存在');
      expect((await s.request('POST', `${J}/save`, { ...base, jobName: '坏参数', target: apiName, args: '[1,2]' })).body.msg).toBe('参数须为 JSON 对象，如 {"city": "杭州"}');
      expect((await s.request('POST', `${J}/save`, { ...base, jobName: '坏类型', kind: 'shell', target: 'rm -rf /' })).body.status).toBe(1);
      expect((await s.request('POST', `${J}/save`, { ...base, jobName: '坏时区', target: apiName, tz: '../../etc/passwd' })).body.msg).toBe('未知的时区：../../etc/passwd');
      // hostile bodies: an inherited name as the kind, a status nobody runs, channels that are not ids, a day-long timeout
      expect((await s.request('POST', `${J}/save`, { ...base, jobName: '继承', kind: 'constructor' })).body.msg).toBe('请选择任务类型');
      expect((await s.request('POST', `${J}/save`, { ...base, jobName: '状态2', target: apiName, status: 2 })).body.status).toBe(1);
      expect((await s.request('POST', `${J}/save`, { ...base, jobName: '坏渠道', target: apiName, alertFailures: 1, alertChannels: ['x'] })).body.status).toBe(1);
      expect((await s.request('POST', `${J}/save`, { ...base, jobName: '一天', target: apiName, timeoutSeconds: 86400 })).body.status).toBe(1);
    });

    it('runs as its owner, checked at every run: an owner without the right, or disabled, makes the run fail, not run', async () => {
      const roleId = (await s.request<number>('POST', '/api/system/role/save', { roleName: '任务管理员', roleKey: 'jobops', roleType: 'default', orderNum: 9, dataScope: '1', permKeys: ['m:job', 'm:job-add', 'm:job-edit', 'm:job-run'] })).body.data;
      const ops = await addPerson(s, 'jobops1', [roleId]);
      const made = await s.request<number>('POST', `${J}/save`, { jobName: '运维的任务', kind: 'api', target: apiName, cron: '0 8 * * *', tz: 'UTC', status: 0, overlap: 0, retries: 2, timeoutSeconds: 60 }, ops.token);
      expect(made.body.msg).toBe('保存成功');
      const job = (await jobsOf(s)).find((j) => j.jobName === '运维的任务');
      expect(job.owner).toBe('jobops1');
      expect((await s.request('POST', `${J}/run?id=${job.id}`, undefined, ops.token)).body.status).toBe(0);
      await waitFor(() => runsOf(s, job.id), (r) => r.length === 1 && r[0].status === RUN.ok);

      // the right taken away: the next run fails at once (no retry), saying why
      const role = (await s.request<any>('GET', `/api/system/role/get?id=${roleId}`)).body.data;
      expect((await s.request('POST', '/api/system/role/save', { ...role, id: roleId, permKeys: ['m:job', 'm:job-run'] })).body.status).toBe(0);
      expect((await s.request('POST', `${J}/run?id=${job.id}`)).body.status).toBe(0);
      const runs = await waitFor(() => runsOf(s, job.id), (r) => r.length === 2 && finished(r));
      const last = runs.find((r) => r.trigger === 'manual' && r.status !== RUN.ok);
      expect(last).toMatchObject({ status: RUN.failed, attempts: 1, message: '任务所有者【jobops1】已没有权限（system:job:edit），任务未运行' });

      // the right back, the account disabled: refused the same way
      expect((await s.request('POST', '/api/system/role/save', { ...role, id: roleId, permKeys: ['m:job', 'm:job-add', 'm:job-edit', 'm:job-run'] })).body.status).toBe(0);
      expect((await s.request('POST', '/api/system/user/status', { id: ops.id, status: 1 })).body.status).toBe(0);
      expect((await s.request('POST', `${J}/run?id=${job.id}`)).body.status).toBe(0);
      const third = await waitFor(() => runsOf(s, job.id), (r) => r.length === 3 && finished(r));
      expect(third.filter((r) => r.status === RUN.failed).map((r) => r.message)).toContain('任务所有者【jobops1】不能运行任务：账号已停用，请联系管理员');
      expect((await jobsOf(s)).find((j) => j.id === job.id).failures).toBe(2);
    });

    it('refuses the weakest role every call of the page, and a job of another kind than declared', async () => {
      const dev = await s.loginAs('developer');
      for (const [m, p] of [
        ['POST', `${J}/list`],
        ['GET', `${J}/get?id=1`],
        ['POST', `${J}/save`],
        ['POST', `${J}/delete?id=1`],
        ['POST', `${J}/run?id=1`],
        ['POST', `${J}/pause?id=1`],
        ['POST', `${J}/resume?id=1`],
        ['GET', `${J}/cron?cron=*`],
        ['GET', `${J}/targets`],
        ['POST', '/api/job/log/list'],
      ] as const) {
        const r = await s.request(m, p, m === 'POST' ? {} : undefined, dev);
        expect(r.http, `${m} ${p}`).toBe(403);
      }
      for (const [m, p] of [
        ['POST', `${J}/list`],
        ['POST', `${J}/run?id=1`],
      ] as const)
        expect((await s.request(m, p, {}, null)).http).toBe(401);
    });
  });
}

describe('定时任务 without overlap', () => {
  const s = serverForSuite({ store: 'sqlite', env: { JOB_POLL_MS: '100' } });
  it('skips a run while the previous one of the same job runs (the log says why)', async () => {
    const job = (await jobsOf(s)).find((j) => j.kind === 'cleanLogs');
    // the previous run holds the job's running slot
    await s.exec(`update sys_job set running_log = 999999, running_until = '2999-01-01 00:00:00' where id = ${job.id}`);
    expect((await s.request('POST', `${J}/run?id=${job.id}`)).body.status).toBe(0);
    const [run] = await waitFor(() => runsOf(s, job.id), finished);
    expect(run).toMatchObject({ status: RUN.skipped, message: '上一次运行尚未结束，本次跳过（任务不允许并发）' });
    // allowed to overlap, it runs
    const got = (await s.request<any>('GET', `${J}/get?id=${job.id}`)).body.data;
    expect((await s.request('POST', `${J}/save`, { ...got, overlap: 1 })).body.msg).toBe('保存成功');
    expect((await s.request('POST', `${J}/run?id=${job.id}`)).body.status).toBe(0);
    await waitFor(() => runsOf(s, job.id), (r) => r.length === 2 && r.some((x) => x.status === RUN.ok));
  });
});
