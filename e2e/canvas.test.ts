// The designer's canvas and what shows it (issue 20 §2, §3, §4, §9), in Chromium:
//  - a selected widget (stack level 9999) and its handles stay under every dialog, menu and popup: each button
//    of a dialog opened over it is the element at its own centre (document.elementFromPoint), and clicks;
//  - preview shows the whole canvas in every fit mode: a 3840×2160 screen on a 1600 px and a 390 px window,
//    scrolled to its far corner, shows its last widget; a small canvas shows whole, centred;
//  - every widget kind's text, as drawn on the default canvas in the designer and in preview, reaches 4.5:1;
//  - the embedded page frames the console's own pages, and says so when it is given no src.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator } from 'playwright-core';
import { inject } from 'vitest';
import { AA_TEXT, contrastRatio, parseColor, type Rgba } from '../widgets/contrast';
import { describeBrowser, launchBrowser, login, newPage, shot, showPreviewTools } from './lib/browser';
import { must, opened, signIn } from './lib/calls';

const run = Date.now().toString(36).slice(-4);

interface Placed {
  widgetName: string;
  left: number;
  top: number;
  viewProps?: Record<string, unknown>;
}

/** A screen or form made through the designer's own calls, with widgets placed and (optionally) re-propped. */
async function makePage(token: string, kind: 'screen' | 'form', page: Record<string, unknown>, widgets: Placed[]): Promise<string> {
  const prefix = kind === 'screen' ? '/api/datav/screen' : '/api/jimu/form';
  const saved = await must(`${prefix}/info/save`, page, token);
  const id = String(typeof saved === 'object' && saved ? saved.id : saved);
  const ids: string[] = [];
  for (const w of widgets) ids.push((await must(`${prefix}/widget/add`, { pageId: id, widgetName: w.widgetName, top: w.top, left: w.left }, token)).id);
  if (widgets.some((w) => w.viewProps)) {
    const list = await must(`${prefix}/widget/select?pageId=${id}`, undefined, token);
    widgets.forEach((w, i) => {
      const mine = list.find((x: { id: unknown }) => String(x.id) === String(ids[i]));
      if (w.viewProps) mine.widgetProps.viewProps = { ...mine.widgetProps.viewProps, ...w.viewProps };
    });
    await must(`${prefix}/widget/update`, { pageId: id, widgets: list }, token);
  }
  return id;
}

/** What document.elementFromPoint finds at the element's centre, and whether it is the element or inside it. */
async function hitAtCentre(l: Locator): Promise<{ onTop: boolean; hit: string }> {
  return l.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    const name = (e: Element | null) => (e ? `<${e.tagName.toLowerCase()} class="${String((e as HTMLElement).className)}"${(e as HTMLElement).dataset?.widgetId ? ' data-widget-id' : ''}>` : 'nothing');
    return { onTop: Boolean(hit && (hit === el || el.contains(hit))), hit: name(hit) };
  });
}

/** Every button of the dialog is on top at its centre. */
async function buttonsOnTop(dialog: Locator, what: string): Promise<string[]> {
  const buttons = dialog.getByRole('button');
  const n = await buttons.count();
  expect(n, what).toBeGreaterThan(0);
  const names: string[] = [];
  for (let i = 0; i < n; i++) {
    const b = buttons.nth(i);
    if (!(await b.isVisible())) continue;
    const name = ((await b.getAttribute('aria-label')) ?? (await b.textContent()) ?? '').trim();
    expect(await hitAtCentre(b), `${what}：按钮「${name}」`).toMatchObject({ onTop: true });
    names.push(name);
  }
  return names;
}

