// Every dialog closes and none throws. As admin, walk every entry of the menu the app loads (new entries are
// swept without touching this file); on each page open every toolbar dialog (新增 / 新建 / 添加 / 发布 / 上传 …,
// also the ones a first click brings, such as 发布 after 新建页面) and every row dialog (编辑 / 修改 / 设置 / 复制)
// of the first row, empty its fields, submit it, and expect validation messages; then close it. A refused delete
// (a wiki group with documents, an API group with APIs) closes its confirm and shows the server's reason.
// Any uncaught error, unhandled rejection or console error on the way fails the sweep: nothing is allowed.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inject } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { describeBrowser, launchBrowser, newPage, shot } from './lib/browser';
import { call, confirmBox, must, opened, signIn, toast } from './lib/calls';
import { currentView, loginAndReadMenu, menuStops, settled, visit, watchFaults, type Stop } from './lib/sweep';

/** Buttons that open a dialog to create something (spaces removed: antd spaces two-character labels, 新 增). */
const TOOLBAR = /^(新增|新建|添加|发布|上传)/;
/** Row actions that open the record's dialog. */
const ROW_DIALOG = /^(编辑|修改|设置|复制)$/;
const label = (s: string) => s.replace(/\s+/g, '');
const run = Date.now().toString(36);

/** The topmost open dialog (a plain modal, not a confirm box). */
const dialog = (page: Page) => page.locator('.ant-modal-wrap:visible .ant-modal:not(.ant-modal-confirm)').last();
const confirmOpen = (page: Page) => page.locator('.ant-modal-confirm:visible');

/** Field messages under a dialog's fields (antd Form and Formily). */
const fieldErrors = (scope: Locator) => scope.locator('.ant-form-item-explain-error, .ant-formily-item-error-help, .ant-formily-item-help');

/** Empties what a person could empty: text, number and text-area inputs; checked checkboxes. */
async function emptyFields(box: Locator) {
  const inputs = box.locator('input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([readonly]):not([disabled]), textarea:not([readonly]):not([disabled])');
  for (const input of await inputs.all()) {
    if (!(await input.isVisible())) continue;
    // a select's search box is not a value
    if (await input.evaluate((el) => Boolean(el.closest('.ant-select, .ant-picker, .ant-upload')))) continue;
    await input.fill('');
  }
  for (const box_ of await box.locator('.ant-checkbox-wrapper-checked:visible').all()) await box_.click();
}

/** Closes the dialog (its 取消, else the ×); a leave question about the emptied fields is answered 确定. */
async function closeDialog(page: Page, box: Locator) {
  const cancel = box.locator('.ant-modal-footer').getByRole('button', { name: /取\s?消|关\s?闭/ });
  if (await cancel.count()) await cancel.first().click();
  else await box.locator('.ant-modal-close').click();
  for (const until = Date.now() + 10_000; Date.now() < until; await page.waitForTimeout(50)) {
    const leave = confirmOpen(page).first();
    if (await leave.count()) {
      await opened(leave);
      await leave.getByRole('button', { name: /确\s?定|不保存|放弃/ }).first().click();
    }
    if (!(await box.isVisible())) return;
  }
  throw new Error('对话框关不上');
}

/** Submits the open dialog empty and expects it to stay open with messages saying what is missing. */
async function submitEmpty(page: Page, where: string): Promise<void> {
  const box = dialog(page);
  await opened(box);
  const title = label((await box.locator('.ant-modal-title').textContent()) ?? '');
  await emptyFields(box);
  const messagesBefore = await page.locator('.ant-message-notice').count();
  const ok = box.locator('.ant-modal-footer .ant-btn-primary').last();
  await ok.click();
  // a form says it under the fields; an upload dialog without files says so as a message
  await expect
    .poll(async () => (await fieldErrors(box).count()) + Math.max(0, (await page.locator('.ant-message-notice').count()) - messagesBefore), { timeout: 10_000, message: `${where}「${title}」空提交没有校验提示` })
    .toBeGreaterThan(0);
  expect(await box.isVisible(), `${where}「${title}」空提交后对话框不应关闭`).toBe(true);
  await shot(page, `sweep-dialog-${where.replace(/[/\s]+/g, '_')}-${title}`);
  await closeDialog(page, box);
}

/** Clicks `button`; answers what it did: opened a dialog, a confirm box, went to another address, or neither. */
async function press(page: Page, button: Locator): Promise<'dialog' | 'confirm' | 'route' | 'none'> {
  const before = page.url();
  await button.click();
  for (const until = Date.now() + 3000; Date.now() < until; await page.waitForTimeout(100)) {
    if (await dialog(page).isVisible()) return 'dialog';
    if (await confirmOpen(page).count()) return 'confirm';
    if (page.url() !== before) return 'route';
  }
  return 'none';
}

