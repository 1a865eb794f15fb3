// 查询支持 clicked through: new SQL query (name rule), data source, a bound parameter, SQL in monaco,
// Test shows the rows, Save, reload keeps it; an API query against the console's own public-key
// call; a metadata address refused; delete with its confirmation.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { call, confirmBox, signIn, toast as waitToast } from './lib/calls';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';


const toast = (page: Page, text: string) => waitToast(page, text, { prefix: 'query' });
/** monaco renders spaces as no-break spaces */
const editorText = async (page: Page, which: 'first' | 'last') => ((await page.locator('.monaco-editor')[which]().textContent()) ?? '').replace(/\u00a0/g, ' ');

// a retry must not collide with what the first attempt saved
const run = Date.now().toString(36).slice(-4);
const SQL_NAME = `e2e城市查询${run}`;
const API_NAME = `e2e接口查询${run}`;

describeBrowser('查询支持', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    const dir = join(inject('dataDir'), 'sqlite');
    mkdirSync(dir, { recursive: true });
    const db = new Database(join(dir, 'e2e_query.db'));
    db.exec("CREATE TABLE IF NOT EXISTS city (id INTEGER PRIMARY KEY, name TEXT); DELETE FROM city; INSERT INTO city (name) VALUES ('杭州'), ('宁波'), ('温州');");
    db.close();
    const token = await signIn('admin', inject('adminPassword'));
    const saved = await call('/api/gemini/datasource/info/save', { dsName: 'e2e_query_ds', dbType: 'sqlite', dbName: 'e2e_query.db' }, token);
    if (saved.status !== 0 && !/已存在/.test(saved.msg)) throw new Error(saved.msg);
    browser = await launchBrowser();
    page = await newPage(browser);
    await login(page, inject('baseURL'), 'admin', inject('adminPassword'));
  });
  afterAll(() => browser?.close());

  it('SQL query: new → data source, parameter, script → test → save → reload → delete', async () => {
    await page.goto(`${inject('baseURL')}/data/query`);
    await page.getByText('查询列表').waitFor();
    await page.getByRole('button', { name: /新\s?建/ }).click();
    const modal = page.locator('.ant-modal:visible');
    await modal.getByPlaceholder('请输入名称').focus();
    await modal.getByPlaceholder('请输入名称').blur();
    await modal.getByText('请输入数据源名称').waitFor();
    await modal.getByPlaceholder('请输入名称').fill(SQL_NAME);
    await modal.getByRole('button', { name: /确\s?定/ }).click();
    await toast(page, '添加成功');

    await page.getByRole('combobox', { name: '数据源' }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'e2e_query_ds' }).click();
    await page.getByText('添加参数').click();
    await page.getByLabel('参数名1').fill('name');
    await page.getByLabel('参数值1').fill("宁波' OR '1'='1");
    const editor = page.locator('.monaco-editor').first();
    await editor.waitFor({ timeout: 30_000 });
    await editor.click();
    await page.keyboard.type('select id, name from city where name = :name or id = 1');
    await page.getByRole('button', { name: /测\s?试/ }).click();
    await toast(page, '测试完成');
    // the injection string is a bound value: only id 1 matches
    await expect.poll(() => editorText(page, 'last'), { timeout: 15_000 }).toContain('杭州');
    expect(await editorText(page, 'last')).not.toContain('温州');
    await shot(page, 'query-sql-tested');

    await page.getByRole('button', { name: /保\s?存/ }).click();
    await confirmBox(page, `确定要保存【${SQL_NAME}】吗？`);
    await toast(page, '保存成功');
    await page.reload();
    await page.getByText(SQL_NAME).click();
    await expect.poll(() => editorText(page, 'first')).toContain('from city');
    await expect.poll(async () => page.getByLabel('参数名1').inputValue()).toBe('name');
  });

  it('API query: GET against a loopback service shows its answer; a metadata address is refused', async () => {
    await page.getByRole('button', { name: /新\s?建/ }).click();
    const modal = page.locator('.ant-modal:visible');
    await modal.getByPlaceholder('请输入名称').fill(API_NAME);
    await modal.getByText('API', { exact: true }).click();
    await modal.getByRole('button', { name: /确\s?定/ }).click();
    await toast(page, '添加成功');
    await page.getByLabel('API接口').fill(`${inject('baseURL')}/api/uams/publicKey`);
    await page.getByRole('button', { name: /测\s?试/ }).click();
    await toast(page, '测试完成');
    await expect.poll(() => editorText(page, 'last'), { timeout: 15_000 }).toContain('BEGIN PUBLIC KEY');
    await shot(page, 'query-api-tested');
    await page.getByLabel('API接口').fill('http://[::ffff:169.254.169.254]/latest/meta-data');
    await page.getByRole('button', { name: /测\s?试/ }).click();
    await page.locator('.ant-message-error').first().waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: /保\s?存/ }).click();
    await confirmBox(page, `确定要保存【${API_NAME}】吗？`);
    await toast(page, '保存成功');
  });

  it('deletes a query after its confirmation', async () => {
    await page.getByLabel(`删除${API_NAME}`).click();
    await page.locator('.ant-popover:visible').getByText(`确定要删除【${API_NAME}】吗？`).waitFor();
    await page.locator('.ant-popover:visible').getByRole('button', { name: /确\s?定/ }).click();
    await toast(page, '删除成功');
    await page.getByText(API_NAME, { exact: true }).waitFor({ state: 'detached' });
    await shot(page, 'query-list');
  });
});
