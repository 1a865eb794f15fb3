// 部门管理 and the users page's department tree clicked through (issue 34 item 1): the admin builds a department
// with two sibling departments under it in 部门管理 (a tree table: 新增 on a row adds below it), refused deleting
// the parent with the server's reason, adds a user to each sibling in 用户管理 (部门 picked in a tree select),
// then the side tree of 用户管理 filters the list by the department clicked; a role's 数据权限 自定义 is ticked in
// the department tree of the role dialog, and a page on a table gets its owner and department columns in the page
// manager's 数据表 tab (issue 34 item 2).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { inject } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { call, confirmBox, must, opened, signIn, toast as waitToast } from './lib/calls';
import { describeBrowser, launchBrowser, login, newPage, shot } from './lib/browser';

const run = Date.now().toString(36).slice(-4);
const PARENT = `e2e总部${run}`;
const EAST = `e2e华东${run}`;
const WEST = `e2e华西${run}`;
const USER_EAST = `e2e.east.${run}`;
const USER_WEST = `e2e.west.${run}`;
const ROLE = `e2e东区${run}`;
const ROLE_KEY = `e2e_east_${run}`;
const toast = (page: Page, text: string) => waitToast(page, text, { prefix: 'org' });
const btn = (scope: Page | Locator, label: string) => scope.getByRole('button', { name: new RegExp(`(^|\\s)${label.split('').join('\\s?')}$`) });
const dialog = (page: Page) => page.locator('.ant-modal:visible').last();
const row = (page: Page, text: string) => page.locator('.crud-page:visible tbody tr', { hasText: text }).first();
/** The input of the open dialog's field by its label. */
const field = (page: Page, label: string) => dialog(page).locator('.ant-formily-item', { has: page.locator('.ant-formily-item-label', { hasText: new RegExp(`^\\s*\\*?\\s*${label}\\s*[:：]?\\s*$`) }) }).first();

