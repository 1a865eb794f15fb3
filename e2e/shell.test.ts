// The shell in a real browser against the real server: sign-in, menu, profile, logout, the
// guard, the single session-expired box, and the persisted layout settings.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';
import { opened } from './lib/calls';

const TOKEN_KEY = 'dsc.token';

describeBrowser('外壳：登录、菜单、个人中心、退出', () => {
  const baseURL = inject('baseURL');
  const password = inject('adminPassword');
  let browser: Browser;
  const pages: Page[] = [];
  const fresh = async () => {
    const p = await newPage(browser);
    pages.push(p);
    return p;
  };

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('未登录访问页面 → 登录页并带回跳地址；必填提示', async () => {
    const page = await fresh();
    await page.goto(`${baseURL}/data/model?x=1`);
    await page.waitForURL(/\/login\?redirect=/);
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/data/model?x=1');
    await expect(page.getByText('数据服务平台').first().isVisible()).resolves.toBe(true);
    await expect(page.getByText('您好，欢迎登录').isVisible()).resolves.toBe(true);
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.getByText('请输入账号').waitFor();
    await page.getByText('请输入密码').waitFor();
    await shot(page, 'shell-login-required');
  });

  it('错误密码显示服务端消息，停留在登录页', async () => {
    const page = await fresh();
    await page.goto(`${baseURL}/login`);
    await page.getByPlaceholder('账号').fill('admin');
    await page.getByPlaceholder('密码').fill('wrong-password');
    await page.getByPlaceholder('密码').press('Enter');
    await page.getByTestId('login-error').waitFor();
    expect(await page.getByTestId('login-error').textContent()).toContain('账号或密码错误');
    // shown once, under the button: no second copy as a message at the top
    expect(await page.locator('.ant-message-error').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/login');
    await shot(page, 'shell-login-wrong-password');
  });

  it('登录 → 菜单 → 页面 → 个人中心 → 退出', async () => {
    const page = await fresh();
    await login(page, baseURL, 'admin', password);
    expect(new URL(page.url()).pathname).toBe('/index');
    // home: the four feature cards and the labels
    await page.getByTestId('feature-card').first().waitFor();
    expect(await page.getByTestId('feature-card').count()).toBe(4);
    for (const text of ['平台集成', '服务开发', '运维管控', '权限管理', '大模型', '智能体', '热门', '最新']) {
      await page.getByText(text, { exact: true }).first().waitFor();
    }
    const sidebar = page.getByTestId('sidebar');
    for (const text of ['首页', '数据管理', '运维管理', '智能应用', '系统管理']) await sidebar.getByText(text, { exact: true }).waitFor();
    await shot(page, 'shell-home');

    // open a directory and a page from the menu
    await sidebar.getByText('智能应用', { exact: true }).click();
    await sidebar.getByText('对话式表单', { exact: true }).click();
    await page.waitForURL(/\/ai\/chat-form$/);
    await page.getByText('知识库视图').waitFor();
    const crumbs = await page.getByTestId('breadcrumb').textContent();
    expect(crumbs).toContain('智能应用');
    expect(crumbs).toContain('对话式表单');
    // the visited tab is there
    await page.getByTestId('tags-view').getByText('对话式表单').waitFor();
    await page.waitForTimeout(400); // let the menu's selection animation finish
    await shot(page, 'shell-chat-form');

    // profile from the user dropdown
    await page.getByTestId('user-menu').hover();
    await page.getByText('个人中心', { exact: true }).click();
    await page.waitForURL(/\/user\/profile$/);
    await page.getByText('个人信息').waitFor();
    const profile = await page.locator('.ant-descriptions').textContent();
    expect(profile).toContain('账号');
    expect(profile).toContain('admin');
    await shot(page, 'shell-profile');

    // logout asks first, then the server's login URL
    await page.getByTestId('user-menu').hover();
    await page.getByText('退出登录', { exact: true }).click();
    await page.getByText('确定注销并退出系统吗？').waitFor();
    await opened(page.locator('.ant-modal-confirm'));
    await shot(page, 'shell-logout-confirm');
    await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定/ }).click();
    await page.waitForURL(/\/login/);
    expect(await page.evaluate((k) => localStorage.getItem(k), TOKEN_KEY)).toBeNull();
  });

  it('三个同时出现的 401 只弹一个会话过期框', async () => {
    const page = await fresh();
    await login(page, baseURL, 'admin', password);
    await page.evaluate((k) => localStorage.setItem(k, 'expired-token'), TOKEN_KEY);
    const results = await page.evaluate(async () => {
      const { request } = (window as unknown as { __DSC__: { request: { get: (p: string, q?: unknown) => Promise<unknown>; post: (p: string, b?: unknown) => Promise<unknown> } } }).__DSC__;
      const all = await Promise.allSettled([request.get('/uams/session/find'), request.get('/menu/routes/get', { moduleType: 'platform' }), request.post('/dict/selectMapData', ['YES_OR_NO'])]);
      return all.map((r) => r.status);
    });
    expect(results).toEqual(['rejected', 'rejected', 'rejected']);
    const box = page.locator('.ant-modal-confirm');
    await box.first().waitFor();
    await page.waitForTimeout(500);
    expect(await box.count()).toBe(1);
    expect(await box.textContent()).toContain('登录状态已过期，您可以继续留在该页面，或者重新登录');
    expect(await box.textContent()).toContain('系统提示');
    await shot(page, 'shell-session-expired');
    await box.getByRole('button', { name: /重新登录/ }).click();
    await page.waitForURL(/\/login/);
  });

  it('令牌失效后刷新：守卫加载会话失败 → 退出并去退出接口返回的地址', async () => {
    const page = await fresh();
    await login(page, baseURL, 'admin', password);
    await page.evaluate((k) => localStorage.setItem(k, 'expired-token'), TOKEN_KEY);
    await page.reload();
    await page.waitForURL(/\/login/);
    await page.getByPlaceholder('账号').waitFor();
    expect(await page.evaluate((k) => localStorage.getItem(k), TOKEN_KEY)).toBeNull();
  });

  it('嵌入页面：本站地址附带令牌；未列入可信站点的地址只嵌入页面，不附带令牌', async () => {
    const page = await fresh();
    await login(page, baseURL, 'admin', password);
    const token = await page.evaluate((k) => localStorage.getItem(k), TOKEN_KEY);
    await page.goto(`${baseURL}/datav/embedded?src=${encodeURIComponent(`${baseURL}/docs/help.html`)}&authentication=1&key=access_token`);
    const own = new URL((await page.getByTestId('embedded-frame').getAttribute('src'))!);
    expect(own.searchParams.get('access_token')).toBe(token);
    expect(await page.getByTestId('embedded-withheld').count()).toBe(0);
    await page.goto(`${baseURL}/datav/embedded?src=${encodeURIComponent('https://attacker.example/x')}&authentication=1&key=access_token`);
    await page.getByTestId('embedded-withheld').waitFor();
    expect(await page.getByTestId('embedded-frame').getAttribute('src')).toBe('https://attacker.example/x');
    await shot(page, 'shell-embedded-withheld');
  });

  it('侧边栏折叠状态刷新后保持', async () => {
    const page = await fresh();
    await login(page, baseURL, 'admin', password);
    const sidebar = page.getByTestId('sidebar');
    expect(await sidebar.getAttribute('class')).toContain('dsc-sider-expanded');
    await page.getByTestId('sidebar-toggle').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=sidebar]')?.className.includes('dsc-sider-collapsed'));
    await page.reload();
    await page.getByTestId('user-menu').waitFor();
    expect(await page.getByTestId('sidebar').getAttribute('class')).toContain('dsc-sider-collapsed');
    const width = await page.getByTestId('sidebar').evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBeLessThan(100);
    await shot(page, 'shell-sidebar-collapsed');
    await page.getByTestId('sidebar-toggle').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=sidebar]')?.className.includes('dsc-sider-expanded'));
    // the sider animates its width; wait for the end
    await page.waitForFunction(() => document.querySelector('[data-testid=sidebar]')!.getBoundingClientRect().width === 220);
  });

  it('主题颜色刷新后保持', async () => {
    const page = await fresh();
    await login(page, baseURL, 'admin', password);
    const searchButton = page.locator('.ant-input-search-button');
    const bg = () => searchButton.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await bg()).toBe('rgb(22, 119, 255)');
    await page.getByTestId('settings-button').click();
    const swatches = page.getByTestId('theme-colors').locator('button');
    expect(await swatches.count()).toBe(10);
    await page.waitForTimeout(500); // the drawer slides in
    await shot(page, 'shell-settings');
    await page.locator('button[data-color="#52c41a"]').click();
    await page.waitForFunction(() => getComputedStyle(document.querySelector('.ant-input-search-button')!).backgroundColor === 'rgb(82, 196, 26)');
    await page.reload();
    await page.getByTestId('user-menu').waitFor();
    await page.waitForFunction(() => !!document.querySelector('.ant-input-search-button'));
    expect(await bg()).toBe('rgb(82, 196, 26)');
    await shot(page, 'shell-theme-green');
  });

  it('地址中的 authorization 被保存、去掉并重新加载', async () => {
    const first = await fresh();
    await login(first, baseURL, 'admin', password);
    const token = await first.evaluate((k) => localStorage.getItem(k), TOKEN_KEY);
    const page = await fresh();
    await page.goto(`${baseURL}/ai/chat-bi?a=1&authorization=${token}`);
    await page.getByTestId('user-menu').waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toBe('/ai/chat-bi');
    expect(url.search).toBe('?a=1');
    expect(await page.evaluate((k) => localStorage.getItem(k), TOKEN_KEY)).toBe(token);
  });

  it('访问过的页面保持挂载（隐藏），关闭标签后移除', async () => {
    const page = await fresh();
    await login(page, baseURL, 'admin', password);
    await page.goto(`${baseURL}/ai/chat-form`);
    await page.getByText('知识库视图').waitFor();
    await page.getByTestId('tags-view').getByText('首页', { exact: true }).click();
    await page.waitForURL(/\/index$/);
    const cached = page.locator('[data-view="/ai/chat-form"]');
    expect(await cached.count()).toBe(1);
    expect(await cached.isVisible()).toBe(false);
    // the tabs survive a reload
    await page.reload();
    await page.getByTestId('tags-view').getByText('对话式表单').waitFor();
    await page.getByTestId('tags-view').locator('.ant-tabs-tab').filter({ hasText: '对话式表单' }).locator('.ant-tabs-tab-remove').click();
    await page.waitForFunction(() => !document.querySelector('[data-testid=tags-view]')!.textContent!.includes('对话式表单'));
    expect(await page.locator('[data-view="/ai/chat-form"]').count()).toBe(0);

    // right-click menu: 刷新页面 remounts the page, 关闭其他 leaves 首页 and the current one
    await page.goto(`${baseURL}/ai/chat-bi`);
    await page.getByText('对话式BI').first().waitFor();
    await page.getByTestId('sidebar').getByText('解决方案介绍', { exact: true }).click();
    await page.getByText('解决方案介绍').nth(1).waitFor();
    await page.evaluate(() => ((document.querySelector('[data-view="/ai/solution"]') as unknown as { marked: boolean }).marked = true));
    const tabs = page.getByTestId('tags-view');
    await tabs.getByText('解决方案介绍').click({ button: 'right' });
    await page.getByRole('menuitem', { name: '刷新页面' }).click();
    await page.waitForFunction(() => !(document.querySelector('[data-view="/ai/solution"]') as unknown as { marked?: boolean } | null)?.marked);
    await page.getByText('建设中').last().waitFor();
    await tabs.getByText('解决方案介绍').click({ button: 'right' });
    await page.getByRole('menuitem', { name: '关闭其他' }).click();
    await page.waitForFunction(() => !document.querySelector('[data-testid=tags-view]')!.textContent!.includes('对话式BI'));
    expect((await tabs.locator('.ant-tabs-tab').allTextContents()).map((t) => t.trim())).toEqual(['首页', '解决方案介绍']);
    await shot(page, 'shell-tabs-menu');
  });

  it('移动设备（按 UA 判断）侧边栏默认关闭', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    });
    const page = await context.newPage();
    pages.push(page);
    await login(page, baseURL, 'admin', password);
    expect(await page.getByTestId('sidebar').evaluate((el) => el.getBoundingClientRect().width)).toBe(0);
    await shot(page, 'shell-mobile');
    await page.getByTestId('sidebar-toggle').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=sidebar]')!.getBoundingClientRect().width === 220);
    await shot(page, 'shell-mobile-open');
    // tapping beside it closes it again
    await page.getByTestId('sidebar-mask').click({ position: { x: 350, y: 400 } });
    await page.waitForFunction(() => document.querySelector('[data-testid=sidebar]')!.getBoundingClientRect().width === 0);
  });

  it('/redirect/<路径> 替换为该路径并保留查询；消息图标默认隐藏，打开后显示暂无消息', async () => {
    const page = await fresh();
    await login(page, baseURL, 'admin', password);
    await page.goto(`${baseURL}/redirect/ai/chat-bi?x=1`);
    await page.waitForURL(/\/ai\/chat-bi\?x=1$/);
    await page.getByText('对话式BI').first().waitFor();
    expect(await page.locator('[title="消息"]').count()).toBe(0);
    expect(await page.locator('[title="帮助文档"]').count()).toBe(0);
    await page.getByTestId('settings-button').click();
    await page.getByRole('switch', { name: '显示消息图标' }).click();
    await page.keyboard.press('Escape');
    await page.locator('[title="消息"]').click();
    await page.getByText('暂无消息').waitFor();
    await shot(page, 'shell-messages');
  });

  it('普通 http 的内网域名（非安全上下文，无 WebCrypto）也能登录：node-forge 加密', async () => {
    const port = new URL(baseURL).port;
    const intranet = await launchBrowser(['--host-resolver-rules=MAP console.test 127.0.0.1']);
    try {
      const page = await newPage(intranet);
      await page.goto(`http://console.test:${port}/login`);
      expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
      await login(page, `http://console.test:${port}`, 'admin', password);
      expect(new URL(page.url()).pathname).toBe('/index');
    } finally {
      await intranet.close();
    }
  });

  it('顶部导航：设置后菜单在顶栏，刷新后保持', async () => {
    const page = await fresh();
    await login(page, baseURL, 'admin', password);
    await page.getByTestId('settings-button').click();
    await page.getByText('顶部导航', { exact: true }).click();
    await page.getByTestId('top-nav').waitFor();
    await page.keyboard.press('Escape');
    await page.reload();
    const nav = page.getByTestId('top-nav');
    await nav.waitFor();
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    await nav.getByText('数据管理').waitFor();
    await shot(page, 'shell-top-nav');
    // narrow window: items at 100 px each, the rest under 更多 (after the 500 ms resize debounce)
    await page.setViewportSize({ width: 760, height: 700 });
    await nav.getByText('更多').waitFor({ timeout: 5000 });
    const width = await nav.evaluate((el) => el.clientWidth);
    // top-level items including 更多 fill the width at 100 px each
    const shown = await nav.locator('ul.ant-menu-root > li.ant-menu-item, ul.ant-menu-root > li.ant-menu-submenu').count();
    expect(shown).toBe(Math.min(20, Math.floor(width / 100)));
    await nav.getByText('更多').hover();
    await page.locator('.ant-menu-submenu-popup').getByText('系统管理').waitFor();
    await shot(page, 'shell-top-nav-more');
  });

  it('动效跟随系统的“减少动态效果”设置：对话框直接出现在原位，否则缩放进入', async () => {
    /** Every class list the logout confirm box had while it opened. */
    const openingClasses = async (page: Page) => {
      await page.evaluate(() => {
        const w = window as unknown as { __box: string[] };
        w.__box = [];
        new MutationObserver(() => {
          const box = document.querySelector('.ant-modal-confirm');
          if (box) w.__box.push(box.className);
        }).observe(document.body, { childList: true, subtree: true, attributes: true });
      });
      await page.getByTestId('user-menu').hover();
      await page.getByText('退出登录', { exact: true }).click();
      await page.getByText('确定注销并退出系统吗？').waitFor();
      await opened(page.locator('.ant-modal-confirm'));
      return (await page.evaluate(() => (window as unknown as { __box: string[] }).__box)).join(' ');
    };
    const still = await fresh(); // newPage asks for reduced motion
    await login(still, baseURL, 'admin', password);
    expect(await openingClasses(still)).not.toMatch(/ant-zoom-appear-(start|active)/);
    const moving = await newPage(browser, { reducedMotion: 'no-preference' });
    pages.push(moving);
    await login(moving, baseURL, 'admin', password);
    expect(await openingClasses(moving)).toMatch(/ant-zoom-appear-active/);
  });
});
