// 通知渠道 clicked through in Chromium (issue 39 item 3): a webhook channel and an e-mail channel added through the
// declared page's dialog, 发送测试 on each; an HTTP listener and an SMTP server (smtp-server) started here receive
// them. The e2e server runs with NOTIFY_ALLOW_LOOPBACK=1 (e2e/global-setup.ts), as a test on one machine must.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inject } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';
import { opened, toast as waitToast } from './lib/calls';

const run = Date.now().toString(36);
const toast = (page: Page, text: string) => waitToast(page, text, { prefix: 'notify' });
const dialog = (page: Page) => page.locator('.ant-modal:visible').last();
const btn = (scope: Page | Locator, label: string) => scope.getByRole('button', { name: new RegExp(`(^|\\s)${label.split('').join('\\s?')}$`) });

describeBrowser('通知渠道', () => {
  let browser: Browser;
  let page: Page;
  let hook: http.Server;
  let hookUrl = '';
  const hooks: Array<{ headers: http.IncomingHttpHeaders; body: any }> = [];
  let smtp: SMTPServer;
  let smtpPort = 0;
  const mails: Array<{ to: string[]; raw: string }> = [];

  beforeAll(async () => {
    hook = http.createServer((req, res) => {
      let text = '';
      req.on('data', (d) => (text += d));
      req.on('end', () => {
        hooks.push({ headers: req.headers, body: JSON.parse(text || 'null') });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hooks/console`;
    smtp = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      onData(stream, session, done) {
        let raw = '';
        stream.on('data', (d: Buffer) => (raw += d.toString('utf8')));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          done();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    smtpPort = (smtp.server.address() as AddressInfo).port;
    browser = await launchBrowser();
    page = await newPage(browser, { viewport: { width: 1600, height: 900 } });
    await login(page, inject('baseURL'), 'admin', inject('adminPassword'));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => hook?.close(r));
    await new Promise((r) => smtp?.close(() => r(null)));
  });

  const row = (name: string) => page.locator('.ant-table-row', { hasText: name });

  it('adds a signed webhook channel and 发送测试 reaches the listener', async () => {
    await page.goto(`${inject('baseURL')}/system/notify-channel`);
    await btn(page, '新增渠道').click();
    const d = dialog(page);
    await opened(d);
    await d.getByPlaceholder('请输入名称').fill(`工单系统${run}`);
    await d.getByText('Webhook', { exact: true }).click();
    await d.getByPlaceholder('请输入地址 / 收件人').fill(hookUrl);
    await d.getByPlaceholder('请输入密钥 / 密码').fill('hook-key');
    await btn(d, '确定').click();
    await toast(page, '保存成功');
    await row(`工单系统${run}`).getByText('发送测试').click();
    await toast(page, '发送成功');
    expect(hooks.at(-1)!.body).toMatchObject({ title: '通知渠道测试' });
    expect(String(hooks.at(-1)!.headers['x-console-signature'])).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('adds an e-mail channel (its SMTP fields appear with the kind) and the test mail arrives', async () => {
    await btn(page, '新增渠道').click();
    const d = dialog(page);
    await opened(d);
    await d.getByPlaceholder('请输入名称').fill(`值班邮箱${run}`);
    await expect.poll(() => d.getByPlaceholder('smtp.corp.example').count()).toBe(0);
    await d.getByText('邮件（SMTP）', { exact: true }).click();
    await d.getByPlaceholder('smtp.corp.example').fill('127.0.0.1');
    await d.getByPlaceholder('请输入端口').fill(String(smtpPort));
    await d.getByPlaceholder('请输入地址 / 收件人').fill('oncall@corp.example');
    await d.getByPlaceholder('不填则用账号').fill('alert@corp.example');
    await shot(page, 'notify-email-dialog');
    await btn(d, '确定').click();
    await toast(page, '保存成功');
    await row(`值班邮箱${run}`).getByText('发送测试').click();
    await toast(page, '发送成功');
    await expect.poll(() => mails.length).toBeGreaterThan(0);
    expect(mails.at(-1)!.to).toEqual(['oncall@corp.example']);
    await shot(page, 'notify-list-1600');
  });

  it('fits a phone', async () => {
    const phone = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true });
    await login(phone, inject('baseURL'), 'admin', inject('adminPassword'));
    await phone.goto(`${inject('baseURL')}/system/notify-channel`);
    await phone.locator('.ant-table-row', { hasText: `值班邮箱${run}` }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(phone, 'notify-list-390');
    await phone.context().close();
  });
});
