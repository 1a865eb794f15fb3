// Query plans in the browser (issue 25 item 3 "a test of a full-scan query shows its plan and warning, and the
// approval screen shows it too"): a developer tests a full-scan query on a SQLite table of 120,000 rows and sees the
// plan with its warnings; the approver sees the same plan beside the diff, cannot pass without a reason (the plan
// is above the 100,000-row threshold), passes with one, and the audit trail keeps it.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';
import { call, confirmBox, signIn, toast as waitToast } from './lib/calls';

const run = Date.now().toString(36).slice(-4);
const API = `e2e_scan_${run}`;
const DS = `e2e_plan_ds_${run}`;
const ROWS = 120_000;

const toast = (page: Page, text: string) => waitToast(page, text, { prefix: 'plans' });

describeBrowser('执行计划与代价审批', () => {
  let browser: Browser;
  let apiId: number;

  beforeAll(async () => {
    const dir = join(inject('dataDir'), 'sqlite');
    mkdirSync(dir, { recursive: true });
    const db = new Database(join(dir, `e2e_plan_${run}.db`));
    db.exec('CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT, amount REAL)');
    const add = db.prepare('INSERT INTO orders (customer, amount) VALUES (?, ?)');
    db.transaction(() => {
      for (let i = 0; i < ROWS; i++) add.run(`c${i % 997}`, i % 100);
    })();
    db.close();
    const admin = await signIn('admin', inject('adminPassword'));
    const saved = await call('/api/gemini/datasource/info/save', { dsName: DS, dbType: 'sqlite', dbName: `e2e_plan_${run}.db` }, admin);
    if (saved.status !== 0) throw new Error(saved.msg);
    const dev = await signIn('developer', inject('demoPassword'));
    const groupId = (await call('/api/gemini/api/group/save', { parentId: 0, name: `e2e计划${run}` }, dev)).data;
    apiId = (await call('/api/gemini/api/design/info/save', { groupId, apiName: API, apiComment: '订单全表扫描' }, dev)).data;
    const cfg = await call(
      '/api/gemini/api/config/save',
      { apiId, dsName: DS, script: 'select id, customer, amount from orders where customer = :customer', reqParamList: [{ paramName: 'customer', paramType: 'string', paramValue: 'c7' }] },
      dev,
    );
    if (cfg.status !== 0) throw new Error(cfg.msg);
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('the test pane shows the plan of a full-scan query with its warnings', async () => {
    const page = await newPage(browser);
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
    await page.goto(`${inject('baseURL')}/apimgr/design/config?id=${apiId}`);
    await page.getByTestId('script-editor').locator('.monaco-editor').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: /测\s?试/ }).click();
    await toast(page, '测试完成');
    await page.getByRole('tab', { name: /执行计划/ }).click();
    const view = page.locator('.ant-tabs-tabpane-active').getByTestId('plan-view');
    await view.getByTestId('plan-warning-fullScan').getByText(/全表扫描大表【orders】/).waitFor();
    await view.getByTestId('plan-warning-noLimit').waitFor();
    await view.getByTestId('plan-nodes').getByText('SCAN（全表扫描）').waitFor();
    await shot(page, 'plans-test-pane');
    // the plan alone (nothing runs): a LIMIT takes the LIMIT warning away, the full scan stays
    const editor = page.getByTestId('script-editor').locator('.monaco-editor');
    await editor.click();
    await page.keyboard.press('End');
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' limit 10');
    await page.getByRole('button', { name: '执行计划' }).click();
    await expect.poll(() => view.getByTestId('plan-warning-noLimit').count(), { timeout: 15_000 }).toBe(0);
    await view.getByTestId('plan-warning-fullScan').waitFor();
    await page.close();
    // submitted as saved (without the LIMIT)
    const dev = await signIn('developer', inject('demoPassword'));
    expect((await call('/api/gemini/api/design/info/submit', { id: apiId }, dev)).status).toBe(0);
  });

  it('the approval screen shows the same plan beside the diff and asks a reason above the threshold', async () => {
    const page = await newPage(browser);
    await login(page, inject('baseURL'), 'devapprover', inject('demoPassword'));
    await page.goto(`${inject('baseURL')}/apimgr/approve/edit?id=${apiId}`);
    await page.getByTestId('config-diff').waitFor();
    const view = page.getByTestId('plan-view');
    await view.getByTestId('plan-warning-fullScan').getByText(/全表扫描大表【orders】/).waitFor();
    await view.getByTestId('plan-warning-noLimit').waitFor();
    await view.getByTestId('plan-reason-required').waitFor();
    await shot(page, 'plans-approve');
    await page.getByLabel('审批意见').fill('同意');
    await page.getByRole('button', { name: /^通\s?过$/ }).click();
    await toast(page, '执行计划估计行数超过阈值：请填写超限理由后再审批通过');
    await page.getByLabel('超限理由').fill('月度对账，一月一次');
    await page.getByRole('button', { name: /^通\s?过$/ }).click();
    await confirmBox(page, '确定要审批通过吗？');
    await toast(page, '审批通过成功');
    const admin = await signIn('admin', inject('adminPassword'));
    const trail = (await call(`/api/gemini/api/design/audit?id=${apiId}`, undefined, admin)).data;
    expect(trail.find((e: any) => e.action === 'resolve')).toMatchObject({ costReason: '月度对账，一月一次', planRows: 100_001 });
    await page.close();
  });
});
