// The screen designer clicked through (issue 9 "How it will be checked"): create a screen from the list,
// drag a title and a bar chart onto it, move and resize with the handles, change the title text in the panel,
// undo and redo, reorder layers, save, reload (all kept), preview in each fit mode, export and re-import,
// a malformed import listing its faults; the same designer as a form.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import { inject } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';

const run = Date.now().toString(36).slice(-4);
const SCREEN = `e2e大屏${run}`;
const FORM = `e2e表单${run}`;

async function toast(page: Page, text: string | RegExp) {
  try {
    await page.locator('.ant-message').getByText(text).first().waitFor({ timeout: 30_000 });
  } catch (e) {
    await shot(page, `designer-failed-${String(text).slice(0, 20)}`);
    throw new Error(`等不到提示「${text}」，当前提示：${(await page.locator('.ant-message').allTextContents()).join(' | ')}`, { cause: e });
  }
}

/** A widget's placement in canvas units, read from its style. */
async function placement(w: Locator) {
  return w.evaluate((el) => {
    const s = (el as HTMLElement).style;
    return { left: parseFloat(s.left), top: parseFloat(s.top), width: parseFloat(s.width), height: parseFloat(s.height) };
  });
}

/** Drags a template from the left panel onto the canvas at (x, y) canvas-area pixels. */
async function dropTemplate(page: Page, widgetName: string, x: number, y: number) {
  await page.getByTestId(`template-${widgetName}`).dragTo(page.getByTestId('canvas-stage'), { targetPosition: { x, y } });
}

async function createFromList(page: Page, list: string, noun: string, name: string) {
  await page.goto(`${inject('baseURL')}${list}`);
  await page.getByRole('button', { name: `新建${noun}` }).click();
  const modal = page.locator('.ant-modal:visible');
  await modal.getByRole('button', { name: /确\s?定/ }).click();
  await modal.getByText(`请输入${noun}名称`).last().waitFor();
  await modal.getByPlaceholder(`请输入${noun}名称`).fill(name);
  await modal.getByRole('button', { name: /确\s?定/ }).click();
  await toast(page, '保存成功');
  const row = page.locator('.ant-table-row:visible', { hasText: name });
  await row.getByText('1920×1080').waitFor();
  await row.getByRole('button', { name: /设\s?计/ }).click();
  await page.getByTestId('designer').waitFor();
  await page.getByTestId('canvas-stage').waitFor();
}