/** The toolbar buttons of the current view not tried yet (tree-node buttons, named after their node, excluded). */
async function toolbarButtons(page: Page, tried: Set<string>): Promise<Locator | null> {
  for (const b of await currentView(page).getByRole('button').all()) {
    if (!(await b.isVisible()) || !(await b.isEnabled())) continue;
    const name = label((await b.getAttribute('aria-label')) ?? (await b.textContent()) ?? '');
    if (!TOOLBAR.test(name) || name.includes('【') || tried.has(name)) continue;
    tried.add(name);
    return b;
  }
  return null;
}

/** Every toolbar dialog of the page at `stop`, submitted empty. */
async function sweepToolbar(page: Page, baseURL: string, stop: Stop): Promise<string[]> {
  const tried = new Set<string>();
  const seen: string[] = [];
  for (let b = await toolbarButtons(page, tried); b; b = await toolbarButtons(page, tried)) {
    const name = [...tried].at(-1)!;
    const what = await press(page, b);
    seen.push(`${name}→${what}`);
    if (what === 'dialog') await submitEmpty(page, stop.name);
    else if (what === 'confirm') await confirmOpen(page).first().getByRole('button', { name: /取\s?消/ }).click();
    else if (what === 'route') {
      // a page of its own (e.g. 新增API): it must load without a fault; then back to the list
      await settled(page);
      await visit(page, baseURL, stop.path);
    } else await settled(page); // it changed the page (新建页面 opens an editor): its new buttons are tried next
  }
  return seen;
}

/** Every record dialog of the first row of a list page, emptied and submitted. */
async function sweepRow(page: Page, stop: Stop): Promise<string[]> {
  const seen: string[] = [];
  const row = currentView(page).locator('.crud-page:visible tbody tr.ant-table-row').first();
  if (!(await row.count())) return seen;
  const names = (await row.getByRole('button').allTextContents()).map(label).filter((n) => ROW_DIALOG.test(n));
  for (const name of names) {
    const what = await press(page, row.getByRole('button', { name: new RegExp(`^${name.split('').join('\\s?')}$`) }));
    seen.push(`行${name}→${what}`);
    if (what === 'dialog') await submitEmpty(page, `${stop.name}-行${name}`);
    else if (what === 'confirm') await confirmOpen(page).first().getByRole('button', { name: /取\s?消/ }).click();
  }
  return seen;
}

/** One record on each list page with record dialogs, so its 编辑 / 设置 / 复制 dialogs are swept too. */
async function seed(token: string) {
  const dir = join(inject('dataDir'), 'sqlite');
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, `sweep_${run}.db`))) writeFileSync(join(dir, `sweep_${run}.db`), '');
  const made: Array<[string, string]> = [];
  const add = async (path: string, body: unknown, deletePath: (id: unknown) => string) => {
    const answer = await must(path, body, token);
    const id = answer && typeof answer === 'object' ? answer.id : answer; // some saves answer the record
    made.push([path, deletePath(id)]);
    return id;
  };
  await add('/api/gemini/datasource/info/save', { dsName: `sweep_${run}`, dbType: 'sqlite', dbName: `sweep_${run}.db` }, (id) => `/api/gemini/datasource/delete?id=${id}`);
  await add('/api/sys/var/save', { variableName: `sweep_${run}`, variableValue: '1' }, (id) => `/api/sys/var/delete?id=${id}`);
  await add('/api/remote/ftp/save', { envType: 'dev', nodeCode: `sw${run}`, nodeName: `sweep_${run}`, ip: '127.0.0.1', port: 21, status: 1 }, (id) => `/api/remote/ftp/delete?id=${id}`);
  await add('/api/remote/etl/save', { envType: 'dev', nodeName: `sweep_${run}`, ip: '127.0.0.1', port: 22, status: 1 }, (id) => `/api/remote/etl/delete?id=${id}`);
  await add('/api/jimu/form/info/save', { pageName: `sweep_${run}` }, (id) => `/api/jimu/form/delete?id=${id}`);
  return made;
}

