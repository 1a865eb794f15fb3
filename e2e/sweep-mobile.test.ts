// Every screen on a phone. At 390×844 with an iPhone's user agent (the shell's isMobile reads the agent), visit every
// entry of the menu the app loads and check that nothing is wider than the window: the document does not scroll
// sideways, and no element reaches past the window's right edge unless it sits in an element that scrolls
// horizontally (a wide table, the log lines). Tables scroll sideways and their 操作 column is not fixed on a phone
// (fixed, it covered most of the row). The Wiki (its tree in a drawer) and query support are used with taps.
// Screenshots: .test-results/screens/sweep-mobile-*.png. Page errors fail the sweep as in sweep-dialogs.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { describeBrowser, launchBrowser, newPage, shot } from './lib/browser';
import { call, must, opened, signIn, toast } from './lib/calls';
import { currentView, loginAndReadMenu, menuStops, settled, visit, watchFaults, type Stop } from './lib/sweep';

const WIDTH = 390;
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const run = Date.now().toString(36);

/**
 * What reaches past the window's right edge outside a horizontal scroller, as short descriptions; also the document
 * itself when it is wider than the window (a phone then zooms the whole page out, so innerWidth grows too).
 */
async function overflow(page: Page): Promise<string[]> {
  return page.evaluate((width) => {
    const out: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > width || window.innerWidth !== width) out.push(`页面宽 ${doc.scrollWidth}px，窗口 ${window.innerWidth}px`);
    // a box that scrolls sideways, or one that clips and scrolls its content by its own means (monaco's editors,
    // the tab bar of visited pages): what is inside cannot make the page wider; the box itself is checked too
    const scrollsX = (el: Element) => ['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(el).overflowX);
    const inScroller = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) if (scrollsX(p)) return true;
      return false;
    };
    const shown = (el: Element) => {
      const s = getComputedStyle(el);
      return s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0;
    };
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.right <= width + 1) continue;
      if (!shown(el) || inScroller(el)) continue;
      // report the outermost offender only
      if (el.parentElement && out.some((o) => o.startsWith('#')) && el.parentElement.getBoundingClientRect().right > width + 1) continue;
      const cls = typeof el.className === 'string' ? el.className.split(/\s+/).slice(0, 3).join('.') : '';
      out.push(`#${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''}「${(el.textContent ?? '').trim().slice(0, 20)}」右边 ${Math.round(r.right)}px`);
    }
    return out.slice(0, 10);
  }, WIDTH);
}

/** Tables of the current view: each scrolls sideways inside itself, and no column is fixed on a phone. */
async function tableFaults(page: Page): Promise<string[]> {
  return currentView(page).evaluate((view) => {
    const out: string[] = [];
    for (const table of view.querySelectorAll('.ant-table')) {
      const scroller = table.querySelector('.ant-table-content, .ant-table-body');
      if (!scroller || !['auto', 'scroll'].includes(getComputedStyle(scroller).overflowX)) out.push('表格不能横向滚动');
      if (table.querySelector('.ant-table-cell-fix-right, .ant-table-cell-fix-left')) out.push('手机上表格有固定列');
    }
    return out;
  });
}

