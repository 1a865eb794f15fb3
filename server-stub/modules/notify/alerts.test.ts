// Issue 39 item 4: alerts that reach people. The API monitor's rule, on two instances of one deployment (PostgreSQL +
// Redis), sends one mail to the suite's SMTP server when it fires and one when it recovers — not one per instance;
// the rule 连续失败告警 of 定时任务 tells a webhook once when the failures reach N, not again while they go on,
// and once on recovery. And core/alerting.ts's steps on their own.
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverForSuite, type TestServer } from '../../testing/server.js';
import { twoInstancesForSuite } from '../../testing/deployment.js';
import { GOODS_SQL, publishApi, sqliteFixture } from '../../testing/sqlite.js';
import { startRobot, startSmtp, subjectOf } from '../../testing/listeners.js';
import { waitFor } from '../../testing/wait.js';
import { alertStep } from '../../core/alerting.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** 10:00 plus `min` minutes, as the store writes times. */
const T = (min: number) => {
  const total = 600 + min;
  return `2026-11-28 ${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}:00`;
};

describe('alert steps (core/alerting.ts)', () => {
  it('tells a firing, its repeats no sooner than the repeat time, and its recovery; a flap inside the repeat time waits', () => {
    const quiet = { firing: 0, notified: 0, lastNotified: null };
    const fired = alertStep(quiet, true, T(0), T(0 - 60));
    expect(fired).toEqual({ next: { firing: 1, notified: 1, lastNotified: T(0) }, tell: 'fire' });
    expect(alertStep(fired.next, true, T(5), T(5 - 60)).tell).toBeNull();
    expect(alertStep(fired.next, true, T(0 + 61), T(1)).tell).toBe('repeat');
    const recovered = alertStep(fired.next, false, T(6), T(6 - 60));
    expect(recovered).toEqual({ next: { firing: 0, notified: 0, lastNotified: T(6) }, tell: 'recover' });
    // firing again ten minutes later, inside the repeat time: marked, not told — until the time has passed
    const flap = alertStep(recovered.next, true, T(16), T(16 - 60));
    expect(flap.tell).toBeNull();
    expect(flap.next).toMatchObject({ firing: 1, notified: 0 });
    expect(alertStep(flap.next, false, T(17), T(0)).tell).toBeNull(); // its recovery is not news either
    expect(alertStep(flap.next, true, T(67), T(7)).tell).toBe('fire');
    expect(alertStep(quiet, false, T(1), T(0)).tell).toBeNull();
  });
});

const mailChannel = (port: number) => ({
  name: '值班邮箱',
  kind: 'email',
  target: 'oncall@corp.example',
  smtpHost: '127.0.0.1',
  smtpPort: port,
  smtpSecure: 0,
  smtpUser: 'alert@corp.example',
  mailFrom: 'alert@corp.example',
  secret: 'mail-pass',
  status: 0,
});

describe.skipIf(!process.env.PG_URL || !process.env.REDIS_URL)('an API alert rule on two instances tells an e-mail channel once per event', () => {
  const two = twoInstancesForSuite({ ALERT_CHECK_SECONDS: '1', NOTIFY_ALLOW_LOOPBACK: '1' });
  let a: TestServer;
  let b: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let apiId = 0;
  const shop = path.join(two.dataDir, 'sqlite', 'shop.db');
  beforeAll(async () => {
    smtp = await startSmtp();
    ({ a, b } = two);
    await sqliteFixture({ ...a, dataDir: two.dataDir } as TestServer, 'shop.db', GOODS_SQL, 'shop');
    apiId = await publishApi(a, 'flaky', 'select name from goods order by id');
  });
  afterAll(async () => smtp?.close());

  it('fires: one mail; recovers: one mail; nothing more while the state stays', async () => {
    expect((await a.request('POST', '/api/notify/channel/save', mailChannel(smtp.port))).body.msg).toBe('保存成功');
    const channels = (await a.request<any[]>('GET', '/api/gemini/api/alert/channels')).body.data;
    expect(channels).toEqual([{ value: expect.any(Number), label: '值班邮箱（邮件）' }]);
    const saved = await a.request('POST', '/api/gemini/api/alert/save', { apiId, metric: 'errorRate', threshold: 50, minutes: 5, enabled: true, channelIds: [channels[0].value] });
    expect(saved.body.msg).toBe('告警规则已保存');
    expect((await b.request<any>('GET', `/api/gemini/api/alert/get?apiId=${apiId}`)).body.data).toMatchObject({ channelIds: [channels[0].value], firing: false });
    // a channel that is not there is refused
    expect((await a.request('POST', '/api/gemini/api/alert/save', { apiId, metric: 'errorRate', threshold: 50, minutes: 5, channelIds: [999999] })).body.msg).toBe('所选通知渠道不存在');

    // the API breaks: its table is gone; calls on both instances fail
    const db = new Database(shop);
    db.exec('drop table goods');
    db.close();
    for (const s of [a, b, a, b]) expect((await s.request('POST', '/open/api/flaky', {})).body.status).toBe(1);
    const subjects = () => smtp.mails.map((m) => subjectOf(m.raw));
    await waitFor(async () => subjects(), (list) => list.some((t) => t === '【告警】接口 flaky'), 20_000);
    await sleep(3000); // both instances looked at the rule several times since
    expect(subjects().filter((t) => t.includes('接口 flaky'))).toEqual(['【告警】接口 flaky']);
    const mail = smtp.mails.find((m) => subjectOf(m.raw) === '【告警】接口 flaky')!;
    expect(mail.to).toEqual(['oncall@corp.example']);
    expect(mail.raw).not.toContain('mail-pass');
    expect((await a.request<any>('GET', `/api/gemini/api/alert/get?apiId=${apiId}`)).body.data.firing).toBe(true);

    // mended, and the failing minutes gone out of the span (as the clock would take them): one recovery mail
    const fixed = new Database(shop);
    fixed.exec(GOODS_SQL);
    fixed.close();
    await sleep(1500); // every failed call counted by now
    await a.exec(`delete from gemini_api_minute where api_id = ${apiId}`);
    for (const s of [a, b]) expect((await s.request('POST', '/open/api/flaky', {})).body.status).toBe(0);
    await waitFor(async () => subjects(), (list) => list.includes('【已恢复】接口 flaky'), 20_000);
    await sleep(3000);
    expect(subjects().filter((t) => t.includes('接口 flaky'))).toEqual(['【告警】接口 flaky', '【已恢复】接口 flaky']);
  });
});

