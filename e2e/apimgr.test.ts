// The data-API platform clicked through (issue 8 "How it will be checked"): a developer creates a group and
// a design with two typed parameters, configures SQL on a SQLite data source, tests it (result and executed
// SQL shown), saves and submits; an approver sees the diff and passes it online; the published API answers
// with a key made on the API Key screen and refuses without one; an injection value finds no extra rows;
// a second version V2 is approved while V1 keeps serving until V2 goes online; the detail shows the trail.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';
import { call, confirmBox, signIn, toast as waitToast } from './lib/calls';

const run = Date.now().toString(36).slice(-4);
const GROUP = `e2e销售${run}`;
const API = `e2e_goods_${run}`;
const DS = `e2e_api_ds_${run}`;




const toast = (page: Page, text: string) => waitToast(page, text, { prefix: 'apimgr' });

const monacoText = async (_page: Page, scope: ReturnType<Page['locator']>) => ((await scope.locator('.monaco-editor .view-lines').first().textContent()) ?? '').replace(/\u00a0/g, ' ');

describeBrowser('API 设计与审批', () => {
  let browser: Browser;
  let dev: Page;
  let approver: Page;
  let devToken: string;
  let approverToken: string;
  let apiId: number;
  let apiKey: string;

  beforeAll(async () => {
    const dir = join(inject('dataDir'), 'sqlite');
    mkdirSync(dir, { recursive: true });
    const db = new Database(join(dir, `e2e_api_${run}.db`));
    db.exec("CREATE TABLE goods (id INTEGER PRIMARY KEY, name TEXT, price REAL); INSERT INTO goods (name, price) VALUES ('apple', 3), ('pear', 5), ('plum', 7);");
    db.close();
    const admin = await signIn('admin', inject('adminPassword'));
    const saved = await call('/api/gemini/datasource/info/save', { dsName: DS, dbType: 'sqlite', dbName: `e2e_api_${run}.db` }, admin);
    if (saved.status !== 0) throw new Error(saved.msg);
    devToken = await signIn('developer', inject('demoPassword'));
    approverToken = await signIn('devapprover', inject('demoPassword'));
    browser = await launchBrowser();
    dev = await newPage(browser);
    await login(dev, inject('baseURL'), 'developer', inject('demoPassword'));
  });
  afterAll(() => browser?.close());

  it('developer: group, design with two typed parameters, SQL configured and tested, submitted', async () => {
    const base = inject('baseURL');
    await dev.goto(`${base}/apimgr/design`);
    await dev.getByRole('button', { name: /添\s?加/ }).click();
    const modal = dev.locator('.ant-modal:visible');
    await modal.getByText('添加组').waitFor();
    await modal.getByPlaceholder('请输入组名称').focus();
    await modal.getByPlaceholder('请输入组名称').blur();
    await modal.getByText('请输入组名称').last().waitFor();
    await modal.getByPlaceholder('请输入组名称').fill(GROUP);
    await modal.getByRole('button', { name: /确\s?定/ }).click();
    await dev.locator('.ant-tree').getByText(GROUP).waitFor();

    await dev.getByRole('button', { name: '新增API' }).click();
    await dev.waitForURL(/\/apimgr\/design\/edit/);
    // the spec's messages before anything is sent
    await dev.getByRole('button', { name: /保\s?存/ }).click();
    await toast(dev, '请选择分组');
    await dev.getByRole('combobox', { name: '分组' }).click();
    await dev.locator('.ant-select-dropdown:visible').getByText(GROUP).click();
    await dev.getByRole('textbox', { name: 'API名称' }).fill(API);
    await dev.getByTestId('api-url').getByText(`/open/api/${API}`).waitFor();
    await dev.getByRole('textbox', { name: '中文名称' }).fill('商品查询');
    await dev.getByRole('textbox', { name: '描述' }).fill('按最低价或名称查商品');
    const req = dev.locator('.ant-form-item', { hasText: '请求参数' }).first();
    await req.getByText('添加参数').click();
    await req.getByLabel('参数名1').fill('minPrice');
    await req.getByLabel('参数类型1').first().click();
    await dev.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'number' }).click();
    await req.getByLabel('参数值1').fill('5');
    await req.getByText('添加参数').click();
    // a repeated name is flagged while typing, on both rows, before any save
    await req.getByLabel('参数名2').fill('minPrice');
    await expect.poll(() => req.getByRole('alert').allTextContents()).toEqual(['参数名【minPrice】重复', '参数名【minPrice】重复']);
    await req.getByLabel('参数名2').fill('name');
    await expect.poll(() => req.getByRole('alert').count()).toBe(0);
    await req.getByLabel('参数值2').fill('apple');
    await dev.getByRole('button', { name: /保\s?存/ }).click();
    await toast(dev, '保存成功');
    await dev.waitForURL(/\/apimgr\/design\/edit\?id=\d+/);
    apiId = Number(new URL(dev.url()).searchParams.get('id'));
    await shot(dev, 'apimgr-design-edit');

    await dev.goto(`${base}/apimgr/design/config?id=${apiId}`);
    await dev.getByRole('combobox', { name: '数据源' }).click();
    await dev.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: DS }).click();
    // the cache duration is enabled only with caching on, and takes digits only
    await expect.poll(() => dev.getByLabel('缓存时长').isDisabled()).toBe(true);
    await dev.getByRole('switch', { name: '缓存' }).click();
    await dev.getByLabel('缓存时长').fill('6o00');
    expect(await dev.getByLabel('缓存时长').inputValue()).toBe('600');
    await dev.getByLabel('缓存时长').fill('60');
    const editor = dev.getByTestId('script-editor').locator('.monaco-editor');
    await editor.waitFor({ timeout: 30_000 });
    await editor.click();
    await dev.keyboard.type('select id, name, price from goods where price >= :minPrice or name = :name order by id');
    // an injection string as a parameter value is only ever a bound value
    await dev.getByTestId('req-params').getByLabel('参数值2').fill("x' or '1'='1");
    await dev.getByRole('button', { name: /测\s?试/ }).click();
    await toast(dev, '测试完成');
    const panes = dev.locator('.ant-tabs-tabpane-active');
    await expect.poll(() => monacoText(dev, panes), { timeout: 15_000 }).toContain('pear');
    const answer = await monacoText(dev, panes);
    expect(answer).toContain('plum');
    expect(answer).not.toContain('apple');
    await dev.getByRole('tab', { name: '执行SQL' }).click();
    await expect.poll(() => monacoText(dev, dev.locator('.ant-tabs-tabpane-active')), { timeout: 15_000 }).toContain('绑定参数');
    const executed = await monacoText(dev, dev.locator('.ant-tabs-tabpane-active'));
    expect(executed).toContain('price >= ?');
    expect(executed).toContain("x'' or ''1''=''1");
    // the JSON view of the request parameters follows the table
    await dev.getByTestId('req-params').getByText('JSON', { exact: true }).click();
    await expect.poll(() => monacoText(dev, dev.getByTestId('req-params'))).toContain('"minPrice": 5');
    await dev.getByTestId('req-params').getByText('表格', { exact: true }).click();
    await shot(dev, 'apimgr-config-tested');
    await dev.getByRole('button', { name: /保\s?存/ }).click();
    await toast(dev, '保存成功');

    // unsaved changes ask before leaving
    await dev.getByLabel('缓存时长').fill('61');
    await dev.getByRole('button', { name: /返\s?回/ }).click();
    await confirmBox(dev, '数据有变化，确定要放弃保存吗？', /取\s?消/);

    await dev.goto(`${base}/apimgr/design/edit?id=${apiId}`);
    await dev.getByRole('textbox', { name: 'API名称' }).waitFor();
    await expect.poll(() => dev.getByRole('textbox', { name: 'API名称' }).inputValue()).toBe(API);
    await dev.getByRole('button', { name: /提\s?交/ }).click();
    await confirmBox(dev, '确定要提交吗？');
    await toast(dev, '提交成功');
    await dev.waitForURL(/\/apimgr\/design$/);
    // the list shows it waiting, with its version still 未定版
    const row = dev.locator('.ant-table-row:visible', { hasText: API });
    await row.getByText('待审批').waitFor();
    await row.getByText('未定版').waitFor();
    await shot(dev, 'apimgr-design-list');
  });

  it('a developer cannot approve; the approver sees the diff and passes it online', async () => {
    expect((await call('/api/gemini/api/approve/resolveAndOnline', { id: apiId }, devToken)).status).not.toBe(0);
    // and an approver cannot change what they approve
    expect((await call('/api/gemini/api/config/save', { apiId, dsName: DS, script: 'select 1' }, approverToken)).http).toBe(403);
    approver = await newPage(browser);
    await login(approver, inject('baseURL'), 'devapprover', inject('demoPassword'));
    await approver.goto(`${inject('baseURL')}/apimgr/approve`);
    const row = approver.locator('.ant-table-row:visible', { hasText: API });
    await row.getByRole('button', { name: '审批' }).click();
    await approver.waitForURL(/\/apimgr\/approve\/edit\?id=\d+/);
    await approver.getByTestId('config-diff').waitFor();
    await approver.getByTestId('config-diff').getByText(DS).waitFor();
    await approver.getByTestId('monaco-diff').waitFor({ timeout: 30_000 });
    await approver.getByLabel('审批意见').fill('可以上线');
    await approver.getByText('4 / 255').waitFor();
    await shot(approver, 'apimgr-approve');
    await approver.getByRole('button', { name: '通过并上线' }).click();
    await confirmBox(approver, '确定要审批通过并上线吗？');
    await toast(approver, '审批并上线成功');
    await approver.waitForURL(/\/apimgr\/approve$/);
    await approver.locator('.ant-table-row:visible', { hasText: API }).getByRole('cell', { name: 'V1', exact: true }).waitFor();
  });

  it('the published API answers with a key from the API Key screen and refuses without one', async () => {
    const open = (body: unknown, headers: Record<string, string> = {}) => call(`/open/api/${API}`, body, undefined, headers);
    const none = await open({ minPrice: 5, name: 'x' });
    expect(none.status).not.toBe(0);
    expect(none.msg).toMatch(/API Key/);

    await dev.goto(`${inject('baseURL')}/apimgr/key`);
    await dev.getByRole('button', { name: '新建API Key' }).click();
    const modal = dev.locator('.ant-modal:visible');
    await modal.getByPlaceholder(/用途/).fill(`e2e ${run}`);
    await modal.getByRole('button', { name: /确\s?定/ }).click();
    await dev.getByTestId('revealed-value').waitFor();
    apiKey = ((await dev.getByTestId('revealed-value').textContent()) ?? '').trim();
    expect(apiKey).toMatch(/^dsk_/);
    await shot(dev, 'apimgr-key-revealed');
    await dev.getByTestId('reveal-ok').click();
    await dev.locator('.ant-table-row:visible', { hasText: `e2e ${run}` }).waitFor();
    // shown once: the list holds only the prefix
    expect(await dev.locator('.ant-table').textContent()).not.toContain(apiKey);

    const rows = await open({ minPrice: 5, name: 'x' }, { 'x-api-key': apiKey });
    expect(rows.status).toBe(0);
    expect(rows.data.map((r: any) => r.name)).toEqual(['pear', 'plum']);
    const injected = await open({ minPrice: 100, name: "x' or '1'='1" }, { 'x-api-key': apiKey });
    expect(injected.data).toEqual([]);
    const wrongType = await open({ minPrice: 'cheap', name: 'x' }, { 'x-api-key': apiKey });
    expect(wrongType.status).not.toBe(0);
    expect(wrongType.msg).toContain('minPrice');
  });

  it('V2 is drafted and approved while V1 keeps serving, until V2 goes online; the detail shows the trail', async () => {
    const key = { 'x-api-key': apiKey };
    const cfg = (await call(`/api/gemini/api/config/get?apiId=${apiId}`, undefined, devToken)).data;
    const saved = await call('/api/gemini/api/config/save', { ...cfg, apiId, script: 'select id, name from goods where price >= :minPrice and name <> :name order by id desc' }, devToken);
    expect(saved.status).toBe(0);
    expect((await call('/api/gemini/api/design/info/submit', { id: apiId }, devToken)).status).toBe(0);
    const v1 = await call(`/open/api/${API}`, { minPrice: 5, name: 'x' }, undefined, key);
    expect(v1.data[0]).toHaveProperty('price');

    // the list says both: V1 serves while V2 waits
    await approver.goto(`${inject('baseURL')}/apimgr/approve`);
    const waiting = approver.locator('.ant-table-row:visible', { hasText: API });
    await waiting.getByText('已上线 V1', { exact: true }).waitFor({ timeout: 30_000 });
    await waiting.getByText('V2 待审批', { exact: true }).waitFor();

    // plain pass: V2 exists, V1 still online
    await approver.goto(`${inject('baseURL')}/apimgr/approve/edit?id=${apiId}`);
    await approver.getByTestId('config-diff').getByText('线上版本 V1').first().waitFor();
    await approver.locator('.ant-tag', { hasText: /^V2 待审批$/ }).first().waitFor();
    // the SQL diff line by line, side by side — also in a window where the diff is narrower than 900 px
    for (const width of [1600, 1024]) {
      await approver.setViewportSize({ width, height: 900 });
      const diff = approver.getByTestId('monaco-diff');
      await diff.locator('.monaco-diff-editor.side-by-side').waitFor({ timeout: 30_000 });
      const [left, right] = await Promise.all([diff.locator('.editor.original').boundingBox(), diff.locator('.editor.modified').boundingBox()]);
      expect(left && right && left.x + left.width <= right.x + 1 && left.width > 150).toBe(true);
    }
    await shot(approver, 'apimgr-approve-diff-1024');
    await approver.setViewportSize({ width: 1440, height: 900 });
    await approver.getByRole('button', { name: /^通\s?过$/ }).click();
    await confirmBox(approver, '确定要审批通过吗？');
    await toast(approver, '审批通过成功');
    const stillV1 = await call(`/open/api/${API}`, { minPrice: 5, name: 'x' }, undefined, key);
    expect(stillV1.data.map((r: any) => r.name)).toEqual(['pear', 'plum']);

    // 上线 from the approval list puts V2 online
    const row = approver.locator('.ant-table-row:visible', { hasText: API });
    await row.getByRole('cell', { name: 'V2', exact: true }).waitFor();
    await row.getByRole('button', { name: '上线' }).click();
    await confirmBox(approver, `确定要将【${API}】的最新版本上线吗？`);
    await toast(approver, '上线成功');
    const v2 = await call(`/open/api/${API}`, { minPrice: 5, name: 'x' }, undefined, key);
    expect(v2.data).toEqual([{ id: 3, name: 'plum' }, { id: 2, name: 'pear' }]);

    // the detail (a new tab from the list) shows the status, version, statistics and trail
    const [tab] = await Promise.all([dev.context().waitForEvent('page'), (async () => {
      await dev.goto(`${inject('baseURL')}/apimgr/design`);
      await dev.locator('.ant-table-row:visible', { hasText: API }).getByRole('link', { name: API }).click();
    })()]);
    await tab.getByTestId('api-facts').waitFor({ timeout: 30_000 });
    await tab.getByText('已上线').first().waitFor();
    expect(await tab.getByTestId('api-version').textContent()).toBe('V2');
    await tab.getByRole('tab', { name: '审批记录' }).click();
    for (const action of ['提交审批', '审批通过', '上线']) await tab.getByTestId('audit-trail').getByText(action, { exact: true }).first().waitFor();
    await expect.poll(async () => Number((await tab.getByTestId('call-stats').locator('.ant-statistic-content-value').first().textContent()) ?? 0)).toBeGreaterThan(0);
    await shot(tab, 'apimgr-detail');
  });

  it('API 文档: the online API with its parameters, and 试一试 with the key from the API Key screen (issue 25 §7)', async () => {
    const base = inject('baseURL');
    await dev.goto(`${base}/apimgr/docs`);
    await dev.getByTestId('api-docs').waitFor({ timeout: 30_000 });
    await dev.getByPlaceholder('按接口名或说明搜索').fill(API);
    await dev.getByTestId(`api-doc-${API}`).click();
    await dev.getByText(`POST /open/api/${API}`).waitFor();
    const tryIt = dev.getByTestId('try-it');
    // without a key: told what to do, nothing sent
    await tryIt.getByRole('button', { name: '发送请求' }).click();
    await tryIt.getByText('请填写您的 API Key').waitFor();
    await tryIt.getByLabel('API Key').fill(apiKey);
    await tryIt.getByRole('button', { name: '发送请求' }).click();
    const result = tryIt.getByTestId('try-result');
    await result.getByText('HTTP 200').waitFor({ timeout: 30_000 });
    expect(await result.locator('pre').textContent()).toContain('"status": 0');
    // a wrong key: the real answer, 401
    await tryIt.getByLabel('API Key').fill('not-a-key');
    await tryIt.getByRole('button', { name: '发送请求' }).click();
    await result.getByText('HTTP 401').waitFor({ timeout: 30_000 });
    expect(await result.locator('pre').textContent()).toContain('API Key 无效或已吊销');
    await shot(dev, 'apimgr-docs-try-it');
  });

  it('API 监控: the calls just made in charts and per API and key; an alert rule set in the dialog turns the API red here and on the list (issue 25 §5)', async () => {
    const base = inject('baseURL');
    // a developer has no monitor: the menu leaves it out and the server refuses it
    expect((await call('/api/gemini/api/monitor/overview', { range: 'hour' }, devToken)).http).toBe(403);
    await approver.goto(`${base}/apimgr/monitor`);
    const monitor = approver.getByTestId('api-monitor');
    await monitor.waitFor({ timeout: 30_000 });
    const apiRow = monitor.getByTestId('monitor-apis').locator('.ant-table-row', { hasText: API });
    await apiRow.waitFor({ timeout: 30_000 });
    // the three charts are drawn (ECharts canvases), the key that called is listed
    await expect.poll(() => monitor.locator('canvas').count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    await monitor.getByTestId('monitor-keys').getByText(new RegExp(`^e2e ${run}（`)).waitFor();
    await monitor.getByTestId('monitor-slow').locator('.ant-table-row', { hasText: API }).first().waitFor();
    expect(Number(await apiRow.locator('td').nth(1).textContent())).toBeGreaterThan(0);
    // an alert rule: P95 above 1 ms over the last hour, which any real call exceeds
    await apiRow.getByRole('button', { name: '告警规则' }).click();
    const modal = approver.locator('.ant-modal:visible');
    await modal.locator('.ant-select-selector').first().click();
    await approver.locator('.ant-select-item-option', { hasText: 'P95 耗时' }).click();
    await modal.getByLabel('阈值（毫秒）').fill('0');
    await modal.getByTestId('alert-save').click();
    await modal.getByText('阈值应为 1～600000 的整数（毫秒）').waitFor();
    await modal.getByLabel('阈值（毫秒）').fill('1');
    await modal.getByLabel('持续时间（分钟）').fill('60');
    await modal.getByTestId('alert-save').click();
    await toast(approver, '告警规则已保存');
    await monitor.getByTestId(`alert-${API}`).getByText('告警').waitFor({ timeout: 15_000 });
    await monitor.getByTestId('monitor-firing').getByText(API).waitFor();
    await shot(approver, 'apimgr-monitor');
    // and on the API list: the row's 上线状态 carries the red 告警 tag
    await dev.goto(`${base}/apimgr/design`);
    await dev.locator('.ant-table-row:visible', { hasText: API }).locator('.ant-tag', { hasText: '告警' }).waitFor({ timeout: 30_000 });
    // removed: quiet again
    expect((await call(`/api/gemini/api/alert/delete?apiId=${apiId}`, undefined, approverToken)).status).toBe(0);
  });

  it('导出 and 导入 on the design list: a preview per API, a conflict settled, the new API a draft (issue 25 §6)', async () => {
    const base = inject('baseURL');
    // the export as the 导出 button downloads it
    await dev.goto(`${base}/apimgr/design`);
    const [download] = await Promise.all([dev.waitForEvent('download'), dev.getByRole('button', { name: /^导\s?出$/ }).click()]);
    const file = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    const mine = file.apis.find((x: { apiName: string }) => x.apiName === API);
    expect(mine).toMatchObject({ version: 2, dsName: DS });
    // the same API under a new name beside the original: one new, one conflict
    const path = join(inject('dataDir'), `import-${run}.json`);
    writeFileSync(path, JSON.stringify({ ...file, apis: [mine, { ...mine, apiName: `${API}_copy` }] }));
    await dev.getByRole('button', { name: /^导\s?入$/ }).click();
    const modal = dev.locator('.ant-modal:visible');
    await modal.locator('input[type=file]').setInputFiles(path);
    const preview = modal.getByTestId('import-preview');
    await preview.getByText(`${API}_copy`).waitFor({ timeout: 30_000 });
    await preview.locator('.ant-table-row', { hasText: `${API}_copy` }).getByText('新建', { exact: true }).waitFor();
    const conflict = preview.locator('.ant-table-row', { hasText: GROUP }).filter({ hasText: '已存在' });
    await conflict.waitFor();
    // not settled: told so, nothing written
    await modal.getByRole('button', { name: /^导\s?入$/ }).click();
    await modal.getByText('请为 1 项选择处理方式').waitFor();
    await conflict.locator('.ant-select').click();
    await dev.locator('.ant-select-dropdown:visible').getByText('跳过', { exact: true }).click();
    await modal.getByRole('button', { name: /^导\s?入$/ }).click();
    await dev.getByText('导入完成：新建 1 个，新版本 0 个，跳过 1 个').waitFor({ timeout: 30_000 });
    await modal.waitFor({ state: 'hidden' });
    const row = dev.locator('.ant-table-row', { hasText: `${API}_copy` });
    await row.waitFor({ timeout: 30_000 });
    await row.getByText('草稿').first().waitFor();
    await shot(dev, 'apimgr-imported');
  });

  it('the group tree counts each API once, and opens the groups that were open before a reload', async () => {
    const base = inject('baseURL');
    const parent = (await call('/api/gemini/api/group/save', { parentId: 0, name: `父组${run}` }, devToken)).data;
    const child = (await call('/api/gemini/api/group/save', { parentId: parent, name: `子组${run}` }, devToken)).data;
    expect((await call('/api/gemini/api/design/info/save', { groupId: child, apiName: `nested_${run}`, apiComment: '子组里的接口' }, devToken)).status).toBe(0);
    await dev.goto(`${base}/apimgr/design`);
    const tree = dev.locator('.side-tree .ant-tree');
    const node = (label: string) => tree.locator('.ant-tree-treenode', { hasText: label });
    await node(`父组${run}`).waitFor({ timeout: 30_000 });
    // the parent counts its subgroup's API once; the root shows what the unfiltered list holds
    expect(await node(`父组${run}`).locator('.ant-typography').last().textContent()).toBe('(1)');
    const listTotal = Number(/共\s*(\d+)\s*条/.exec((await dev.locator('.ant-pagination-total-text').first().textContent()) ?? '')?.[1]);
    expect(await node('全部分组').first().textContent()).toBe(`全部分组 (${listTotal})`);
    await node(`父组${run}`).locator('.ant-tree-switcher').click();
    await node(`子组${run}`).waitFor();
    await dev.reload();
    await node(`子组${run}`).waitFor({ timeout: 30_000 });
    await shot(dev, 'apimgr-tree-after-reload');
  });
});
