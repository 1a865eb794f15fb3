// Wiki clicked through as a developer: two groups, three documents, an image pasted into a body (uploaded
// through the file service), preview, edit and cancel with the discard question, delete, find a document
// by its title, a non-empty group refused; a stored XSS payload renders inert; a reader sees no edit controls.
import { inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';
import { call, confirmBox, must, signIn, toast } from './lib/calls';

const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGOQm/CfJMQwqmFUw/DVAAAwgK0QRUd/ngAAAABJRU5ErkJggg==';

const treeNode = (page: Page, title: string) => page.getByTestId('wiki-tree').locator('.ant-tree-treenode', { has: page.locator('.wiki-node-title', { hasText: title }) });
const editable = (page: Page) => page.locator('.wiki-editor [contenteditable="true"]');

async function addGroup(page: Page, title: string, under?: string) {
  if (under) {
    await treeNode(page, under).hover();
    await page.getByRole('button', { name: `在【${under}】下新建` }).click();
    await page.locator('.ant-dropdown:visible').getByText('新建子分组').click();
  } else {
    await page.getByRole('button', { name: '新建分组' }).click();
  }
  const dialog = page.locator('.ant-modal:visible');
  await dialog.getByLabel('分组标题').fill(title);
  await dialog.getByRole('button', { name: /确\s?定/ }).click();
  await toast(page, '保存成功', { prefix: 'wiki' });
  await treeNode(page, title).waitFor();
}

async function newDocument(page: Page, group: string, title: string, text: string) {
  await treeNode(page, group).hover();
  await page.getByRole('button', { name: `在【${group}】下新建` }).click();
  await page.locator('.ant-dropdown:visible').getByText('新建文档').click();
  await page.getByTestId('wiki-edit').waitFor();
  await page.getByLabel('标题', { exact: true }).fill(title);
  await editable(page).click();
  await page.keyboard.type(text);
}

async function saveDocument(page: Page) {
  await page.getByTestId('wiki-edit').getByRole('button', { name: /保\s?存/ }).click();
  await toast(page, '保存成功', { prefix: 'wiki' });
  await page.getByTestId('wiki-view').waitFor();
}

/** A screenshot on the clipboard, pasted into the body with Ctrl+V (the browser's own paste path). */
async function pasteImage(page: Page) {
  await page.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    await navigator.clipboard.write([new ClipboardItem({ 'image/png': new Blob([bytes], { type: 'image/png' }) })]);
  }, PNG_BASE64);
  await editable(page).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Control+V');
}

/** Removes every node (documents, then groups from the leaves up), so a retried test starts clean. */
async function emptyWiki(token: string) {
  for (let round = 0; round < 20; round++) {
    const nodes: Array<{ id: number; parentId: number; docType: number }> = await must('/api/doc/wikigroup/select', {}, token);
    if (!nodes.length) return;
    for (const n of nodes) {
      if (n.docType === 1) await must(`/api/doc/wikidetail/delete?id=${n.id}`, {}, token);
      else if (!nodes.some((c) => c.parentId === n.id)) await call(`/api/doc/wikigroup/select?id=${n.id}`, {}, token);
    }
  }
}

