import { AxiosHeaders, type AxiosAdapter } from 'axios';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from './request';
import { clearSession, getToken, loadSession, sessionStore, signIn } from './session';

const answer = (data: unknown): AxiosAdapter => async (config) => ({
  data: { status: 0, msg: '', data }, status: 200, statusText: 'OK', headers: new AxiosHeaders(), config,
});
const user = { token: 't', id: 1, username: 'admin', roles: ['sys_admin'], permissions: ['*:*:*'], permissionSwitch: false };

afterEach(() => clearSession());

describe('session', () => {
  it('loads the user, roles, permissions and the permission switch into the store', async () => {
    request.defaults.adapter = answer(user);
    await loadSession();
    expect(sessionStore.get()).toMatchObject({ user: { username: 'admin' }, roles: ['sys_admin'], permissions: ['*:*:*'], permissionSwitch: false });
  });

  it('rejects a deleted or not yet effective user as 账号尚未生效 and leaves the store empty', async () => {
    for (const marks of [{ deleted: true }, { notEffective: true }, { username: '' }]) {
      request.defaults.adapter = answer({ ...user, ...marks });
      await expect(loadSession()).rejects.toThrow('账号尚未生效');
      expect(sessionStore.get().user).toBeNull();
    }
  });

  it('signIn stores the token; clearSession forgets everything', () => {
    signIn('tok');
    expect(getToken()).toBe('tok');
    clearSession();
    expect(getToken()).toBeNull();
  });
});
