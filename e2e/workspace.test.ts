// 工作区迁移 clicked through in Chromium between two deployments (issue 37 item 3): the e2e run's server is the
// test deployment; a second one (its own PostgreSQL schema when PG_URL is set, else its own SQLite store) is
// production. A screen charting a dataset and an API, and a page with its dictionary, are chosen and exported
// from the first (the list shows what came along); the file is imported into the second through its preview —
// the data source mapped to production's by choice, every item new — confirmed, and both are opened there; the
// API waits for approval there.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { must, signIn, toast } from './lib/calls';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';
import { ADMIN_PASSWORD, startDeployment } from './global-setup';
import { encryptFor } from '../server-stub/testing/server';

const run = Date.now().toString(36);
const PG_URL = process.env.PG_URL;

function goodsDb(dataDir: string, file: string) {
  const dir = join(dataDir, 'sqlite');
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, file));
  db.exec("CREATE TABLE goods (id INTEGER PRIMARY KEY, name TEXT, price REAL); INSERT INTO goods (name, price) VALUES ('apple', 3), ('pear', 5), ('plum', 7);");
  db.close();
}

/** A call to the second deployment. */
async function at(base: string, path: string, body?: unknown, token?: string): Promise<any> {
  const res = await fetch(base + path, { method: body === undefined ? 'GET' : 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const e = await res.json();
  if (e.status !== 0) throw new Error(`${path}: ${e.msg}`);
  return e.data;
}

describeBrowser('工作区迁移', () => {
  let browser: Browser;
  let test: Page;
  let prod: Page;
  let second: Awaited<ReturnType<typeof startDeployment>> | undefined;
  const schema = `ws_e2e_${run}`;
  const screenName = `迁移大屏${run}`;
  const pageKey = `move_${run}`;
  let file = '';

  beforeAll(async () => {
    const token = await signIn('admin', inject('adminPassword'));
    // the test deployment: a data source, a dataset on it, an API, a dictionary, a page naming it, a screen
    goodsDb(inject('dataDir'), `ws_${run}.db`);
    const dsId = await must('/api/gemini/datasource/info/save', { dsName: `shop_${run}`, dbType: 'sqlite', dbName: `ws_${run}.db` }, token);
    const fields = await must('/api/dataset/fields', { kind: 'table', dsId, definition: { table: { table: 'goods' } } }, token);
    await must('/api/dataset/info/save', { name: `商品${run}`, kind: 'table', dsId, definition: { table: { table: 'goods' } }, fields, cacheTtl: 60 }, token);
    const datasets = await must('/api/dataset/search', { search: `商品${run}`, pageNum: 1, pageSize: 10 }, token);
    const datasetId = datasets.records[0].id;
    const group = await must('/api/gemini/api/group/save', { parentId: 0, name: `迁移${run}` }, token);
    const apiId = await must('/api/gemini/api/design/info/save', { groupId: group, apiName: `goods_${run}`, apiComment: '商品价格' }, token);
    await must('/api/gemini/api/config/save', { apiId, dsName: `shop_${run}`, script: 'select name, price from goods order by id', reqParamList: [] }, token);
    await must('/api/dict/admin/type/save', { dictType: `LEVEL_${run.toUpperCase()}`, dictName: '商品等级', valueType: 'string' }, token);
    await must(
      '/api/lowcode/page/save',
      {
        pageKey,
        title: `商品备注${run}`,
        published: true,
        roles: ['sys_admin'],
        declaration: { title: `商品备注${run}`, columns: [{ title: '等级', field: 'level', dict: `LEVEL_${run.toUpperCase()}` }], dialog: { schema: { type: 'object', properties: { level: { type: 'string', title: '等级' } } } } },
      },
      token,
    );
    const screen = await must('/api/datav/screen/info/save', { pageName: screenName }, token);
    const bar = await must('/api/datav/screen/widget/add', { pageId: screen.id, widgetName: 'barChart', left: 40, top: 40 }, token);
    const line = await must('/api/datav/screen/widget/add', { pageId: screen.id, widgetName: 'lineChart', left: 400, top: 40 }, token);
    const mapping = bar.widgetProps.datasourceProps.dataMapping.map((m: any) => (m.slot === 'dimension' ? { ...m, datasetField: 'name' } : { ...m, datasetField: 'price', agg: 'sum' }));
    bar.widgetProps.datasourceProps = { ...bar.widgetProps.datasourceProps, datasourceType: 'DATASET', dataMapping: mapping, dataConfig: { ...bar.widgetProps.datasourceProps.dataConfig, dataset: { datasetId } } };
    line.widgetProps.datasourceProps = { ...line.widgetProps.datasourceProps, datasourceType: 'API', dataConfig: { ...line.widgetProps.datasourceProps.dataConfig, datasource: `goods_${run}` } };
    await must('/api/datav/screen/widget/update', { pageId: screen.id, widgets: [bar, line] }, token);

    // production: a deployment of its own, whose data source has another name
    second = await startDeployment(PG_URL ? { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema } : {});
    goodsDb(second.dataDir, 'prod.db');
    const pem = await at(second.baseURL, '/api/uams/publicKey');
    const prodToken = (await at(second.baseURL, '/api/uams/login', { mobilePhone: 'admin', password: encryptFor(pem, ADMIN_PASSWORD) })).token;
    await at(second.baseURL, '/api/gemini/datasource/info/save', { dsName: 'shop_prod', dbType: 'sqlite', dbName: 'prod.db' }, prodToken);

    browser = await launchBrowser();
    test = await newPage(browser, { viewport: { width: 1600, height: 900 }, acceptDownloads: true });
    await login(test, inject('baseURL'), 'admin', inject('adminPassword'));
    prod = await newPage(browser, { viewport: { width: 1600, height: 900 } });
    await login(prod, second.baseURL, 'admin', ADMIN_PASSWORD);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await second?.stop();
    if (PG_URL) {
      const c = new pg.Client(PG_URL);
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    }
  });

  it('exports a screen and a page from the test deployment with what they need', async () => {
    await test.goto(`${inject('baseURL')}/system/workspace`);
    const tree = test.getByTestId('workspace-tree');
    await tree.waitFor({ timeout: 30_000 });
    // open the kinds and tick the screen and the page
    for (const kind of [/^大屏（/, /^页面（/]) await tree.locator('.ant-tree-treenode').filter({ hasText: kind }).locator('.ant-tree-switcher').click();
    await tree.getByText(screenName, { exact: true }).click();
    await tree.getByText(`商品备注${run}（${pageKey}）`).click();
    await test.getByRole('button', { name: '查看清单' }).click();
    const plan = test.getByTestId('workspace-plan');
    await plan.getByText(`随大屏「${screenName}」附带`).first().waitFor();
    expect(await plan.locator('tbody tr.ant-table-row').count()).toBe(5);
    await plan.getByText(`随页面「商品备注${run}」附带`).waitFor();
    await shot(test, 'workspace-export');
    const [dl] = await Promise.all([test.waitForEvent('download'), test.getByRole('button', { name: /导出文件/ }).click()]);
    file = join(inject('dataDir'), `workspace-${run}.json`);
    await dl.saveAs(file);
  });

  it('imports it into production through the preview, the data source mapped by choice, and opens both there', async () => {
    await prod.goto(`${second!.baseURL}/system/workspace`);
    await prod.getByRole('tab', { name: '导入' }).click();
    await prod.getByTestId('workspace-upload').locator('input[type=file]').setInputFiles(file);
    const sources = prod.getByTestId('workspace-sources');
    await sources.getByText(`shop_${run}（sqlite）`).waitFor({ timeout: 15_000 });
    // nothing is written before the data source is chosen and the import confirmed
    await prod.getByText(`请为数据源 shop_${run} 选择本环境的数据源`).waitFor();
    expect(await prod.getByRole('button', { name: '确认导入' }).isDisabled()).toBe(true);
    await sources.getByRole('combobox').click();
    await prod.locator('.ant-select-dropdown:visible').getByText('shop_prod（sqlite）').click();
    const preview = prod.getByTestId('workspace-preview');
    await expect.poll(async () => (await preview.locator('tbody tr.ant-table-row').allTextContents()).filter((t) => t.includes('新建')).length, { timeout: 15_000 }).toBe(5);
    await shot(prod, 'workspace-import-preview');
    await prod.getByRole('button', { name: '确认导入' }).click();
    await prod.locator('.ant-modal-confirm').getByRole('button', { name: /导\s?入/ }).click();
    await toast(prod, '导入完成', { prefix: 'workspace' });
    // the preview again: everything there, unchanged
    await expect.poll(async () => (await preview.locator('tbody tr.ant-table-row').allTextContents()).filter((t) => t.includes('无变化')).length, { timeout: 15_000 }).toBe(5);

    // the page, from production's menu
    await prod.goto(`${second!.baseURL}/`);
    await prod.getByRole('menuitem', { name: /自定义页面/ }).first().click();
    await prod.getByRole('menuitem', { name: `商品备注${run}` }).click();
    await prod.getByText('等级').first().waitFor({ timeout: 15_000 });
    // the screen, charting production's dataset
    const pem = await at(second!.baseURL, '/api/uams/publicKey');
    const token = (await at(second!.baseURL, '/api/uams/login', { mobilePhone: 'admin', password: encryptFor(pem, ADMIN_PASSWORD) })).token;
    const screens = await at(second!.baseURL, '/api/datav/screen/search', { search: screenName, pageNum: 1, pageSize: 10 }, token);
    await prod.goto(`${second!.baseURL}/datav/screen/preview?pageId=${screens.records[0].id}`);
    await prod.locator('canvas').first().waitFor({ timeout: 30_000 });
    // the chart answers from production's dataset (no warning on it); the API's line waits for its approval
    await prod.getByText('接口调用失败').first().waitFor({ timeout: 15_000 });
    expect(await prod.getByText('请在数据映射中为各项选择数据集字段').count()).toBe(0);
    await shot(prod, 'workspace-imported-screen');
    // the API is a draft there, waiting to be submitted and approved
    const apis = await at(second!.baseURL, '/api/gemini/api/design/search', { search: `goods_${run}`, pageNum: 1, pageSize: 10 }, token);
    expect(apis.records[0]).toMatchObject({ apiName: `goods_${run}`, apiStatus: 0, onlineStatus: 0 });

    // production edits the dataset meanwhile: the same file now shows a conflict, its diff, and asks what to do
    const ds = (await at(second!.baseURL, '/api/dataset/search', { search: `商品${run}`, pageNum: 1, pageSize: 10 }, token)).records[0];
    const full = await at(second!.baseURL, `/api/dataset/info/get?id=${ds.id}`, undefined, token);
    await at(second!.baseURL, '/api/dataset/info/save', { ...full, cacheTtl: 5 }, token);
    await prod.goto(`${second!.baseURL}/system/workspace`);
    await prod.getByRole('tab', { name: '导入' }).click();
    await prod.getByTestId('workspace-upload').locator('input[type=file]').setInputFiles(file);
    await prod.getByTestId('workspace-sources').getByRole('combobox').click();
    await prod.locator('.ant-select-dropdown:visible').getByText('shop_prod（sqlite）').click();
    const row = prod.getByTestId('workspace-preview').locator('tr').filter({ hasText: `商品${run}` });
    await row.getByText('冲突').waitFor({ timeout: 15_000 });
    await prod.getByText('请为 1 项冲突的内容选择处理方式').waitFor();
    expect(await prod.getByRole('button', { name: '确认导入' }).isDisabled()).toBe(true);
    await row.getByRole('button', { name: '差异' }).click();
    const diff = prod.locator('.ant-modal:visible');
    await diff.getByText('缓存秒数：5 → 60').waitFor();
    // the file's data source as it maps here: no difference to show
    expect(await diff.getByText(/数据源：/).count()).toBe(0);
    await shot(prod, 'workspace-conflict-diff');
    await diff.locator('.ant-modal-close').click();
    await row.getByRole('combobox').click();
    await prod.locator('.ant-select-dropdown:visible').getByText('保留本环境的').click();
    expect(await prod.getByRole('button', { name: '确认导入' }).isDisabled()).toBe(false);

    // a narrow screen shows the preview too
    await prod.setViewportSize({ width: 390, height: 844 });
    await prod.goto(`${second!.baseURL}/system/workspace`);
    await prod.getByRole('tab', { name: '导入' }).click();
    await prod.getByTestId('workspace-upload').locator('input[type=file]').setInputFiles(file);
    await prod.getByTestId('workspace-preview').waitFor({ timeout: 15_000 });
    await shot(prod, 'workspace-import-390');
  });
});