describeBrowser('大屏与表单设计器', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    page = await newPage(browser, { acceptDownloads: true });
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
  });
  afterAll(() => browser?.close());

  it('builds a screen: drop, move, resize, edit, undo / redo, layers, save and reload', async () => {
    await createFromList(page, '/datav/screen', '大屏', SCREEN);
    const stage = page.getByTestId('canvas-stage');
    // the dark default background and the default scale 60 %
    expect(await stage.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(29, 32, 45)');
    expect(await page.getByLabel('缩放').inputValue()).toBe('60%');

    await dropTemplate(page, 'singleLineTitle', 120, 60);
    const title = stage.locator('[data-widget-id]').first();
    await title.waitFor();
    // the drop point divided by the scale, rounded
    expect(await placement(title)).toMatchObject({ left: 200, top: 100, width: 200, height: 60 });
    await dropTemplate(page, 'barChart', 300, 200);
    await expect.poll(() => stage.locator('[data-widget-id]').count()).toBe(2);
    await page.getByRole('tab', { name: '图层' }).click();
    await expect.poll(() => page.getByTestId('layer-list').locator('li').allTextContents()).toEqual(['柱状图', '单行标题']);

    // move the title by dragging it (60 screen px = 100 canvas px at 60 %)
    await title.click();
    const box = (await title.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 30, box.y + box.height / 2 + 15, { steps: 5 });
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 30, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await placement(title)).left).toBeGreaterThan(280);
    const moved = await placement(title);
    // resize from the bottom-right handle
    const handle = page.locator('.moveable-control.moveable-se').first();
    const hb = (await handle.boundingBox())!;
    await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2);
    await page.mouse.down();
    await page.mouse.move(hb.x + 40, hb.y + 10, { steps: 5 });
    await page.mouse.move(hb.x + 80, hb.y + 20, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await placement(title)).width).toBeGreaterThan(260);

    // the panel edits the selected widget
    const text = page.getByTestId('designer-right').getByLabel('标题文字');
    await text.fill('销售总览');
    await expect.poll(() => title.textContent()).toContain('销售总览');
    await shot(page, 'designer-edited');

    // undo the text, the resize and the move; redo them all
    await stage.click({ position: { x: 5, y: 5 } });
    for (let i = 0; i < 3; i++) await page.keyboard.press('Control+z');
    expect(await placement(title)).toMatchObject({ left: 200, top: 100, width: 200 });
    expect(await title.textContent()).not.toContain('销售总览');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Control+Shift+z');
    expect(await placement(title)).toMatchObject({ left: moved.left, top: moved.top });
    await expect.poll(() => title.textContent()).toContain('销售总览');

    // arrows move 1 px, Shift+arrows 10 px
    await page.getByTestId('layer-list').getByText('单行标题').click();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    expect(await placement(title)).toMatchObject({ left: moved.left + 1, top: moved.top + 10 });

    // the context menu: the top layer cannot move up; move the title up over the chart
    await title.click({ button: 'right' });
    const menu = page.getByTestId('designer-context-menu');
    await menu.waitFor();
    expect(await menu.getByRole('menuitem', { name: '下移一层' }).getAttribute('aria-disabled')).toBe('true');
    await menu.getByRole('menuitem', { name: '上移一层' }).click();
    await expect.poll(() => page.getByTestId('layer-list').locator('li').allTextContents()).toEqual(['单行标题', '柱状图']);

    await page.getByRole('button', { name: /保\s?存/ }).click();
    await toast(page, '保存成功');
    await page.reload();
    await page.getByTestId('canvas-stage').locator('[data-widget-id]').nth(1).waitFor();
    const again = page.getByTestId('canvas-stage').locator('[data-widget-id]');
    expect(await again.count()).toBe(2);
    // stacking kept: the title is now on top (last)
    expect(await again.nth(1).textContent()).toContain('销售总览');
    expect(await placement(again.nth(1))).toMatchObject({ left: moved.left + 1, top: moved.top + 10 });
    await shot(page, 'designer-reloaded');
  });

  it('previews in each fit mode, remembered', async () => {
    const [preview] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: /预\s?览/ }).click()]);
    await preview.getByTestId('preview').waitFor({ timeout: 30_000 });
    await preview.setViewportSize({ width: 960, height: 800 });
    const scaleOf = async () => Number(await preview.getByTestId('preview').getAttribute('data-scale'));
    await expect.poll(scaleOf).toBeCloseTo(0.5, 3); // whole: min(960/1920, 800/1080)
    for (const [label, want] of [['适应宽度', 0.5], ['适应高度', 800 / 1080], ['实际大小', 1]] as const) {
      await preview.getByText(label).click();
      await expect.poll(scaleOf).toBeCloseTo(want, 3);
    }
    await shot(preview, 'designer-preview');
    await preview.reload();
    await preview.getByTestId('preview').waitFor();
    expect(await preview.getByTestId('preview').getAttribute('data-fit')).toBe('actual');
    await preview.close();
  });

  it('exports the screen and imports it back as one undoable step; a malformed file changes nothing', async () => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /导\s?出/ }).click()]);
    const file = join(os.tmpdir(), `dsc-export-${run}.json`);
    await dl.saveAs(file);
    const exported = JSON.parse(readFileSync(file, 'utf8'));
    expect(exported.widgets).toHaveLength(2);
    // the same file with one widget less, re-imported
    exported.widgets = exported.widgets.slice(1);
    writeFileSync(file, JSON.stringify(exported));
    await page.getByTestId('designer-import').setInputFiles(file);
    await toast(page, /导入成功/);
    await expect.poll(() => page.getByTestId('canvas-stage').locator('[data-widget-id]').count()).toBe(1);
    await page.keyboard.press('Control+z');
    await expect.poll(() => page.getByTestId('canvas-stage').locator('[data-widget-id]').count()).toBe(2);

    exported.widgets[0].widgetProps.viewProps.fontSize = 'huge';
    exported.page.width = -5;
    writeFileSync(file, JSON.stringify(exported));
    await page.getByTestId('designer-import').setInputFiles(file);
    const faults = page.getByTestId('import-faults');
    await faults.waitFor();
    expect(await faults.textContent()).toContain('/page/width');
    await shot(page, 'designer-import-faults');
    await page.getByRole('button', { name: '知道了' }).click();
    expect(await page.getByTestId('canvas-stage').locator('[data-widget-id]').count()).toBe(2);
  });

  it('the same designer builds a form, and leaving with edits asks first', async () => {
    await createFromList(page, '/datav/form', '表单', FORM);
    await dropTemplate(page, 'singleLineTitle', 60, 60);
    await page.getByTestId('canvas-stage').locator('[data-widget-id]').first().waitFor();
    await page.getByRole('button', { name: /返\s?回/ }).first().click();
    const modal = page.locator('.ant-modal:visible');
    await modal.getByText('是否要返回？').waitFor();
    await modal.getByRole('button', { name: /^保\s?存$/ }).click();
    await toast(page, '保存成功');
    await page.waitForURL(/\/datav\/form$/);
    await page.locator('.ant-table-row:visible', { hasText: FORM }).getByText('1', { exact: true }).first().waitFor();
  });
});
