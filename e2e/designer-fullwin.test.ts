// An editor with room (issue 35 §7), in Chromium: the designers take the whole window (no console sidebar, top
// bar or tabs; their own top bar's 返回 goes back to the page they were opened from), so at 1600 px the canvas has
// more than 70 % of the width and 适应画布 shows a 1920 × 1080 screen at more than half its size; with the canvas
// focused Ctrl+A selects every layer neither locked nor hidden (not the page's text) and the arranging buttons
// wake; a band drawn from an empty spot selects the layers it touches; Shift- and Ctrl-click add and remove one;
// the preview's tools stay out of sight until the pointer comes near them (a handle on a touch screen).
// Screenshots in /tmp/fullwin-*.png (and .test-results/screens/).
import { inject } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';
import { must, signIn } from './lib/calls';

const run = Date.now().toString(36).slice(-4);
const P = '/api/datav/screen';
const SCREEN = `e2e全窗${run}`;
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/** A screenshot for the reviewer in /tmp, and the usual one. */
async function snap(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/fullwin-${name}.png` });
  await shot(page, `fullwin-${name}`);
}

const scaleOf = async (page: Page) => Number((await page.getByLabel('缩放').inputValue()).replace('%', '')) / 100;
const selectionNote = (page: Page) => page.getByTestId('designer-right').textContent();
/** The ids of the selected layers, as the stage marks them (raised to 9999). */
const selectedIds = (page: Page) =>
  page
    .getByTestId('canvas-stage')
    .locator('[data-widget-id]')
    .evaluateAll((els) => els.filter((el) => getComputedStyle(el).zIndex === '9999').map((el) => (el as HTMLElement).dataset.widgetId));

async function clickWith(page: Page, w: Locator, key: 'Shift' | 'Control') {
  const b = (await w.boundingBox())!;
  await page.keyboard.down(key);
  await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
  await page.keyboard.up(key);
}

describeBrowser('设计器全窗口编辑：全选、框选、加选与预览工具', () => {
  let browser: Browser;
  let token: string;
  let pageId: string;
  /** 甲 乙 丙 free, 丁 locked */
  let ids: string[];
  beforeAll(async () => {
    browser = await launchBrowser();
    token = await signIn('developer', inject('demoPassword'));
    pageId = String((await must(`${P}/info/save`, { pageName: SCREEN, width: 1920, height: 1080 }, token)).id);
    const at = [
      { left: 100, top: 100, width: 300, height: 60, text: '甲' },
      { left: 500, top: 300, width: 200, height: 80, text: '乙' },
      { left: 1000, top: 700, width: 250, height: 60, text: '丙' },
      { left: 1500, top: 150, width: 250, height: 60, text: '丁' },
    ];
    ids = [];
    for (const a of at) ids.push((await must(`${P}/widget/add`, { pageId, widgetName: 'singleLineTitle', top: a.top, left: a.left }, token)).id);
    const list = await must(`${P}/widget/select?pageId=${pageId}`, undefined, token);
    list.forEach((w: { widgetProps: { viewProps: Record<string, unknown>; locked?: boolean } }, i: number) => {
      Object.assign(w.widgetProps.viewProps, at[i]);
      if (i === 3) w.widgetProps.locked = true;
    });
    await must(`${P}/widget/update`, { pageId, widgets: list }, token);
  });
  afterAll(() => browser?.close());

  it('at 1600 px: opened from the list in the whole window, a canvas with room; 返回 goes back to the list', async () => {
    const page = await newPage(browser, { viewport: { width: 1600, height: 900 } });
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
    await page.goto(`${inject('baseURL')}/datav/screen`);
    const row = page.locator('.ant-table-row:visible', { hasText: SCREEN });
    await row.getByRole('button', { name: /设\s?计/ }).click();
    await page.getByTestId('canvas-stage').locator(`[data-widget-id="${ids[3]}"]`).waitFor();
    expect(new URL(page.url()).pathname).toBe('/datav/screen/design');

    // no console frame: no sidebar, top bar or tabs; the designer fills the window, nothing scrolls the page
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    expect(await page.getByTestId('user-menu').count()).toBe(0);
    expect(await page.getByTestId('tags-view').count()).toBe(0);
    const designer = (await page.getByTestId('designer').boundingBox())!;
    expect(designer).toMatchObject({ x: 0, y: 0, width: 1600, height: 900 });
    expect(await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight])).toEqual([1600, 900]);
    await page.getByRole('button', { name: /返\s?回/ }).waitFor();

    // 适应画布: the canvas area has more than 70 % of the width, the 1920 × 1080 screen shown above half size
    await page.getByRole('button', { name: '适应画布' }).click();
    const area = (await page.getByTestId('designer-canvas-area').boundingBox())!;
    expect(area.width / 1600).toBeGreaterThan(0.7);
    await expect.poll(() => scaleOf(page)).toBeGreaterThanOrEqual(0.55);
    await snap(page, 'designer-1600');

    // 返回 (nothing unsaved): back to the list it was opened from, in the console frame
    await page.getByRole('button', { name: /返\s?回/ }).click();
    await page.waitForURL(/\/datav\/screen$/);
    await page.getByTestId('sidebar').waitFor();
    await page.locator('.ant-table-row:visible', { hasText: SCREEN }).waitFor();
    await page.context().close();
  });

  it('Ctrl+A selects every free layer, a band selects the layers it touches, Shift / Ctrl-click add and remove', async () => {
    const page = await newPage(browser, { viewport: { width: 1600, height: 900 } });
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
    await page.goto(`${inject('baseURL')}/datav/screen/design?pageId=${pageId}`);
    const stage = page.getByTestId('canvas-stage');
    const [a, b, c] = ids.map((id) => stage.locator(`[data-widget-id="${id}"]`));
    await stage.locator(`[data-widget-id="${ids[3]}"]`).waitFor();
    await page.getByRole('button', { name: '适应画布' }).click();
    const button = (name: string) => page.getByTestId('arrange-toolbar').getByRole('button', { name, exact: true });
    expect(await button('左对齐').isDisabled()).toBe(true);

    // a press on an empty spot of the canvas focuses it; Ctrl+A: the three free layers, not 丁 (locked), no page text
    const s = (await stage.boundingBox())!;
    await page.mouse.click(s.x + 20, s.y + s.height - 20);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('designer-canvas-area');
    await page.keyboard.press('Control+a');
    await expect.poll(() => selectedIds(page)).toEqual(ids.slice(0, 3));
    expect(await page.evaluate(() => window.getSelection()?.toString() ?? '')).toBe('');
    for (const name of ['左对齐', '顶端对齐', '水平等距分布', '组合']) expect(await button(name).isDisabled(), name).toBe(false);
    expect(await selectionNote(page)).toContain('已选择 3 个图层');
    await snap(page, 'ctrl-a');
    // Cmd+A (Meta) too; first an empty click clears the selection
    await page.mouse.click(s.x + 20, s.y + s.height - 20);
    await expect.poll(() => selectedIds(page)).toEqual([]);
    await page.keyboard.press('Meta+a');
    await expect.poll(() => selectedIds(page)).toEqual(ids.slice(0, 3));
    // in a field Ctrl+A is the field's
    const search = page.getByLabel('搜索组件');
    await search.fill('标题');
    await search.press('Control+a');
    await search.press('Delete');
    expect(await search.inputValue()).toBe('');
    await expect.poll(() => selectedIds(page)).toEqual(ids.slice(0, 3));

    // a band from an empty spot above-left of 甲 to inside 乙 selects both (not 丙, not 丁)
    await page.mouse.click(s.x + 20, s.y + s.height - 20);
    await expect.poll(() => selectedIds(page)).toEqual([]);
    const bb = (await b.boundingBox())!;
    await page.mouse.move(s.x + 10, s.y + 10);
    await page.mouse.down();
    await page.mouse.move(s.x + 200, s.y + 150, { steps: 5 });
    await page.mouse.move(bb.x + 20, bb.y + 20, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => selectedIds(page)).toEqual(ids.slice(0, 2));
    expect(await button('左对齐').isDisabled()).toBe(false);
    expect(await button('水平等距分布').isDisabled()).toBe(true);
    await snap(page, 'band');
    // a band over 丁 alone takes nothing (locked)
    const dd = (await stage.locator(`[data-widget-id="${ids[3]}"]`).boundingBox())!;
    await page.mouse.move(dd.x + dd.width + 15, dd.y - 15);
    await page.mouse.down();
    await page.mouse.move(dd.x + dd.width / 2, dd.y + dd.height / 2, { steps: 6 });
    await page.mouse.up();
    await expect.poll(() => selectedIds(page)).toEqual([]);

    // Shift-click adds 丙 to 甲 and 乙, a second Shift-click takes it out; Ctrl-click the same, on a selected 乙 too
    await page.mouse.click((await a.boundingBox())!.x + 10, (await a.boundingBox())!.y + 10);
    await expect.poll(() => selectedIds(page)).toEqual([ids[0]]);
    await clickWith(page, b, 'Shift');
    await expect.poll(() => selectedIds(page)).toEqual(ids.slice(0, 2));
    await clickWith(page, c, 'Shift');
    await expect.poll(() => selectedIds(page)).toEqual(ids.slice(0, 3));
    await clickWith(page, c, 'Shift');
    await expect.poll(() => selectedIds(page)).toEqual(ids.slice(0, 2));
    await clickWith(page, b, 'Control');
    await expect.poll(() => selectedIds(page)).toEqual([ids[0]]);
    await clickWith(page, c, 'Control');
    await expect.poll(() => selectedIds(page)).toEqual([ids[0], ids[2]]);

    // and the buttons act: 顶端对齐 on 甲 and 丙
    await button('顶端对齐').click();
    await expect.poll(() => c.evaluate((el) => parseFloat((el as HTMLElement).style.top))).toBe(100);
    // nothing moved 丁 or 乙
    expect(await b.evaluate((el) => parseFloat((el as HTMLElement).style.top))).toBe(300);
    await page.context().close();
  });

  it('the preview’s tools stay out of sight until the pointer comes near them', async () => {
    const page = await newPage(browser, { viewport: { width: 1600, height: 900 } });
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
    await page.goto(`${inject('baseURL')}/datav/screen/preview?pageId=${pageId}`);
    const preview = page.getByTestId('preview');
    await preview.waitFor();
    const tools = page.getByTestId('preview-tools');
    const opacity = () => tools.evaluate((el) => Number(getComputedStyle(el).opacity));
    // hidden, and the screen's top-right corner is the screen's (nothing of the tools under it)
    await page.mouse.move(800, 450);
    expect(await tools.getAttribute('data-shown')).toBe('false');
    expect(await opacity()).toBe(0);
    expect(await page.evaluate(() => !document.elementFromPoint(1590, 14)?.closest('[data-testid="preview-tools"]'))).toBe(true);
    await snap(page, 'preview-hidden');
    // the pointer near the corner shows them; they work
    await page.mouse.move(1560, 20, { steps: 4 });
    await expect.poll(() => tools.getAttribute('data-shown')).toBe('true');
    await expect.poll(opacity).toBeGreaterThan(0.9);
    await snap(page, 'preview-shown');
    await page.getByText('适应宽度', { exact: true }).click();
    await expect.poll(() => preview.getAttribute('data-fit')).toBe('width');
    // away again: gone a moment later
    await page.mouse.move(700, 500, { steps: 4 });
    await expect.poll(() => tools.getAttribute('data-shown')).toBe('false');
    await page.context().close();

    // on a touch screen: a small handle shows them
    const phone = await newPage(browser, { viewport: { width: 390, height: 844 }, userAgent: IPHONE, isMobile: true, hasTouch: true });
    await login(phone, inject('baseURL'), 'developer', inject('demoPassword'));
    await phone.goto(`${inject('baseURL')}/datav/screen/preview?pageId=${pageId}`);
    const handle = phone.getByTestId('preview-tools-handle');
    await handle.waitFor();
    const phoneTools = phone.getByTestId('preview-tools');
    expect(await phoneTools.getAttribute('data-shown')).toBe('false');
    await snap(phone, 'preview-390-hidden');
    await handle.tap();
    await expect.poll(() => phoneTools.getAttribute('data-shown')).toBe('true');
    await phone.getByText('实际大小', { exact: true }).tap();
    await expect.poll(() => phone.getByTestId('preview').getAttribute('data-fit')).toBe('actual');
    await snap(phone, 'preview-390-shown');
    // a tap elsewhere puts them away
    await phone.mouse.click(200, 600);
    await expect.poll(() => phoneTools.getAttribute('data-shown')).toBe('false');
    await phone.context().close();
  });

  it('at 390 px: the designer in the whole window as well, the form designer too', async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 844 }, userAgent: IPHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
    await page.goto(`${inject('baseURL')}/datav/screen/design?pageId=${pageId}`);
    await page.getByTestId('canvas-stage').locator('[data-widget-id]').first().waitFor();
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    expect(await page.getByTestId('tags-view').count()).toBe(0);
    const toolbar = (await page.getByTestId('designer-toolbar-narrow').boundingBox())!;
    expect(toolbar.y).toBe(0);
    const area = (await page.getByTestId('designer-canvas-area').boundingBox())!;
    expect(area.y + area.height).toBeLessThanOrEqual(844);
    expect(area.height).toBeGreaterThan(600);
    expect(await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight])).toEqual([390, 844]);
    await snap(page, 'designer-390');
    await page.context().close();

    const formId = (await must('/api/jimu/form/info/save', { pageName: `e2e全窗表单${run}` }, token)).id;
    const wide = await newPage(browser, { viewport: { width: 1600, height: 900 } });
    await login(wide, inject('baseURL'), 'developer', inject('demoPassword'));
    await wide.goto(`${inject('baseURL')}/datav/form/design?pageId=${formId}`);
    await wide.getByTestId('canvas-stage').waitFor();
    expect(await wide.getByTestId('sidebar').count()).toBe(0);
    expect((await wide.getByTestId('designer').boundingBox())!).toMatchObject({ x: 0, y: 0, width: 1600, height: 900 });
    await snap(wide, 'form-designer-1600');
    await wide.context().close();
  });
});
