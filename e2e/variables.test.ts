// Screen variables and filters in Chromium (issue 23 §1, §2 "How it will be checked"): a screen with variables
// province and city, a province select (options from an API), a city select whose options API binds {{province}},
// a table bound to both, and a table bound to nothing. In the preview: a URL parameter sets province; choosing
// values changes the rows, and exactly the widgets bound to the changed variable fetch, once each; a city the new
// province does not have is cleared; the inspector shows the values.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { inject } from 'vitest';
import type { Browser, Page, Request } from 'playwright-core';
import { describeBrowser, launchBrowser, login, newPage, shot, showPreviewTools } from './lib/browser';
import { must, signIn } from './lib/calls';

const run = Date.now().toString(36).slice(-5);
const DB = `e2e_vars_${run}`;
const API = { provinces: `e2e_prov_${run}`, cities: `e2e_city_${run}`, sales: `e2e_sales_${run}`, all: `e2e_all_${run}` };
const ROWS: Array<[string, string, number]> = [
  ['广东', '广州', 310],
  ['广东', '深圳', 420],
  ['浙江', '杭州', 260],
  ['浙江', '宁波', 180],
];

/** Four published APIs over one SQLite table, made through the platform's own calls. */
async function publishApis(): Promise<void> {
  const dir = join(inject('dataDir'), 'sqlite');
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, `${DB}.db`));
  db.exec('CREATE TABLE region_sales (province TEXT, city TEXT, amount INTEGER)');
  const insert = db.prepare('INSERT INTO region_sales VALUES (?, ?, ?)');
  for (const r of ROWS) insert.run(...r);
  db.close();
  const admin = await signIn('admin', inject('adminPassword'));
  await must('/api/gemini/datasource/info/save', { dsName: DB, dbType: 'sqlite', dbName: `${DB}.db` }, admin);
  const dev = await signIn('developer', inject('demoPassword'));
  const approver = await signIn('devapprover', inject('demoPassword'));
  const group = await must('/api/gemini/api/group/save', { parentId: 0, name: `分组${DB}` }, dev);
  const groupId = typeof group === 'number' ? group : group.id;
  const publish = async (apiName: string, apiComment: string, params: string[], script: string) => {
    const id = await must('/api/gemini/api/design/info/save', { groupId, apiName, apiComment, reqParamList: params.map((p) => ({ paramName: p, paramType: 'string', paramValue: '' })) }, dev);
    await must('/api/gemini/api/config/save', { apiId: id, dsName: DB, script }, dev);
    await must('/api/gemini/api/design/info/submit', { id }, dev);
    await must('/api/gemini/api/approve/resolveAndOnline', { id, approveResult: 'e2e' }, approver);
  };
  await publish(API.provinces, '省份列表', [], 'select distinct province as name, province as code from region_sales order by province');
  await publish(API.cities, '城市列表', ['province'], 'select distinct city as name, city as code from region_sales where province = :province order by city');
  await publish(API.sales, '城市销售', ['province', 'city'], 'select province, city, amount from region_sales where (:province is null or province = :province) and (:city is null or city = :city) order by amount desc');
  await publish(API.all, '全部销售', [], 'select province, city, amount from region_sales order by amount desc');
}

const options = [
  { id: '1', prop: 'label', label: '显示文字', field: 'name' },
  { id: '2', prop: 'value', label: '值', field: 'code' },
];
const tableMapping = [
  { id: '1', prop: 'store', label: '城市', field: 'city' },
  { id: '2', prop: 'region', label: '省份', field: 'province' },
  { id: '3', prop: 'sales', label: '销售额', field: 'amount' },
];
const apiSource = (datasource: string, dataMapping: object[], reqParams: Record<string, unknown>) => ({ datasourceType: 'API', dataMapping, dataConfig: { datasource, datasourceLabel: datasource, reqParams } });

