import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeServices, renderPage } from './test-utils';
import { buildTree, filterTree, movesUnderItself, siblingPlace } from '../ui/tree';
import type { PageDeclaration } from './types';

const groups = [
  { id: 1, parentId: 0, name: '业务', apiCount: 2 },
  { id: 2, parentId: 1, name: '订单', apiCount: 1 },
  { id: 3, parentId: 2, name: '退款', apiCount: 0 },
  { id: 4, parentId: 0, name: '报表', apiCount: 5 },
];

const page: PageDeclaration = {
  id: 'treeDemo',
  title: '树演示',
  api: { search: 'POST /demo/search' },
  sideTree: {
    api: 'POST /demo/group/select',
    param: 'groupIds',
    countField: 'apiCount',
    rootLabel: '全部分组',
    searchPlaceholder: '搜索组名',
    edit: {
      save: 'POST /demo/group/save',
      up: 'GET /demo/group/up',
      down: 'GET /demo/group/down',
      delete: 'GET /demo/group/delete',
      noun: '组',
      nameMessage: '请输入组名称',
      deleteConfirm: '确定要删除【{name}】组吗？',
      selfMoveMessage: '节点【{name}】不能移到自己节点下',
    },
  },
  columns: [{ title: '名称', field: 'name' }],
} as PageDeclaration;

describe('tree helpers', () => {
  it('builds, filters, finds siblings and refuses moves under itself', () => {
    const forest = buildTree(groups, { countField: 'apiCount' });
    expect(forest.map((n) => n.label)).toEqual(['业务', '报表']);
    const biz = forest[0];
    expect(movesUnderItself(biz, '3')).toBe(true);
    expect(movesUnderItself(biz, '4')).toBe(false);
    expect(siblingPlace(forest, biz)).toEqual({ first: true, last: false });
    expect(filterTree(forest, '退').map((n) => n.label)).toEqual(['业务']);
    expect(buildTree([{ id: 9, parentId: 9, name: '自环' }]).map((n) => n.label)).toEqual(['自环']);
  });
});

