// No lost work (issue 20 §1): an editor with unsaved edits is left by the sidebar menu, by closing its tab and by
// reloading the page; each time the user is asked first. The designer takes the whole window (issue 35 §7): no
// menu or tab is there to leave it by, its 返回 asks; back in the console by the browser's back button its tab
// keeps the edit, and closing that tab asks. In the designer 不保存 really discards: the widget dropped since the
// save (created on the server at the drop) is gone, in the designer reopened and through the API. The same
// question guards the wiki editor and an edited CRUD dialog.
import { inject } from 'vitest';
import type { Browser, Dialog, Page } from 'playwright-core';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';
import { must, opened, signIn } from './lib/calls';

const run = Date.now().toString(36).slice(-4);
const QUESTION = '数据有变化，确定要放弃保存吗？';

/** The leave question (取消 / 不保存 / 保存), once it has opened. */
async function question(page: Page) {
  const box = page.locator('.ant-modal-confirm:visible', { hasText: QUESTION }).last();
  await box.waitFor();
  await opened(box);
  return box;
}
async function answer(page: Page, button: RegExp) {
  const box = await question(page);
  await box.getByRole('button', { name: button }).click();
  await box.waitFor({ state: 'hidden' });
}

/** Reloads the page; the browser's beforeunload question must come and is accepted. */
async function reloadAsked(page: Page): Promise<void> {
  const asked: string[] = [];
  const onDialog = (d: Dialog) => {
    asked.push(d.type());
    void d.accept();
  };
  page.on('dialog', onDialog);
  await page.reload();
  page.off('dialog', onDialog);
  expect(asked).toEqual(['beforeunload']);
}

const sideItem = (page: Page, name: string) => page.getByTestId('sidebar').locator('.ant-menu-item', { hasText: name });
/** Clicks a sidebar entry, opening its directory first when it is closed. */
async function sideMenu(page: Page, dir: string, name: string) {
  if (!(await sideItem(page, name).isVisible())) await page.getByTestId('sidebar').locator('.ant-menu-submenu-title', { hasText: dir }).click();
  await sideItem(page, name).click();
}
const tab = (page: Page, name: string) => page.getByTestId('tags-view').locator('.ant-tabs-tab', { hasText: name });

