// Import and export of a list page in the browser (issue 24 item 4): a custom page of 10,000 records (written by
// the import call) is exported from the toolbar's 导出 → Excel（XLSX）, the download read back; 导入 with a CSV
// holding one bad row shows the preview and the report naming the row, 确认导入 stays disabled and nothing is
// written; a good file is imported. The dialog is looked at on a wide and on a phone screen.
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { inject } from 'vitest';
import example from '../schemas/examples/supplier.page.json';
import type { Browser, Page } from 'playwright-core';
import { must, signIn, toast } from './lib/calls';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';

const KEY = 'sheetdemo';
// the shipped example page (schemas/examples) with the toolbar's 导出 and 导入
const declaration = {
  ...example,
  id: KEY,
  title: '表格导入导出',
  toolbar: [{ action: 'add' }, { action: 'download', label: '导出', formats: ['xlsx', 'csv'] }, { action: 'import', label: '导入' }],
};

const BAD_CSV = '名称,手机号,状态,备注\r\n甲,13900000001,是,第一行\r\n,13900000002,否,这一行缺名称\r\n丙,13900000003,是,\r\n';
const GOOD_CSV = '名称,手机号,状态,备注\r\n导入甲,13900000011,是,\r\n导入乙,13900000012,否,=1+1 不是公式\r\n';

async function importByCall(token: string, csv: string): Promise<{ status: number; msg: string }> {
  const form = new FormData();
  form.append('mode', 'commit');
  form.append('file', new Blob([csv]), 'seed.csv');
  const res = await fetch(`${inject('baseURL')}/api/lowcode/data/${KEY}/import`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return (await res.json()) as { status: number; msg: string };
}

async function total(token: string): Promise<number> {
  return (await must(`/api/lowcode/data/${KEY}/search`, { pageNum: 1, pageSize: 1 }, token)).total;
}

describeBrowser('列表页导入导出', () => {
  let browser: Browser;
  let token: string;
  beforeAll(async () => {
    token = await signIn('admin', inject('adminPassword'));
    await must('/api/lowcode/page/save', { pageKey: KEY, title: declaration.title, declaration, published: true, roles: [] }, token);
    const rows = Array.from({ length: 10_000 }, (_, i) => `供应商${i},1380000${String(i).padStart(4, '0')},${i % 2 ? '是' : '否'},`).join('\r\n');
    const seeded = await importByCall(token, `名称,手机号,状态,备注\r\n${rows}\r\n`);
    if (seeded.status !== 0) throw new Error(seeded.msg);
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  async function openPage(width: number, height: number): Promise<Page> {
    const page = await newPage(browser, { viewport: { width, height }, acceptDownloads: true });
    await login(page, inject('baseURL'), 'admin', inject('adminPassword'));
    await page.goto(`${inject('baseURL')}/custom/${KEY}`);
    await page.locator(`.crud-page[data-page="${KEY}"] tbody tr.ant-table-row`).first().waitFor({ timeout: 30_000 });
    return page;
  }

  it('导出 → Excel（XLSX）: every one of the 10,000 rows, not the visible page', async () => {
    const page = await openPage(1600, 900);
    await page.getByTestId('toolbar-export').click();
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), page.getByRole('menuitem', { name: 'Excel（XLSX）' }).click()]);
    expect(download.suggestedFilename()).toBe('表格导入导出.xlsx');
    const file = await download.path();
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync(file!) as unknown as ArrayBuffer);
    const ws = book.worksheets[0];
    expect(ws.actualRowCount).toBe(10_001);
    expect(ws.getRow(1).values).toEqual([undefined, '名称', '手机号', '状态', '备注']);
    expect(['是', '否']).toContain(ws.getCell('C2').value);
    await page.context().close();
  });

  it('导入 a CSV with one bad row: preview, the report names row 3, nothing written; then a good file', async () => {
    const before = await total(token);
    const page = await openPage(1600, 900);
    await page.getByRole('button', { name: /导\s?入/ }).click();
    const box = page.locator('.ant-modal:visible').last();
    await box.locator('input[type=file]').setInputFiles({ name: '供应商.csv', mimeType: 'text/csv', buffer: Buffer.from(BAD_CSV) });
    const faults = box.getByTestId('sheet-import-faults');
    await faults.waitFor({ timeout: 30_000 });
    const row = faults.locator('tbody tr.ant-table-row').first();
    await expect.poll(() => row.innerText()).toMatch(/^3\s+名称\s+请输入名称$/);
    await box.getByText('共 3 行，其中 1 行有 1 处错误', { exact: false }).waitFor();
    expect(await box.getByTestId('sheet-import-commit').isDisabled()).toBe(true);
    await shot(page, 'sheets-import-faults');
    await page.screenshot({ path: '/tmp/sheets-import-1600.png' });
    await box.getByRole('tab', { name: /预览/ }).click();
    await box.getByTestId('sheet-import-preview').getByText('这一行缺名称').waitFor();
    await page.screenshot({ path: '/tmp/sheets-preview-1600.png' });
    expect(await total(token)).toBe(before);

    await box.locator('input[type=file]').setInputFiles({ name: '好的.csv', mimeType: 'text/csv', buffer: Buffer.from(GOOD_CSV) });
    await box.getByText('共 2 行，校验通过，可以导入').waitFor({ timeout: 30_000 });
    await box.getByTestId('sheet-import-commit').click();
    await toast(page, '导入成功，共 2 条', { prefix: 'sheets' });
    await box.waitFor({ state: 'hidden' });
    expect(await total(token)).toBe(before + 2);
    await page.context().close();
  });

  it('the import dialog on a phone (390 px)', async () => {
    const page = await openPage(390, 844);
    await page.getByRole('button', { name: /导\s?入/ }).click();
    const box = page.locator('.ant-modal:visible').last();
    await box.locator('input[type=file]').setInputFiles({ name: '供应商.csv', mimeType: 'text/csv', buffer: Buffer.from(BAD_CSV) });
    await box.getByTestId('sheet-import-faults').waitFor({ timeout: 30_000 });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: '/tmp/sheets-import-390.png', fullPage: true });
    await page.context().close();
  });
});
