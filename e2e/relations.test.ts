// Related records and master–detail clicked through in Chromium (issue 34 items 3 and 4): on a SQLite data source
// with suppliers, orders (supplier_id → suppliers) and order lines (order_id → orders), the admin generates the
// orders page in the page manager ticking the lines table as its detail, saves and publishes it; then adds an order
// whose supplier is picked from a searchable list that pages through the 45 suppliers, with three lines typed in
// the dialog's sub-list: a third line the database refuses (qty must be positive) refuses the whole save, named,
// with nothing written; corrected, the order and its three lines are saved in one go. The list shows and searches
// the supplier's name; an edit removes a line; deleting an order that has lines is refused with the reason. In the
// page editor's 数据表 tab the admin declares a column without a foreign key as related too, and makes the lines go
// with a deleted order: the confirmation says so and both are gone.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { inject } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { call, confirmBox, signIn, toast as waitToast } from './lib/calls';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';

const run = Date.now().toString(36);
const DS = `e2e_orders_${run}`;
const FILE = `e2e_orders_${run}.db`;
const [SUPPLIERS, ORDERS, LINES] = [`suppliers_${run}`, `orders_${run}`, `lines_${run}`];
const PAGE_KEY = `t_orders_${run}`;
const toast = (page: Page, text: string) => waitToast(page, text, { prefix: 'relations' });
const btn = (scope: Page | Locator, label: string) => scope.getByRole('button', { name: new RegExp(`(^|\\s)${label.split('').join('\\s?')}$`) });
const dialog = (page: Page) => page.locator('.ant-modal:visible').last();
const dropdown = (page: Page) => page.locator('.ant-select-dropdown:visible');