describeBrowser('部门管理与用户部门树', () => {
  let browser: Browser;
  let admin: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await newPage(browser);
    await login(admin, inject('baseURL'), 'admin', inject('adminPassword'));
  });
  afterAll(() => browser?.close());

  async function addDept(name: string, under?: string) {
    if (under) await row(admin, under).getByRole('button', { name: /^新\s?增$/ }).click();
    else await btn(admin.locator('.crud-page:visible'), '新增').first().click();
    await opened(dialog(admin));
    // the parent preset (its name once the tree select's options have come)
    if (under) await expect.poll(() => field(admin, '上级部门').textContent(), { timeout: 15_000 }).toContain(under);
    await field(admin, '部门名称').locator('input').fill(name);
    await btn(dialog(admin), '确定').click();
    await toast(admin, '保存成功');
    await row(admin, name).waitFor();
  }

  it('部门管理: a department with two siblings under it; the parent is not deleted while it has them', async () => {
    await admin.goto(`${inject('baseURL')}/system/dept`);
    await admin.locator('.crud-page:visible').waitFor();
    await addDept(PARENT);
    await addDept(EAST, PARENT);
    await addDept(WEST, PARENT);
    // nested: the siblings sit one level below their parent in the tree table
    const indent = async (name: string) => Number((await row(admin, name).locator('.ant-table-row-indent').first().getAttribute('class'))?.match(/indent-level-(\d+)/)?.[1] ?? 0);
    expect([await indent(PARENT), await indent(EAST), await indent(WEST)]).toEqual([0, 1, 1]);
    await row(admin, PARENT).getByRole('button', { name: /^删\s?除$/ }).click();
    await confirmBox(admin, PARENT);
    await admin.getByText('部门存在下级部门，不能删除').first().waitFor();
    await shot(admin, 'org-dept-tree');
  });

  async function addUser(username: string, dept: string) {
    await btn(admin, '新增用户').click();
    await opened(dialog(admin));
    await dialog(admin).getByPlaceholder(/登录用的账号/).fill(username);
    await field(admin, '姓名').locator('input').fill(username);
    await field(admin, '部门').locator('.ant-select').click();
    const tree = admin.locator('.ant-select-dropdown:visible');
    await tree.locator('.ant-select-tree-node-content-wrapper', { hasText: dept }).first().click();
    await field(admin, '角色').locator('.ant-select').click();
    await admin.locator('.ant-select-dropdown:visible').getByText('普通用户', { exact: true }).click();
    await admin.keyboard.press('Escape');
    await btn(dialog(admin), '确定').click();
    await admin.getByTestId('reveal-ok').click();
    await row(admin, username).waitFor();
    expect(await row(admin, username).textContent()).toContain(dept);
  }

  it('用户管理: a user in each sibling; the side tree filters the list by the department clicked', async () => {
    await admin.goto(`${inject('baseURL')}/system/user`);
    await admin.locator('.crud-page:visible').waitFor();
    await addUser(USER_EAST, EAST);
    await addUser(USER_WEST, WEST);
    const tree = admin.locator('.side-tree .ant-tree');
    const node = (label: string) => tree.locator('.ant-tree-treenode', { hasText: label }).last();
    await node(PARENT).waitFor({ timeout: 30_000 });
    // a node counts the users of its whole subtree
    await expect.poll(() => node(PARENT).locator('.ant-typography').last().textContent(), { timeout: 15_000 }).toBe('(2)');
    if (!(await node(EAST).isVisible())) await node(PARENT).locator('.ant-tree-switcher').click();
    const listed = async () => (await admin.locator('.crud-page:visible tbody tr.ant-table-row').allTextContents()).join('\n');
    const shows = async (want: string[], not: string[]) => {
      await expect.poll(async () => want.every((w) => listed().then((t) => t.includes(w))) && !(await Promise.all(not.map(async (n) => (await listed()).includes(n)))).some(Boolean), { timeout: 15_000 }).toBe(true);
    };
    await node(EAST).locator('.ant-tree-node-content-wrapper').click();
    await shows([USER_EAST], [USER_WEST]);
    await shot(admin, 'org-users-east');
    await node(WEST).locator('.ant-tree-node-content-wrapper').click();
    await shows([USER_WEST], [USER_EAST]);
    // the parent: both, as it holds both
    await node(PARENT).locator('.ant-tree-node-content-wrapper').click();
    await shows([USER_EAST, USER_WEST], []);
    await shot(admin, 'org-users-parent');
  });

  it('角色管理: 数据权限 自定义 ticks departments in a tree', async () => {
    await admin.goto(`${inject('baseURL')}/system/role`);
    await btn(admin, '新增角色').click();
    await opened(dialog(admin));
    await dialog(admin).locator('input').nth(0).fill(ROLE);
    await dialog(admin).locator('input').nth(1).fill(ROLE_KEY);
    // the department tree shows only for 自定义
    expect(await field(admin, '数据权限部门').count()).toBe(0);
    await field(admin, '数据权限').locator('.ant-select').click();
    await admin.locator('.ant-select-dropdown:visible').getByText('自定义数据权限', { exact: true }).click();
    const tree = field(admin, '数据权限部门');
    await tree.locator('.ant-tree').waitFor();
    await tree.getByText('展开/折叠').click();
    await tree.locator('.ant-tree-treenode', { has: admin.locator('.ant-tree-title', { hasText: new RegExp(`^${EAST}$`) }) }).locator('.ant-tree-checkbox').click();
    await shot(admin, 'org-role-custom-scope');
    await btn(dialog(admin), '确定').click();
    await toast(admin, '保存成功');
    await row(admin, ROLE).waitFor();
    expect(await row(admin, ROLE).textContent()).toContain('自定义数据权限');
    const token = await signIn('admin', inject('adminPassword'));
    const roleId = (await must('/api/system/role/list', { search: ROLE_KEY }, token)).records[0].id;
    const east = (await must('/api/system/dept/list', { search: EAST, pageSize: 10 }, token)).records[0].id;
    expect((await must(`/api/system/role/get?id=${roleId}`, undefined, token)).deptIds).toEqual([east]);
  });

  it('页面管理: a page on a table names its owner and department columns in 数据权限', async () => {
    const file = `e2e_scope_${run}.db`;
    const dir = join(inject('dataDir'), 'sqlite');
    mkdirSync(dir, { recursive: true });
    const db = new Database(join(dir, file));
    db.exec('CREATE TABLE orders (id INTEGER PRIMARY KEY, title VARCHAR(40) NOT NULL, owner_id INTEGER, dept_id INTEGER)');
    db.close();
    const token = await signIn('admin', inject('adminPassword'));
    const dsId = await must('/api/gemini/datasource/info/save', { dsName: `e2e_scope_${run}`, dbType: 'sqlite', dbName: file }, token);
    const key = `scope_${run}`;
    const gen = await must('/api/lowcode/source/generate', { dsId, table: 'orders', pageKey: key, title: `订单${run}` }, token);
    const saved = await call('/api/lowcode/page/save', { pageKey: key, declaration: gen.declaration }, token);
    expect(saved.status, saved.msg).toBe(0);

    await admin.goto(`${inject('baseURL')}/system/pages`);
    await admin.getByTestId(`page-item-custom-${key}`).click();
    const ve = admin.getByTestId('visual-editor');
    await ve.waitFor({ timeout: 30_000 });
    await ve.getByRole('tab', { name: '数据表' }).click();
    const form = admin.getByTestId('ve-scope-form');
    for (const [label, column] of [['所属人列', 'owner_id'], ['所属部门列', 'dept_id']]) {
      await form.getByLabel(label).first().click();
      await admin.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: column }).first().click();
    }
    await shot(admin, 'org-page-scope-columns');
    await btn(admin, '保存').click();
    await toast(admin, '保存成功');
    const got = await must(`/api/lowcode/page/get?pageKey=${key}`, undefined, token);
    expect(got.declaration.source).toMatchObject({ ownerColumn: 'owner_id', deptColumn: 'dept_id' });
  });
});
