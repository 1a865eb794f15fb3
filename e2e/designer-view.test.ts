// The designer's view tools (issue 22 §3), in Chromium: the template list's search; 适应画布 shows the whole canvas;
// Ctrl + wheel zooms around the pointer; space + drag pans the canvas area (and a space typed in a field is a
// space); with 网格吸附 on a dragged widget lands on the grid, as one undo step, and the switch is remembered.
// None of the view changes is an undo step.
import { inject } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';
import { must, signIn } from './lib/calls';

const run = Date.now().toString(36).slice(-4);

/** A widget's placement in canvas units, read from its style. */
const placement = (w: Locator) =>
  w.evaluate((el) => {
    const s = (el as HTMLElement).style;
    return { left: parseFloat(s.left), top: parseFloat(s.top) };
  });
const scaleOf = async (page: Page) => Number((await page.getByLabel('缩放').inputValue()).replace('%', '')) / 100;
/** The scaled stage's box on screen (the stage's sizing wrapper: canvas size × scale). */
const stageBox = (page: Page) => page.getByTestId('canvas-stage').evaluate((el) => el.parentElement!.getBoundingClientRect().toJSON() as DOMRect);
const areaOf = (page: Page) => page.getByTestId('designer-canvas-area');
const scrollOf = (page: Page) => areaOf(page).evaluate((el) => ({ left: el.scrollLeft, top: el.scrollTop }));

