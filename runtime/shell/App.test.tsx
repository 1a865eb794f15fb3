// The shell in jsdom against a fake server: the guard sends a visitor without a token to the
// login page, and a stored token gets the session, the menu and the home page.
import { act, render, screen, waitFor } from '@testing-library/react';
import { AxiosHeaders, type AxiosAdapter } from 'axios';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import platform from '../../schemas/menus/platform.json';
import { request } from '../core/request';
import { sessionStore } from '../core/session';
import { setToken } from '../core/token';
import { App } from './App';
import { menuStore } from './state';

const calls: string[] = [];
const server: AxiosAdapter = async (config) => {
  calls.push(`${config.method?.toUpperCase()} ${config.url}`);
  const data =
    config.url === '/uams/session/find'
      ? { token: 't', id: 1, username: 'admin', nickName: '系统管理员', roles: ['sys_admin'], permissions: ['*:*:*'], permissionSwitch: true }
      : config.url === '/menu/routes/get'
        ? platform.items
        : {};
  return { data: { status: 0, msg: '', data }, status: 200, statusText: 'OK', headers: new AxiosHeaders(), config };
};

beforeEach(() => {
  calls.length = 0;
  localStorage.clear();
  request.defaults.adapter = server;
});
afterEach(() => {
  sessionStore.set({ user: null, roles: [], permissions: [], permissionSwitch: true });
  menuStore.set({ menus: [], loaded: false });
});

describe('shell', () => {
  it('without a token the guard goes to /login with a redirect back', async () => {
    window.history.pushState(null, '', '/data/model?x=1');
    render(<App />);
    expect(await screen.findByPlaceholderText('账号')).toBeInTheDocument();
    expect(window.location.pathname).toBe('/login');
    expect(new URLSearchParams(window.location.search).get('redirect')).toBe('/data/model?x=1');
    expect(screen.getByText('数据服务平台')).toBeInTheDocument();
    // only what the sign-in page offers is asked (no session, no menus)
    expect(calls).toEqual(['GET /uams/options']);
  });

  it('with a token it loads session and menus, then shows the shell and the home page', async () => {
    setToken('tok');
    window.history.pushState(null, '', '/');
    await act(async () => {
      render(<App />);
    });
    expect(await screen.findByText('平台集成', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/index');
    expect(calls).toEqual(expect.arrayContaining(['GET /uams/session/find', 'GET /menu/routes/get']));
    await waitFor(() => expect(screen.getAllByText('数据管理').length).toBeGreaterThan(0));
    expect(screen.getAllByText('系统管理员').length).toBeGreaterThan(0);
  });
});
