// Issue 35, "How it will be checked", clicked through as the 大屏设计师 (user designer), who types no SQL: in the
// dataset editor a dataset on a SQLite table (data source and table picked, fields read and relabelled 省份 / 城市 /
// 日期 / 销售额) — the SQL kind is not offered, and the server refuses one; then, in the full-window screen designer,
// a bar chart of 销售额 (求和) by 省份, a line of 销售额 by 日期 grouped by 月, and a dropdown filter on 省份, each
// filled through its 数据源 tab; Ctrl+A and a selection band select the widgets; saved; in the preview the dropdown
// filters both charts, and a click on a bar drills into 城市, chosen at the click, the breadcrumb going back.
// Screenshots at 1600 px and 390 px in .test-results/screens/dsgn-*.png.
import type { Browser, Locator, Page } from 'playwright-core';
import { inject } from 'vitest';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';
import { call, must, opened, signIn, toast as waitToast } from './lib/calls';
import { barsOf, salesSource } from './lib/screen';

const run = Date.now().toString(36).slice(-4);
const FILE = `e2e_dsgn_${run}`;
const DATASET = `设计师销售${run}`;
const SCREEN = `设计师大屏${run}`;
/** the bar chart's default colour (barChart.widget.json) */
const BAR = '#3ba0ff';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

const toast = (page: Page, text: string | RegExp) => waitToast(page, text, { prefix: 'dsgn' });
const snap = (page: Page, name: string) => shot(page, `dsgn-${name}`);

/** Picks `option` in the antd select whose combobox is named `label` (inside `scope`). */
async function choose(page: Page, scope: Page | Locator, label: string, option: string | RegExp) {
  await scope.locator('.ant-select, .ant-tree-select').filter({ has: page.getByRole('combobox', { name: label, exact: true }) }).first().click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first().click();
}

/** The ids of the selected layers, as the stage marks them (raised to 9999). */
const selectedIds = (page: Page) =>
  page
    .getByTestId('canvas-stage')
    .locator('[data-widget-id]')
    .evaluateAll((els) => els.filter((el) => getComputedStyle(el).zIndex === '9999').map((el) => (el as HTMLElement).dataset.widgetId));

