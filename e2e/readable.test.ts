// Right answers a person can read: a page that exists for others is 401 无权限访问 (not 404) for a developer;
// Home's search box finds menus, screens and APIs the user may open and goes there; Monaco's menus and find
// widget speak Chinese.
import { inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { must, signIn } from './lib/calls';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';

const run = Date.now().toString(36).slice(-5);
const NAME = `find_${run}`;

describeBrowser('看得懂的答复：无权限页面、首页搜索、中文编辑器', () => {
  let browser: Browser;
  let page: Page;
  let screenId: string;
  beforeAll(async () => {
    const dev = await signIn('developer', inject('demoPassword'));
    const saved = await must('/api/datav/screen/info/save', { pageName: `${NAME}大屏` }, dev);
    screenId = String(typeof saved === 'object' && saved ? saved.id : saved);
    const group = await must('/api/gemini/api/group/save', { parentId: 0, name: `搜索${run}` }, dev);
    await must('/api/gemini/api/design/info/save', { groupId: typeof group === 'number' ? group : group.id, apiName: NAME, apiComment: '首页搜索用', reqParamList: [] }, dev);
    browser = await launchBrowser();
    page = await newPage(browser);
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
  });
  afterAll(() => browser?.close());

  it('普通用户打开仅管理员可见的页面：401 无权限访问；不存在的地址仍是 404', async () => {
    await page.goto(`${inject('baseURL')}/system/pages`);
    await page.getByTestId('error-401').getByText('无权限访问', { exact: false }).waitFor({ timeout: 30_000 });
    await shot(page, 'readable-401');
    expect(page.url()).toContain('/system/pages');
    await page.goto(`${inject('baseURL')}/no/such/page-${run}`);
    await page.getByTestId('error-404').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('error-404').innerText()).toContain('页面不存在');
  });

  it('首页搜索：按名称找到菜单、大屏和 API（只含有权限的），选中即前往', async () => {
    const search = async (text: string) => {
      await page.goto(`${inject('baseURL')}/index`);
      const box = page.getByTestId('home-search');
      await box.waitFor({ timeout: 30_000 });
      await box.fill(text);
    };
    const hit = (kind: string, name: string) => page.locator('.ant-select-dropdown:visible [data-testid=home-search-hit]').filter({ hasText: kind }).filter({ hasText: name }).first();

    await search(NAME);
    await hit('大屏', `${NAME}大屏`).waitFor({ timeout: 15_000 });
    await hit('API', NAME).waitFor();
    await shot(page, 'readable-home-search');
    await hit('大屏', `${NAME}大屏`).click();
    await page.waitForURL(new RegExp(`/datav/screen/design\\?pageId=${screenId}`), { timeout: 30_000 });

    await search('数据源');
    await hit('菜单', '数据源管理').click();
    await page.waitForURL(/\/data\/datasource$/, { timeout: 30_000 });

    // the button opens the first hit
    await search(NAME);
    await hit('API', NAME).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: /搜\s?索/ }).click();
    await page.waitForURL(/\/datav\/screen\/design\?pageId=|\/apimgr\/design\/detail\?id=/, { timeout: 30_000 });

    // what the developer may not open is not offered: 页面管理 is the admin's
    await search('页面管理');
    await page.locator('.ant-select-dropdown:visible').getByText('没有找到相关的菜单、页面、大屏、表单或API').waitFor({ timeout: 15_000 });
  });

  it('Monaco 编辑器的右键菜单和查找框是中文', async () => {
    const admin = await newPage(browser);
    try {
      await login(admin, inject('baseURL'), 'admin', inject('adminPassword'));
      await admin.goto(`${inject('baseURL')}/system/pages`);
      await admin.getByTestId('page-item-builtin-ftp').click();
      const editor = admin.locator('.monaco-editor').first();
      await editor.waitFor({ timeout: 30_000 });
      await editor.locator('.view-lines').click({ button: 'right' });
      // the context menu (monaco draws it in a shadow root, which locators enter)
      const menu = admin.locator('.monaco-menu').first();
      await menu.waitFor({ timeout: 15_000 });
      const items = await menu.innerText();
      expect(items).toContain('命令面板');
      expect(items).not.toMatch(/Command Palette|Copy|Cut/);
      await shot(admin, 'readable-monaco-menu');
      await admin.keyboard.press('Escape');
      await editor.locator('.view-lines').click();
      await admin.keyboard.press('Control+F');
      const find = admin.locator('.monaco-editor .find-widget').first();
      await find.waitFor({ timeout: 15_000 });
      await find.getByPlaceholder('查找').waitFor();
      await shot(admin, 'readable-monaco-find');
    } finally {
      await admin.context().close();
    }
  });
});