describeBrowser('Wiki文档', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    page = await newPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
    await login(page, inject('baseURL'), 'developer', inject('demoPassword'));
  });
  afterAll(() => browser?.close());

  it('builds a small wiki: groups, documents, a pasted image, preview, edit/cancel, delete, title search', async () => {
    await emptyWiki(await signIn('developer', inject('demoPassword')));
    await page.goto(`${inject('baseURL')}/data/wiki`);
    await page.getByRole('button', { name: '新建分组' }).waitFor();
    // an empty title is refused in the dialog with the spec's message
    await page.getByRole('button', { name: '新建分组' }).click();
    await page.locator('.ant-modal:visible').getByLabel('分组标题').waitFor();
    await page.locator('.ant-modal:visible').getByRole('button', { name: /确\s?定/ }).click();
    await page.locator('.ant-modal:visible').getByText('请输入标题').waitFor();
    await page.locator('.ant-modal:visible').getByRole('button', { name: /取\s?消/ }).click();

    await addGroup(page, '开发规范');
    await addGroup(page, '运维手册');
    await addGroup(page, '接口约定', '开发规范');

    // document 1: text and a pasted image, previewed, then saved
    await newDocument(page, '开发规范', '接口命名规范', '接口名使用小写字母和下划线。');
    await pasteImage(page);
    const img = page.locator('.wiki-editor img[src^="/files/wiki/"]');
    await img.waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: /预\s?览/ }).click();
    const preview = page.getByTestId('wiki-preview');
    await preview.getByText('接口名使用小写字母和下划线。').waitFor();
    await preview.locator('img[src^="/files/wiki/"]').waitFor();
    await shot(page, 'wiki-preview');
    await page.locator('.ant-modal:visible .ant-modal-close').click();
    await saveDocument(page);
    const view = page.getByTestId('wiki-view');
    await view.getByRole('heading', { name: '接口命名规范' }).waitFor();
    await view.getByText('developer').first().waitFor();
    await view.getByText('最后修改时间').waitFor();
    // the stored image is served and decodes
    await expect.poll(() => view.locator('img').evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth), { timeout: 15_000 }).toBe(16);

    // documents 2 and 3
    await newDocument(page, '接口约定', '分页参数', 'pageNum 从 1 开始。');
    await saveDocument(page);
    await newDocument(page, '运维手册', '日志轮转', '按大小轮转。');
    await saveDocument(page);
    await shot(page, 'wiki-view');

    // edit, then cancel: the discard question, and the stored body stays
    await treeNode(page, '接口命名规范').click();
    await view.getByRole('heading', { name: '接口命名规范' }).waitFor();
    await view.getByRole('button', { name: /编\s?辑/ }).click();
    await page.getByTestId('wiki-edit').waitFor();
    await editable(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('这一句不会保存。');
    await page.getByText('有未保存的修改').waitFor();
    await shot(page, 'wiki-edit');
    await page.getByTestId('wiki-edit').getByRole('button', { name: /取\s?消/ }).click();
    await confirmBox(page, '数据有变化，确定要放弃保存吗？', /不保存/);
    await view.waitFor();
    await expect.poll(() => view.getByTestId('wiki-body').textContent()).not.toContain('这一句不会保存');

    // edit and save: the body changes, the last modifier is shown
    await view.getByRole('button', { name: /编\s?辑/ }).click();
    await editable(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('补充：禁止缩写。');
    await saveDocument(page);
    await expect.poll(() => view.getByTestId('wiki-body').textContent()).toContain('补充：禁止缩写。');

    // delete document 3, confirmed
    await treeNode(page, '日志轮转').click();
    await view.getByRole('heading', { name: '日志轮转' }).waitFor();
    await view.getByRole('button', { name: /删\s?除/ }).click();
    await confirmBox(page, '确定要删除【日志轮转】吗？');
    await toast(page, '删除成功', { prefix: 'wiki' });
    await expect.poll(() => treeNode(page, '日志轮转').count()).toBe(0);

    // a group that still holds documents is refused with the reason
    await treeNode(page, '开发规范').hover();
    await page.getByRole('button', { name: '分组【开发规范】操作' }).click();
    await page.locator('.ant-dropdown:visible').getByText('删除分组').click();
    await confirmBox(page, '确定要删除【开发规范】吗？');
    await toast(page, '分组【开发规范】下还有文档或分组，不能删除', { prefix: 'wiki' });
    // the refusal closes the confirm box (the reason is the message above)
    await page.locator('.ant-modal-confirm').waitFor({ state: 'hidden' });

    // find a document by its title: only matches and their folders stay, opened
    await page.reload();
    await treeNode(page, '开发规范').waitFor();
    await page.getByLabel('搜索标题').fill('分页');
    await expect.poll(() => page.getByTestId('wiki-tree').locator('.wiki-node-title').allTextContents()).toEqual(['开发规范', '接口约定', '分页参数']);
    await shot(page, 'wiki-search');
    await treeNode(page, '分页参数').click();
    await view.getByRole('heading', { name: '分页参数' }).waitFor();
    await page.getByLabel('搜索标题').fill('没有这个标题');
    await page.getByText('没有匹配的标题').waitFor();
  });

  it('renders a stored XSS payload inert, and shows a reader no edit controls', async () => {
    const token = await signIn('developer', inject('demoPassword'));
    const id = await must(
      '/api/doc/wikidetail/save',
      { title: '恶意正文', docType: 1, parentId: 0, docContent: '<p>正文</p><img src=x onerror="window.__xss=1"><a href="javascript:window.__xss=2">点我</a><svg onload="window.__xss=3"></svg><script>window.__xss=4</script>' },
      token,
    );
    await page.goto(`${inject('baseURL')}/data/wiki?id=${id}`);
    await page.getByTestId('wiki-body').getByText('正文').waitFor();
    await page.getByTestId('wiki-body').getByText('点我').click();
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.getByTestId('wiki-body').locator('img, svg, script').count()).toBe(0);
    expect(await page.getByTestId('wiki-body').locator('a').getAttribute('href')).toBeNull();

    // a business approver reads but cannot write: no controls, and the server refuses anyway
    const reader = await newPage(browser);
    await login(reader, inject('baseURL'), 'bizapprover', inject('demoPassword'));
    await reader.goto(`${inject('baseURL')}/data/wiki?id=${id}`);
    await reader.getByTestId('wiki-view').getByRole('heading', { name: '恶意正文' }).waitFor();
    expect(await reader.getByRole('button', { name: /编\s?辑/ }).count()).toBe(0);
    expect(await reader.getByRole('button', { name: '新建分组' }).count()).toBe(0);
    const refused = await call('/api/doc/wikidetail/delete?id=' + id, {}, await signIn('bizapprover', inject('demoPassword')));
    expect(refused.http).toBe(403);
    await reader.context().close();
  });
});
