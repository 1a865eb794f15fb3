// 从数据表生成 in Chromium (issue 24 item 1): an admin picks a SQLite data source and its table in the page
// manager, ticks a column as a select, generates, saves and publishes the page, then adds a row (the required
// rule says 请输入…) and deletes it — each change seen in the SQLite file itself; then 500 rows a page, the virtual
// list, a row edited at its end.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { inject } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { call, confirmBox, signIn, toast as waitToast } from './lib/calls';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';

const run = Date.now().toString(36);
const DS = `e2e_tables_${run}`;
const FILE = `e2e_tables_${run}.db`;
const toast = (page: Page, text: string) => waitToast(page, text, { exact: true, prefix: 'tables' });
const btn = (scope: Page | Locator, label: string) => scope.getByRole('button', { name: new RegExp(`(^|\\s)${label.split('').join('\\s?')}$`) });
const dialog = (page: Page) => page.locator('.ant-modal:visible').last();
const rowsIn = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('select id, district, amount, level from sales order by id').all() as Array<Record<string, unknown>>;
  } finally {
    db.close();
  }
};

describeBrowser('从数据表生成页面', () => {
  let browser: Browser;
  let page: Page;
  let file: string;
  beforeAll(async () => {
    const dir = join(inject('dataDir'), 'sqlite');
    mkdirSync(dir, { recursive: true });
    file = join(dir, FILE);
    const db = new Database(file);
    db.exec("CREATE TABLE sales (id INTEGER PRIMARY KEY, district VARCHAR(20) NOT NULL, amount INTEGER NOT NULL, level VARCHAR(4)); INSERT INTO sales (district, amount, level) VALUES ('朝阳区', 820, 'A'), ('海淀区', 932, 'B');");
    db.close();
    const admin = await signIn('admin', inject('adminPassword'));
    const saved = await call('/api/gemini/datasource/info/save', { dsName: DS, dbType: 'sqlite', dbName: FILE }, admin);
    if (saved.status !== 0) throw new Error(saved.msg);
    browser = await launchBrowser();
    page = await newPage(browser);
    await login(page, inject('baseURL'), 'admin', inject('adminPassword'));
  });
  afterAll(() => browser?.close());

  it('生成 → 保存 → 发布 → 新增 → 删除，表中可见', async () => {
    await page.goto(`${inject('baseURL')}/system/pages`);
    await page.getByTestId('pm-generate').click();
    const dlg = dialog(page);
    await dlg.getByText('从数据表生成页面').waitFor();
    await dlg.getByTestId('gen-ds').click();
    // the open list only: a closed select's options stay in the page, hidden (the data source's name holds 'sales' too)
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: DS }).click();
    await dlg.getByTestId('gen-table').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^sales/ }).click();
    await dlg.getByText('作为下拉选择的列', { exact: false }).waitFor({ timeout: 30_000 });
    await dlg.locator('.ant-checkbox-wrapper', { hasText: 'level' }).click();
    await shot(page, 'tables-generate');
    await btn(dlg, '生成').click();
    await dlg.waitFor({ state: 'detached' });
    await page.getByTestId('pm-preview').locator('.crud-page').waitFor({ timeout: 30_000 });
    // the preview shows the table's own first rows, not made-up ones
    await page.getByTestId('pm-preview').getByText('朝阳区').first().waitFor({ timeout: 15_000 });
    await btn(page, '保存').click();
    await toast(page, '保存成功');
    await page.getByTestId('page-item-custom-t_sales').waitFor();
    await btn(page, '发布').click();
    await btn(dialog(page), '确定').click();
    await toast(page, '发布成功，菜单中已可见');

    await page.goto(`${inject('baseURL')}/custom/t_sales`);
    const list = page.locator('.crud-page:visible');
    await list.getByText('朝阳区').waitFor({ timeout: 30_000 });
    await btn(page, '新增').click();
    await dialog(page).getByTestId('dialog-ok').click();
    await dialog(page).getByText('请输入district').first().waitFor();
    await dialog(page).getByPlaceholder(/district/).fill('通州区');
    await dialog(page).locator('.ant-input-number input').first().fill('530');
    await shot(page, 'tables-add');
    await dialog(page).getByTestId('dialog-ok').click();
    await toast(page, '保存成功');
    await list.getByText('通州区').waitFor();
    expect(rowsIn(file).map((r) => r.district)).toEqual(['朝阳区', '海淀区', '通州区']);
    await shot(page, 'tables-list');

    const row = list.locator('tbody tr', { hasText: '通州区' }).first();
    await btn(row, '删除').click();
    await confirmBox(page, '');
    await toast(page, '删除成功');
    await expect.poll(() => rowsIn(file).length).toBe(2);
  });

  it('500 条/页：虚拟列表，滚到末行修改一行，表头与单元格对齐', async () => {
    const db = new Database(file);
    const add = db.prepare('INSERT INTO sales (district, amount, level) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (let i = 1; i <= 600; i++) add.run(`片区${i}`, i, i % 2 ? 'A' : 'B');
    })();
    db.close();
    await page.goto(`${inject('baseURL')}/custom/t_sales`);
    const list = page.locator('.crud-page:visible');
    // newest first (by the key, descending)
    await list.getByText('片区600').waitFor({ timeout: 30_000 });
    await list.locator('.ant-pagination-options .ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '500 条/页' }).click();
    const holder = list.locator('.ant-table-tbody-virtual-holder');
    await holder.waitFor();
    // only the rows in view are elements
    expect(await list.locator('.ant-table-row').count()).toBeLessThan(60);
    // to the end of the page: the 500th row (ids 602 … 103: 片区600 … 片区101)
    await holder.evaluate((el) => (el.scrollTop = el.scrollHeight));
    const last = list.locator('.ant-table-row', { hasText: '片区101' });
    await last.waitFor();
    // the header's columns and the body's cells end at the same x (the body is not antd's: it must follow the header)
    const edges = await list.evaluate((el, key) => {
      const right = (n: Element) => Math.round(n.getBoundingClientRect().right);
      return {
        head: [...el.querySelectorAll('.ant-table-thead th:not(.ant-table-cell-scrollbar)')].map(right),
        body: [...el.querySelectorAll(`.ant-table-row[data-row-key="${key}"] > .ant-table-cell`)].map(right),
      };
    }, await last.getAttribute('data-row-key'));
    expect(edges.body.length).toBeGreaterThan(3);
    expect(edges.body).toEqual(edges.head);
    await shot(page, 'tables-virtual');
    await btn(last, '编辑').click();
    await dialog(page).locator('.ant-input-number input').first().fill('99999');
    await dialog(page).getByTestId('dialog-ok').click();
    await toast(page, '保存成功');
    await expect.poll(() => rowsIn(file).find((r) => r.district === '片区101')?.amount).toBe(99999);
    await list.locator('.ant-table-row', { hasText: '99999' }).waitFor();
  });
});