/** The screen, made over the API as the designer saves one: variables on the page, widgets by widget/add + update. */
async function createScreen(): Promise<number> {
  const dev = await signIn('developer', inject('demoPassword'));
  const page = await must('/api/datav/screen/info/save', { pageName: `e2e变量${run}` }, dev);
  const id = Number(page.id ?? page);
  const info = await must(`/api/datav/screen/info/get?id=${id}`, undefined, dev);
  await must('/api/datav/screen/info/save', { id, pageName: info.pageName, revision: info.revision, width: 1920, height: 1080, variables: [{ name: 'province', title: '省份', type: 'string' }, { name: 'city', title: '城市', type: 'string' }] }, dev);
  const add = (widgetName: string, top: number, left: number) => must('/api/datav/screen/widget/add', { pageId: id, widgetName, top, left }, dev);
  const province = await add('filterSelect', 40, 40);
  const city = await add('filterSelect', 40, 400);
  const sales = await add('pagedTable', 140, 40);
  const all = await add('pagedTable', 140, 760);
  const set = (w: any, view: object, ds: object) => ({ ...w, widgetProps: { ...w.widgetProps, viewProps: { ...w.widgetProps.viewProps, ...view }, datasourceProps: ds } });
  await must(
    '/api/datav/screen/widget/update',
    {
      pageId: id,
      widgets: [
        set(province, { variable: 'province', label: '省份', placeholder: '全部省份' }, apiSource(API.provinces, options, {})),
        set(city, { variable: 'city', label: '城市', placeholder: '全部城市' }, apiSource(API.cities, options, { province: '{{province}}' })),
        set(sales, { width: 640, height: 360 }, apiSource(API.sales, tableMapping, { province: '{{province}}', city: '{{city}}' })),
        set(all, { width: 640, height: 360 }, apiSource(API.all, tableMapping, {})),
      ],
    },
    dev,
  );
  return id;
}

/** Every call of a published API the page makes: its API name and body. */
function recordCalls(page: Page) {
  const calls: Array<{ api: string; body: Record<string, unknown> }> = [];
  page.on('request', (r: Request) => {
    const m = /\/open\/api\/([^/?]+)/.exec(r.url());
    if (m && r.method() === 'POST') calls.push({ api: decodeURIComponent(m[1]), body: (r.postDataJSON() ?? {}) as Record<string, unknown> });
  });
  return calls;
}

/** The cities a table shows, top to bottom. */
const citiesIn = (page: Page, index: number) =>
  page
    .locator('[data-widget="pagedTable"]')
    .nth(index)
    .locator('[role="row"][aria-rowindex]')
    .evaluateAll((rows) => rows.map((r) => (r.querySelectorAll('[role="cell"]')[1] as HTMLElement | undefined)?.textContent ?? ''));

async function choose(page: Page, filter: number, label: string) {
  await page.locator('[data-widget="filterSelect"]').nth(filter).locator('.ant-select-selector').click();
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${label}"]`).click();
}

/** Waits until the calls settle (nothing new for 600 ms, past the 150 ms debounce) and returns the new ones. */
async function settled(calls: Array<{ api: string; body: Record<string, unknown> }>, from: number) {
  let n = -1;
  while (n !== calls.length) {
    n = calls.length;
    await new Promise((r) => setTimeout(r, 600));
  }
  return calls.slice(from);
}