describeBrowser('设计器视图工具：搜索组件、适应画布、缩放、平移、网格吸附', () => {
  let browser: Browser;
  let token: string;
  let screenId: string;
  let widgetId: string;
  beforeAll(async () => {
    browser = await launchBrowser();
    token = await signIn('developer', inject('demoPassword'));
    const saved = await must('/api/datav/screen/info/save', { pageName: `e2e视图${run}`, width: 1920, height: 1080 }, token);
    screenId = String(typeof saved === 'object' && saved ? saved.id : saved);
    // off the grid on purpose
    widgetId = (await must('/api/datav/screen/widget/add', { pageId: screenId, widgetName: 'singleLineTitle', top: 57, left: 103 }, token)).id;
  });
  afterAll(() => browser?.close());

  const open = async (page: Page) => {
    await page.goto(`${inject('baseURL')}/datav/screen/design?pageId=${screenId}`);
    await page.getByTestId('canvas-stage').locator(`[data-widget-id="${widgetId}"]`).waitFor();
  };

  it('searches, fits, zooms, pans and snaps to the grid', async () => {
    const page = await newPage(browser, { viewport: { width: 1600, height: 900 } });
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
    await open(page);
    const widget = page.getByTestId('canvas-stage').locator(`[data-widget-id="${widgetId}"]`);
    const undo = page.getByRole('button', { name: '撤销' });
    expect(await placement(widget)).toEqual({ left: 103, top: 57 });

    // search the template list: by title, by name; nothing; cleared
    const list = page.getByTestId('template-list');
    const search = page.getByLabel('搜索组件');
    const all = await list.locator('[data-testid^="template-"]').count();
    expect(all).toBeGreaterThan(5);
    await search.fill('标题');
    await expect.poll(() => list.locator('[data-testid^="template-"]').count()).toBeLessThan(all);
    await page.getByTestId('template-singleLineTitle').waitFor();
    expect(await page.getByTestId('template-barChart').count()).toBe(0);
    for (const label of await list.locator('[data-testid^="template-"]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? '')))
      expect(label).toContain('标题');
    await shot(page, 'designer-view-search');
    await search.fill('barchart');
    await page.getByTestId('template-barChart').waitFor();
    await search.fill('没有这种组件');
    await list.getByText('无匹配的组件').waitFor();
    await list.locator('.ant-input-clear-icon').click();
    await expect.poll(() => list.locator('[data-testid^="template-"]').count()).toBe(all);

    // 适应画布: the whole canvas in the visible area, scrolled to its corner, no scroll bars
    await page.getByRole('button', { name: '适应画布' }).click();
    const area = areaOf(page);
    const size = await area.evaluate((el) => ({ w: (el as HTMLElement).offsetWidth, h: (el as HTMLElement).offsetHeight }));
    const fit = Math.floor(Math.min((size.w - 60) / 1920, (size.h - 60) / 1080) * 100) / 100;
    await expect.poll(() => scaleOf(page)).toBeCloseTo(fit, 5);
    const a = (await area.boundingBox())!;
    const s = await stageBox(page);
    expect(s.x).toBeGreaterThanOrEqual(a.x);
    expect(s.y).toBeGreaterThanOrEqual(a.y);
    expect(s.x + s.width).toBeLessThanOrEqual(a.x + a.width);
    expect(s.y + s.height).toBeLessThanOrEqual(a.y + a.height);
    expect(await area.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight)).toBe(true);
    await shot(page, 'designer-view-fit');

    // Ctrl + wheel over the canvas: zoom in around the pointer (the canvas point under it stays put); from 80 %,
    // scrolled into the canvas, so that the area can scroll wherever keeping the point needs
    await page.getByLabel('缩放').fill('80');
    await page.getByLabel('缩放').press('Enter');
    await expect.poll(() => scaleOf(page)).toBe(0.8);
    await area.evaluate((el) => {
      el.scrollLeft = 200;
      el.scrollTop = 150;
    });
    const px = a.x + a.width * 0.6;
    const py = a.y + a.height * 0.5;
    const s1 = await stageBox(page);
    const before = await scaleOf(page);
    const under = { x: (px - s1.x) / before, y: (py - s1.y) / before };
    await page.mouse.move(px, py);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -100);
    await page.keyboard.up('Control');
    await expect.poll(() => scaleOf(page)).toBeGreaterThan(before);
    await page.mouse.wheel(0, 0); // let the scroll settle before reading it
    const zoomed = await scaleOf(page);
    const s2 = await stageBox(page);
    expect(Math.abs((px - s2.x) / zoomed - under.x)).toBeLessThan(3);
    expect(Math.abs((py - s2.y) / zoomed - under.y)).toBeLessThan(3);
    // the page itself is not zoomed by the browser
    expect(await page.evaluate(() => window.visualViewport?.scale ?? 1)).toBe(1);
    await page.keyboard.down('Control');
    for (let i = 0; i < 30; i++) await page.mouse.wheel(0, -100);
    await page.keyboard.up('Control');
    await expect.poll(() => scaleOf(page)).toBe(1); // clamped at 100 %

    // space + drag: pans the area (cursor grab / grabbing), moves no widget, no undo step
    await expect.poll(() => area.evaluate((el) => el.scrollWidth > el.clientWidth && el.scrollHeight > el.clientHeight)).toBe(true);
    // (the full-window area is 855 px tall: at 100 % it scrolls 285 px down at most)
    await area.evaluate((el) => {
      el.scrollLeft = 300;
      el.scrollTop = 100;
    });
    expect(await undo.isDisabled()).toBe(true);
    const at = { x: a.x + a.width / 2, y: a.y + a.height / 2 };
    // the focus leaves the 缩放 field (a space there is typed) for the canvas
    await page.mouse.click(at.x, at.y);
    await page.keyboard.down('Space');
    await expect.poll(() => area.evaluate((el) => getComputedStyle(el).cursor)).toBe('grab');
    await page.mouse.down();
    await expect.poll(() => area.evaluate((el) => getComputedStyle(el).cursor)).toBe('grabbing');
    await page.mouse.move(at.x - 120, at.y - 80, { steps: 6 });
    await page.mouse.move(at.x - 200, at.y - 150, { steps: 6 });
    await page.mouse.up();
    await page.keyboard.up('Space');
    expect(await scrollOf(page)).toEqual({ left: 500, top: 250 });
    expect(await area.evaluate((el) => getComputedStyle(el).cursor)).not.toMatch(/grab/);
    expect(await placement(widget)).toEqual({ left: 103, top: 57 });
    expect(await undo.isDisabled()).toBe(true);
    await shot(page, 'designer-view-panned');

    // a space typed in a field is a space, even with the pointer over the canvas
    await search.focus();
    await page.keyboard.type('a b');
    expect(await search.inputValue()).toBe('a b');
    expect(await scrollOf(page)).toEqual({ left: 500, top: 250 });
    await search.fill('');

    // 网格吸附 on (grid 10): a dragged widget lands on the grid; one undo step takes it back
    const gridSwitch = page.getByTestId('designer-view-tools').getByRole('switch');
    await gridSwitch.click();
    await expect.poll(() => gridSwitch.getAttribute('aria-checked')).toBe('true');
    expect(await page.getByLabel('网格大小').inputValue()).toMatch(/^10/);
    expect(await undo.isDisabled()).toBe(true);
    await area.evaluate((el) => {
      el.scrollLeft = 0;
      el.scrollTop = 0;
    });
    await page.getByTestId('designer-grid').waitFor({ state: 'attached' });
    await widget.click({ position: { x: 20, y: 20 } });
    const box = (await widget.boundingBox())!;
    await page.mouse.move(box.x + 40, box.y + 30);
    await page.mouse.down();
    await page.mouse.move(box.x + 60, box.y + 45, { steps: 4 });
    await page.mouse.move(box.x + 77, box.y + 54, { steps: 4 });
    await page.mouse.up();
    const moved = await placement(widget);
    expect(moved).not.toEqual({ left: 103, top: 57 });
    expect(moved.left % 10).toBe(0);
    expect(moved.top % 10).toBe(0);
    // 37, 24 px at 100 %: the nearest grid point to 140, 81
    expect(moved).toEqual({ left: 140, top: 80 });
    await shot(page, 'designer-view-grid');
    await undo.click();
    await expect.poll(() => placement(widget)).toEqual({ left: 103, top: 57 });
    expect(await undo.isDisabled()).toBe(true);
    await page.getByRole('button', { name: '重做' }).click();
    await expect.poll(() => placement(widget)).toEqual({ left: 140, top: 80 });

    // the switch is this user's setting, remembered across a reload (not the screen's: nothing to save for it)
    await page.getByRole('button', { name: /保\s?存/ }).click();
    await page.getByText('（未保存）').waitFor({ state: 'hidden' });
    await open(page);
    await expect.poll(() => page.getByTestId('designer-view-tools').getByRole('switch').getAttribute('aria-checked')).toBe('true');
    expect(await placement(widget)).toEqual({ left: 140, top: 80 });
    await page.context().close();
  });

  it('looks right on a phone-sized window', async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
    await open(page);
    // narrow: fitted on load; the view tools are under 更多 (e2e/designer-narrow.test.ts)
    await page.getByRole('button', { name: '更多' }).click();
    await page.getByTestId('designer-more').getByRole('button', { name: '适应画布' }).click();
    await page.getByRole('button', { name: '更多' }).click();
    await expect.poll(() => page.getByLabel('缩放').inputValue()).not.toBe('60%');
    await shot(page, 'designer-view-390');
    await page.context().close();
  });
});
