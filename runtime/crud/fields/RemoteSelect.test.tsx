// Dialog selects whose options come from a call (`x-options` on a Select / TreeSelect field).
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeServices, renderPage } from '../test-utils';
import type { PageDeclaration } from '../types';
import { toOptionNodes } from './remoteOptions';

const page = {
  id: 'userDemo',
  title: '用户',
  api: { search: 'POST /demo/user/search', save: 'POST /demo/user/save' },
  columns: [{ title: '账号', field: 'userName' }, { type: 'actions', title: '操作' }],
  rowActions: [{ action: 'edit' }],
  dialog: {
    schema: {
      type: 'object',
      properties: {
        userName: { type: 'string', title: '账号' },
        roleIds: {
          type: 'array',
          title: '角色',
          'x-component-props': { mode: 'multiple' },
          'x-options': { api: 'GET /demo/role/options', params: { status: 0 }, label: 'roleName', value: 'roleId' },
        },
        deptId: { type: 'number', title: '部门', 'x-component': 'TreeSelect', 'x-options': { api: 'POST /demo/dept/list', label: 'deptName', value: 'deptId', parentField: 'parentId' } },
      },
    },
  },
} as PageDeclaration;

const answer = (r: { path: string }) =>
  r.path === '/demo/role/options'
    ? [{ roleId: 1, roleName: '管理员' }, { roleId: 2, roleName: '审计员' }]
    : r.path === '/demo/dept/list'
      ? { records: [{ deptId: 10, parentId: 0, deptName: '总部' }, { deptId: 11, parentId: 10, deptName: '研发部' }] }
      : r.path.endsWith('/save')
        ? true
        : { records: [{ id: 7, userName: 'zhang', roleIds: [2], deptId: 11 }], total: 1 };

describe('remote options in a dialog', () => {
  it('a multiple select shows the held roles by name, offers the others from the call, and saves their values', async () => {
    const { services, calls } = fakeServices(answer);
    renderPage(page, services);
    await screen.findByText('zhang', {}, { timeout: 5000 });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^修\s?改$/ })));
    const dlg = await screen.findByRole('dialog');
    expect(await within(dlg).findByText('审计员')).toBeInTheDocument();
    // the department by its name, nested from flat rows
    expect(await within(dlg).findByText('研发部')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/demo/role/options')).toMatchObject({ method: 'GET', params: { status: 0 } });
    expect(calls.find((c) => c.path === '/demo/dept/list')).toMatchObject({ method: 'POST', body: {} });

    const roles = within(dlg).getByText('审计员').closest('.ant-select') as HTMLElement;
    await act(async () => fireEvent.mouseDown(roles.querySelector('.ant-select-selector')!));
    await act(async () => fireEvent.click(await screen.findByTitle('管理员')));
    await act(async () => fireEvent.click(within(dlg).getByTestId('dialog-ok')));
    await waitFor(() => expect(calls.find((c) => c.path.endsWith('/save'))?.body).toEqual({ id: 7, userName: 'zhang', roleIds: [2, 1], deptId: 11 }));
  });

  it('says 加载失败 in the open list when the call is refused', async () => {
    const { services } = fakeServices((r) => (r.path === '/demo/role/options' ? new Error('x') : answer(r)));
    renderPage(page, services);
    await screen.findByText('zhang', {}, { timeout: 5000 });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^修\s?改$/ })));
    const dlg = await screen.findByRole('dialog');
    await act(async () => fireEvent.mouseDown(within(dlg).getByText('角色').closest('.ant-formily-item')!.querySelector('.ant-select-selector')!));
    expect(await screen.findByText('加载失败')).toBeInTheDocument();
  });

  it('greys the options whose disabledField is true (shown, not chosen), nested or flat', () => {
    const rows = [
      { id: 1, parentId: 0, deptName: '公司', outside: true },
      { id: 2, parentId: 1, deptName: '北区' },
    ];
    expect(toOptionNodes(rows, { label: 'deptName', value: 'id', parentField: 'parentId', disabledField: 'outside' })).toEqual([
      { value: 1, label: '公司', disabled: true, children: [{ value: 2, label: '北区' }] },
    ]);
    // without the declaration nothing is greyed, whatever the rows carry
    expect(toOptionNodes(rows, { label: 'deptName', value: 'id' })).toEqual([{ value: 1, label: '公司' }, { value: 2, label: '北区' }]);
  });
});