describeBrowser('大屏变量与筛选组件', () => {
  let browser: Browser;
  let pageId: number;
  beforeAll(async () => {
    await publishApis();
    pageId = await createScreen();
    browser = await launchBrowser();
  }, 120_000);
  afterAll(() => browser?.close());

  it('a URL parameter sets a variable; filters change the rows; exactly the bound widgets fetch; a city the new province lacks is cleared', async () => {
    const page = await newPage(browser);
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
    const calls = recordCalls(page);
    await page.goto(`${inject('baseURL')}/datav/screen/preview?pageId=${pageId}&province=${encodeURIComponent('浙江')}&nope=${encodeURIComponent("x' or 1=1")}`);
    await page.getByTestId('preview').waitFor();

    // the URL's province: the city options and the bound table follow it; the unknown URL parameter reaches nothing
    await expect.poll(() => citiesIn(page, 0), { timeout: 30_000 }).toEqual(['杭州', '宁波']);
    await expect.poll(() => citiesIn(page, 1)).toEqual(['深圳', '广州', '杭州', '宁波']);
    const first = await settled(calls, 0);
    expect(first.map((c) => c.api).sort()).toEqual([API.all, API.cities, API.provinces, API.sales].sort());
    expect(first.find((c) => c.api === API.cities)!.body).toEqual({ province: '浙江' });
    expect(first.find((c) => c.api === API.sales)!.body).toEqual({ province: '浙江' });
    expect(JSON.stringify(first)).not.toContain('or 1=1');
    await expect.poll(() => page.locator('[data-widget="filterSelect"]').nth(0).locator('.ant-select-selection-item').textContent()).toBe('浙江');

    // another province: the city list and the sales table fetch once each; the province list and the other table not at all
    let from = calls.length;
    await choose(page, 0, '广东');
    await expect.poll(() => citiesIn(page, 0)).toEqual(['深圳', '广州']);
    let changed = await settled(calls, from);
    expect(changed).toHaveLength(2);
    expect(changed).toEqual(
      expect.arrayContaining([
        { api: API.cities, body: { province: '广东' } },
        { api: API.sales, body: { province: '广东' } },
      ]),
    );

    // a city of it: only the sales table fetches
    from = calls.length;
    await choose(page, 1, '深圳');
    await expect.poll(() => citiesIn(page, 0)).toEqual(['深圳']);
    changed = await settled(calls, from);
    expect(changed).toEqual([{ api: API.sales, body: { province: '广东', city: '深圳' } }]);
    await shot(page, 'variables-preview-city');

    // back to 浙江: 深圳 is not among its cities, so the city is cleared and the table shows all of 浙江
    from = calls.length;
    await choose(page, 0, '浙江');
    await expect.poll(() => citiesIn(page, 0)).toEqual(['杭州', '宁波']);
    changed = await settled(calls, from);
    expect(changed.filter((c) => c.api === API.cities)).toEqual([{ api: API.cities, body: { province: '浙江' } }]);
    expect(changed.filter((c) => c.api === API.sales).at(-1)).toEqual({ api: API.sales, body: { province: '浙江' } });
    // the table fetched at most twice: once for the province, once more if the city was cleared after it left
    expect(changed.filter((c) => c.api === API.sales).length).toBeLessThanOrEqual(2);
    expect(changed.filter((c) => c.api === API.provinces || c.api === API.all)).toEqual([]);
    expect(await page.locator('[data-widget="filterSelect"]').nth(1).locator('.ant-select-selection-item').count()).toBe(0);

    // the inspector shows the current values
    await showPreviewTools(page);
    await page.getByTestId('variable-inspector-open').click();
    const inspector = page.getByTestId('variable-inspector');
    await expect.poll(() => inspector.locator('[data-variable="province"]').textContent()).toBe('浙江');
    expect(await inspector.locator('[data-variable="city"]').textContent()).toBe('（无）');
    await shot(page, 'variables-preview-inspector');
    await page.context().close();
  });

  it('the designer offers the declared variables: a filter’s 写入变量 and the table’s 参数绑定', async () => {
    const page = await newPage(browser);
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
    await page.goto(`${inject('baseURL')}/datav/screen/design?pageId=${pageId}`);
    const placed = page.getByTestId('canvas-stage').locator('[data-widget-id]');
    await expect.poll(() => placed.count(), { timeout: 30_000 }).toBe(4);
    await page.waitForTimeout(500);
    expect(await page.getByText('（未保存）').count(), 'opening the designer changes nothing').toBe(0);
    // on the canvas a filter takes no input
    expect(await placed.nth(1).locator('[data-widget="filterSelect"]').getAttribute('aria-disabled')).toBe('true');
    await placed.nth(1).click();
    const right = page.getByTestId('designer-right');
    const variable = right.locator('.ant-select', { has: page.locator('#root_variable') });
    await expect.poll(() => variable.locator('.ant-select-selection-item').textContent()).toBe('城市（city） · 文本');
    await variable.click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '省份（province）' }).waitFor();
    await page.keyboard.press('Escape');
    // the sales table: its two parameters are shown bound to the two variables
    await placed.nth(2).click();
    await right.getByRole('tab', { name: '数据源' }).click();
    const bindings = right.getByTestId('param-bindings');
    await bindings.waitFor();
    expect(await bindings.locator('.ant-select-selection-item').allTextContents()).toEqual(['省份（province） · 文本', '城市（city） · 文本']);
    await shot(page, 'variables-designer-bindings');
    await page.context().close();
  });
});
