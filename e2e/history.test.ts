// 历史版本 clicked through in Chromium (issue 37 item 1): a screen edited and saved three times in its designer
// (a widget nudged with the arrow keys, Ctrl+S), its 历史版本 drawer lists the versions with who and when, shows
// the change in words and the two layouts side by side, and 恢复 brings the first version back as a new one —
// the designer shows it again. A page's versions in the page manager show a column's width change in words.
import { inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { must, signIn, toast as waitToast } from './lib/calls';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';

const run = Date.now().toString(36);
const toast = (page: Page, text: string) => waitToast(page, text, { prefix: 'history' });
const drawer = (page: Page) => page.getByTestId('history-drawer');

describeBrowser('历史版本', () => {
  let browser: Browser;
  let page: Page;
  let token: string;
  beforeAll(async () => {
    token = await signIn('admin', inject('adminPassword'));
    browser = await launchBrowser();
    page = await newPage(browser, { viewport: { width: 1600, height: 900 } });
    await login(page, inject('baseURL'), 'admin', inject('adminPassword'));
  });
  afterAll(() => browser?.close());

  it('a screen saved three times: the versions, the change in words, both layouts, and the first restored', async () => {
    const D = '/api/datav/screen';
    const screen = await must(`${D}/info/save`, { pageName: `历史大屏${run}` }, token);
    const title = await must(`${D}/widget/add`, { pageId: screen.id, widgetName: 'singleLineTitle', left: 100, top: 100 }, token);
    const chart = await must(`${D}/widget/add`, { pageId: screen.id, widgetName: 'barChart', left: 400, top: 300 }, token);
    // the first saved state: the two widgets (version 2, after the screen's creation)
    await must(`${D}/widget/update`, { pageId: screen.id, widgets: [chart, title] }, token);
    const left0 = title.widgetProps.viewProps.left;

    await page.goto(`${inject('baseURL')}/datav/screen/design?pageId=${screen.id}`);
    await page.getByTestId('canvas-stage').waitFor({ timeout: 30_000 });
    await page.getByRole('tab', { name: '图层' }).click();
    for (let i = 1; i <= 3; i++) {
      await page.getByTestId('layer-list').getByText('单行标题').click();
      await page.keyboard.press('Shift+ArrowRight');
      await page.keyboard.press('Control+s');
      await toast(page, '保存成功');
      await expect.poll(async () => (await must(`${D}/widget/select?pageId=${screen.id}`, undefined, token)).find((w: any) => w.id === title.id).widgetProps.viewProps.left).toBe(left0 + 10 * i);
    }

    await page.getByTestId('designer-history').click();
    const d = drawer(page);
    await d.getByTestId('history-version-5').waitFor({ timeout: 15_000 });
    expect(await d.locator('[data-testid^="history-version-"]').first().textContent()).toContain('admin');
    // the newest against the one before it: the title moved by 10, both layouts drawn
    await d.getByTestId('history-changes').getByText(`组件「单行标题」移动到 (${left0 + 30}, ${title.widgetProps.viewProps.top})`).waitFor();
    await expect.poll(() => d.getByTestId('history-thumb').count()).toBe(2);
    expect(await d.getByTestId('history-thumb').first().locator('rect').count()).toBe(3);
    await shot(page, 'history-screen');
    // the raw JSON diff beside the words
    await d.getByRole('button', { name: '查看 JSON 差异' }).click();
    await d.locator('.jsondiffpatch-delta').first().waitFor();
    // 恢复 the first saved state (version 2)
    await d.getByTestId('history-version-2').getByRole('button', { name: /恢\s?复/ }).click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: /恢\s?复/ }).click();
    await toast(page, '已恢复为新版本');
    await expect.poll(async () => (await must(`${D}/widget/select?pageId=${screen.id}`, undefined, token)).find((w: any) => w.id === title.id).widgetProps.viewProps.left).toBe(left0);
    // the designer shows it again; the history kept every version and added one
    await page.getByTestId('canvas-stage').waitFor();
    await page.getByTestId('designer-history').click();
    // (the designer's first save also wrote its default theme: a version of its own)
    const versions = (await must(`/api/history/list?kind=screen&key=${screen.id}`, undefined, token)).records;
    expect(versions[0].note).toMatch(/^恢复自版本 2（/);
    const newest = drawer(page).getByTestId(`history-version-${versions[0].number}`);
    await newest.waitFor({ timeout: 15_000 });
    expect(await newest.textContent()).toContain('恢复自版本 2');
    await shot(page, 'history-restored');
  });

  it('a page’s versions in the page manager: a column’s width change in words', async () => {
    const key = `hist_${run}`;
    const decl = (width: number) => ({ id: key, title: `历史页${run}`, columns: [{ title: '城市', field: 'city', width }], dialog: { schema: { type: 'object', properties: { city: { type: 'string', title: '城市' } } } } });
    const id = await must('/api/lowcode/page/save', { pageKey: key, title: `历史页${run}`, declaration: decl(120) }, token);
    await must('/api/lowcode/page/save', { id, pageKey: key, title: `历史页${run}`, declaration: decl(160), note: '加宽城市列' }, token);
    await page.goto(`${inject('baseURL')}/system/pages`);
    await page.getByTestId(`page-item-custom-${key}`).click();
    await page.getByTestId('pm-history').click();
    const d = drawer(page);
    await d.getByTestId('history-version-2').waitFor({ timeout: 15_000 });
    expect(await d.getByTestId('history-version-2').textContent()).toContain('加宽城市列');
    await d.getByTestId('history-changes').getByText('列「城市」的宽度 120 → 160').waitFor();
    await shot(page, 'history-page');
  });

  it('a menu entry’s versions from 菜单管理’s row: its rename in words, and 恢复', async () => {
    const key = `hist_menu_${run}`;
    const id = await must('/api/system/menu/save', { parentId: 0, menuKey: key, name: `历史菜单${run}`, type: 'C', path: `/hist/${run}`, component: 'page:variable', icon: 'BookOutlined', orderNum: 90, perms: 'sys:var:list' }, token);
    await must('/api/system/menu/save', { id, parentId: 0, name: `改名菜单${run}`, type: 'C', path: `/hist/${run}`, component: 'page:variable', icon: 'BookOutlined', orderNum: 90, perms: 'sys:var:list' }, token);
    await page.goto(`${inject('baseURL')}/system/menu`);
    const row = page.locator('tr').filter({ hasText: `改名菜单${run}` });
    await row.waitFor({ timeout: 15_000 });
    const button = row.getByRole('button', { name: '历史版本' });
    if (await button.count()) await button.click();
    else {
      // more actions than the row shows: under 更多
      await row.getByRole('button', { name: /更多/ }).click();
      await page.getByRole('menuitem', { name: '历史版本' }).click();
    }
    const d = drawer(page);
    await d.getByTestId('history-version-2').waitFor({ timeout: 15_000 });
    await d.getByTestId('history-changes').getByText(`名称：历史菜单${run} → 改名菜单${run}`).waitFor();
    await shot(page, 'history-menu');
    await d.getByTestId('history-version-1').getByRole('button', { name: /恢\s?复/ }).click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: /恢\s?复/ }).click();
    await toast(page, '已恢复为新版本');
    await expect.poll(async () => (await must(`/api/system/menu/get?id=${id}`, undefined, token)).name).toBe(`历史菜单${run}`);
    // the list shows it again under its old name
    await page.locator('tr').filter({ hasText: `历史菜单${run}` }).waitFor({ timeout: 15_000 });
  });
});
