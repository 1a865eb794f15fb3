// A dialog's tree field (`"x-component": "Tree"` with `x-options`): nodes from a call, value = the fully checked keys.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeServices, renderPage, type Recorded } from '../test-utils';
import type { PageDeclaration } from '../types';

const page = {
  id: 'roleDemo',
  title: '角色',
  api: { search: 'POST /demo/role/search', save: 'POST /demo/role/save' },
  columns: [{ title: '角色名称', field: 'roleName' }, { type: 'actions', title: '操作' }],
  toolbar: [{ action: 'add' }],
  rowActions: [{ action: 'edit' }],
  dialog: {
    schema: {
      type: 'object',
      properties: {
        roleName: { type: 'string', title: '角色名称' },
        menuIds: { type: 'array', title: '菜单权限', 'x-component': 'Tree', 'x-options': { api: 'GET /demo/menu/tree' } },
      },
    },
  },
} as PageDeclaration;

const tree = [
  {
    key: 1,
    title: '系统管理',
    children: [
      { key: 11, title: '用户管理', children: [{ key: 111, title: '用户查询' }, { key: 112, title: '用户新增' }] },
      { key: 12, title: '角色管理' },
    ],
  },
  { key: 2, title: '系统监控', children: [{ key: 21, title: '在线用户' }] },
];

function setup(treeAnswer: (r: Recorded) => unknown = () => tree) {
  return fakeServices((r) =>
    r.path === '/demo/menu/tree' ? treeAnswer(r) : r.path.endsWith('/save') ? true : { records: [{ id: 5, roleName: '审计员', menuIds: [1, 11, 111, 112, 12] }], total: 1 },
  );
}
const node = (dlg: HTMLElement, title: string) => within(dlg).getByText(title).closest('.ant-tree-treenode') as HTMLElement;
const box = (dlg: HTMLElement, title: string) => node(dlg, title).querySelector('.ant-tree-checkbox') as HTMLElement;
const state = (dlg: HTMLElement, title: string) => {
  const c = box(dlg, title).className;
  return c.includes('ant-tree-checkbox-checked') ? 'checked' : c.includes('ant-tree-checkbox-indeterminate') ? 'half' : 'none';
};
const saved = async (calls: Recorded[]) => {
  await waitFor(() => expect(calls.some((c) => c.path.endsWith('/save'))).toBe(true));
  return ((calls.find((c) => c.path.endsWith('/save'))!.body as { menuIds?: number[] }).menuIds ?? []).slice().sort((a, b) => a - b);
};

describe('tree field in a dialog', () => {
  it('checks a node; a parent joins the value only when all its children are checked (half-checked shown, not saved)', async () => {
    let answer!: (v: unknown) => void;
    const pending = new Promise((r) => (answer = r));
    const { services, calls } = setup(() => pending);
    renderPage(page, services);
    await screen.findByText('审计员', {}, { timeout: 5000 });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^新\s?增$/ })));
    const dlg = await screen.findByRole('dialog');
    expect(within(dlg).getByText('加载中…')).toBeInTheDocument();
    await act(async () => answer(tree));
    fireEvent.click(within(dlg).getByText('展开/折叠'));
    await act(async () => fireEvent.click(box(dlg, '用户查询')));
    expect([state(dlg, '用户查询'), state(dlg, '用户管理'), state(dlg, '系统管理')]).toEqual(['checked', 'half', 'half']);
    await act(async () => fireEvent.click(box(dlg, '用户新增')));
    expect([state(dlg, '用户管理'), state(dlg, '系统管理'), state(dlg, '角色管理')]).toEqual(['checked', 'half', 'none']);
    fireEvent.change(within(dlg).getByPlaceholderText('请输入角色名称'), { target: { value: '运维' } });
    await act(async () => fireEvent.click(within(dlg).getByTestId('dialog-ok')));
    expect(await saved(calls)).toEqual([11, 111, 112]);
  });

  it('shows a saved value, selects all / none, and with 父子联动 off checks a node by itself', async () => {
    const { services, calls } = setup();
    renderPage(page, services);
    await screen.findByText('审计员', {}, { timeout: 5000 });
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: /^修\s?改$/ })));
    const dlg = await screen.findByRole('dialog');
    await within(dlg).findByText('系统管理');
    fireEvent.click(within(dlg).getByText('展开/折叠'));
    expect([state(dlg, '系统管理'), state(dlg, '用户新增'), state(dlg, '系统监控')]).toEqual(['checked', 'checked', 'none']);
    await act(async () => fireEvent.click(within(dlg).getByText('全选/全不选')));
    expect(state(dlg, '在线用户')).toBe('checked');
    await act(async () => fireEvent.click(within(dlg).getByText('全选/全不选')));
    expect(state(dlg, '系统管理')).toBe('none');
    await act(async () => fireEvent.click(within(dlg).getByText('父子联动')));
    await act(async () => fireEvent.click(box(dlg, '系统监控')));
    expect([state(dlg, '系统监控'), state(dlg, '在线用户')]).toEqual(['checked', 'none']);
    await act(async () => fireEvent.click(box(dlg, '用户查询')));
    // unlinked, the ancestors of a checked node show half-checked
    expect([state(dlg, '用户管理'), state(dlg, '系统管理')]).toEqual(['half', 'half']);
    await act(async () => fireEvent.click(within(dlg).getByTestId('dialog-ok')));
    expect(await saved(calls)).toEqual([2, 111]);
    expect(calls.find((c) => c.path === '/demo/menu/tree')).toMatchObject({ method: 'GET' });
  });

  it('says 暂无数据 for an empty answer and 加载失败 for a refused call', async () => {
    for (const [answer, text] of [[[], '暂无数据'], [new Error('x'), '加载失败']] as const) {
      const { services } = setup(() => answer);
      const view = renderPage(page, services);
      await screen.findByText('审计员', {}, { timeout: 5000 });
      await act(async () => fireEvent.click(await screen.findByRole('button', { name: /^新\s?增$/ })));
      const dlg = await screen.findByRole('dialog');
      expect((await within(dlg).findAllByText(text)).length).toBeGreaterThan(0);
      view.unmount();
    }
  });
});