describeBrowser('画布：对话框在上、预览可见全部、默认颜色可读、嵌入页面', () => {
  let browser: Browser;
  let token: string;
  beforeAll(async () => {
    browser = await launchBrowser();
    token = await signIn('developer', inject('demoPassword'));
  });
  afterAll(() => browser?.close());

  it('a selected widget covering the canvas stays under every dialog, menu and popup; their buttons click', async () => {
    const id = await makePage(token, 'screen', { pageName: `e2e叠放${run}` }, [{ widgetName: 'barChart', left: 0, top: 0, viewProps: { width: 1920, height: 1080 } }]);
    const page = await newPage(browser, { viewport: { width: 1600, height: 900 } });
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
    await page.goto(`${inject('baseURL')}/datav/screen/design?pageId=${id}`);
    const widget = page.getByTestId('canvas-stage').locator('[data-widget-id]').first();
    await widget.waitFor();
    await widget.click({ position: { x: 200, y: 200 } });
    await expect.poll(() => widget.evaluate((el) => getComputedStyle(el).zIndex)).toBe('9999');
    // moveable's handles are drawn inside the canvas area, not portalled above the page
    const control = page.locator('.moveable-control').first();
    await control.waitFor();
    expect(await control.evaluate((el) => Boolean(el.closest('[data-testid="designer-canvas-area"]')))).toBe(true);

    // the right-click menu (inside the canvas) is above the selected widget
    await widget.click({ button: 'right', position: { x: 300, y: 300 } });
    const menu = page.getByTestId('designer-context-menu');
    await menu.waitFor();
    expect(await hitAtCentre(menu.getByRole('menuitem', { name: '复制图层' })), '右键菜单').toMatchObject({ onTop: true });
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });

    // a select's dropdown and a colour picker of the panel
    const right = page.getByTestId('designer-right');
    await right.getByRole('tab', { name: '数据源' }).click();
    await right.locator('.ant-select', { has: page.locator('#root_datasourceType') }).click();
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option').first();
    await option.waitFor();
    expect(await hitAtCentre(option), '下拉选项').toMatchObject({ onTop: true });
    await option.click();
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });
    await right.getByRole('tab', { name: /样式|视图/ }).first().click();
    await right.locator('.ant-color-picker-trigger').first().click();
    const swatch = page.locator('.ant-color-picker:visible .ant-color-picker-presets-color').nth(3);
    await swatch.waitFor();
    expect(await hitAtCentre(swatch), '颜色选择').toMatchObject({ onTop: true });
    await swatch.click();
    await page.keyboard.press('Escape');

    // a failed import lists its faults in a dialog over the canvas
    const bad = join(os.tmpdir(), `dsc-canvas-${run}.json`);
    writeFileSync(bad, JSON.stringify({ page: { width: -1 }, widgets: 'x' }));
    await widget.click({ position: { x: 200, y: 200 } });
    await page.getByTestId('designer-import').setInputFiles(bad);
    const faults = page.locator('.ant-modal:visible', { has: page.getByTestId('import-faults') });
    await faults.waitFor();
    await opened(faults);
    expect(await buttonsOnTop(faults, '导入失败')).toContain('知道了');
    await shot(page, 'canvas-dialog-over-selected');
    await faults.getByRole('button', { name: '知道了' }).click();
    await faults.waitFor({ state: 'hidden' });

    // leaving with an edit asks in a dialog over the canvas; each of its buttons is on top, 取消 stays
    await widget.click({ position: { x: 200, y: 200 } });
    await page.keyboard.press('Shift+ArrowRight');
    await page.getByText('（未保存）').waitFor();
    await page.getByRole('button', { name: /返\s?回/ }).first().click();
    const ask = page.locator('.ant-modal:visible').last();
    await ask.waitFor();
    await opened(ask);
    const names = await buttonsOnTop(ask, '是否要返回');
    expect(names.join(' ')).toMatch(/取\s?消/);
    await ask.getByRole('button', { name: /取\s?消/ }).click();
    await ask.waitFor({ state: 'hidden' });
    expect(page.url()).toContain('/datav/screen/design');
    await page.context().close();
  });

  it('preview shows the whole canvas in every fit mode: scrolled to the far corner, the last widget shows', async () => {
    const big = await makePage(token, 'screen', { pageName: `e2e大画布${run}`, width: 3840, height: 2160 }, [
      { widgetName: 'singleLineTitle', left: 0, top: 0, viewProps: { text: '左上角', width: 200, height: 60 } },
      { widgetName: 'singleLineTitle', left: 3640, top: 2100, viewProps: { text: '右下角', width: 200, height: 60 } },
    ]);
    const small = await makePage(token, 'screen', { pageName: `e2e小画布${run}`, width: 400, height: 300 }, [{ widgetName: 'singleLineTitle', left: 200, top: 240, viewProps: { text: '小画布', width: 200, height: 60 } }]);
    for (const size of [
      { width: 1600, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const page = await newPage(browser, { viewport: size });
      await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
      await page.goto(`${inject('baseURL')}/datav/screen/preview?pageId=${big}`);
      const preview = page.getByTestId('preview');
      await preview.waitFor();
      const stage = page.getByTestId('canvas-stage');
      const first = stage.locator('[data-widget-id]').first();
      const last = stage.locator('[data-widget-id]').last();
      await last.waitFor();
      for (const [label, fit] of [
        ['适应全屏', 'whole'],
        ['实际大小', 'actual'],
        ['适应宽度', 'width'],
        ['适应高度', 'height'],
      ] as const) {
        await showPreviewTools(page);
        await page.getByText(label, { exact: true }).click();
        await expect.poll(() => preview.getAttribute('data-fit')).toBe(fit);
        const what = `${size.width} px ${label}`;
        // the stage is never narrower than the canvas at its scale (a shrunk stage cuts the right side off)
        const scale = Number(await preview.getAttribute('data-scale'));
        const drawn = (await stage.evaluate((el) => el.parentElement!.getBoundingClientRect().width)) as number;
        expect(drawn, what).toBeCloseTo(3840 * scale, 0);
        // the far corner: everything up to the canvas's bottom-right edge can be scrolled into the window
        await preview.evaluate((el) => el.scrollTo(el.scrollWidth, el.scrollHeight));
        const box = await last.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const view = el.closest('[data-testid="preview"]')!;
          return { right: r.right, bottom: r.bottom, width: view.clientWidth, height: view.clientHeight, hit: document.elementFromPoint(r.x + r.width / 2, r.y + r.height * 0.75) === el || el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height * 0.75)) };
        });
        expect(box.right, what).toBeLessThanOrEqual(box.width + 1);
        expect(box.bottom, what).toBeLessThanOrEqual(box.height + 1);
        expect(box.right, what).toBeGreaterThan(box.width - 20 * Math.max(scale, 0.05) - 2);
        expect(box.hit, `${what}：右下角的组件在最上`).toBe(true);
        expect(await last.textContent()).toContain('右下角');
        if (fit === 'actual' || fit === 'height') await shot(page, `canvas-preview-${size.width}-${fit}-corner`);
        // and back at the origin the first widget shows from its top-left corner
        await preview.evaluate((el) => el.scrollTo(0, 0));
        const origin = await first.evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
        expect(origin.left, what).toBeGreaterThanOrEqual(-0.5);
        expect(origin.top, what).toBeGreaterThanOrEqual(-0.5);
      }
      // fitting the width leaves no sideways scrolling; fitting the height none downwards
      await showPreviewTools(page);
      await page.getByText('适应宽度', { exact: true }).click();
      await expect.poll(() => preview.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await page.getByText('适应高度', { exact: true }).click();
      await expect.poll(() => preview.evaluate((el) => el.scrollHeight <= el.clientHeight)).toBe(true);

      // a canvas smaller than the window shows whole and centred at its actual size
      await page.goto(`${inject('baseURL')}/datav/screen/preview?pageId=${small}`);
      await showPreviewTools(page);
      await page.getByText('实际大小', { exact: true }).click();
      const s = page.getByTestId('canvas-stage');
      await s.locator('[data-widget-id]').first().waitFor();
      const r = await s.evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
      expect(r.left).toBeGreaterThanOrEqual(0);
      expect(r.top).toBeGreaterThanOrEqual(0);
      if (size.width > 400) {
        expect(Math.abs(r.left + r.width / 2 - size.width / 2)).toBeLessThan(2);
        expect(await page.getByTestId('preview').evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight)).toBe(true);
      }
      await shot(page, `canvas-preview-small-${size.width}`);
      await page.context().close();
    }
  });

  it('every kind’s text is readable on the default canvas, in the designer and in preview', async () => {
    const catalogue: Array<{ widgetName?: string; widgetType: string }> = await must('/api/jimu/form/widget/catalogue', undefined, token);
    const formKinds = catalogue.filter((c) => c.widgetType === 'C' && c.widgetName).map((c) => c.widgetName!);
    expect(formKinds).toEqual(expect.arrayContaining(['formInput', 'formImage', 'formSubmit', 'singleLineTitle']));
    const screenCat: Array<{ widgetName?: string; widgetType: string }> = await must('/api/datav/screen/widget/catalogue', undefined, token);
    const screenKinds = screenCat.filter((c) => c.widgetType === 'C' && c.widgetName).map((c) => c.widgetName!);
    // one column per ~10 kinds, 170 px apart, so no field overlaps another
    // fields with a value show it in their control (on the designer's canvas, a disabled one)
    const VALUES: Record<string, Record<string, unknown>> = { formInput: { defaultValue: '示例文字' }, formTextarea: { defaultValue: '多行示例' }, formNumber: { defaultValue: 42 }, formDate: { defaultValue: '2026-11-25' } };
    const place = (kinds: string[]) => kinds.map((widgetName, i) => ({ widgetName, left: 40 + Math.floor(i / 6) * 560, top: 20 + (i % 6) * 170, viewProps: VALUES[widgetName] }));
    const form = await makePage(token, 'form', { pageName: `e2e可读${run}` }, place(formKinds));
    // screen kinds are larger (maps, tables up to 560 × 440): a cell of 600 × 470 each, five a row, on a canvas
    // that holds them all, so no kind's text lies over another kind
    const screenPlaced = screenKinds.map((widgetName, i) => ({ widgetName, left: 20 + (i % 5) * 600, top: 20 + Math.floor(i / 5) * 470 }));
    const screen = await makePage(token, 'screen', { pageName: `e2e可读${run}`, width: 3040, height: 40 + Math.ceil(screenKinds.length / 5) * 470 }, screenPlaced);
    const page = await newPage(browser, { viewport: { width: 1600, height: 900 } });
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
    const faults: string[] = [];
    for (const [where, url] of [
      ['表单设计器', `/datav/form/design?pageId=${form}`],
      ['表单预览', `/datav/form/preview?pageId=${form}`],
      ['大屏设计器', `/datav/screen/design?pageId=${screen}`],
      ['大屏预览', `/datav/screen/preview?pageId=${screen}`],
    ] as const) {
      await page.goto(`${inject('baseURL')}${url}`);
      const stage = page.getByTestId('canvas-stage');
      await expect.poll(() => stage.locator('[data-widget-id]').count(), { timeout: 30_000 }).toBe(where.startsWith('表单') ? formKinds.length : screenKinds.length);
      await page.waitForTimeout(500);
      await shot(page, `canvas-contrast-${where}`);
      const texts = await stage.evaluate((root) => {
        const out: Array<{ kind: string; text: string; color: string; layers: string[] }> = [];
        // every text node, and the value of every filled input (drawn by the control, not a text node)
        const shown: Array<[string, Element | null]> = [];
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) shown.push([(n.textContent ?? '').trim(), n.parentElement]);
        root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input:not([type=radio]):not([type=checkbox]):not([type=file]), textarea').forEach((i) => shown.push([i.value.trim(), i]));
        for (const [text, el] of shown) {
          if (!text || !el || !el.getClientRects().length) continue;
          const cs = getComputedStyle(el);
          if (cs.visibility !== 'visible' || el.closest('[aria-hidden="true"]')) continue;
          // antd's placeholders keep antd's own colour (as in every input of the console)
          if (el.closest('.ant-select-selection-placeholder')) continue;
          let opacity = 1;
          const layers: string[] = [];
          for (let e: Element | null = el; e; e = e.parentElement) {
            const s = getComputedStyle(e);
            opacity *= Number(s.opacity);
            const bg = s.backgroundColor;
            if (bg && bg !== 'transparent' && bg !== 'rgba(0, 0, 0, 0)' && layers[0] !== 'opaque') {
              layers.unshift(bg);
              if (!bg.startsWith('rgba')) layers.unshift('opaque');
            }
          }
          const rgba = cs.color.match(/[\d.]+/g)!.map(Number);
          out.push({ kind: el.closest('[data-widget-id]')?.querySelector('[data-widget]')?.getAttribute('data-widget') ?? el.closest('[data-widget-id]')?.textContent?.slice(0, 10) ?? '?', text: text.slice(0, 20), color: `rgba(${rgba[0]}, ${rgba[1]}, ${rgba[2]}, ${(rgba[3] ?? 1) * opacity})`, layers: layers.filter((l) => l !== 'opaque') });
        }
        return out;
      });
      expect(texts.length, where).toBeGreaterThan(where.startsWith('表单') ? 20 : 3);
      for (const t of texts) {
        const ratio = contrastRatio(parseColor(t.color)!, t.layers.map((l) => parseColor(l)!) as Rgba[]);
        if (ratio < AA_TEXT) faults.push(`${where} ${t.kind}「${t.text}」${t.color} 于 ${t.layers.join(' / ')}：${ratio.toFixed(2)}:1`);
      }
    }
    expect(faults).toEqual([]);
    await page.context().close();
  });

  it('the embedded page frames the console’s own page, and without src says what is missing', async () => {
    const id = await makePage(token, 'screen', { pageName: `e2e嵌入${run}`, width: 800, height: 450 }, [{ widgetName: 'singleLineTitle', left: 100, top: 100, viewProps: { text: '嵌入的大屏' } }]);
    for (const width of [1600, 390]) {
      const page = await newPage(browser, { viewport: { width, height: width > 400 ? 900 : 844 } });
      await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
      await page.goto(`${inject('baseURL')}/datav/embedded`);
      await page.getByTestId('embedded-empty').getByText('未指定要嵌入的页面地址（src）').waitFor();
      expect(await page.getByTestId('embedded-frame').count()).toBe(0);
      await shot(page, `canvas-embedded-empty-${width}`);
      await page.goto(`${inject('baseURL')}/datav/embedded?src=${encodeURIComponent(`/datav/screen/preview?pageId=${id}`)}`);
      const frame = page.frameLocator('[data-testid="embedded-frame"]');
      // the framed console page runs (not blocked by frame-ancestors / X-Frame-Options)
      await frame.getByText('嵌入的大屏').waitFor({ timeout: 30_000 });
      await shot(page, `canvas-embedded-self-${width}`);
      await page.context().close();
    }
  });
});
