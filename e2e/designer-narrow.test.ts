// The designer on a phone-width screen (below 768 px), in Chromium at 390×844 with touch: the canvas takes the
// screen (fitted to its width, no side panels), the toolbar is two rows keeping 返回, 撤销, 重做, 预览 and 保存, and
// 组件 / 图层 and 属性 open as drawers; a tap on a template adds it and closes the drawer, the new widget's 属性 open
// from the button over the canvas; 更多 holds 适应画布, 缩放, 网格吸附, the arranging buttons, 导入 and 导出; a swipe
// off the widgets scrolls the canvas. At 1600 px the desktop layout: both panels beside the canvas, one toolbar
// with every tool. Both in the whole window (e2e/designer-fullwin.test.ts). Screenshots designer-narrow-*.png.
import { inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';
import { must, signIn } from './lib/calls';

const run = Date.now().toString(36).slice(-4);
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

const box = async (page: Page, testId: string) => (await page.getByTestId(testId).boundingBox())!;
/** The scaled stage's box on screen (the stage's sizing wrapper: canvas size × scale). */
const stageBox = (page: Page) => page.getByTestId('canvas-stage').evaluate((el) => el.parentElement!.getBoundingClientRect().toJSON() as DOMRect);
const widgetCount = (page: Page) => page.getByTestId('canvas-stage').locator('[data-widget-id]').count();

describeBrowser('设计器：手机宽度下画布占满屏幕，面板在抽屉中', () => {
  let browser: Browser;
  let screenId: string;
  let swiped: string;
  beforeAll(async () => {
    browser = await launchBrowser();
    const token = await signIn('developer', inject('demoPassword'));
    const saved = await must('/api/datav/screen/info/save', { pageName: `e2e窄屏${run}`, width: 1920, height: 1080 }, token);
    screenId = String(typeof saved === 'object' && saved ? saved.id : saved);
    await must('/api/datav/screen/widget/add', { pageId: screenId, widgetName: 'barChart', top: 100, left: 120 }, token);
    // swiped across at 100 % below: a selection band would take it
    swiped = (await must('/api/datav/screen/widget/add', { pageId: screenId, widgetName: 'singleLineTitle', top: 400, left: 40 }, token)).id;
  });
  afterAll(() => browser?.close());

  const open = async (page: Page) => {
    await page.goto(`${inject('baseURL')}/datav/screen/design?pageId=${screenId}`);
    await page.getByTestId('canvas-stage').locator('[data-widget-id]').first().waitFor();
  };

  it('at 390 px: the canvas fills the width, the panels open as drawers, the other tools under 更多', async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 844 }, userAgent: IPHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
    await open(page);

    // no side panels; the toolbar is two rows with the essentials; nothing wider than the window
    expect(await page.getByTestId('designer-left').count()).toBe(0);
    expect(await page.getByTestId('designer-right').count()).toBe(0);
    const bar = await box(page, 'designer-toolbar-narrow');
    expect(bar.height).toBeLessThan(100);
    for (const name of ['返回', '撤销', '重做', '预览', '保存', '组件', '图层', '属性', '更多']) {
      const b = (await page.getByTestId('designer-toolbar-narrow').getByRole('button', { name }).boundingBox())!;
      expect(b, name).not.toBeNull();
      expect(b.x + b.width, name).toBeLessThanOrEqual(390);
    }
    expect(await page.getByTestId('arrange-toolbar').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(844);

    // the canvas is on screen, fitted on load: the whole stage inside the visible area
    const area = await box(page, 'designer-canvas-area');
    expect(area.width).toBeGreaterThan(300);
    expect(area.height).toBeGreaterThan(300);
    expect(area.y + area.height).toBeLessThanOrEqual(844);
    await expect.poll(async () => (await stageBox(page)).right).toBeLessThanOrEqual(area.x + area.width);
    const stage = await stageBox(page);
    expect(stage.width).toBeGreaterThan(200);
    await shot(page, 'designer-narrow-390');

    // 组件: a drawer with the templates; a tap adds the kind and closes the drawer
    await page.getByTestId('designer-toolbar-narrow').getByRole('button', { name: '组件' }).tap();
    const left = page.locator('.designer-drawer-left .ant-drawer-content');
    await left.getByTestId('template-list').waitFor();
    await shot(page, 'designer-narrow-390-components');
    const before = await widgetCount(page);
    await left.getByTestId('template-singleLineTitle').tap();
    await expect.poll(() => widgetCount(page)).toBe(before + 1);
    await left.waitFor({ state: 'hidden' });
    await page.getByText('（未保存）').waitFor();
    // added in the middle of what the canvas shows, inside the canvas
    const added = await page.getByTestId('canvas-stage').locator('[data-widget-id]').last().evaluate((el) => ({ left: parseFloat((el as HTMLElement).style.left), top: parseFloat((el as HTMLElement).style.top) }));
    expect(added.left).toBeGreaterThan(800);
    expect(added.left).toBeLessThan(1100);
    expect(added.top).toBeGreaterThan(400);
    expect(added.top).toBeLessThan(700);

    // the new widget is selected: its 属性 open from the button over the canvas
    await page.getByTestId('designer-selection-props').tap();
    const right = page.locator('.designer-drawer-right .ant-drawer-content');
    await right.getByRole('tab', { name: '视图样式' }).waitFor();
    await right.getByRole('tab', { name: '数据源' }).waitFor();
    await shot(page, 'designer-narrow-390-props');
    await right.locator('.ant-drawer-close').tap();
    await right.waitFor({ state: 'hidden' });

    // 图层: the same drawer on its layers tab, listing both widgets
    await page.getByTestId('designer-toolbar-narrow').getByRole('button', { name: '图层' }).tap();
    await left.getByTestId('layer-list').waitFor();
    expect(await left.getByRole('tab', { name: '图层', selected: true }).count()).toBe(1);
    await shot(page, 'designer-narrow-390-layers');
    await left.locator('.ant-drawer-close').tap();
    await left.waitFor({ state: 'hidden' });

    // a tap on the empty canvas clears the selection; 属性 then shows the canvas's properties
    await page.touchscreen.tap(area.x + area.width - 10, area.y + area.height - 10);
    await page.getByTestId('designer-selection-props').waitFor({ state: 'hidden' });
    await page.getByTestId('designer-toolbar-narrow').getByRole('button', { name: '属性' }).tap();
    await right.getByRole('tab', { name: '画布属性' }).waitFor();
    await right.locator('.ant-drawer-close').tap();
    await right.waitFor({ state: 'hidden' });

    // 更多: the view tools, the arranging buttons, 导入 and 导出, inside the window
    await page.getByRole('button', { name: '更多' }).tap();
    const more = page.getByTestId('designer-more');
    await more.getByTestId('arrange-toolbar').waitFor();
    for (const name of ['适应画布', '导入', '导出']) await more.getByRole('button', { name }).waitFor();
    await more.getByLabel('缩放').waitFor();
    await more.getByText('网格吸附').waitFor();
    const m = (await more.boundingBox())!;
    expect(m.x).toBeGreaterThanOrEqual(0);
    expect(m.x + m.width).toBeLessThanOrEqual(390);
    await shot(page, 'designer-narrow-390-more');

    // zoomed to 100 %, a swipe off the widgets scrolls the canvas (no selection band)
    await more.getByLabel('缩放').fill('100');
    await more.getByLabel('缩放').press('Enter');
    await page.keyboard.press('Escape');
    const canvasArea = page.getByTestId('designer-canvas-area');
    await expect.poll(() => canvasArea.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    // a finger moving up and left from below and right of a widget, across its corner (over the stage, off the
    // widgets at the start): the area scrolls, no selection band takes the widget
    const target = (await page.getByTestId('canvas-stage').locator(`[data-widget-id="${swiped}"]`).boundingBox())!;
    const cdp = await page.context().newCDPSession(page);
    const x0 = Math.round(target.x + target.width + 30);
    const y0 = Math.round(target.y + target.height + 40);
    expect(x0).toBeLessThan(area.x + area.width);
    expect(y0).toBeLessThan(area.y + area.height);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: x0, y: y0 }] });
    for (let i = 1; i <= 10; i++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x0 - i * 15, y: y0 - i * 15 }] });
      await page.waitForTimeout(16);
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await expect.poll(() => canvasArea.evaluate((el) => el.scrollLeft)).toBeGreaterThan(50);
    expect(await canvasArea.evaluate((el) => el.scrollTop)).toBeGreaterThan(50);
    expect(await page.locator('.selecto-selection').evaluateAll((els) => els.filter((e) => getComputedStyle(e).display !== 'none').length)).toBe(0);
    expect(await page.getByTestId('designer-selection-props').count()).toBe(0);
    await shot(page, 'designer-narrow-390-scrolled');
    // a tap on a widget selects it
    const chart = page.getByTestId('canvas-stage').locator('[data-widget-id]').first();
    await chart.scrollIntoViewIfNeeded();
    const c = (await chart.boundingBox())!;
    await page.touchscreen.tap(c.x + c.width / 2, c.y + c.height / 2);
    await page.getByTestId('designer-selection-props').waitFor();
    await page.context().close();
  });

  it('at 1600 px: both panels beside the canvas and every tool in the one toolbar', async () => {
    const page = await newPage(browser, { viewport: { width: 1600, height: 900 } });
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
    await open(page);
    expect(await page.getByTestId('designer-toolbar-narrow').count()).toBe(0);
    expect(await page.getByTestId('designer').getByRole('button', { name: '更多' }).count()).toBe(0);
    // the panels grow with the window up to 240 and 340 px: 12.5 % and 17 % of 1600 px (issue 35 §7)
    expect(Math.round((await box(page, 'designer-left')).width)).toBe(200);
    expect(Math.round((await box(page, 'designer-right')).width)).toBe(272);
    await page.getByTestId('template-list').waitFor();
    await page.getByTestId('designer-right').getByRole('tab', { name: '画布属性' }).waitFor();
    await page.getByTestId('arrange-toolbar').waitFor();
    await page.getByTestId('designer-view-tools').waitFor();
    // the scale as in the defaults (no fit on load); the tools on one row with 保存; no 属性 button over the canvas
    expect(await page.getByLabel('缩放').inputValue()).toBe('60%');
    const middle = (b: { y: number; height: number } | null) => b!.y + b!.height / 2;
    const row = middle(await page.getByRole('button', { name: '保存' }).boundingBox());
    for (const testId of ['designer-view-tools', 'arrange-toolbar']) expect(Math.abs(middle(await page.getByTestId(testId).boundingBox()) - row), testId).toBeLessThan(4);
    expect(Math.abs(middle(await page.getByRole('button', { name: '导入' }).boundingBox()) - row)).toBeLessThan(4);
    const area = await box(page, 'designer-canvas-area');
    expect(area.width).toBeGreaterThan(1120);
    expect(await page.getByTestId('designer-selection-props').count()).toBe(0);
    await shot(page, 'designer-narrow-1600');
    await page.context().close();
  });
});