describeBrowser('大屏设计师：无 SQL 建数据集，面板里配图表、筛选与下钻', () => {
  let browser: Browser;
  let designerToken: string;
  let dsId: number;
  let pageId = '';
  /** bar chart, line chart, dropdown filter */
  const ids: string[] = [];

  beforeAll(async () => {
    // the table and its data source: the administrator's (DEMO_DATA is off in the e2e server)
    dsId = await salesSource(FILE);
    designerToken = await signIn('designer', inject('demoPassword'));
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('the designer makes a table dataset in the editor, relabels its fields; no SQL is offered, and the server refuses one', async () => {
    const page = await newPage(browser, { viewport: { width: 1600, height: 900 } });
    await login(page, inject('baseURL'), 'designer', inject('demoPassword'));
    // 可视化 in the menu, no 数据源管理
    const menu = JSON.stringify((await must('/api/menu/routes/get?moduleType=platform', undefined, designerToken)) as unknown);
    for (const name of ['大屏设计', '数据集', '表单设计']) expect(menu).toContain(`"name":"${name}"`);
    expect(menu).not.toContain('数据源管理');
    await page.getByTestId('sidebar').getByText('可视化').waitFor();
    await page.goto(`${inject('baseURL')}/datav/dataset`);
    await page.getByRole('button', { name: '新增数据集' }).click();
    await page.waitForURL(/\/datav\/dataset\/edit/);
    const kinds = page.locator('.ant-radio-button-wrapper');
    await kinds.first().waitFor();
    expect(await kinds.allTextContents()).toEqual(['表', '关联', 'Excel / CSV']);

    await page.getByRole('textbox', { name: '数据集名称' }).fill(DATASET);
    await choose(page, page, '数据源', `${FILE}（sqlite）`);
    await page.getByRole('combobox', { name: '数据表' }).click();
    await page.getByRole('combobox', { name: '数据表' }).fill('sales');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'sales' }).first().click();
    await page.getByRole('button', { name: /读取字段/ }).click();
    await toast(page, '已读取 5 个字段');
    for (const [name, label] of [['province', '省份'], ['city', '城市'], ['sold_on', '日期'], ['amount', '销售额']]) await page.getByLabel(`标签-${name}`).fill(label);
    await page.getByRole('button', { name: /预\s?览/ }).click();
    await page.getByTestId('preview-total').getByText('共 6 行').waitFor();
    await page.getByRole('tab', { name: /字段/ }).click();
    await snap(page, 'dataset-edit-1600');
    await page.getByRole('button', { name: /保\s?存/ }).click();
    await toast(page, '保存成功');
    await page.waitForURL(/\/datav\/dataset\/edit\?id=\d+/);
    const datasetId = Number(new URL(page.url()).searchParams.get('id'));
    const info = await must(`/api/dataset/info/get?id=${datasetId}`, undefined, designerToken);
    expect(info.fields.map((f: { name: string; label: string }) => `${f.name}:${f.label}`)).toEqual(expect.arrayContaining(['province:省份', 'city:城市', 'sold_on:日期', 'amount:销售额']));

    // at 390 px the editor is usable too
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('textbox', { name: '数据集名称' }).waitFor();
    await snap(page, 'dataset-edit-390');
    await page.context().close();

    // the server: no SQL dataset for a designer, whatever the browser sends
    const sql = await call('/api/dataset/info/save', { name: `设计师SQL${run}`, kind: 'sql', dsId, definition: { sql: 'select 1 as x' }, fields: [{ name: 'x', label: 'x', type: 'number', role: 'measure' }] }, designerToken);
    expect(sql.http).toBe(403);
    expect(sql.msg).toMatch(/没有权限|只有开发人员/);
    // nor the data sources themselves
    expect((await call('/api/gemini/datasource/search', {}, designerToken)).http).toBe(403);
  });

  it('in the full-window designer: three widgets filled through the 数据源 tab; Ctrl+A and a band select them; saved', async () => {
    const page = await newPage(browser, { viewport: { width: 1600, height: 900 } });
    await login(page, inject('baseURL'), 'designer', inject('demoPassword'));
    await page.goto(`${inject('baseURL')}/datav/screen`);
    await page.getByRole('button', { name: '新建大屏' }).click();
    const modal = page.locator('.ant-modal:visible');
    await opened(modal);
    await modal.getByPlaceholder('请输入大屏名称').fill(SCREEN);
    await modal.getByRole('button', { name: /确\s?定/ }).click();
    await toast(page, '保存成功');
    await page.locator('.ant-table-row:visible', { hasText: SCREEN }).getByRole('button', { name: /设\s?计/ }).click();
    await page.waitForURL(/\/datav\/screen\/design\?pageId=\d+/);
    pageId = new URL(page.url()).searchParams.get('pageId')!;
    const stage = page.getByTestId('canvas-stage');
    await stage.waitFor();
    // the whole window, no console frame
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    await page.getByRole('button', { name: '适应画布' }).click();

    const right = page.getByTestId('designer-right');
    const layers = stage.locator('[data-widget-id]');
    /** drops a template at (x, y) of the stage, selects it and opens its 数据源 tab on 数据集 with the dataset */
    const addWithDataset = async (widgetName: string, x: number, y: number) => {
      const before = await layers.count();
      await page.getByTestId(`template-${widgetName}`).dragTo(stage, { targetPosition: { x, y } });
      await expect.poll(() => layers.count()).toBe(before + 1);
      const id = (await layers.evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.widgetId!))).find((i) => !ids.includes(i))!;
      ids.push(id);
      await stage.locator(`[data-widget-id="${id}"]`).click();
      await right.getByRole('tab', { name: '数据源' }).click();
      await right.locator('.ant-select', { has: page.locator('#root_datasourceType') }).click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '数据集' }).click();
      await choose(page, right, '数据集', DATASET);
      return id;
    };

    // the bar chart: 省份 as its dimension, 销售额 summed
    const bar = await addWithDataset('barChart', 40, 40);
        await choose(page, right, 'X 轴（类目） 数据集字段', '省份');
    await choose(page, right, 'Y 轴（数值） 数据集字段', '销售额');
    await choose(page, right, 'Y 轴（数值） 聚合方式', '求和');
    await choose(page, right, '排序', '按指标降序');
    await snap(page, 'panel-bar-1600');
    // the designer draws it from the dataset: the provinces are its categories
    await expect.poll(async () => decodeURIComponent((await stage.locator(`[data-widget-id="${bar}"] img`).getAttribute('src')) ?? ''), { timeout: 15_000 }).toContain('浙江');

    // the line: 日期 by month, 销售额 summed
    const line = await addWithDataset('lineChart', 420, 40);
    await choose(page, right, 'X 轴（类目） 数据集字段', '日期');
    await choose(page, right, 'X 轴（类目） 日期分组', '月');
    await choose(page, right, '访问量 数据集字段', '销售额');
    await choose(page, right, '访问量 聚合方式', '求和');
    await snap(page, 'panel-line-1600');
    await expect.poll(async () => decodeURIComponent((await stage.locator(`[data-widget-id="${line}"] img`).getAttribute('src')) ?? ''), { timeout: 15_000 }).toContain('2026-03');

    // the dropdown filter on 省份
    const filter = await addWithDataset('filterSelect', 40, 360);
    await choose(page, right, '显示文字 数据集字段', '省份');
    await choose(page, right, '值 数据集字段', '省份');
    await snap(page, 'panel-filter-1600');

    // Ctrl+A on the canvas selects the three; the arranging buttons wake
    const button = (name: string) => page.getByTestId('arrange-toolbar').getByRole('button', { name, exact: true });
    const s = (await stage.boundingBox())!;
    await page.mouse.click(s.x + s.width - 20, s.y + s.height - 20);
    await expect.poll(() => selectedIds(page)).toEqual([]);
    expect(await button('左对齐').isDisabled()).toBe(true);
    await page.keyboard.press('Control+a');
    await expect.poll(async () => (await selectedIds(page)).sort()).toEqual([...ids].sort());
    expect(await button('左对齐').isDisabled()).toBe(false);
    await snap(page, 'ctrl-a-1600');
    // a band from an empty spot over the two charts (not the filter below them)
    await page.mouse.click(s.x + s.width - 20, s.y + s.height - 20);
    await expect.poll(() => selectedIds(page)).toEqual([]);
    const lb = (await stage.locator(`[data-widget-id="${line}"]`).boundingBox())!;
    const fb = (await stage.locator(`[data-widget-id="${filter}"]`).boundingBox())!;
    await page.mouse.move(s.x + 4, s.y + 4);
    await page.mouse.down();
    await page.mouse.move(lb.x + 20, s.y + 30, { steps: 4 });
    await page.mouse.move(lb.x + 20, Math.min(lb.y + 20, fb.y - 4), { steps: 4 });
    await page.mouse.up();
    await expect.poll(async () => (await selectedIds(page)).sort()).toEqual([bar, line].sort());
    expect(await button('顶端对齐').isDisabled()).toBe(false);

    await page.getByRole('button', { name: /保\s?存/ }).first().click();
    await toast(page, '保存成功');
    await snap(page, 'designer-1600');
    const saved = await must(`/api/datav/screen/widget/select?pageId=${pageId}`, undefined, designerToken);
    const props = (id: string) => saved.find((w: { id: unknown }) => String(w.id) === id).widgetProps.datasourceProps;
    expect(props(bar).datasourceType).toBe('DATASET');
    expect(props(bar).dataMapping.map((m: { datasetField?: string; agg?: string }) => [m.datasetField, m.agg ?? null])).toEqual([['province', null], ['amount', 'sum']]);
    expect(props(line).dataMapping.find((m: { datasetField?: string }) => m.datasetField === 'sold_on').dateGroup).toBe('month');
    await page.context().close();
  });

  it('in the preview the dropdown filters both charts; a bar click drills into 城市 and the breadcrumb goes back', async () => {
    const [bar, line, filter] = ids;
    const page = await newPage(browser, { viewport: { width: 1600, height: 900 } });
    await login(page, inject('baseURL'), 'designer', inject('demoPassword'));
    // the line's answers as the preview receives them (its points), by the query that asked
    const lineAnswers: Array<Array<Record<string, unknown>>> = [];
    page.on('response', async (r) => {
      if (!r.url().endsWith('/api/dataset/query')) return;
      const asked = JSON.parse(r.request().postData() ?? '{}').queries as Array<{ dimensions?: Array<{ dateGroup?: string }> }>;
      const answers = (await r.json()).data as Array<{ rows: Array<Record<string, unknown>> }>;
      asked.forEach((q, i) => q.dimensions?.some((d) => d.dateGroup === 'month') && lineAnswers.push(answers[i].rows));
    });
    const points = () => lineAnswers.at(-1)?.map((p) => `${p.sold_on_month}:${p.amount_sum}`) ?? [];
    await page.goto(`${inject('baseURL')}/datav/screen/preview?pageId=${pageId}`);
    const bars = () => barsOf(page, bar, BAR);
    await expect.poll(async () => (await bars()).length, { timeout: 30_000 }).toBe(3);
    await expect.poll(points).toEqual(['2026-01:250', '2026-02:130', '2026-03:70']);
    await page.locator(`[data-widget-id="${line}"] canvas`).first().waitFor();
    await page.waitForTimeout(1500); // the line's entry animation, for the picture
    // the line's second series was left unused: no line of zeros, no warning
    expect(await page.locator(`[data-widget-id="${line}"]`).textContent()).not.toMatch(/不存在|未设置/);
    await snap(page, 'preview-1600');

    // 浙江 in the dropdown: one bar, and the line over 浙江's months only
    await page.locator(`[data-widget-id="${filter}"] .ant-select`).click();
    await page.locator('.ant-select-item-option', { hasText: '浙江' }).click();
    await expect.poll(async () => (await bars()).length).toBe(1);
    await expect.poll(points).toEqual(['2026-01:160', '2026-02:80']);
    // the dropdown shows its choice in itself, with no linkage tag over it
    expect(await page.locator(`[data-widget-id="${filter}"]`).getByTestId('linked-filters').count()).toBe(0);
    await page.waitForTimeout(1500); // the charts' update animation, for the picture
    await snap(page, 'preview-filtered-1600');
    await page.locator(`[data-widget-id="${filter}"] .ant-select-clear`).click({ force: true });
    await expect.poll(async () => (await bars()).length).toBe(3);
    await expect.poll(points).toEqual(['2026-01:250', '2026-02:130', '2026-03:70']);

    // a click on the tallest bar (浙江: the designer sorted by the measure, descending) offers 联动 and 下钻; 下钻 → 城市
    const menu = page.getByTestId('dataset-click-menu');
    const first = (await bars())[0];
    await page.mouse.click(first.x, first.y - 2);
    await menu.waitFor({ timeout: 10_000 });
    expect(await menu.textContent()).toContain('省份：浙江');
    await snap(page, 'preview-click-menu-1600');
    await page.getByRole('menuitem', { name: '城市' }).click();
    const crumbs = page.locator(`[data-widget-id="${bar}"]`).getByTestId('drill-crumbs');
    await expect.poll(() => crumbs.textContent()).toContain('省份：浙江');
    await expect.poll(async () => (await bars()).length).toBe(2);
    await snap(page, 'preview-drill-1600');
    await crumbs.getByRole('button', { name: '全部' }).click();
    await expect.poll(async () => (await bars()).length).toBe(3);
    await page.context().close();
  });

  it('at 390 px: the designer and the preview in the whole window', async () => {
    const phone = await newPage(browser, { viewport: { width: 390, height: 844 }, userAgent: IPHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
    await login(phone, inject('baseURL'), 'designer', inject('demoPassword'));
    await phone.goto(`${inject('baseURL')}/datav/screen/design?pageId=${pageId}`);
    await phone.getByTestId('canvas-stage').locator(`[data-widget-id="${ids[0]}"]`).waitFor();
    expect(await phone.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight])).toEqual([390, 844]);
    await snap(phone, 'designer-390');
    await phone.goto(`${inject('baseURL')}/datav/screen/preview?pageId=${pageId}`);
    await phone.locator(`[data-widget-id="${ids[0]}"] canvas`).first().waitFor({ timeout: 30_000 });
    await phone.locator(`[data-widget-id="${ids[2]}"] .ant-select`).waitFor();
    // the charts' entry animations (echarts ignores reduced motion) done before the picture
    await phone.waitForTimeout(1500);
    await snap(phone, 'preview-390');
    await phone.context().close();
  });
});
