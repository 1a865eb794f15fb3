// Forms that collect data, clicked through (issue 11 "How it will be checked"): a form with every field kind,
// rules set in the generated panel, previewed, filled in without signing in (a wrong mobile number shows the
// field's message; a good entry is thanked), the entry in the entries list and in the CSV; the same body
// posted over HTTP with a broken field is refused by the server and stores nothing.
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';
import { call, must, signIn, toast as waitToast } from './lib/calls';

// a fresh name per attempt, so a retried test does not meet the first attempt's form
const formName = () => `报名表${Date.now().toString(36).slice(-5)}`;
let FORM = formName();
const toast = (page: Page, text: string | RegExp) => waitToast(page, text, { prefix: 'forms' });

/** Every field kind but the single-line text (dragged in through the designer) and the submit button. */
const KINDS: Array<[string, Record<string, unknown>]> = [
  ['formTextarea', { label: '自我介绍', field: 'intro' }],
  ['formNumber', { label: '年龄', field: 'age', minimum: 1, maximum: 120 }],
  ['formSelect', { label: '环境', field: 'env', dict: 'ENV_TYPE' }],
  ['formRadio', { label: '是否参加', field: 'join', dict: 'YES_OR_NO' }],
  ['formCheckbox', { label: '兴趣', field: 'tags' }],
  ['formSwitch', { label: '订阅通知', field: 'notify' }],
  ['formDate', { label: '出生日期', field: 'birthday' }],
  ['formDateRange', { label: '参会日期', field: 'days' }],
  ['formImage', { label: '照片', field: 'photo' }],
  ['formSubmit', {}],
];

