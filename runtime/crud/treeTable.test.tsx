// A tree table (`tree`): flat rows shown nested, siblings by their order field, 展开/折叠, no paging, and a row's
// 新增 (asChild) presetting the parent.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeServices, renderPage } from './test-utils';
import type { PageDeclaration } from './types';

const page = {
  id: 'treeDemo',
  title: '菜单',
  api: { search: 'POST /demo/menu/search', save: 'POST /demo/menu/save' },
  tree: { parentField: 'parentId', orderField: 'orderNum' },
  columns: [
    { title: '名称', field: 'name' },
    { title: '排序', field: 'orderNum' },
    { type: 'actions', title: '操作' },
  ],
  toolbar: [{ action: 'add', label: '新增' }],
  rowActions: [
    { action: 'add', asChild: true, label: '新增' },
    { action: 'call', label: '停用', api: 'POST /demo/menu/disable', body: 'row' },
  ],
  dialog: {
    schema: {
      type: 'object',
      properties: {
        parentId: { type: 'number', title: '上级编号' },
        name: { type: 'string', title: '名称' },
      },
    },
  },
} as PageDeclaration;

// the server's order is not the declared one: 系统管理 (2) comes after 系统工具 (3) in the answer
const flat = [
  { id: 3, parentId: 0, name: '系统工具', orderNum: 3 },
  { id: 1, parentId: 0, name: '系统管理', orderNum: 1 },
  { id: 12, parentId: 1, name: '角色管理', orderNum: 2 },
  { id: 11, parentId: 1, name: '用户管理', orderNum: 1 },
  { id: 111, parentId: 11, name: '用户新增', orderNum: 1 },
  { id: 31, parentId: 3, name: '代码生成', orderNum: 1 },
];

const names = () => [...document.querySelectorAll('tbody tr.ant-table-row')].map((tr) => tr.querySelector('td')?.textContent);

describe('tree table', () => {
  it('nests the flat rows by parent, siblings by orderNum, all open; one call without paging; 展开/折叠 toggles', async () => {
    const { services, calls } = fakeServices(() => ({ records: flat, total: flat.length }));
    renderPage(page, services);
    await screen.findByText('用户新增');
    expect(names()).toEqual(['系统管理', '用户管理', '用户新增', '角色管理', '系统工具', '代码生成']);
    // nested: a child row is indented one level below its parent
    const level = (name: string) => screen.getByText(name).closest('tr')!.className.match(/ant-table-row-level-(\d)/)?.[1];
    expect([level('系统管理'), level('用户管理'), level('用户新增')]).toEqual(['0', '1', '2']);
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toMatchObject({ pageNum: 1, pageSize: 500 });
    expect(document.querySelector('.ant-pagination')).toBeNull();

    await act(async () => fireEvent.click(screen.getByTestId('tree-toggle')));
    await waitFor(() => expect(names()).toEqual(['系统管理', '系统工具']));
    await act(async () => fireEvent.click(screen.getByTestId('tree-toggle')));
    await waitFor(() => expect(names()).toHaveLength(6));
  });

  it("starts folded when declared so, and says when the answer holds fewer rows than the total", async () => {
    const { services } = fakeServices(() => ({ records: flat, total: 900 }));
    renderPage({ ...page, tree: { ...page.tree, expand: 'none' } } as PageDeclaration, services);
    await screen.findByText('系统管理');
    expect(names()).toEqual(['系统管理', '系统工具']);
    expect(screen.getByText('共 900 条，只显示了前 6 条')).toBeInTheDocument();
  });

  it("a row's 新增 opens the add dialog with the parent preset to the row's id; a call sends the row without its children", async () => {
    const { services, calls } = fakeServices((r) => (r.path.endsWith('/save') ? true : { records: flat, total: flat.length }));
    renderPage(page, services);
    const row = (await screen.findByText('用户管理')).closest('tr')!;
    await act(async () => fireEvent.click(within(row).getByRole('button', { name: /^新\s?增$/ })));
    let dlg = await screen.findByRole('dialog');
    expect((within(dlg).getByPlaceholderText('请输入上级编号') as HTMLInputElement).value).toBe('11');
    fireEvent.change(within(dlg).getByPlaceholderText('请输入名称'), { target: { value: '用户导出' } });
    await act(async () => fireEvent.click(within(dlg).getByTestId('dialog-ok')));
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/save'))?.body).toEqual({ parentId: 11, name: '用户导出' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // the toolbar's 新增 presets nothing
    await act(async () => fireEvent.click(screen.getAllByRole('button', { name: /^新\s?增$/ })[0]));
    dlg = await screen.findByRole('dialog');
    expect((within(dlg).getByPlaceholderText('请输入上级编号') as HTMLInputElement).value).toBe('');
    await act(async () => fireEvent.click(within(dlg).getByRole('button', { name: /^取\s?消$/ })));

    await act(async () => fireEvent.click(within(screen.getByText('系统管理').closest('tr')!).getByRole('button', { name: '停用' })));
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/disable'))?.body).toEqual(flat[1]));
  });
});
