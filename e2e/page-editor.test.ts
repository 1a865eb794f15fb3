// Issue 24 item 2: a page edited in forms, not JSON. As the admin, in 页面管理: a new page, two column labels and
// one rule changed in the 可视化 editor, the JSON tab shows them, save, publish, the page opens from the menu with
// the new labels. Screens at 1600 and at 390 px (editor-*.png).
import { inject } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { toast as waitToast } from './lib/calls';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';

const toast = (page: Page, text: string) => waitToast(page, text, { exact: true, prefix: 'page-editor' });
const btn = (scope: Page | Locator, label: string) =>
  scope.getByRole('button', { name: new RegExp(`(^|\\s)${label.split('').join('\\s?')}$`) });
const dialog = (page: Page) => page.locator('.ant-modal:visible').last();
/** An input of a generated panel, by its label. */
const input = (form: Locator, label: string) => form.getByLabel(label, { exact: true });

describeBrowser('可视化页面编辑', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    page = await newPage(browser, { permissions: ['clipboard-read', 'clipboard-write'], viewport: { width: 1600, height: 1000 } });
    await login(page, inject('baseURL'), 'admin', inject('adminPassword'));
  });
  afterAll(() => browser?.close());

  it('新建页面：在可视化编辑器中改两个列标题和一条校验规则，JSON 中可见，保存、发布后从菜单打开', async () => {
    await page.goto(`${inject('baseURL')}/system/pages`);
    await btn(page, '新建页面').click();
    const ve = page.getByTestId('visual-editor');
    await ve.waitFor({ timeout: 30_000 });
    await input(ve, '页面标识').fill('vendor');
    await input(ve, '页面标题').fill('供货商');

    // 列: the 名称 column and the index column get new titles
    await page.getByTestId('ve-col-f:name').click();
    const colForm = page.getByTestId('ve-column-form');
    await input(colForm, '标题').fill('供货商名称');
    // a bad width is named in Chinese, in the faults and on the column's row
    await input(colForm, '宽度').fill('-5');
    await page.getByTestId('pm-faults').getByText('列「供货商名称」的宽度应为正整数').waitFor({ timeout: 10_000 });
    await page.getByTestId('ve-col-f:name').getByTestId('ve-fault').waitFor();
    await shot(page, 'editor-columns-1600');
    await input(colForm, '宽度').fill('220');
    await page.getByTestId('pm-faults').waitFor({ state: 'detached', timeout: 10_000 });
    await page.getByTestId('ve-col-c:index:0').click();
    await input(colForm, '标题').fill('行号');

    // 表单字段: the 名称 field's length rule with its own message
    await ve.getByRole('tab', { name: '表单字段' }).click();
    await page.getByTestId('ve-field-name').click();
    const fieldForm = page.getByTestId('ve-field-form');
    await input(fieldForm, '最大长度').fill('30');
    await input(fieldForm, '超长提示').fill('名称不能超过30个字');
    await shot(page, 'editor-visual-1600');

    // the preview follows, and the JSON tab shows the same declaration
    const preview = page.getByTestId('pm-preview');
    await preview.locator('.crud-page[data-page="vendor"] thead th', { hasText: '供货商名称' }).first().waitFor({ timeout: 10_000 });
    await page.getByRole('tab', { name: 'JSON' }).click();
    const editor = page.locator('.monaco-editor').first();
    await editor.waitFor({ timeout: 30_000 });
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+C');
    const json = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
    expect(json.id).toBe('vendor');
    expect(json.columns.map((c: { title: string }) => c.title)).toEqual(['行号', '供货商名称', '操作']);
    expect(json.columns[1].width).toBe(220);
    expect(json.dialog.schema.properties.name.maxLength).toBe(30);
    expect(json.dialog.schema.properties.name['x-validator']).toEqual([{ required: true, message: '请输入名称' }, { maxLength: 30, message: '名称不能超过30个字' }]);
    await shot(page, 'editor-json-1600');

    // an edit in the JSON shows in the forms: nothing is lost switching back
    await page.getByRole('tab', { name: '可视化' }).click();
    await ve.getByRole('tab', { name: '列' }).click();
    await page.getByTestId('ve-col-f:name').getByText('供货商名称').waitFor();
    // reorder by drag: the actions column dropped on the first row goes first; undo puts it back
    const order = () => page.getByTestId('ve-columns').locator('[data-key]').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));
    await page.getByTestId('ve-col-c:actions:2').dragTo(page.getByTestId('ve-col-c:index:0'));
    await expect.poll(order).toEqual(['c:actions:0', 'c:index:1', 'f:name']);
    await page.getByTestId('ve-undo').click();
    await expect.poll(order).toEqual(['c:index:0', 'f:name', 'c:actions:2']);

    await page.getByTestId('pm-save').click();
    await toast(page, '保存成功');
    await page.getByTestId('page-item-custom-vendor').waitFor();
    await page.getByTestId('pm-publish').click();
    await dialog(page).getByText('发布页面').waitFor();
    await btn(dialog(page), '确定').click();
    await toast(page, '发布成功，菜单中已可见');

    // from the menu: the page with the new labels, and the rule in its dialog
    await page.getByText('自定义页面', { exact: true }).first().click();
    await page.getByRole('menuitem', { name: /供货商/ }).first().click({ timeout: 10_000 });
    await page.waitForURL(/\/custom\/vendor/);
    const crud = page.locator('.crud-page[data-page="vendor"]:visible');
    await crud.waitFor({ timeout: 30_000 });
    await crud.locator('thead th', { hasText: '供货商名称' }).first().waitFor();
    await crud.locator('thead th', { hasText: '行号' }).first().waitFor();
    await btn(page, '新增').click();
    await dialog(page).getByPlaceholder('请输入名称').fill('很'.repeat(30));
    await expect.poll(() => dialog(page).getByPlaceholder('请输入名称').inputValue()).toHaveLength(30);
    await shot(page, 'editor-published-1600');
    await btn(dialog(page), '取消').click();
  });

  it('手机宽度（390 px）下可视化编辑器可用', async () => {
    const phone = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      await login(phone, inject('baseURL'), 'admin', inject('adminPassword'));
      await phone.goto(`${inject('baseURL')}/system/pages`);
      // on a phone the page list waits in a drawer
      await phone.getByTestId('split-pane-open').first().tap();
      await phone.locator('.split-pane-drawer').getByRole('button', { name: /新建页面/ }).tap();
      const ve = phone.getByTestId('visual-editor');
      await ve.waitFor({ timeout: 30_000 });
      await ve.getByRole('tab', { name: '表单字段' }).click();
      await phone.getByTestId('ve-field-name').click();
      await input(phone.getByTestId('ve-field-form'), '标签').fill('名字');
      await phone.getByTestId('ve-field-name').getByText('名字').waitFor();
      // nothing passes the right edge
      const wide = await phone.evaluate(() => document.documentElement.scrollWidth);
      expect(wide).toBeLessThanOrEqual(390);
      await shot(phone, 'editor-visual-390');
    } finally {
      await phone.close();
    }
  });
});
