// Screens started from a template, and the screen list's thumbnails (issue 22 item 3), clicked through: 新建大屏 offers
// 空白大屏 and the shipped templates; one is chosen, the new screen opens in the designer with the template's widgets,
// is saved, and back in the list shows the picture the save took (a screen never saved shows the placeholder).
// Each template is also previewed at full size and photographed (.test-results/screens/template-*.png).
import { inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';
import { must, opened, signIn, toast } from './lib/calls';

const run = Date.now().toString(36).slice(-4);
const NAME = `e2e模板大屏${run}`;

describeBrowser('从模板新建大屏与缩略图', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    page = await newPage(browser);
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
  });
  afterAll(() => browser?.close());

  it('creates a screen from a template, opens it, saves it and sees its thumbnail in the list', async () => {
    const token = await signIn('developer', inject('demoPassword'));
    const templates = (await must('/api/datav/screen/template/list', undefined, token)) as Array<{ value: string; label: string; widgetCount: number }>;
    const sales = templates.find((t) => t.value === 'sales')!;

    await page.goto(`${inject('baseURL')}/datav/screen`);
    await page.getByRole('button', { name: '新建大屏' }).click();
    const modal = page.locator('.ant-modal:visible');
    await opened(modal);
    await modal.getByPlaceholder('请输入大屏名称').fill(NAME);
    // the choice starts at 空白大屏 and offers every template
    const select = modal.locator('.ant-select').filter({ hasText: '空白大屏' });
    await select.click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect.poll(() => options.allTextContents()).toEqual(templates.map((t) => t.label));
    await shot(page, 'template-new-dialog');
    await options.filter({ hasText: sales.label }).click();
    await modal.getByRole('button', { name: /确\s?定/ }).click();
    await toast(page, '保存成功', { prefix: 'templates' });

    const row = page.locator('.ant-table-row:visible', { hasText: NAME });
    await row.getByText(String(sales.widgetCount), { exact: true }).waitFor();
    // not saved in the designer yet: the neutral placeholder
    await row.getByTestId('image-placeholder').waitFor();
    await row.getByRole('button', { name: /设\s?计/ }).click();

    const stage = page.getByTestId('canvas-stage');
    await stage.waitFor();
    await expect.poll(() => stage.locator('[data-widget-id]').count()).toBe(sales.widgetCount);
    await stage.getByText('销售数据分析').first().waitFor();
    await shot(page, 'template-designer');

    // 保存成功 shows once the screen is saved; the picture is taken and uploaded right after
    const [uploaded] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/api/datav/screen/thumbnail/upload'), { timeout: 60_000 }),
      toast(page, '保存成功', { prefix: 'templates' }),
      page.getByRole('button', { name: /保\s?存/ }).first().click(),
    ]);
    expect(await uploaded.json()).toMatchObject({ status: 0 });

    await page.getByRole('button', { name: /返\s?回/ }).click();
    const back = page.locator('.ant-table-row:visible', { hasText: NAME });
    const img = back.getByRole('img', { name: NAME });
    await img.waitFor({ timeout: 30_000 });
    // the picture: 320 px wide, 16:9 like the canvas, and not one flat colour
    const facts = await img.evaluate(async (el) => {
      const im = el as HTMLImageElement;
      await im.decode();
      const c = document.createElement('canvas');
      c.width = im.naturalWidth;
      c.height = im.naturalHeight;
      const g = c.getContext('2d')!;
      g.drawImage(im, 0, 0);
      const px = g.getImageData(0, 0, c.width, c.height).data;
      const colours = new Set<number>();
      for (let i = 0; i < px.length; i += 4 * 7) colours.add((px[i] >> 4) * 256 + (px[i + 1] >> 4) * 16 + (px[i + 2] >> 4));
      return { width: im.naturalWidth, height: im.naturalHeight, colours: colours.size, src: im.src };
    });
    expect(facts.src).toMatch(/^blob:/);
    expect(facts).toMatchObject({ width: 320, height: 180 });
    expect(facts.colours).toBeGreaterThan(40);
    await shot(page, 'template-list-thumbnail');
  });

  it('every template previews as a finished screen', async () => {
    const token = await signIn('developer', inject('demoPassword'));
    const templates = ((await must('/api/datav/screen/template/list', undefined, token)) as Array<{ value: string; label: string }>).filter((t) => t.value);
    for (const t of templates) {
      const created = await must('/api/datav/screen/info/save', { pageName: `${t.label}${run}`, template: t.value }, token);
      const preview = await newPage(browser, { viewport: { width: 1920, height: 1080 } });
      const errors: string[] = [];
      preview.on('pageerror', (e) => errors.push(String(e)));
      preview.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await login(preview, inject('baseURL'), 'developer', inject('demoPassword'));
      await preview.goto(`${inject('baseURL')}/datav/screen/preview?pageId=${created.id}`);
      await preview.getByTestId('preview').waitFor({ timeout: 30_000 });
      await preview.getByText(t.label.slice(0, 4)).first().waitFor();
      await preview.waitForTimeout(2500); // charts' entry animations
      await shot(preview, `template-${t.value}`);
      expect(errors).toEqual([]);
      await preview.close();
    }
  });
});
