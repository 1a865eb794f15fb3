// A `type: "switch"` column: confirm, call with { id, field: value }, reload; a refused call puts the switch back.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeServices, renderPage } from './test-utils';
import type { PageDeclaration } from './types';

const page = {
  id: 'userDemo',
  title: '用户',
  api: { search: 'POST /demo/user/search' },
  columns: [
    { title: '账号', field: 'userName' },
    { title: '状态', field: 'status', type: 'switch', call: 'POST /demo/user/changeStatus', on: '0', off: '1', confirm: '确认要{{action}}【{{userName}}】吗？', perms: ['demo:user:edit'] },
  ],
} as PageDeclaration;

function setup(refuse = false) {
  const db = { id: 7, userName: 'zhang', status: '0' };
  const f = fakeServices((r) => {
    if (r.path === '/demo/user/changeStatus') {
      if (refuse) return new Error('不能停用自己');
      db.status = (r.body as { status: string }).status;
      return true;
    }
    return { records: [{ ...db }], total: 1 };
  });
  return f;
}
const sw = () => screen.getByRole('switch', { name: '状态' });

describe('switch column', () => {
  it('asks with the row and the act, sends { id, status: off }, says 停用成功 and shows the reloaded value', async () => {
    const { services, calls } = setup();
    renderPage(page, services);
    await screen.findByText('zhang', {}, { timeout: 5000 });
    expect(sw()).toBeChecked();
    await act(async () => fireEvent.click(sw()));
    expect(await screen.findByText('确认要停用【zhang】吗？')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/demo/user/changeStatus')).toBe(false);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^确\s?定$/ })));
    await waitFor(() => expect(calls.find((c) => c.path === '/demo/user/changeStatus')).toMatchObject({ method: 'POST', body: { id: 7, status: '1' } }));
    expect(await screen.findByText('停用成功')).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.path.endsWith('/search'))).toHaveLength(2));
    await waitFor(() => expect(sw()).not.toBeChecked());
  });

  it('puts the switch back when the call is refused, and is read-only without the permission', async () => {
    const { services, calls } = setup(true);
    const view = renderPage(page, services);
    await screen.findByText('zhang', {}, { timeout: 5000 });
    await act(async () => fireEvent.click(sw()));
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: /^确\s?定$/ })));
    await waitFor(() => expect(calls.some((c) => c.path === '/demo/user/changeStatus')).toBe(true));
    await waitFor(() => expect(sw()).toBeChecked());
    expect(screen.queryByText('停用成功')).toBeNull();
    view.unmount();

    services.hasPermission = () => false;
    renderPage(page, services);
    await screen.findByText('zhang', {}, { timeout: 5000 });
    expect(sw()).toBeDisabled();
  });
});
