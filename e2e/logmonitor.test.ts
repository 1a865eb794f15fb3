// 日志监控 clicked through: the requests just made show newest first; switching the service shows the sign-in
// lines; the page size changes the page; a search finds a path. No token ever shows.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';
import { call, signIn } from './lib/calls';

const paneText = async (page: Page) => ((await page.getByTestId('log-pane').locator('.monaco-editor .view-lines').textContent()) ?? '').replace(/\u00a0/g, ' ');

describeBrowser('日志监控', () => {
  let browser: Browser;
  let page: Page;
  let token: string;
  beforeAll(async () => {
    token = await signIn('developer', inject('demoPassword'));
    // a request only this test makes, to find afterwards
    await call('/api/sys/var/searchList', { pageNum: 1, pageSize: 10, search: 'e2e-log-probe' }, token);
    browser = await launchBrowser();
    page = await newPage(browser);
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
  });
  afterAll(() => browser?.close());

  it('shows the platform log newest first, switches service and page size, and searches', async () => {
    await page.goto(`${inject('baseURL')}/ops/log`);
    await expect.poll(() => paneText(page), { timeout: 30_000 }).toContain('/api/');
    // the monitor's own request is the newest line
    expect((await paneText(page)).split('\n')[0] ?? '').toMatch(/INFO|WARN|ERROR/);
    await shot(page, 'log-monitor');
    await page.getByLabel('服务名称').first().click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '认证服务' }).click();
    await expect.poll(() => paneText(page), { timeout: 15_000 }).toContain('/api/uams/login');
    await page.getByLabel('服务名称').first().click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '开发平台' }).click();
    await page.locator('.ant-pagination-options .ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '10' }).first().click();
    await expect.poll(async () => (await paneText(page)).split('\n').filter((l) => l.trim()).length).toBeLessThanOrEqual(10);
    await page.getByLabel('搜索', { exact: true }).fill('/api/sys/var/searchList');
    await page.getByRole('button', { name: /搜\s?索/ }).click();
    await expect.poll(() => paneText(page), { timeout: 15_000 }).toContain('/api/sys/var/searchList');
    expect(await paneText(page)).not.toContain(token);
  });

  it('shows the real number of matching lines as the total (what grep -c finds in the files), not the lines seen so far', async () => {
    // 23 lines with a word only this test writes (as pino writes them, appended beside the server's own lines)
    const marker = `e2ecnt${Date.now().toString(36).slice(-6)}`;
    const logs = path.join(inject('dataDir'), 'logs');
    for (let i = 0; i < 23; i++) {
      appendFileSync(path.join(logs, 'platform.log'), `${JSON.stringify({ level: 30, time: Date.now(), pid: 1, hostname: 'e2e', service: 'platform', reqId: `e2e-${i}`, msg: `${marker} ${i}` })}\n`);
    }
    const grepCount = () =>
      readdirSync(logs)
        .filter((f) => /^platform(-[\w-]+)?\.log(\.\d+)?$/.test(f))
        .reduce((n, f) => n + readFileSync(path.join(logs, f), 'utf8').split('\n').filter((l) => l.includes(marker)).length, 0);
    await expect.poll(grepCount, { timeout: 15_000 }).toBe(23);
    await page.goto(`${inject('baseURL')}/ops/log`);
    await page.getByLabel('搜索', { exact: true }).fill(marker);
    await page.getByRole('button', { name: /搜\s?索/ }).click();
    await page.locator('.ant-pagination-options .ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '10' }).first().click();
    await expect.poll(() => page.getByTestId('log-total').textContent(), { timeout: 15_000 }).toBe(`共 ${grepCount()} 条`);
    // three pages of 10, no invented fourth
    await expect.poll(() => page.locator('.ant-pagination-item').count()).toBe(3);
    await shot(page, 'log-monitor-total');
  });
});
