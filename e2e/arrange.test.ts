// The designer's arranging tools (issue 22 §3) in Chromium: three widgets aligned to the top and distributed
// horizontally from the toolbar, two of them grouped (Ctrl+G) and moved together by dragging one member, a layer
// renamed in 图层 (double-click, Enter), undo / redo of the group; saved, reloaded and all kept — the group one
// expandable entry in 图层, stored on the server; the preview draws all three. Screenshots at 1600 and 390 px.
import { inject } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';
import { must, signIn, toast as waitToast } from './lib/calls';

const run = Date.now().toString(36).slice(-4);
const P = '/api/datav/screen';

/** A widget's placement in canvas units, read from its style. */
async function placement(w: Locator) {
  return w.evaluate((el) => {
    const s = (el as HTMLElement).style;
    return { left: parseFloat(s.left), top: parseFloat(s.top), width: parseFloat(s.width), height: parseFloat(s.height) };
  });
}

/** Clicks a widget at its centre (Shift held to add it to the selection). */
async function clickWidget(page: Page, w: Locator, shift = false) {
  const b = (await w.boundingBox())!;
  if (shift) await page.keyboard.down('Shift');
  await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
  if (shift) await page.keyboard.up('Shift');
}

describeBrowser('设计器：对齐、分布、组合与重命名', () => {
  let browser: Browser;
  let token: string;
  let pageId: string;
  let ids: string[];
  beforeAll(async () => {
    browser = await launchBrowser();
    token = await signIn('developer', inject('demoPassword'));
    const saved = await must(`${P}/info/save`, { pageName: `e2e排列${run}` }, token);
    pageId = String(saved.id);
    const at = [
      { left: 100, top: 100, width: 300, height: 60, text: '甲' },
      { left: 500, top: 300, width: 200, height: 80, text: '乙' },
      { left: 900, top: 150, width: 250, height: 60, text: '丙' },
    ];
    ids = [];
    for (const a of at) ids.push((await must(`${P}/widget/add`, { pageId, widgetName: 'singleLineTitle', top: a.top, left: a.left }, token)).id);
    const list = await must(`${P}/widget/select?pageId=${pageId}`, undefined, token);
    list.forEach((w: { widgetProps: { viewProps: Record<string, unknown> } }, i: number) => Object.assign(w.widgetProps.viewProps, at[i]));
    await must(`${P}/widget/update`, { pageId, widgets: list }, token);
  });
  afterAll(() => browser?.close());

  it('aligns and distributes three widgets, groups two and moves them, renames a layer; all kept after a reload', async () => {
    const page = await newPage(browser, { viewport: { width: 1600, height: 900 } });
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
    await page.goto(`${inject('baseURL')}/datav/screen/design?pageId=${pageId}`);
    const stage = page.getByTestId('canvas-stage');
    const [a, b, c] = ids.map((id) => stage.locator(`[data-widget-id="${id}"]`));
    await c.waitFor();
    const toolbar = page.getByTestId('arrange-toolbar');
    const button = (name: string) => toolbar.getByRole('button', { name, exact: true });

    // one widget: nothing to align, group or distribute
    await clickWidget(page, a);
    for (const name of ['左对齐', '顶端对齐', '水平等距分布', '组合', '取消组合']) expect(await button(name).isDisabled(), name).toBe(true);
    await clickWidget(page, b, true);
    expect(await button('顶端对齐').isDisabled()).toBe(false);
    expect(await button('水平等距分布').isDisabled()).toBe(true);
    await clickWidget(page, c, true);
    await expect.poll(() => button('水平等距分布').isDisabled()).toBe(false);

    // a tooltip in Chinese
    await button('顶端对齐').hover();
    await page.locator('.ant-tooltip:visible', { hasText: '顶端对齐（至少选择 2 个图层）' }).waitFor();
    await button('顶端对齐').click();
    await expect.poll(async () => (await Promise.all([a, b, c].map(placement))).map((p) => p.top)).toEqual([100, 100, 100]);
    // span 100..1150, widths 300 + 200 + 250: gaps of 150
    await button('水平等距分布').click();
    await expect.poll(async () => (await Promise.all([a, b, c].map(placement))).map((p) => p.left)).toEqual([100, 550, 900]);
    // both undo and redo
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await placement(b)).left).toBe(500);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(async () => (await placement(b)).left).toBe(550);

    // group 甲 and 乙 (Ctrl+G): one entry in 图层 (a click on a selected widget keeps the selection: click away first)
    await stage.click({ position: { x: 5, y: 5 } });
    await clickWidget(page, a);
    await clickWidget(page, b, true);
    await page.keyboard.press('Control+g');
    await page.getByRole('tab', { name: '图层' }).click();
    const layers = page.getByTestId('layer-list');
    const entries = () => layers.locator(':scope > li').evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
    await expect.poll(entries).toEqual(['图层 单行标题', '分组 分组1']);
    expect(await button('取消组合').isDisabled()).toBe(false);

    // click away, then drag 甲: the group moves as one (60, 30 screen px = 100, 50 canvas px at 60 %)
    await stage.click({ position: { x: 5, y: 5 } });
    const before = await Promise.all([a, b, c].map(placement));
    const box = (await a.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 30, box.y + box.height / 2 + 15, { steps: 5 });
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 30, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await placement(a)).left).toBeGreaterThan(before[0].left + 80);
    const after = await Promise.all([a, b, c].map(placement));
    const moved = { dx: after[0].left - before[0].left, dy: after[0].top - before[0].top };
    expect(moved.dy).toBeGreaterThan(30);
    expect({ dx: after[1].left - before[1].left, dy: after[1].top - before[1].top }).toEqual(moved);
    expect(after[2]).toEqual(before[2]);
    await shot(page, 'arrange-grouped-1600');

    // rename 丙's layer: double-click, type, Enter
    await layers.locator(`li[data-layer-id="${ids[2]}"]`).getByText('单行标题').dblclick();
    const input = layers.getByRole('textbox');
    await input.fill('丙标题');
    await input.press('Enter');
    await expect.poll(entries).toEqual(['图层 丙标题', '分组 分组1']);
    // and the group expands to its members (top first)
    await layers.getByRole('button', { name: '展开 分组1' }).click();
    await expect.poll(() => layers.locator('li li').evaluateAll((els) => els.map((el) => el.getAttribute('data-layer-id')))).toEqual([ids[1], ids[0]]);
    await shot(page, 'arrange-layers-1600');

    await page.getByRole('button', { name: /保\s?存/ }).click();
    await waitToast(page, '保存成功', { prefix: 'designer' });
    const stored = await must(`${P}/widget/select?pageId=${pageId}`, undefined, token);
    const group = stored.find((w: { id: string }) => w.id === ids[0]).widgetProps.group;
    expect(group).toMatchObject({ name: '分组1' });
    expect(stored.find((w: { id: string }) => w.id === ids[1]).widgetProps.group).toEqual(group);
    expect(stored.find((w: { id: string }) => w.id === ids[2]).widgetTitle).toBe('丙标题');

    await page.reload();
    await c.waitFor();
    await page.getByRole('tab', { name: '图层' }).click();
    await expect.poll(entries).toEqual(['图层 丙标题', '分组 分组1']);
    expect(await Promise.all([a, b, c].map(placement))).toEqual(after);
    // a click on a member selects the group: both dashed
    await clickWidget(page, b);
    await expect.poll(() => a.evaluate((el) => getComputedStyle(el).zIndex)).toBe('9999');
    expect(await c.evaluate((el) => getComputedStyle(el).zIndex)).not.toBe('9999');

    // the group resizes as one: its members scale with it (the corner handle dragged 60, 30 screen px)
    const handle = page.locator('.moveable-control.moveable-se').first();
    const hb = (await handle.boundingBox())!;
    await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2);
    await page.mouse.down();
    await page.mouse.move(hb.x + 30, hb.y + 15, { steps: 5 });
    await page.mouse.move(hb.x + 60, hb.y + 30, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await placement(a)).width).toBeGreaterThan(after[0].width + 20);
    const scaled = await Promise.all([a, b, c].map(placement));
    const sx = scaled[0].width / after[0].width;
    expect(sx).toBeGreaterThan(1.05);
    expect(Math.abs(scaled[1].width - after[1].width * sx), 'the other member scales alike').toBeLessThanOrEqual(4);
    expect(Math.abs(scaled[1].left - scaled[0].left - (after[1].left - after[0].left) * sx)).toBeLessThanOrEqual(4);
    expect(scaled[2]).toEqual(after[2]);
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await placement(a)).width).toBe(after[0].width);

    // the context menu ungroups (undoable) and offers alignment
    // (the selected group lies under the handles' drag area: the press lands there, as a user's would)
    await b.click({ button: 'right', force: true });
    const menu = page.getByTestId('designer-context-menu');
    await menu.waitFor();
    expect(await menu.getByRole('menuitem').filter({ hasText: /^组合$/ }).getAttribute('aria-disabled')).toBe('true');
    await menu.getByRole('menuitem').filter({ hasText: /^取消组合$/ }).click();
    await expect.poll(entries).toEqual(['图层 丙标题', '图层 单行标题', '图层 单行标题']);
    await page.keyboard.press('Control+z');
    await expect.poll(entries).toEqual(['图层 丙标题', '分组 分组1']);

    // the preview draws all three where they were saved
    const preview = await page.context().newPage();
    await preview.goto(`${inject('baseURL')}/datav/screen/preview?pageId=${pageId}`);
    await preview.getByTestId('preview').waitFor();
    const shown = preview.getByTestId('canvas-stage').locator('[data-widget-id]');
    try {
      await expect.poll(() => shown.count()).toBe(3);
    } finally {
      await shot(preview, 'arrange-preview-1600');
    }
    const texts = await shown.allTextContents();
    ['甲', '乙', '丙'].forEach((t, i) => expect(texts[i]).toContain(t));
    await page.context().close();
  });

  it('fits the toolbar and the layer list on a 390 px window (更多, the 图层 drawer)', async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
    await page.goto(`${inject('baseURL')}/datav/screen/design?pageId=${pageId}`);
    await page.getByTestId('canvas-stage').locator('[data-widget-id]').first().waitFor();
    // narrow: the arranging buttons are under 更多, the layers in a drawer (e2e/designer-narrow.test.ts)
    await page.getByTestId('designer-toolbar-narrow').getByRole('button', { name: '更多' }).click();
    await page.getByTestId('designer-more').getByTestId('arrange-toolbar').waitFor();
    await shot(page, 'arrange-390-more');
    await page.keyboard.press('Escape');
    await page.getByTestId('designer-toolbar-narrow').getByRole('button', { name: '图层' }).click();
    await page.getByTestId('layer-list').getByRole('button', { name: '展开 分组1' }).click();
    await shot(page, 'arrange-390');
    await page.context().close();
  });
});
