import { act, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { checkPermission, hasPermission, Permission } from './permission';
import { sessionStore, setSessionUser, type SessionUser } from './session';

const user = (permissions: string[], permissionSwitch = true): SessionUser => ({
  token: 't',
  id: 1,
  username: 'u',
  roles: ['default'],
  permissions,
  permissionSwitch,
});

afterEach(() => sessionStore.set({ user: null, roles: [], permissions: [], permissionSwitch: true }));

describe('permissions', () => {
  it('throws when the list is missing or empty', () => {
    expect(() => hasPermission([])).toThrow('请设置操作权限标签值');
    expect(() => hasPermission(undefined as unknown as string[])).toThrow();
  });

  it('grants on *:*:*, on any listed one, and with * segments', () => {
    setSessionUser(user(['*:*:*']));
    expect(hasPermission(['anything:at:all'])).toBe(true);
    setSessionUser(user(['gemini:datasource:list', 'sys:var:*']));
    expect(hasPermission(['gemini:datasource:add', 'gemini:datasource:list'])).toBe(true);
    expect(hasPermission(['gemini:datasource:add'])).toBe(false);
    expect(hasPermission(['sys:var:save'])).toBe(true);
    // a '*' asked for is no wildcard (as on the server: common/permissions.ts)
    expect(hasPermission(['gemini:*:list'])).toBe(false);
    expect(hasPermission(['*:*:*'])).toBe(false);
    expect(hasPermission(['sys:var'])).toBe(false);
  });

  it('grants everything when the permission switch is off', () => {
    setSessionUser(user([], false));
    expect(hasPermission(['gemini:datasource:remove'])).toBe(true);
    expect(checkPermission({ permissions: [], permissionSwitch: true }, ['a:b:c'])).toBe(false);
  });

  it('<Permission> hides its children without the permission and follows session changes', async () => {
    setSessionUser(user(['a:b:c']));
    const { rerender } = render(createElement(Permission, { perms: ['x:y:z'], children: createElement('button', null, '删除') }));
    expect(screen.queryByText('删除')).toBeNull();
    act(() => setSessionUser(user(['x:y:*'])));
    rerender(createElement(Permission, { perms: ['x:y:z'], children: createElement('button', null, '删除') }));
    expect(await screen.findByText('删除')).toBeInTheDocument();
  });
});