describeBrowser('对话框巡检：每个菜单页的对话框空提交有校验提示、无页面错误；被拒的删除关闭确认框并显示原因', () => {
  const baseURL = inject('baseURL');
  let browser: Browser;
  let page: Page;
  let stops: Stop[] = [];
  let faults: ReturnType<typeof watchFaults>;
  let admin: string;
  let made: Array<[string, string]> = [];

  beforeAll(async () => {
    admin = await signIn('admin', inject('adminPassword'));
    made = await seed(admin);
    browser = await launchBrowser();
    page = await newPage(browser);
    faults = watchFaults(page);
    stops = menuStops(await loginAndReadMenu(page, baseURL, 'admin', inject('adminPassword')));
  });
  afterAll(async () => {
    await browser?.close();
    // the records this sweep made (its seeds, and anything its dialogs saved) are removed for the files after it
    for (const [, del] of made.reverse()) await call(del, del.includes('/remote/') || del.includes('/sys/var/') ? {} : undefined, admin).catch(() => undefined);
  });

  it('每个菜单页：工具栏与行内对话框空提交 → 校验提示，关闭，无错误', async () => {
    expect(stops.length).toBeGreaterThan(10);
    const report: string[] = [];
    for (const stop of stops) {
      const started = Date.now();
      await visit(page, baseURL, stop.path);
      const seen = [...(await sweepToolbar(page, baseURL, stop)), ...(await sweepRow(page, stop))];
      report.push(`${stop.name} ${stop.path}: ${seen.join('、') || '（无对话框）'} (${Date.now() - started} ms)`);
      expect(faults.take(), `${stop.name}（${stop.path}）出现页面错误`).toEqual([]);
    }
    console.log(`[sweep-dialogs]\n${report.join('\n')}`);
    // the sweep really met the dialogs the issue names
    const all = report.join('\n');
    for (const must of ['新建→dialog', '新建分组→dialog', '发布→dialog', '新增数据源→dialog', '行编辑→dialog']) expect(all).toContain(must);
    // every menu page, including those the other files add while the run goes on (about 4 s a page)
  }, 400_000);

  it('Wiki：删除仍有文档的分组 → 确认框关闭，显示服务端原因，无错误', async () => {
    const title = `巡检分组${run}`;
    const group = await must('/api/doc/wikigroup/save', { parentId: 0, title }, admin);
    const doc = await must('/api/doc/wikidetail/save', { parentId: group, title: `巡检文档${run}`, docContent: '<p>x</p>', docType: 1 }, admin);
    try {
      await visit(page, baseURL, '/data/wiki');
      const node = page.getByTestId('wiki-tree').locator('.ant-tree-treenode', { has: page.locator('.wiki-node-title', { hasText: title }) });
      await node.hover();
      await page.getByRole('button', { name: `分组【${title}】操作` }).click();
      await page.locator('.ant-dropdown:visible').getByText('删除分组').click();
      await confirmBox(page, `确定要删除【${title}】吗？`);
      await toast(page, `分组【${title}】下还有文档或分组，不能删除`, { prefix: 'sweep' });
      await confirmOpen(page).first().waitFor({ state: 'hidden', timeout: 5000 });
      await node.waitFor(); // still there
      await shot(page, 'sweep-dialog-wiki-refused-delete');
      expect(faults.take()).toEqual([]);
    } finally {
      await call(`/api/doc/wikidetail/delete?id=${doc}`, {}, admin);
      await call(`/api/doc/wikigroup/select?id=${group}`, {}, admin);
    }
  });

  it('API设计：删除仍有接口的分组 → 确认框关闭，显示服务端原因，无错误', async () => {
    const name = `巡检组${run}`;
    const group = await must('/api/gemini/api/group/save', { parentId: 0, name }, admin);
    const api = await must('/api/gemini/api/design/info/save', { groupId: group, apiName: `sweep_${run}`, apiComment: '巡检', reqParamList: [] }, admin);
    try {
      await visit(page, baseURL, '/apimgr/design');
      await page.getByRole('button', { name: `${name} 操作` }).click();
      await page.locator('.ant-dropdown:visible').getByRole('menuitem', { name: '删除' }).click();
      await confirmBox(page, `确定要删除【${name}】组吗？`);
      await toast(page, `分组【${name}】下还有 1 个接口，不能删除`, { prefix: 'sweep' });
      await confirmOpen(page).first().waitFor({ state: 'hidden', timeout: 5000 });
      await page.getByRole('button', { name: `${name} 操作` }).waitFor(); // still there
      await shot(page, 'sweep-dialog-apigroup-refused-delete');
      expect(faults.take()).toEqual([]);
    } finally {
      await call(`/api/gemini/api/design/delete?id=${api}`, undefined, admin);
      await call(`/api/gemini/api/group/delete?id=${group}`, undefined, admin);
    }
  });
});