describe('the rule 连续失败告警 of 定时任务 (sqlite store)', () => {
  const s = serverForSuite({ env: { JOB_POLL_MS: '150', NOTIFY_ALLOW_LOOPBACK: '1' } });
  let robot: Awaited<ReturnType<typeof startRobot>>;
  beforeAll(async () => {
    robot = await startRobot();
    await sqliteFixture(s, 'shop.db', GOODS_SQL, 'shop');
    await publishApi(s, 'breakable', 'select name from goods order by id');
  });
  afterAll(async () => robot?.close());

  it('tells the webhook once when the failures reach N, not again while they go on, and once on recovery', async () => {
    expect((await s.request('POST', '/api/notify/channel/save', { name: '值班群', kind: 'webhook', target: `${robot.url}/hook`, secret: 'k', status: 0 })).body.status).toBe(0);
    const [channel] = (await s.request<any[]>('GET', '/api/job/job/channels')).body.data;
    const body = { jobName: '易坏的任务', kind: 'api', target: 'breakable', cron: '0 8 * * *', tz: 'UTC', status: 0, overlap: 0, retries: 0, timeoutSeconds: 60 };
    expect((await s.request('POST', '/api/job/job/save', { ...body, jobName: '无渠道', alertFailures: 2 })).body.msg).toBe('请选择告警通知的渠道');
    expect((await s.request('POST', '/api/job/job/save', { ...body, alertFailures: 2, alertChannels: [channel.value] })).body.msg).toBe('保存成功');
    const job = (await s.request<any>('POST', '/api/job/job/list', { pageNum: 1, pageSize: 50, search: '易坏的任务' })).body.data.records[0];
    expect(job.alertChannels).toEqual([channel.value]);
    const runOnce = async (n: number) => {
      expect((await s.request('POST', `/api/job/job/run?id=${job.id}`)).body.status).toBe(0);
      await waitFor(
        async () => (await s.request<any>('POST', '/api/job/log/list', { pageNum: 1, pageSize: 50, jobId: job.id })).body.data.records as any[],
        (r) => r.length === n && r.every((x) => x.status >= 2),
      );
      await sleep(300);
    };
    const told = () => robot.received.filter((r) => r.path === '/hook').map((r) => r.body.title);
    const db = new Database(`${s.dataDir}/sqlite/shop.db`);
    db.exec('drop table goods');
    await runOnce(1);
    expect(told()).toEqual([]);
    await runOnce(2);
    expect(told()).toEqual(['【告警】定时任务 易坏的任务']);
    expect(robot.received.at(-1)!.body.text).toMatch(/^任务【易坏的任务】已连续失败 2 次（告警阈值 2 次）。最近一次：调用接口【breakable】失败：执行失败/);
    await runOnce(3);
    expect(told()).toEqual(['【告警】定时任务 易坏的任务']);
    db.exec(GOODS_SQL);
    db.close();
    await runOnce(4);
    expect(told()).toEqual(['【告警】定时任务 易坏的任务', '【已恢复】定时任务 易坏的任务']);
  });
});