describeBrowser('离开未保存的编辑', () => {
  let browser: Browser;
  let page: Page;
  let token: string;
  let screenId: number;
  let savedWidget: string;
  const base = inject('baseURL');
  const widgets = async () => (await must(`/api/datav/screen/widget/select?pageId=${screenId}`, undefined, token)) as Array<{ id: string; widgetName: string }>;

  beforeAll(async () => {
    token = await signIn('developer', inject('demoPassword'));
    const p = await must('/api/datav/screen/info/save', { pageName: `离开测试${run}`, width: 1920, height: 1080 }, token);
    screenId = p.id;
    // the saved state: one title
    savedWidget = (await must('/api/datav/screen/widget/add', { pageId: screenId, widgetName: 'singleLineTitle', top: 20, left: 20 }, token)).id;
    browser = await launchBrowser();
    page = await newPage(browser, { viewport: { width: 1600, height: 900 } });
    await login(page, base, 'developer', inject('demoPassword'));
  });
  afterAll(() => browser?.close());

  const openDesigner = async () => {
    await page.goto(`${base}/datav/screen/design?pageId=${screenId}`);
    await page.getByTestId('canvas-stage').locator(`[data-widget-id="${savedWidget}"]`).waitFor();
  };
  /** An unsaved edit: a bar chart dropped onto the canvas (widget/add creates it on the server at once). */
  const dropChart = async () => {
    const before = (await widgets()).length;
    await page.getByTestId('template-barChart').dragTo(page.getByTestId('canvas-stage'), { targetPosition: { x: 300, y: 200 } });
    await expect.poll(() => page.getByTestId('canvas-stage').locator('[data-widget-id]').count()).toBe(before + 1);
    await page.getByText('（未保存）').waitFor();
    expect((await widgets()).length).toBe(before + 1);
  };
  const savedStateOnly = async () => {
    await expect.poll(async () => (await widgets()).map((w) => w.id)).toEqual([savedWidget]);
  };

  /** Opens the designer from the screen list (in the app: the browser's back button then goes to the list). */
  const openFromList = async () => {
    await page.goto(`${base}/datav/screen`);
    await page.locator('.ant-table-row:visible', { hasText: `离开测试${run}` }).getByRole('button', { name: /设\s?计/ }).click();
    await page.getByTestId('canvas-stage').locator(`[data-widget-id="${savedWidget}"]`).waitFor();
  };
  const backToList = async () => {
    await page.goBack();
    await page.waitForURL(/\/datav\/screen$/);
    await page.getByTestId('sidebar').waitFor();
  };

  it('designer: in the whole window; back in the console its tab keeps the edit; closing it asks: 取消 keeps, 不保存 discards on the server too', async () => {
    await openFromList();
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    expect(await page.getByTestId('tags-view').count()).toBe(0);
    await dropChart();
    await backToList();
    expect((await widgets()).length).toBe(2);
    // its tab: back into the designer, the edit is there, unsaved
    await tab(page, '大屏设计器').click();
    await page.getByText('（未保存）').waitFor();
    expect(await page.getByTestId('canvas-stage').locator('[data-widget-id]').count()).toBe(2);
    await backToList();
    await tab(page, '大屏设计器').locator('.ant-tabs-tab-remove').click();
    await shot(page, 'leave-designer-tab-question');
    await answer(page, /取\s?消/);
    expect(await tab(page, '大屏设计器').count()).toBe(1);
    expect((await widgets()).length).toBe(2);
    await tab(page, '大屏设计器').locator('.ant-tabs-tab-remove').click();
    await answer(page, /不保存/);
    await expect.poll(() => tab(page, '大屏设计器').count()).toBe(0);
    await savedStateOnly();
    await openDesigner();
    await expect.poll(() => page.getByTestId('canvas-stage').locator('[data-widget-id]').count()).toBe(1);
    await expect.poll(() => page.getByText('（未保存）').count()).toBe(0);
  });

  it('designer: reload asks (beforeunload); after it the page is as saved', async () => {
    await openDesigner();
    await dropChart();
    await reloadAsked(page);
    await page.getByTestId('canvas-stage').locator(`[data-widget-id="${savedWidget}"]`).waitFor();
    await expect.poll(() => page.getByTestId('canvas-stage').locator('[data-widget-id]').count()).toBe(1);
    await savedStateOnly();
  });

  it('designer: its own 返回 → 不保存 discards too (back to the list); 保存 in the leave question keeps the edit', async () => {
    await openDesigner();
    await dropChart();
    await page.getByRole('button', { name: /返\s?回/ }).first().click();
    await page.locator('.ant-modal:visible', { hasText: '是否要返回？' }).getByRole('button', { name: /不保存/ }).click();
    await page.waitForURL(/\/datav\/screen$/);
    await savedStateOnly();

    // closing its tab from the console: 保存 in the leave question keeps the edit
    await openFromList();
    await dropChart();
    await backToList();
    await tab(page, '大屏设计器').locator('.ant-tabs-tab-remove').click();
    await answer(page, /^保\s?存$/);
    await expect.poll(() => tab(page, '大屏设计器').count()).toBe(0);
    await expect.poll(async () => (await widgets()).map((w) => w.widgetName).sort()).toEqual(['barChart', 'singleLineTitle']);
  });

  it('wiki: an edited document asks before the menu and on reload; 不保存 keeps the stored body', async () => {
    const group = await must('/api/doc/wikigroup/save', { parentId: 0, title: `离开分组${run}` }, token);
    const docId = await must('/api/doc/wikidetail/save', { parentId: group, title: `离开文档${run}`, docContent: '<p>已保存的正文</p>', docType: 1 }, token);
    await page.goto(`${base}/data/wiki?id=${docId}`);
    await page.getByTestId('wiki-view').getByRole('button', { name: /编\s?辑/ }).click();
    const editable = page.locator('.wiki-editor [contenteditable="true"]');
    await editable.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('不会保存的一句。');
    await page.getByText('有未保存的修改').waitFor();
    await sideMenu(page, '数据管理', '查询支持');
    await shot(page, 'leave-wiki-question');
    await answer(page, /不保存/);
    await page.waitForURL(/\/data\/query/);
    await tab(page, 'Wiki文档').click();
    await expect.poll(() => page.getByTestId('wiki-body').textContent()).toBe('已保存的正文');

    await page.getByTestId('wiki-view').getByRole('button', { name: /编\s?辑/ }).click();
    await editable.click();
    await page.keyboard.type('又一句。');
    await page.getByText('有未保存的修改').waitFor();
    await reloadAsked(page);
    await expect.poll(() => page.getByTestId('wiki-body').textContent()).toBe('已保存的正文');
  });

  it('a CRUD dialog: closing it edited asks (×, 取消), reload asks; untouched it closes at once', async () => {
    await page.goto(`${base}/ops/ftp`);
    await page.getByRole('button', { name: /^新\s?增$/ }).click();
    const dialog = page.locator('.ant-modal:visible').filter({ has: page.getByTestId('dialog-ok') });
    await opened(dialog);
    await dialog.getByRole('button', { name: /取\s?消/ }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: /^新\s?增$/ }).click();
    await opened(dialog);
    await dialog.getByPlaceholder('请输入名称').fill(`未保存${run}`);
    await dialog.locator('.ant-modal-close').click();
    await answer(page, /取\s?消/);
    expect(await dialog.getByPlaceholder('请输入名称').inputValue()).toBe(`未保存${run}`);
    await dialog.getByRole('button', { name: /取\s?消/ }).click();
    await shot(page, 'leave-dialog-question');
    await answer(page, /不保存/);
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: /^新\s?增$/ }).click();
    await opened(dialog);
    await dialog.getByPlaceholder('请输入名称').fill(`未保存${run}`);
    await reloadAsked(page);
    await page.getByRole('button', { name: /^新\s?增$/ }).waitFor();
  });
});