describeBrowser('关联记录与主子表', () => {
  let browser: Browser;
  let page: Page;
  let file: string;
  const count = (table: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return Number((db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n);
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    const dir = join(inject('dataDir'), 'sqlite');
    mkdirSync(dir, { recursive: true });
    file = join(dir, FILE);
    const db = new Database(file);
    db.exec(`CREATE TABLE ${SUPPLIERS} (id INTEGER PRIMARY KEY, name VARCHAR(40) NOT NULL);
      CREATE TABLE ${ORDERS} (id INTEGER PRIMARY KEY, title VARCHAR(40) NOT NULL, supplier_id INTEGER REFERENCES ${SUPPLIERS}(id), handler_id INTEGER);
      CREATE TABLE ${LINES} (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES ${ORDERS}(id), product VARCHAR(40) NOT NULL, qty INTEGER NOT NULL CHECK (qty > 0));`);
    const add = db.prepare(`INSERT INTO ${SUPPLIERS} (name) VALUES (?)`);
    for (let i = 1; i <= 44; i++) add.run(`供应商${String(i).padStart(2, '0')}`);
    add.run('华东五金');
    db.close();
    const admin = await signIn('admin', inject('adminPassword'));
    const saved = await call('/api/gemini/datasource/info/save', { dsName: DS, dbType: 'sqlite', dbName: FILE }, admin);
    if (saved.status !== 0) throw new Error(saved.msg);
    browser = await launchBrowser();
    page = await newPage(browser, { viewport: { width: 1600, height: 900 } });
    await login(page, inject('baseURL'), 'admin', inject('adminPassword'));
  });
  afterAll(() => browser?.close());

  it('页面管理: 从数据表生成 the orders page with its lines as a detail, saved and published', async () => {
    await page.goto(`${inject('baseURL')}/system/pages`);
    await page.getByTestId('pm-generate').click();
    const dlg = dialog(page);
    await dlg.getByTestId('gen-ds').click();
    await dropdown(page).locator('.ant-select-item-option', { hasText: DS }).click();
    await dlg.getByTestId('gen-table').click();
    await dropdown(page).locator('.ant-select-item-option', { hasText: new RegExp(`^${ORDERS}$`) }).click();
    // the lines table references the orders: offered as a detail; the supplier column is told as a related record
    const details = dlg.getByTestId('gen-details');
    await details.waitFor({ timeout: 30_000 });
    await dlg.getByText(`引用表「${SUPPLIERS}」`, { exact: false }).waitFor();
    await details.locator('.ant-checkbox-wrapper', { hasText: LINES }).click();
    await shot(page, 'relations-generate');
    await btn(dlg, '生成').click();
    await dlg.waitFor({ state: 'detached' });
    await page.getByTestId('pm-preview').locator('.crud-page').waitFor({ timeout: 30_000 });
    await btn(page, '保存').click();
    await toast(page, '保存成功');
    await page.getByTestId(`page-item-custom-${PAGE_KEY}`).waitFor();
    await btn(page, '发布').click();
    await btn(dialog(page), '确定').click();
    await toast(page, '发布成功，菜单中已可见');
  });

  /** The dialog's sub-list of lines: its rows, and a cell's input by row (0-based) and column (0: product, 1: qty). */
  const lines = (page: Page) => dialog(page).locator('.ant-formily-array-table');
  const cell = (page: Page, row: number, col: number) => lines(page).locator('tbody tr.ant-table-row').nth(row).locator('input').nth(col);

  it('新增: the supplier picked from a paged, searchable list; three lines; a bad third line refuses the whole save', async () => {
    await page.goto(`${inject('baseURL')}/custom/${PAGE_KEY}`);
    const list = page.locator('.crud-page:visible');
    await list.waitFor({ timeout: 30_000 });
    await btn(list, '新增').first().click();
    const dlg = dialog(page);
    await dlg.getByPlaceholder(/title/).fill('三月采购单');
    // the related select: 20 suppliers a page, the next read when scrolled to the end
    await dlg.locator('.ant-select', { hasText: /请选择supplier_id/ }).click();
    await dropdown(page).getByText('已显示 20 / 45 条', { exact: false }).waitFor({ timeout: 15_000 });
    await dropdown(page).locator('.rc-virtual-list-holder').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await dropdown(page).getByText('已显示 40 / 45 条', { exact: false }).waitFor({ timeout: 15_000 });
    await shot(page, 'relations-select-paged');
    // searched on the server by the label
    await page.keyboard.type('华东');
    await dropdown(page).locator('.ant-select-item-option', { hasText: '华东五金' }).click();
    // three lines, the third with a quantity the database refuses (CHECK qty > 0)
    for (let i = 0; i < 3; i++) await btn(lines(page), '添加一行').click();
    const typed = [
      ['螺丝', '100'],
      ['螺母', '200'],
      ['垫片', '-5'],
    ];
    for (const [i, [product, qty]] of typed.entries()) {
      await cell(page, i, 0).fill(product);
      await cell(page, i, 1).fill(qty);
    }
    await shot(page, 'relations-lines');
    await dlg.getByTestId('dialog-ok').click();
    await page.getByText(new RegExp(`「${LINES}」第 3 行：执行失败`)).first().waitFor({ timeout: 15_000 });
    expect([count(ORDERS), count(LINES)]).toEqual([0, 0]);
    await shot(page, 'relations-refused');
    // corrected: the order and its three lines in one save
    await cell(page, 2, 1).fill('300');
    await dlg.getByTestId('dialog-ok').click();
    await toast(page, '保存成功');
    await expect.poll(() => [count(ORDERS), count(LINES)]).toEqual([1, 3]);
    // the list shows the supplier's name, and finds the order by it
    const row = list.locator('tbody tr', { hasText: '三月采购单' }).first();
    await row.waitFor();
    expect(await row.textContent()).toContain('华东五金');
    await list.locator('input[type="search"], .ant-input-search input, input[placeholder^="请输入"]').first().fill('华东');
    await list.locator('input[placeholder^="请输入"]').first().press('Enter');
    await list.locator('tbody tr', { hasText: '三月采购单' }).first().waitFor();
    await shot(page, 'relations-list');
  });

  it('编辑: the supplier shown by its name and the lines loaded; a line removed; deleting an order with lines is refused', async () => {
    const list = page.locator('.crud-page:visible');
    const row = list.locator('tbody tr', { hasText: '三月采购单' }).first();
    await btn(row, '编辑').click();
    const dlg = dialog(page);
    await dlg.locator('.ant-select-selection-item', { hasText: '华东五金' }).waitFor({ timeout: 15_000 });
    await expect.poll(() => lines(page).locator('tbody tr.ant-table-row').count()).toBe(3);
    expect(await cell(page, 1, 0).inputValue()).toBe('螺母');
    // 删除 of the second line (the remove icon of its row)
    await lines(page).locator('tbody tr.ant-table-row').nth(1).locator('.ant-formily-array-base-remove').click();
    await expect.poll(() => lines(page).locator('tbody tr.ant-table-row').count()).toBe(2);
    await dlg.getByTestId('dialog-ok').click();
    await toast(page, '保存成功');
    await expect.poll(() => count(LINES)).toBe(2);
    const db = new Database(file, { readonly: true });
    expect((db.prepare(`select product from ${LINES} order by id`).all() as Array<{ product: string }>).map((r) => r.product)).toEqual(['螺丝', '垫片']);
    db.close();
    await btn(row, '删除').click();
    await confirmBox(page, '三月采购单');
    await page.getByText(`该记录有 2 行「${LINES}」，不能删除`, { exact: false }).first().waitFor({ timeout: 15_000 });
    expect(count(ORDERS)).toBe(1);
  });

  it('页面管理 数据表 tab: a column without a foreign key declared related; the detail renamed and deleted with its order', async () => {
    const db = new Database(file);
    db.prepare(`UPDATE ${ORDERS} SET handler_id = 3`).run();
    db.close();
    await page.goto(`${inject('baseURL')}/system/pages`);
    await page.getByTestId(`page-item-custom-${PAGE_KEY}`).click();
    const ve = page.getByTestId('visual-editor');
    await ve.waitFor({ timeout: 30_000 });
    await ve.getByRole('tab', { name: '数据表' }).click();
    const rel = page.getByTestId('ve-relations');
    // the foreign key is related already (generated); handler_id is declared here
    await rel.getByTestId('ve-rel-supplier_id').getByText(`→ ${SUPPLIERS}.name`).waitFor();
    await rel.getByTestId('ve-rel-handler_id').click();
    const form = page.getByTestId('ve-relation-form');
    await form.getByLabel('关联表').first().click();
    await dropdown(page).locator('.ant-select-item-option', { hasText: new RegExp(`^${SUPPLIERS}$`) }).click();
    // its key and a name-like column proposed from the table's columns
    await rel.getByTestId('ve-rel-handler_id').getByText(`→ ${SUPPLIERS}.name`).waitFor({ timeout: 15_000 });
    const detail = page.getByTestId('ve-detail-form-lines'.replace('lines', LINES));
    await detail.getByLabel('标题').fill('订单明细');
    await detail.getByLabel('删除主记录时').first().click();
    await dropdown(page).getByText('连同明细一起删除', { exact: true }).click();
    await shot(page, 'relations-editor');
    await btn(page, '保存').click();
    await toast(page, '保存成功');

    await page.goto(`${inject('baseURL')}/custom/${PAGE_KEY}`);
    const list = page.locator('.crud-page:visible');
    const row = list.locator('tbody tr', { hasText: '三月采购单' }).first();
    await row.getByText('供应商03').waitFor({ timeout: 30_000 });
    await btn(row, '删除').click();
    await confirmBox(page, '其「订单明细」明细将一并删除');
    await toast(page, '删除成功');
    await expect.poll(() => [count(ORDERS), count(LINES)]).toEqual([0, 0]);
  });

  it('390 px: the dialog with its lines fits a phone', async () => {
    const token = await signIn('admin', inject('adminPassword'));
    const added = await call(`/api/lowcode/data/${PAGE_KEY}/add`, { title: '三月采购单', supplier_id: 45, [LINES]: [{ product: '螺丝', qty: 1 }, { product: '垫片', qty: 2 }] }, token);
    expect(added.status, added.msg).toBe(0);
    const phone = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await login(phone, inject('baseURL'), 'admin', inject('adminPassword'));
    await phone.goto(`${inject('baseURL')}/custom/${PAGE_KEY}`);
    const list = phone.locator('.crud-page:visible');
    const row = list.locator('tbody tr', { hasText: '三月采购单' }).first();
    await row.waitFor({ timeout: 30_000 });
    await btn(row, '编辑').click();
    await dialog(phone).locator('.ant-formily-array-table tbody tr.ant-table-row').first().waitFor({ timeout: 15_000 });
    // the dialog stays within the screen; the lines scroll inside it
    const box = await dialog(phone).locator('.ant-modal-content').boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(391);
    await shot(phone, 'relations-phone');
    await phone.context().close();
  });
});
