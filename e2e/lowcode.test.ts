// A page without code: an admin pastes the supplier declaration into the page manager, sees the
// faults naming their fields in Chinese and the live preview, saves, publishes to roles, and then uses the
// new menu page (add → edit → copy → delete) backed by the lowcode record store.
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { confirmBox, must, signIn, toast as waitToast } from './lib/calls';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';

const ROLE_DEFAULT = '普通用户';
const supplier = readFileSync(new URL('../schemas/examples/supplier.page.json', import.meta.url), 'utf8');
const toast = (page: Page, text: string) => waitToast(page, text, { exact: true, prefix: 'lowcode' });
const btn = (scope: Page | Locator, label: string) =>
  scope.getByRole('button', { name: new RegExp(`(^|\\s)${label.split('').join('\\s?')}$`) });
const dialog = (page: Page) => page.locator('.ant-modal:visible').last();
const row = (page: Page, text: string) => page.locator('.crud-page:visible tbody tr', { hasText: text }).first();
const fieldError = (page: Page, text: string) => dialog(page).locator('.ant-formily-item-help').getByText(text, { exact: true }).first();
/** Replaces the whole editor text the way a person pastes: copy, focus, select all, Ctrl+V. */
async function paste(page: Page, text: string) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  // a custom page opens in the 可视化 forms: the JSON is one tab away
  await page.getByRole('tab', { name: 'JSON' }).click();
  const editor = page.locator('.monaco-editor').first();
  await editor.waitFor({ timeout: 30_000 });
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+V');
}

