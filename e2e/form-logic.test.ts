// Form field logic and the sub-table, clicked through (issue 23 "How it will be checked", the form half): a
// form where a choice shows and requires another field — the rules set in the designer's generated panel —,
// a cascading select and a sub-table; filled in without signing in with two rows, seen in the entries list
// and the CSV; the same entry posted by hand over HTTP without the shown required field is refused.
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';
import { call, must, signIn, toast as waitToast } from './lib/calls';

const toast = (page: Page, text: string | RegExp) => waitToast(page, text, { prefix: 'form-logic' });
const FORM = `用车登记${Date.now().toString(36).slice(-5)}`;

/** The form's widgets, top to bottom, added by the designer's own call; the plate's rules come from the panel. */
const WIDGETS: Array<[string, Record<string, unknown>, number]> = [
  ['formRadio', { field: 'hasCar', label: '是否有车', options: [{ label: '有', value: 'yes' }, { label: '无', value: 'no' }] }, 90],
  ['formInput', { field: 'plate', label: '车牌号', placeholder: '请输入车牌号' }, 90],
  ['formSelect', { field: 'province', label: '省份', placeholder: '请选择省份', options: [{ label: '浙江', value: 'zj' }, { label: '江苏', value: 'js' }] }, 90],
  [
    'formSelect',
    {
      field: 'city',
      label: '城市',
      placeholder: '请选择城市',
      cascadeFrom: 'province',
      options: [
        { label: '杭州', value: 'hz', parent: 'zj' },
        { label: '宁波', value: 'nb', parent: 'zj' },
        { label: '南京', value: 'nj', parent: 'js' },
      ],
    },
    90,
  ],
  ['formSubTable', { field: 'items', label: '采购明细', minRows: 1, maxRows: 5 }, 260],
  ['formSubmit', {}, 60],
];

