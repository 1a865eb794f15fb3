// Issue 39 item 3: 通知渠道 over real HTTP, on every store, with an HTTP listener playing the robots and the webhook:
// DingTalk's signed URL and WeCom's body as their robots read them, the webhook's HMAC header, 发送测试 saying
// why in Chinese, retries with waits, the send log, a channel marked after three failed sends and cleared by a
// success, secrets sealed and masked, the address guard (link-local never; loopback only when allowed), and
// the weakest role refused.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverForSuite, testStores, type TestServer } from '../../testing/server.js';
import { addPerson } from '../../testing/people.js';
import { sendThrough } from './index.js';
import { startRobot, startSmtp } from '../../testing/listeners.js';

const save = (s: TestServer, body: object, token?: string) => s.request<any>('POST', '/api/notify/channel/save', body, token);
const test = (s: TestServer, id: number, token?: string) => s.request<boolean>('POST', `/api/notify/channel/test?id=${id}`, undefined, token);
const list = async (s: TestServer) => (await s.request<any>('POST', '/api/notify/channel/list', { pageNum: 1, pageSize: 50 })).body.data.records as any[];
const idOf = async (s: TestServer, name: string) => (await list(s)).find((r) => r.name === name).id as number;

for (const store of testStores) {
  describe(`通知渠道 (${store} store)`, () => {
    const s = serverForSuite({ store, env: { NOTIFY_ALLOW_LOOPBACK: '1' } });
    let robot: Awaited<ReturnType<typeof startRobot>>;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    beforeAll(async () => {
      robot = await startRobot();
      smtp = await startSmtp();
    });
    afterAll(async () => {
      await robot?.close();
      await smtp?.close();
    });

    it('an e-mail channel: the mail arrives at the SMTP server; a wrong password and bad addresses say why', async () => {
      const mail = {
        name: '值班邮箱',
        kind: 'email',
        target: 'oncall@corp.example, boss@corp.example',
        smtpHost: '127.0.0.1',
        smtpPort: smtp.port,
        smtpSecure: 0,
        smtpUser: 'alert@corp.example',
        mailFrom: 'alert@corp.example',
        secret: 'mail-pass',
        status: 0,
      };
      expect((await save(s, mail)).body.msg).toBe('保存成功');
      const id = await idOf(s, '值班邮箱');
      expect((await list(s)).find((r) => r.id === id).secret).toBe('******');
      expect((await test(s, id)).body).toMatchObject({ data: true, msg: '发送成功' });
      const got = smtp.mails.at(-1)!;
      expect(got.to).toEqual(['oncall@corp.example', 'boss@corp.example']);
      expect(got.raw).toContain('Subject: =?UTF-8?');
      expect(got.raw).not.toContain('mail-pass');
      expect((await save(s, { ...mail, id, secret: 'wrong-pass' })).body.msg).toBe('保存成功');
      expect((await test(s, id)).body.msg).toBe('发送失败：邮件服务器拒绝了账号或密码');
      // the server changed with the password masked: it must be typed again
      expect((await save(s, { ...mail, id, smtpHost: 'localhost', secret: '******' })).body.status).toBe(1);
      expect((await save(s, { ...mail, name: '坏收件人', target: 'oncall@corp, x' })).body.msg).toBe('收件人邮箱格式不正确：oncall@corp');
      expect((await save(s, { ...mail, name: '无服务器', smtpHost: '' })).body.msg).toBe('请填写邮件服务器');
      expect((await save(s, { ...mail, name: '坏服务器', smtpHost: 'smtp.x/../@evil' })).body.msg).toBe('邮件服务器地址不合法');
      expect((await save(s, { ...mail, name: '元数据', smtpHost: '169.254.169.254', secret: 'x' })).body.msg).toBe('邮件服务器：不允许访问该地址');
      // a name that resolves to a refused address is refused when the mail is sent
      expect((await save(s, { ...mail, name: '元数据名', smtpHost: 'metadata.google.internal', secret: 'x' })).body.msg).toBe('保存成功');
      expect((await test(s, await idOf(s, '元数据名'))).body.msg).toBe('发送失败：不允许访问该地址');
    });

    it('a DingTalk robot with its signing secret: sealed, masked, and the message signed as DingTalk checks it', async () => {
      const made = await save(s, { name: '运维群', kind: 'dingtalk', target: `${robot.url}/robot/send?access_token=abc`, secret: 'SEC-ding-123', status: 0 });
      expect(made.body.msg).toBe('保存成功');
      const id = await idOf(s, '运维群');
      const row = (await list(s)).find((r) => r.id === id);
      expect(row.secret).toBe('******');
      const stored = await s.app.ctx.db.selectFrom('sys_notify_channel').select('secret').where('id', '=', id).executeTakeFirstOrThrow();
      expect(stored.secret).not.toContain('SEC-ding-123');
      const sent = await test(s, id);
      expect(sent.body).toMatchObject({ data: true, msg: '发送成功' });
      const got = robot.received.at(-1)!;
      const q = new URL(got.path, robot.url).searchParams;
      expect(q.get('access_token')).toBe('abc');
      const expected = createHmac('sha256', 'SEC-ding-123')
        .update(`${q.get('timestamp')}\nSEC-ding-123`)
        .digest('base64');
      expect(q.get('sign')).toBe(expected);
      expect(got.body).toMatchObject({ msgtype: 'markdown', markdown: { title: '通知渠道测试' } });
      expect(JSON.stringify(got.body)).not.toContain('SEC-ding-123');
      // the robot refuses: the reason, in Chinese
      robot.answers.push({ body: { errcode: 310000, errmsg: 'sign not match' } });
      expect((await test(s, id)).body).toMatchObject({ data: false, msg: '发送失败：钉钉机器人拒绝了消息：sign not match' });
      // saved again with the secret masked: kept
      expect((await save(s, { id, name: '运维群', kind: 'dingtalk', target: `${robot.url}/robot/send?access_token=abc`, secret: '******', status: 0 })).body.msg).toBe('保存成功');
      expect((await test(s, id)).body.data).toBe(true);
    });

    it('WeCom and a signed webhook', async () => {
      await save(s, { name: '企业微信群', kind: 'wecom', target: `${robot.url}/cgi-bin/webhook/send?key=k1`, status: 0 });
      expect((await test(s, await idOf(s, '企业微信群'))).body.data).toBe(true);
      expect(robot.received.at(-1)!.body).toMatchObject({ msgtype: 'markdown', markdown: { content: expect.stringContaining('通知渠道测试') } });
      await save(s, { name: '工单系统', kind: 'webhook', target: `${robot.url}/hooks/console`, secret: 'hook-key', status: 0 });
      expect((await test(s, await idOf(s, '工单系统'))).body.data).toBe(true);
      const hook = robot.received.at(-1)!;
      const ts = String(hook.headers['x-console-timestamp']);
      expect(hook.headers['x-console-signature']).toBe(
        `sha256=${createHmac('sha256', 'hook-key')
          .update(`${ts}.${JSON.stringify(hook.body)}`)
          .digest('hex')}`,
      );
      // a webhook answering 500: said so
      robot.answers.push({ status: 500, body: {} });
      expect((await test(s, await idOf(s, '工单系统'))).body.msg).toBe('发送失败：对方应答 HTTP 500');
    });

    it('a send is retried with waits; three failed sends mark the channel until one succeeds; every send is logged', async () => {
      const id = await idOf(s, '企业微信群');
      const policy = { allowLoopback: true };
      robot.answers.push({ status: 502, body: {} }, { status: 502, body: {} });
      expect(await sendThrough(s.app.ctx.db, s.app.secrets, policy, id, { title: '重试', text: 't' }, 3, [10, 10])).toBeNull();
      const log = await s.app.ctx.db.selectFrom('sys_notify_log').selectAll().where('channel_id', '=', id).orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(log).toMatchObject({ title: '重试', ok: 1, tries: 3 });
      for (let i = 0; i < 3; i++) {
        robot.answers.push({ body: { errcode: 93000, errmsg: 'invalid webhook url' } });
        expect(await sendThrough(s.app.ctx.db, s.app.secrets, policy, id, { title: `坏${i}`, text: 't' }, 1)).toBe('企业微信机器人拒绝了消息：invalid webhook url');
      }
      expect((await list(s)).find((r) => r.id === id)).toMatchObject({ failures: 3, lastError: '企业微信机器人拒绝了消息：invalid webhook url' });
      expect((await test(s, id)).body.data).toBe(true);
      expect((await list(s)).find((r) => r.id === id)).toMatchObject({ failures: 0, lastError: null });
      // nothing listens there: said so
      await save(s, { name: '无人', kind: 'webhook', target: 'http://127.0.0.1:1/x', status: 0 });
      expect((await test(s, await idOf(s, '无人'))).body.msg).toMatch(/^发送失败：/);
    });

    it('the address guard, hostile bodies, and the weakest role', async () => {
      for (const target of ['http://169.254.169.254/latest/meta-data', 'http://metadata.google.internal/x', 'ftp://example.com/x', 'http://user:pw@example.com/x']) {
        const r = await save(s, { name: `坏地址${target.length}`, kind: 'webhook', target, status: 0 });
        expect(r.body.status, target).toBe(1);
        expect(r.body.msg, target).toMatch(/^地址：/);
      }
      expect((await save(s, { name: 'x', kind: 'smtp-evil', target: robot.url, status: 0 })).body.status).toBe(1);
      expect((await save(s, { name: "x'; drop table sys_notify_channel;--", kind: 'webhook', target: robot.url, status: 0 })).body.msg).toBe('保存成功');
      expect((await list(s)).some((r) => r.name.startsWith("x'; drop"))).toBe(true);
      const weak = await addPerson(s, `notify.weak.${store}`, [await roleId(s, 'default')]);
      expect((await s.request('POST', '/api/notify/channel/list', { pageNum: 1, pageSize: 10 }, weak.token)).http).toBe(403);
      expect((await save(s, { name: 'y', kind: 'webhook', target: robot.url, status: 0 }, weak.token)).http).toBe(403);
      expect((await test(s, await idOf(s, '运维群'), weak.token)).http).toBe(403);
    });
  });
}

describe('通知渠道 without NOTIFY_ALLOW_LOOPBACK', () => {
  const s = serverForSuite();
  it('refuses this machine as a target', async () => {
    const r = await save(s, { name: '本机', kind: 'webhook', target: 'http://127.0.0.1:8080/hook', status: 0 });
    expect(r.body.msg).toMatch(/^地址：不允许访问该地址/);
  });
});

async function roleId(s: TestServer, key: string): Promise<number> {
  const r = await s.request<any[]>('GET', '/api/system/role/options');
  return r.body.data.find((o) => o.roleKey === key).roleId;
}
