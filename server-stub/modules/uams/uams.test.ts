import { describe, expect, it } from 'vitest';
import { serverForSuite, startTestServer, testStores, TEST_PASSWORD } from '../../testing/server.js';

// Sign-in is limited to 20 calls a minute per client address (all of these come from 127.0.0.1, one server
// per store): the lock, enumeration and rate-limit cases live in signin-guards.test.ts, from addresses of their own.
describe.each(testStores)('sign-in and session (%s store)', (store) => {
  const s = serverForSuite({ store });

  it('serves an RSA public key without a token', async () => {
    const r = await s.request<string>('GET', '/api/uams/publicKey', undefined, null);
    expect(r.body.status).toBe(0);
    expect(r.body.data).toMatch(/^-----BEGIN PUBLIC KEY-----/);
  });

  it('signs in with an encrypted password and finds the session', async () => {
    const token = await s.loginAs('admin');
    const r = await s.request('GET', '/api/uams/session/find', undefined, token);
    expect(r.body.status).toBe(0);
    expect(r.body.data).toMatchObject({ token, username: 'admin', nickName: '系统管理员', roles: ['sys_admin'], permissions: ['*:*:*'], permissionSwitch: true });
    expect(JSON.stringify(r.body)).not.toContain('password');
  });

  it('refuses a plain-text password', async () => {
    const r = await s.request('POST', '/api/uams/login', { mobilePhone: 'developer', password: TEST_PASSWORD }, null);
    expect(r.body.status).toBe(1);
    expect(r.body.msg).toContain('加密');
  });

  it('answers calls without a token with status 2, HTTP 401 and the login URL', async () => {
    for (const [m, p] of [['GET', '/api/uams/session/find'], ['GET', '/api/menu/routes/get?moduleType=platform'], ['POST', '/api/dict/selectMapData']] as const) {
      const r = await s.request(m, p, m === 'POST' ? ['YES_OR_NO'] : undefined, null);
      expect(r.http).toBe(401);
      expect(r.body).toEqual({ status: 2, msg: expect.any(String), data: '/login' });
    }
    const bogus = await s.request('GET', '/api/uams/session/find', undefined, 'not-a-token');
    expect(bogus.body.status).toBe(2);
  });

  it('kills the token at logout', async () => {
    const token = await s.loginAs('developer');
    expect((await s.request('GET', '/api/uams/session/find', undefined, token)).body.status).toBe(0);
    const out = await s.request<string>('POST', '/api/uams/logout', undefined, token);
    expect(out.body).toMatchObject({ status: 0, data: '/login' });
    const after = await s.request('GET', '/api/uams/session/find', undefined, token);
    expect(after.http).toBe(401);
    expect(after.body.status).toBe(2);
  });

  it('refuses deleted and not-yet-effective accounts, and drops their live sessions', async () => {
    const token = await s.loginAs('devapprover');
    const exec = (q: string) => s.exec(q);
    await exec(`update sys_user set deleted = 1 where username = 'devapprover'`);
    const r = await s.request('GET', '/api/uams/session/find', undefined, token);
    expect(r.body.status).toBe(2);
    expect(r.body.msg).toContain('尚未生效');
    await expect(s.loginAs('devapprover')).rejects.toThrow('尚未生效');
    await exec(`update sys_user set deleted = 0, effective_from = '2999-01-01 00:00:00' where username = 'devapprover'`);
    await expect(s.loginAs('devapprover')).rejects.toThrow('账号尚未生效（生效时间 2999-01-01 00:00:00）');
    await exec(`update sys_user set effective_from = null where username = 'devapprover'`);
    expect(await s.loginAs('devapprover')).toBeTruthy();
  });

  it('lists users for an admin and refuses a user without the permission', async () => {
    const r = await s.request<{ records: any[]; total: number }>('POST', '/api/uams/user/search', { pageNum: 1, pageSize: 10, search: 'app' });
    expect(r.body.status).toBe(0);
    expect(r.body.data.total).toBe(2);
    expect(r.body.data.records.map((u) => u.username).sort()).toEqual(['bizapprover', 'devapprover']);
    expect(JSON.stringify(r.body)).not.toMatch(/password|scrypt/);
    const dev = await s.loginAs('developer');
    const denied = await s.request('POST', '/api/uams/user/search', {}, dev);
    expect(denied.http).toBe(403);
    expect(denied.body).toMatchObject({ status: 1, msg: '没有权限访问该功能，请联系管理员授权' });
  });

  it('matches % and _ in the user search literally', async () => {
    await s.exec(`insert into sys_user (username, nick_name, password_hash, deleted, failed_logins, create_time) values ('pctuser', '进度100%', 'x', 0, 0, '2026-01-01 00:00:00'), ('und_er', 'under', 'x', 0, 0, '2026-01-01 00:00:00')`);
    const names = async (search: string) => (await s.request<{ records: any[] }>('POST', '/api/uams/user/search', { search })).body.data.records.map((u) => u.username).sort();
    expect(await names('%')).toEqual(['pctuser']);
    expect(await names('_')).toEqual(['und_er']);
    expect(await names('0%')).toEqual(['pctuser']);
    expect(await names('DEVAPP')).toEqual(['devapprover']);
  });

  it('answers bad input with status 1 and a Chinese message naming the field, never a 500', async () => {
    const cases: [unknown, RegExp][] = [
      ['{not json', /不是合法的 JSON/],
      [{ password: 'x' }, /^请输入账号$/],
      [{ mobilePhone: '  ', password: 'x' }, /^请输入账号$/],
      [{ mobilePhone: 'admin' }, /^请输入密码$/],
      [{ mobilePhone: 'admin', password: '' }, /^请输入密码$/],
      [{ mobilePhone: 12, password: 'x' }, /字段「账号（mobilePhone）」类型应为字符串/],
      [{ mobilePhone: 'a'.repeat(65), password: 'x' }, /长度不能超过 64/],
      [[1, 2], /请求体类型应为对象/],
    ];
    for (const [body, msg] of cases) {
      const r = await s.request('POST', '/api/uams/login', body, null);
      expect(r.http).toBeLessThan(500);
      expect(r.body.status).toBe(1);
      expect(r.body.msg).toMatch(msg);
      expect(JSON.stringify(r.body)).not.toMatch(/at .*\.ts|stack/);
    }
    const page = await s.request('POST', '/api/uams/user/search', { pageSize: 'ten' });
    expect(page.body).toMatchObject({ status: 1, msg: '字段「每页条数（pageSize）」类型应为整数' });
    const unknown = await s.request('GET', '/api/nowhere');
    expect(unknown.http).toBe(404);
    expect(unknown.body).toMatchObject({ status: 1, msg: '接口不存在' });
  });
});

describe('session lifetime', () => {
  it('expires tokens after SESSION_TTL', async () => {
    const s = await startTestServer({ env: { SESSION_TTL: '1' } });
    try {
      expect((await s.request('GET', '/api/uams/session/find')).body.status).toBe(0);
      await new Promise((r) => setTimeout(r, 1300));
      const r = await s.request('GET', '/api/uams/session/find');
      expect(r.http).toBe(401);
      expect(r.body.status).toBe(2);
    } finally {
      await s.close();
    }
  });
});