describeBrowser('表单收集', () => {
  let browser: Browser;
  let page: Page;
  let token: string;
  let formId: number;
  beforeAll(async () => {
    token = await signIn('developer', inject('demoPassword'));
    browser = await launchBrowser();
    page = await newPage(browser, { acceptDownloads: true });
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
  });
  afterAll(() => browser?.close());

  it('designs a form with every field kind and sets a rule in the panel', async () => {
    // the list's new-form dialog asks the name only (spec); who may fill it in is set under 设置
    FORM = formName();
    await page.goto(`${inject('baseURL')}/datav/form`);
    await page.getByRole('button', { name: '新建表单' }).click();
    const modal = page.locator('.ant-modal:visible');
    await modal.getByPlaceholder('请输入表单名称').fill(FORM);
    expect(await modal.getByText('任何持有链接的人').count()).toBe(0);
    await modal.getByRole('button', { name: /确\s?定/ }).click();
    await toast(page, '保存成功');
    const row = page.locator('.ant-table-row:visible', { hasText: FORM });
    await row.waitFor();
    await row.getByRole('button', { name: /设\s?置/ }).click();
    const settings = page.locator('.ant-modal:visible');
    await settings.getByText('任何持有链接的人').click();
    await settings.getByRole('button', { name: /确\s?定/ }).click();
    await toast(page, '保存成功');
    await row.getByText('任何持有链接的人').waitFor();
    formId = (await must('/api/jimu/form/search', { pageNum: 1, pageSize: 10, search: FORM }, token)).records[0].id;

    // the other kinds through the same call the designer's drop makes, placed in a column
    let top = 200;
    let left = 100;
    for (const [kind, props] of KINDS) {
      if (top > 860) [top, left] = [60, 600]; // a second column keeps every field on the 1920×1080 canvas
      const w = await must('/api/jimu/form/widget/add', { pageId: formId, widgetName: kind, top, left }, token);
      if (Object.keys(props).length) {
        const list = await must(`/api/jimu/form/widget/select?pageId=${formId}`, undefined, token);
        const mine = list.find((x: { id: unknown }) => x.id === w.id);
        mine.widgetProps.viewProps = { ...mine.widgetProps.viewProps, ...props };
        await must('/api/jimu/form/widget/update', { pageId: formId, widgets: list }, token);
      }
      top += kind === 'formImage' ? 170 : kind === 'formTextarea' ? 140 : 90;
    }

    await row.getByRole('button', { name: /设\s?计/ }).click();
    await page.getByTestId('designer').waitFor();
    // the form controls folder is offered in the form designer
    await page.getByTestId('template-formInput').waitFor();
    await page.getByTestId('template-formInput').dragTo(page.getByTestId('canvas-stage'), { targetPosition: { x: 60, y: 40 } });
    const stage = page.getByTestId('canvas-stage');
    const input = stage.locator('[data-widget="formInput"]');
    await input.waitFor();
    // on the canvas the field looks as it will, disabled
    expect(await input.locator('input').isDisabled()).toBe(true);

    // rules in the generated panel: label, required, the mobile preset with its own message
    const panel = page.getByTestId('designer-right');
    await panel.getByLabel('标签', { exact: true }).fill('手机号码');
    await panel.getByLabel('必填', { exact: true }).check();
    await panel.locator('.ant-form-item', { has: page.getByText('格式校验', { exact: true }) }).locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible').getByText('手机号码', { exact: true }).click();
    await panel.getByLabel('格式提示').fill('请输入正确的手机号码');
    await expect.poll(() => input.textContent()).toContain('手机号码');
    await shot(page, 'forms-designer');
    await page.getByRole('button', { name: /保\s?存/ }).click();
    await toast(page, '保存成功');
    const widgets = await must(`/api/jimu/form/widget/select?pageId=${formId}`, undefined, token);
    const saved = widgets.find((w: { widgetName: string }) => w.widgetName === 'formInput').widgetProps.viewProps;
    expect(saved).toMatchObject({ label: '手机号码', required: true, patternMessage: '请输入正确的手机号码' });
    expect(saved.patternPreset).toBe('^1[3-9]\\d{9}$');
    expect(saved.field).toMatch(/^input_\d+$/);
  });

  it('previews the form as one Formily form: the required field stops the submit', async () => {
    const preview = await newPage(browser);
    await login(preview, inject('baseURL'), 'developer', inject('demoPassword'));
    await preview.goto(`${inject('baseURL')}/datav/form/preview?pageId=${formId}`);
    await preview.getByText('手机号码').first().waitFor();
    for (const [, p] of KINDS) if (p.label) await preview.getByText(String(p.label)).first().waitFor();
    await preview.getByRole('button', { name: /提\s?交/ }).click();
    await preview.getByText('请输入手机号码').waitFor();
    await shot(preview, 'forms-preview');
    await preview.context().close();
  });

  it('is filled in without signing in: the wrong mobile number shows its message, a good entry is thanked', async () => {
    const anon = await newPage(browser);
    await anon.goto(`${inject('baseURL')}/form/fill?pageId=${formId}`);
    await anon.getByTestId('form-fill').waitFor();
    const mobile = anon.getByPlaceholder('请输入单行文本');
    await mobile.fill('12345');
    await anon.getByRole('button', { name: /提\s?交/ }).click();
    await anon.getByText('请输入正确的手机号码').waitFor();
    await shot(anon, 'forms-fill-fault');
    await mobile.fill('13800000000');
    await anon.getByPlaceholder('请输入数字').fill('30');
    await anon.getByText('开发环境').count(); // options load from the built-in dictionary
    await anon.locator('[data-widget="formRadio"]').getByText('是', { exact: true }).click();
    await anon.locator('[data-widget="formCheckbox"]').getByText('选项一').click();
    await anon.getByRole('button', { name: /提\s?交/ }).click();
    await anon.getByText('提交成功，感谢您的填写！').waitFor({ timeout: 30_000 });
    await shot(anon, 'forms-fill-thanks');
    await anon.context().close();
  });

  it('lists the entry with columns from the fields, and exports it as CSV', async () => {
    await page.goto(`${inject('baseURL')}/datav/form`);
    const row = page.locator('.ant-table-row:visible', { hasText: FORM });
    await row.getByRole('button', { name: /数\s?据/ }).click();
    await page.waitForURL(/\/datav\/form\/entries\?formId=/);
    await page.getByText('13800000000').waitFor();
    await expect.poll(() => page.getByTestId('page-heading').textContent()).toBe(`表单【${FORM}】的填写记录`);
    const headers = await page.locator('.ant-table-thead th').allTextContents();
    expect(headers).toEqual(expect.arrayContaining(['手机号码', '自我介绍', '年龄', '兴趣', '是否参加', '提交时间']));
    await shot(page, 'forms-entries');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '导出CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\n')[0]).toContain('手机号码');
    expect(csv).toContain('13800000000');
  });

  it('refuses over HTTP what the browser would refuse, and stores nothing', async () => {
    const before = (await must('/api/jimu/form/entry/search', { formId, pageNum: 1, pageSize: 10 }, token)).total;
    const submit = (values: unknown) => call(`/api/jimu/form/fill/submit?id=${formId}`, { values });
    expect(await submit({ [await mobileField()]: '12345' })).toMatchObject({ status: 1, msg: '请输入正确的手机号码' });
    expect(await submit({})).toMatchObject({ status: 1, msg: '请输入手机号码' });
    expect((await submit({ [await mobileField()]: '13800000000', age: 'x' })).status).toBe(1);
    expect((await submit({ [await mobileField()]: '13800000000', age: 500 })).msg).toBe('年龄须在1到120之间');
    expect((await submit({ [await mobileField()]: '13800000000', nope: 1 })).msg).toContain('未知字段');
    expect((await must('/api/jimu/form/entry/search', { formId, pageNum: 1, pageSize: 10 }, token)).total).toBe(before);
  });

  async function mobileField(): Promise<string> {
    const widgets = await must(`/api/jimu/form/widget/select?pageId=${formId}`, undefined, token);
    return widgets.find((w: { widgetName: string }) => w.widgetName === 'formInput').widgetProps.viewProps.field;
  }
});