describeBrowser('低代码页面', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    page = await newPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
    await login(page, inject('baseURL'), 'admin', inject('adminPassword'));
  });
  afterAll(() => browser?.close());

  it('页面管理：内置页面只读预览', async () => {
    await page.goto(`${inject('baseURL')}/system/pages`);
    await page.getByTestId('page-item-builtin-ftp').click();
    await page.locator('[data-testid=pm-preview] .crud-page[data-page="ftp"]').waitFor({ timeout: 30_000 });
    await page.locator('.monaco-editor').first().waitFor({ timeout: 30_000 });
    await page.getByText('FTP服务器（内置，只读）').waitFor();
    await shot(page, 'lowcode-builtin');
  });

  it('新建供应商页面：校验错误以中文指明字段 → 预览 → 保存 → 发布', async () => {
    await page.goto(`${inject('baseURL')}/system/pages`);
    await btn(page, '新建页面').click();
    const bad = JSON.stringify({ ...JSON.parse(supplier), id: 'Supplier X', columns: [{ field: 'name' }] }, null, 2);
    await paste(page, bad);
    const faults = page.getByTestId('pm-faults');
    await faults.waitFor({ timeout: 10_000 }).catch(async (e) => {
      await shot(page, 'lowcode-failed-faults');
      throw e;
    });
    await faults.getByText('字段「页面标识」格式不正确', { exact: false }).waitFor({ timeout: 10_000 }).catch(async (e) => {
      await shot(page, 'lowcode-failed-faults');
      throw new Error(await faults.innerText(), { cause: e });
    });
    await faults.getByText('列「name」的标题缺少必填属性').waitFor();
    expect(await faults.innerText()).not.toMatch(/\/columns|\^\[a-z/);
    // monaco checks the same meta-schema: squiggles under the faults, completion from the schema
    await page.keyboard.press('Control+Home');
    await page.waitForTimeout(1500);
    await shot(page, 'lowcode-faults');
    await page.locator('.monaco-editor .squiggly-error, .monaco-editor .squiggly-warning').first().waitFor({ timeout: 15_000 });
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('"showT');
    await page.keyboard.press('Control+Space');
    await page.locator('.monaco-editor .suggest-widget', { hasText: 'showTitle' }).waitFor({ timeout: 15_000 });
    await shot(page, 'lowcode-completion');
    await page.keyboard.press('Escape');
    await paste(page, bad);
    await faults.getByText('列「name」的标题缺少必填属性').waitFor();
    await btn(page, '保存').click();
    // a refused save is said in a box that stays until dismissed, not a passing message
    const failure = page.getByTestId('pm-error');
    await failure.getByText('声明有 2 处错误，未保存').waitFor();

    // one the browser's check passes but the server refuses: its faults, one a line, stay until closed
    const unsortable = JSON.parse(supplier);
    unsortable.columns.splice(1, 0, { title: '城市', field: 'city', sortable: true });
    await paste(page, JSON.stringify(unsortable, null, 2));
    await faults.waitFor({ state: 'detached', timeout: 10_000 });
    await btn(page, '保存').click();
    await failure.getByText('列「城市」的字段：是可排序列，引用的字段 city 未在表单', { exact: false }).waitFor();
    await page.waitForTimeout(4000);
    expect(await failure.innerText()).toContain('保存失败：页面声明不合法');
    await shot(page, 'lowcode-server-refusal');
    await failure.locator('.ant-alert-close-icon').click();
    await failure.waitFor({ state: 'detached' });

    await paste(page, supplier);
    await faults.waitFor({ state: 'detached', timeout: 10_000 });
    const preview = page.getByTestId('pm-preview');
    await preview.locator('.crud-page[data-page="supplier"]').waitFor();
    await preview.getByText('名称1').waitFor();
    await shot(page, 'lowcode-preview');
    await btn(page, '保存').click();
    await toast(page, '保存成功');
    await page.getByTestId('page-item-custom-supplier').waitFor();

    await btn(page, '发布').click();
    const dlg = dialog(page);
    await dlg.getByText('发布页面').waitFor();
    await dlg.locator('.ant-checkbox-wrapper', { hasText: ROLE_DEFAULT }).first().click();
    await shot(page, 'lowcode-publish');
    await btn(dlg, '确定').click();
    await toast(page, '发布成功，菜单中已可见');
    await page.getByTestId('page-item-custom-supplier').getByText('已发布').waitFor();
    // the entry is in the side menu at once, without reloading the app
    await page.getByText('自定义页面', { exact: true }).first().click();
    await page.getByRole('menuitem', { name: /供应商/ }).first().waitFor({ timeout: 10_000 });
    await shot(page, 'lowcode-published-menu');
  });

  it('使用发布的供应商页面：新增（必填与手机号校验）→ 搜索 → 编辑 → 复制 → 删除', async () => {
    await page.goto(`${inject('baseURL')}/index`);
    await page.getByTestId('user-menu').waitFor();
    // the new entry sits under 自定义页面 in the side menu, as the server published it
    await page.getByText('自定义页面', { exact: true }).first().click();
    await page.getByRole('menuitem', { name: /供应商/ }).first().click({ timeout: 10_000 });
    await page.waitForURL(/\/custom\/supplier/);
    await page.locator('.crud-page[data-page="supplier"]:visible').waitFor({ timeout: 30_000 });
    await btn(page, '新增供应商').click();
    await dialog(page).getByText('新增供应商').first().waitFor();
    await dialog(page).getByTestId('dialog-ok').click();
    await fieldError(page, '请输入名称').waitFor();
    await dialog(page).getByPlaceholder('请输入名称').fill('华东钢材有限公司');
    await dialog(page).getByPlaceholder('请输入手机号').fill('12345678901');
    await dialog(page).getByTestId('dialog-ok').click();
    await fieldError(page, '请输入正确的手机号码').waitFor();
    await shot(page, 'lowcode-supplier-invalid');
    await dialog(page).getByPlaceholder('请输入手机号').fill('13812345678');
    await dialog(page).getByPlaceholder('请输入备注').fill('首批供应商');
    await dialog(page).getByTestId('dialog-ok').click();
    await toast(page, '保存成功');
    await row(page, '华东钢材有限公司').waitFor();
    expect(await row(page, '华东钢材有限公司').textContent()).toContain('是');

    await btn(row(page, '华东钢材有限公司'), '复制').click();
    await dialog(page).getByText('复制供应商').first().waitFor();
    await dialog(page).getByPlaceholder('请输入名称').fill('华南木业');
    await dialog(page).getByTestId('dialog-ok').click();
    await toast(page, '复制成功');
    await row(page, '华南木业').waitFor();

    const search = page.locator('[data-testid=crud-search]:visible');
    await search.fill('华南');
    await search.press('Enter');
    await expect.poll(() => page.locator('.crud-page:visible tbody tr.ant-table-row').count()).toBe(1);
    await btn(page, '重置').click();
    await expect.poll(() => page.locator('.crud-page:visible tbody tr.ant-table-row').count()).toBe(2);

    await btn(row(page, '华南木业'), '编辑').click();
    await dialog(page).getByText('修改供应商').first().waitFor();
    await dialog(page).getByPlaceholder('请输入备注').fill('已修改');
    await dialog(page).getByTestId('dialog-ok').click();
    await toast(page, '保存成功');
    await expect.poll(async () => (await row(page, '华南木业').textContent()) ?? '').toContain('已修改');
    await shot(page, 'lowcode-supplier-list');

    for (const name of ['华南木业', '华东钢材有限公司']) {
      await btn(row(page, name), '删除').click();
      await page.getByText(`确定要删除【${name}】吗？`, { exact: true }).waitFor({ timeout: 10_000 }).catch(async (e) => {
        await shot(page, 'lowcode-failed-delete');
        throw e;
      });
      await confirmBox(page, `确定要删除【${name}】吗？`);
      await toast(page, '删除成功');
      await row(page, name).waitFor({ state: 'detached' });
    }
  });

  it('页面管理：删除自定义页面先说明连带移入回收站的数据条数（菜单随之移除）；在回收站中还原后从菜单打开', async () => {
    const admin = await signIn('admin', inject('adminPassword'));
    for (const name of ['甲公司', '乙公司']) await must('/api/lowcode/data/supplier/save', { name, phone: '13812345678' }, admin);
    await page.goto(`${inject('baseURL')}/system/pages`);
    await page.getByTestId('page-item-custom-supplier').click();
    await page.getByText('供应商', { exact: true }).first().waitFor();
    await btn(page.locator('.ant-space'), '删除').first().click();
    const question = '该页面有 2 条数据，将与页面及其菜单一起移入回收站。确定删除【供应商】吗？（可在 可视化 › 回收站 中还原）';
    await page.getByText(question, { exact: true }).waitFor();
    await shot(page, 'lowcode-delete-count');
    await confirmBox(page, question);
    await toast(page, '删除成功');
    await page.getByTestId('page-item-custom-supplier').waitFor({ state: 'detached' });
    // and its menu entry is gone without a reload
    await expect.poll(() => page.getByRole('menuitem', { name: /供应商/ }).count()).toBe(0);

    // 回收站: the page with what it took along; 还原 puts it back, menu entry included
    await page.goto(`${inject('baseURL')}/datav/recycle`);
    const binned = page.locator('.crud-page:visible tbody tr', { hasText: '供应商' }).first();
    await binned.waitFor({ timeout: 30_000 });
    expect(await binned.textContent()).toContain('2 条记录');
    expect(await binned.textContent()).toContain('admin');
    await shot(page, 'lowcode-recycle-bin');
    await btn(binned, '还原').click();
    await confirmBox(page, '确定要还原【供应商】吗？');
    await toast(page, '已还原');
    await binned.waitFor({ state: 'detached' });
    // opened from the menu (read again on the next load), its records as they were
    await page.reload();
    await page.getByRole('menuitem', { name: /自定义页面/ }).first().click();
    await page.getByRole('menuitem', { name: /供应商/ }).first().click();
    await page.locator('.crud-page:visible').getByText('甲公司').waitFor({ timeout: 30_000 });
    await page.locator('.crud-page:visible').getByText('乙公司').waitFor();
  });
});