describeBrowser('表单字段联动与子表', () => {
  let browser: Browser;
  let page: Page;
  let token: string;
  let formId: number;
  beforeAll(async () => {
    token = await signIn('developer', inject('demoPassword'));
    browser = await launchBrowser();
    page = await newPage(browser, { acceptDownloads: true });
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
    formId = (await must('/api/jimu/form/info/save', { pageName: FORM, fillAccess: 'public' }, token)).id;
    let top = 40;
    for (const [kind, props, height] of WIDGETS) {
      const w = await must('/api/jimu/form/widget/add', { pageId: formId, widgetName: kind, top, left: 80 }, token);
      const list = await must(`/api/jimu/form/widget/select?pageId=${formId}`, undefined, token);
      const mine = list.find((x: { id: unknown }) => x.id === w.id);
      mine.widgetProps.viewProps = { ...mine.widgetProps.viewProps, ...props, ...(kind === 'formSubTable' ? { height: 240 } : {}) };
      await must('/api/jimu/form/widget/update', { pageId: formId, widgets: list }, token);
      top += height;
    }
  });
  afterAll(() => browser?.close());

  it('sets the plate field to be shown and required by the choice, in the generated panel', async () => {
    await page.goto(`${inject('baseURL')}/datav/form/design?pageId=${formId}`);
    await page.getByTestId('designer').waitFor();
    const stage = page.getByTestId('canvas-stage');
    // on the label: the disabled control under the middle of the box takes no mouse events
    await stage.locator('[data-widget-id]', { has: page.locator('[data-widget="formInput"]') }).click({ position: { x: 4, y: 4 } });
    const panel = page.getByTestId('designer-right');
    await expect.poll(() => panel.getByLabel('标签', { exact: true }).inputValue()).toBe('车牌号');
    const choose = async (label: string, option: string) => {
      await panel.locator('.ant-select', { has: page.getByRole('combobox', { name: label, exact: true }) }).click();
      await page.locator('.ant-select-dropdown:visible').getByText(option, { exact: true }).click();
    };
    for (const [n, effect] of [
      [1, '显示本字段'],
      [2, '本字段必填'],
    ] as const) {
      await panel.getByRole('button', { name: /添加联动规则/ }).click();
      await choose(`规则 ${n} 的条件字段`, '是否有车（hasCar）');
      await choose(`规则 ${n} 的值`, '有（yes）');
      await choose(`规则 ${n} 的效果`, effect);
    }
    await shot(page, 'form-logic-designer');
    await page.getByRole('button', { name: /保\s?存/ }).click();
    await toast(page, '保存成功');
    const widgets = await must(`/api/jimu/form/widget/select?pageId=${formId}`, undefined, token);
    expect(widgets.find((w: { widgetName: string }) => w.widgetName === 'formInput').widgetProps.viewProps.logic).toEqual([
      { field: 'hasCar', op: 'eq', value: 'yes', effect: 'show' },
      { field: 'hasCar', op: 'eq', value: 'yes', effect: 'require' },
    ]);
  });

  it('is filled in without signing in: the choice shows and requires the plate, the city follows the province, two rows', async () => {
    const anon = await newPage(browser);
    await anon.goto(`${inject('baseURL')}/form/fill?pageId=${formId}`);
    await anon.getByTestId('form-fill').waitFor();
    const plate = anon.getByPlaceholder('请输入车牌号');
    await anon.getByText('采购明细').waitFor();
    expect(await plate.count()).toBe(0); // hidden until 有
    await anon.locator('[data-widget="formRadio"]').getByText('有', { exact: true }).click();
    await plate.waitFor();
    expect(await anon.locator('[data-widget="formInput"] .ant-formily-item-asterisk').count()).toBe(1);
    // the cascade: 浙江's cities only
    const selects = anon.locator('[data-widget="formSelect"] .ant-select');
    await selects.nth(0).click();
    await anon.locator('.ant-select-dropdown:visible').getByText('浙江', { exact: true }).click();
    await selects.nth(1).click();
    const cities = anon.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect.poll(() => cities.allTextContents()).toEqual(['杭州', '宁波']);
    await cities.getByText('杭州', { exact: true }).click();
    // the sub-table: two rows
    const table = anon.locator('[data-widget="formSubTable"]');
    await table.getByRole('button', { name: /添加一行/ }).click();
    await table.getByRole('button', { name: /添加一行/ }).click();
    await anon.getByLabel('第1行名称').fill('<b>打印纸</b>');
    await anon.getByLabel('第1行数量').fill('3');
    await anon.getByLabel('第2行名称').fill('墨盒');
    await anon.getByRole('button', { name: /提\s?交/ }).click();
    await anon.getByText('请输入车牌号').waitFor(); // shown and required
    await plate.fill('浙A12345');
    await anon.getByRole('button', { name: /提\s?交/ }).click();
    await anon.getByText('采购明细第2行：请输入数量').waitFor();
    await anon.getByLabel('第2行数量').fill('2');
    await shot(anon, 'form-logic-fill');
    await anon.getByRole('button', { name: /提\s?交/ }).click();
    await anon.getByText('提交成功，感谢您的填写！').waitFor({ timeout: 30_000 });
    await anon.context().close();
  });

  it('lists the entry with its two rows, and exports them readably in the CSV', async () => {
    await page.goto(`${inject('baseURL')}/datav/form/entries?formId=${formId}`);
    await page.getByText('浙A12345').waitFor();
    await page.getByRole('button', { name: '2 行' }).click();
    const pop = page.locator('.ant-popover:visible');
    await pop.getByText('<b>打印纸</b>', { exact: true }).waitFor(); // text, not markup
    await pop.getByText('墨盒', { exact: true }).waitFor();
    expect(await pop.locator('b').count()).toBe(0);
    await shot(page, 'form-logic-entries');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '导出CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toContain('"采购明细"');
    expect(csv).toContain('"[1] 名称：<b>打印纸</b>；数量：3\n[2] 名称：墨盒；数量：2"');
    expect(csv).toContain('"杭州"');
  });

  it('refuses the same entry posted by hand without the shown required field', async () => {
    const before = (await must('/api/jimu/form/entry/search', { formId, pageNum: 1, pageSize: 10 }, token)).total;
    const values = { hasCar: 'yes', province: 'zj', city: 'hz', items: [{ item: '<b>打印纸</b>', qty: 3 }, { item: '墨盒', qty: 2 }] };
    const submit = (v: unknown) => call(`/api/jimu/form/fill/submit?id=${formId}`, { values: v });
    expect(await submit(values)).toMatchObject({ status: 1, msg: '请输入车牌号' });
    expect(await submit({ ...values, city: 'nj' })).toMatchObject({ status: 1, msg: '请输入车牌号' });
    expect(await submit({ ...values, plate: '浙A1', city: 'nj' })).toMatchObject({ status: 1, msg: '城市的取值不在选项中' });
    expect((await must('/api/jimu/form/entry/search', { formId, pageNum: 1, pageSize: 10 }, token)).total).toBe(before);
    // with 无 the plate is hidden: not required
    expect((await submit({ ...values, hasCar: 'no' })).status).toBe(0);
  });
});