describeBrowser('手机（390×844）：每个菜单页不超出窗口宽度；Wiki 与查询支持可用', () => {
  const baseURL = inject('baseURL');
  let browser: Browser;
  let page: Page;
  let stops: Stop[] = [];
  let faults: ReturnType<typeof watchFaults>;
  let admin: string;
  const cleanup: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    admin = await signIn('admin', inject('adminPassword'));
    // a row in a list with many columns, so its table really is wider than the phone
    const dir = join(inject('dataDir'), 'sqlite');
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, `mobile_${run}.db`))) writeFileSync(join(dir, `mobile_${run}.db`), '');
    const ds = await must('/api/gemini/datasource/info/save', { dsName: `mobile_${run}`, dbType: 'sqlite', dbName: `mobile_${run}.db` }, admin);
    cleanup.push(() => call(`/api/gemini/datasource/delete?id=${ds}`, undefined, admin));
    browser = await launchBrowser();
    page = await newPage(browser, { viewport: { width: WIDTH, height: 844 }, userAgent: IPHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
    faults = watchFaults(page);
    stops = menuStops(await loginAndReadMenu(page, baseURL, 'admin', inject('adminPassword')));
  });
  afterAll(async () => {
    await browser?.close();
    for (const undo of cleanup.reverse()) await undo().catch(() => undefined);
  });

  it('每个菜单页：不超出窗口，表格横向滚动且无固定列，无页面错误', async () => {
    expect(stops.length).toBeGreaterThan(10);
    const problems: string[] = [];
    for (const stop of stops) {
      await visit(page, baseURL, stop.path);
      await shot(page, `sweep-mobile${stop.path.replace(/\//g, '-')}`);
      for (const p of [...(await overflow(page)), ...(await tableFaults(page))]) problems.push(`${stop.name}（${stop.path}）：${p}`);
      for (const f of faults.take()) problems.push(`${stop.name}（${stop.path}）：${f}`);
    }
    expect(problems).toEqual([]);
  });

  it('桌面浏览器窗口窄到手机宽度：侧边栏收起、浮在页面上，页面不超出窗口', async () => {
    // no phone user agent: the width alone gives the phone layout (a narrow desktop window, a phone in desktop mode)
    const desk = await newPage(browser, { viewport: { width: WIDTH, height: 844 } });
    const deskFaults = watchFaults(desk);
    await loginAndReadMenu(desk, baseURL, 'admin', inject('adminPassword'));
    await visit(desk, baseURL, '/data/datasource');
    const sider = desk.getByTestId('sidebar');
    expect(await sider.evaluate((el) => el.getBoundingClientRect().width)).toBe(0);
    expect(await overflow(desk)).toEqual([]);
    // the menu button opens it over the page, with a mask; picking an entry closes it again
    await desk.getByTestId('sidebar-toggle').click();
    await desk.getByTestId('sidebar-mask').waitFor();
    await shot(desk, 'sweep-mobile-desktop-agent-menu');
    await desk.getByTestId('sidebar-mask').click({ position: { x: WIDTH - 20, y: 400 } }); // beside the open sidebar
    await desk.getByTestId('sidebar-mask').waitFor({ state: 'detached' });
    expect(deskFaults.take()).toEqual([]);
    await desk.context().close();
  });

  it('数据源列表：表格在自身内横向滚动，滚到最右能看到操作列', async () => {
    await visit(page, baseURL, '/data/datasource');
    const row = currentView(page).locator('tbody tr.ant-table-row', { hasText: `mobile_${run}` });
    await row.waitFor();
    const scroller = currentView(page).locator('.ant-table-content').first();
    expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await scroller.evaluate((el) => (el.scrollLeft = el.scrollWidth));
    const box = await row.getByRole('button', { name: /删\s?除/ }).boundingBox();
    expect(box && box.x + box.width <= WIDTH).toBe(true);
    await shot(page, 'sweep-mobile-datasource-scrolled');
    expect(await overflow(page)).toEqual([]);
    expect(faults.take()).toEqual([]);
  });

  it('Wiki：目录在抽屉里，点文档后抽屉关闭、正文全宽', async () => {
    const group = await must('/api/doc/wikigroup/save', { parentId: 0, title: `手机分组${run}` }, admin);
    const doc = await must('/api/doc/wikidetail/save', { parentId: group, title: `手机文档${run}`, docContent: '<p>一段很长的正文，'.padEnd(200, '长') + '</p>', docType: 1 }, admin);
    cleanup.push(async () => {
      await call(`/api/doc/wikidetail/delete?id=${doc}`, {}, admin);
      await call(`/api/doc/wikigroup/select?id=${group}`, {}, admin);
    });
    await visit(page, baseURL, '/data/wiki');
    expect(await page.getByTestId('wiki-tree').count()).toBe(0); // not squeezed beside the document
    await currentView(page).getByTestId('split-pane-open').tap();
    const drawer = page.locator('.split-pane-drawer .ant-drawer-content');
    await drawer.waitFor();
    const node = (title: string) => drawer.locator('.ant-tree-treenode', { has: page.locator('.wiki-node-title', { hasText: title }) });
    await node(`手机分组${run}`).locator('.ant-tree-switcher').tap();
    await shot(page, 'sweep-mobile-wiki-drawer');
    // picking the document closes the drawer and shows it across the whole width
    await node(`手机文档${run}`).locator('.wiki-node-title').tap();
    await drawer.waitFor({ state: 'hidden' });
    await currentView(page).getByTestId('wiki-view').getByRole('heading', { name: `手机文档${run}` }).waitFor();
    await settled(page);
    await shot(page, 'sweep-mobile-wiki-document');
    expect(await overflow(page)).toEqual([]);
    expect(faults.take()).toEqual([]);
  });

  it('查询支持：列表在抽屉里，新建查询后编辑区全宽可用', async () => {
    await visit(page, baseURL, '/data/query');
    await currentView(page).getByTestId('split-pane-open').tap();
    const drawer = page.locator('.split-pane-drawer .ant-drawer-content');
    await drawer.waitFor();
    await drawer.getByRole('button', { name: /新\s?建/ }).tap();
    const dialog = page.locator('.ant-modal:visible');
    await opened(dialog);
    await dialog.getByPlaceholder('请输入名称').fill(`手机查询${run}`);
    await dialog.getByRole('button', { name: /确\s?定/ }).tap();
    await toast(page, '添加成功', { prefix: 'sweep-mobile' });
    // the new query opens: the drawer is gone and the editor has the width
    await drawer.waitFor({ state: 'hidden' });
    await currentView(page).getByText('SQL脚本').waitFor();
    await settled(page);
    const queries: { records: Array<{ id: number; queryName: string }> } = await must('/api/gemini/sqlQuery/search', { pageNum: 1, pageSize: 10, search: `手机查询${run}` }, admin);
    for (const q of queries.records) cleanup.push(() => call(`/api/gemini/sqlQuery/delete?id=${q.id}`, undefined, admin));
    await shot(page, 'sweep-mobile-query-editor');
    expect(await overflow(page)).toEqual([]);
    expect(faults.take()).toEqual([]);
  });
});