describe('declared side tree', () => {
  const setup = () => {
    const { services, calls } = fakeServices((r) => (r.path === '/demo/group/select' ? groups : r.path.includes('/group/') ? true : { records: [], total: 0 }));
    renderPage(page, services);
    const lastSearch = () => calls.filter((c) => c.path === '/demo/search').at(-1)?.body as Record<string, unknown>;
    return { calls, lastSearch };
  };

  it('filters the list by the selected node and its descendants; the root clears the filter', async () => {
    const { lastSearch } = setup();
    await screen.findByText('全部分组');
    // counts are per subtree (业务 2 holds 订单's 1): the root adds its top-level nodes only, not every row (8)
    expect((await screen.findAllByText((_t, el) => el?.tagName === 'SPAN' && el.textContent === '全部分组 (7)')).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByText('业务'));
    await waitFor(() => expect(lastSearch().groupIds).toEqual([1, 2, 3]));
    fireEvent.click(screen.getByText('全部分组'));
    await waitFor(() => expect(lastSearch().groupIds).toBeUndefined());
  });

  it('node menu: move up disabled for the first sibling; delete asks with the declared text', async () => {
    const { calls } = setup();
    await screen.findByText('业务');
    await act(async () => fireEvent.click(screen.getByLabelText('业务 操作')));
    const up = await screen.findByRole('menuitem', { name: '上移' });
    expect(up).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('menuitem', { name: '下移' })).not.toHaveAttribute('aria-disabled', 'true');
    await act(async () => fireEvent.click(screen.getByRole('menuitem', { name: '删除' })));
    const box = await screen.findByText('确定要删除【业务】组吗？');
    await act(async () => fireEvent.click(within(box.closest('.ant-modal') as HTMLElement).getByRole('button', { name: /确\s?定/ })));
    await waitFor(() => expect(calls.some((c) => c.path === '/demo/group/delete' && c.params?.id === 1)).toBe(true));
  });

  it('a refused delete closes the confirm box and says no 删除成功 (the request layer shows the reason)', async () => {
    const { services, calls } = fakeServices((r) =>
      r.path === '/demo/group/select' ? groups : r.path === '/demo/group/delete' ? new Error('分组【业务】下还有 2 个接口，不能删除') : { records: [], total: 0 },
    );
    renderPage(page, services);
    await screen.findByText('业务');
    await act(async () => fireEvent.click(screen.getByLabelText('业务 操作')));
    await act(async () => fireEvent.click(await screen.findByRole('menuitem', { name: '删除' })));
    const box = await screen.findByText('确定要删除【业务】组吗？');
    await act(async () => fireEvent.click(within(box.closest('.ant-modal') as HTMLElement).getByRole('button', { name: /确\s?定/ })));
    await waitFor(() => expect(calls.some((c) => c.path === '/demo/group/delete')).toBe(true));
    await waitFor(() => expect(screen.queryByText('确定要删除【业务】组吗？')).toBeNull());
    expect(screen.queryByText('删除成功')).toBeNull();
  });

  it('add dialog submitted empty: the message under the field, the dialog stays, nothing rejects', async () => {
    const { calls } = setup();
    await screen.findByText('业务');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /添\s?加/ })));
    const dlg = await screen.findByRole('dialog');
    await act(async () => fireEvent.click(within(dlg).getByRole('button', { name: /确\s?定/ })));
    expect(await within(dlg).findByText('请输入组名称', { selector: '.ant-form-item-explain-error' })).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/demo/group/save')).toBe(false);
  });

  it('add dialog: parent defaults to the selected node, name required on blur, saved under the parent', async () => {
    const { calls } = setup();
    await screen.findByText('业务');
    fireEvent.change(screen.getByLabelText('搜索组名'), { target: { value: '订' } });
    fireEvent.click(await screen.findByText('订单'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /添\s?加/ })));
    const dlg = await screen.findByRole('dialog');
    expect(within(dlg).getByText('添加组')).toBeInTheDocument();
    expect(within(dlg).getAllByText('订单').length).toBeGreaterThan(0);
    const name = within(dlg).getByPlaceholderText('请输入组名称');
    fireEvent.focus(name);
    fireEvent.blur(name);
    expect(await within(dlg).findByText('请输入组名称', { selector: '.ant-form-item-explain-error' })).toBeInTheDocument();
    fireEvent.change(name, { target: { value: '售后' } });
    await act(async () => fireEvent.click(within(dlg).getByRole('button', { name: /确\s?定/ })));
    await waitFor(() => expect(calls.find((c) => c.path === '/demo/group/save')?.body).toEqual({ parentId: 2, name: '售后' }));
  });

  it('opens the nodes that were open before a reload', async () => {
    localStorage.clear();
    localStorage.setItem('crud-tree-expanded:treeDemo', JSON.stringify(['1', '2']));
    setup();
    expect(await screen.findByText('退款')).toBeInTheDocument();
    expect(screen.getByText('订单')).toBeInTheDocument();
    // still remembered after the tree loaded (nothing overwrote them while the rows were on their way)
    expect(JSON.parse(localStorage.getItem('crud-tree-expanded:treeDemo')!)).toEqual(['1', '2']);
  });

  it('collapsing a node forgets its descendants; the collapse bar folds the panel and is remembered', async () => {
    localStorage.clear();
    setup();
    await screen.findByText('业务');
    const stored = () => JSON.parse(localStorage.getItem('crud-tree-expanded:treeDemo') ?? '[]');
    const switcherOf = (label: string) => screen.getByText(label).closest('.ant-tree-treenode')!.querySelector('.ant-tree-switcher') as HTMLElement;
    await act(async () => fireEvent.click(switcherOf('业务')));
    await act(async () => fireEvent.click(await waitFor(() => switcherOf('订单'))));
    await waitFor(() => expect(stored()).toEqual(['1', '2']));
    expect(await screen.findByText('退款')).toBeInTheDocument();
    // closing 业务 drops 订单 too: reopening 业务 shows 订单 closed
    await act(async () => fireEvent.click(switcherOf('业务')));
    await waitFor(() => expect(stored()).toEqual([]));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: '收起侧栏' })));
    expect(screen.queryByText('业务')).not.toBeInTheDocument();
    expect(localStorage.getItem('crud-tree-folded:treeDemo')).toBe('1');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: '展开侧栏' })));
    expect(await screen.findByText('业务')).toBeInTheDocument();
    expect(localStorage.getItem('crud-tree-folded:treeDemo')).toBeNull();
  });
});

describe('side tree counts after a write', () => {
  it('reads the tree again when a row is deleted, not when the list is only searched', async () => {
    const withRows = { ...page, api: { ...page.api, delete: 'GET /demo/delete' }, rowActions: [{ action: 'delete', label: '删除' }], columns: [...page.columns, { title: '操作', type: 'actions' }] } as PageDeclaration;
    const { services, calls } = fakeServices((r) => (r.path === '/demo/group/select' ? groups : r.path === '/demo/search' ? { records: [{ id: 7, name: '甲' }], total: 1 } : true));
    renderPage(withRows, services);
    const treeReads = () => calls.filter((c) => c.path === '/demo/group/select').length;
    await screen.findByText('甲');
    await waitFor(() => expect(treeReads()).toBe(1));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /搜\s?索/ })));
    await waitFor(() => expect(calls.filter((c) => c.path === '/demo/search').length).toBeGreaterThan(1));
    expect(treeReads()).toBe(1);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: '删除' })));
    const confirm = await screen.findByRole('dialog');
    await act(async () => fireEvent.click(within(confirm).getByRole('button', { name: /确\s?定/ })));
    await waitFor(() => expect(calls.some((c) => c.path === '/demo/delete')).toBe(true));
    await waitFor(() => expect(treeReads()).toBe(2));
  });
});
