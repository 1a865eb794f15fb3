// A row action opening another declared page (`subList`) with the row's parameters in its list calls and new records.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeServices, renderPage } from './test-utils';
import type { PageDeclaration } from './types';

const roles = {
  id: 'roleDemo',
  title: '角色',
  api: { search: 'POST /demo/role/search' },
  columns: [{ title: '角色名称', field: 'roleName' }, { type: 'actions', title: '操作' }],
  rowActions: [{ action: 'subList', label: '分配用户', page: 'roleUserDemo', title: '分配用户【{{roleName}}】', params: { roleId: '{{id}}' } }],
} as PageDeclaration;

const roleUsers = {
  id: 'roleUserDemo',
  title: '角色的用户',
  api: { search: 'POST /demo/role/users', save: 'POST /demo/role/users/add' },
  columns: [{ title: '账号', field: 'userName' }],
  toolbar: [{ action: 'add' }],
  dialog: { schema: { type: 'object', properties: { userName: { type: 'string', title: '账号' } } } },
} as PageDeclaration;

describe('sub-list action', () => {
  it("opens the declared page titled from the row, its list and new records carrying the row's parameters", async () => {
    const { services, calls } = fakeServices((r) =>
      r.path === '/demo/role/search' ? { records: [{ id: 5, roleName: '审计员' }], total: 1 } : r.path === '/demo/role/users' ? { records: [{ id: 9, userName: 'li' }], total: 1 } : true,
    );
    const asked: string[] = [];
    services.loadPage = async (id) => {
      asked.push(id);
      if (id !== 'roleUserDemo') throw new Error('页面不存在');
      return roleUsers;
    };
    renderPage(roles, services);
    await screen.findByText('审计员', {}, { timeout: 5000 });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: '分配用户' })));
    const drawer = (await screen.findByText('分配用户【审计员】')).closest('.ant-drawer') as HTMLElement;
    expect(await within(drawer).findByText('li')).toBeInTheDocument();
    expect(asked).toEqual(['roleUserDemo']);
    expect(calls.find((c) => c.path === '/demo/role/users')?.body).toMatchObject({ roleId: 5, pageNum: 1, pageSize: 10 });
    await act(async () => fireEvent.click(within(drawer).getByRole('button', { name: /^新\s?增$/ })));
    const dlg = (await screen.findAllByRole('dialog')).find((d) => within(d).queryByPlaceholderText('请输入账号'))!;
    fireEvent.change(within(dlg).getByPlaceholderText('请输入账号'), { target: { value: 'wang' } });
    await act(async () => fireEvent.click(within(dlg).getByTestId('dialog-ok')));
    await waitFor(() => expect(calls.find((c) => c.path === '/demo/role/users/add')?.body).toEqual({ roleId: 5, userName: 'wang' }));
  });
});
