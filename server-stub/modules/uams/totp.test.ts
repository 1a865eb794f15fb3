// Issue 38 item 4: the second factor of local accounts, over real HTTP on every store. 认证设置 requires it for
// sys_admin; the admin's next password sign-in sets it up (QR key, a code), later ones ask for a code; a code is
// accepted once, a recovery code once; five wrong codes lock the account like wrong passwords; the user's own
// 双因素认证 in 个人信息; an admin's reset; every step in the sign-in log or the operation log.
import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { encryptFor, serverForSuite, testStores, TEST_PASSWORD, type TestServer } from '../../testing/server.js';
import { addPerson, PERSON_PASSWORD } from '../../testing/people.js';

const NO_PERMISSION = '没有权限访问该功能，请联系管理员授权';
const codeAt = (secret: string, offsetSeconds = 0) => OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: Date.now() + offsetSeconds * 1000 });

async function passwordStep(s: TestServer, username: string, password: string) {
  const pem = (await s.request<string>('GET', '/api/uams/publicKey', undefined, null)).body.data;
  return (
    await s.request<{ token?: string; mfa?: 'verify' | 'enroll'; ticket?: string }>(
      'POST',
      '/api/uams/login',
      { loginType: 'password', area: '+86', mobilePhone: username, password: encryptFor(pem, password) },
      null,
    )
  ).body;
}
const secondStep = (s: TestServer, ticket: string, code: string) => s.request<{ token: string; recoveryCodes?: string[] }>('POST', '/api/uams/login/totp', { ticket, code }, null);

for (const store of testStores) {
  describe(`TOTP second factor (${store} store)`, () => {
    const s = serverForSuite({ store, env: { LOGINS_PER_MINUTE: '1000' } });
    let secret = '';
    let setupCode = '';
    let recovery: string[] = [];

    it('认证设置: masked, guarded, checked; requiring TOTP for sys_admin', async () => {
      expect((await s.request('GET', '/api/uams/settings', undefined, null)).http).toBe(401);
      const got = await s.request<any>('GET', '/api/uams/settings');
      expect(got.body.data).toMatchObject({ passwordForm: 'everyone', mfa: { enabled: false, roles: ['sys_admin'] }, ldap: { enabled: false, bindPassword: '' } });
      const dev = await addPerson(s, 'totp.dev', [await roleId(s, 'default')]);
      expect((await s.request('GET', '/api/uams/settings', undefined, dev.token)).body.msg).toBe(NO_PERMISSION);
      expect((await s.request('POST', '/api/uams/settings', { mfa: { enabled: true } }, dev.token)).body.msg).toBe(NO_PERMISSION);
      // hostile bodies: unknown keys, wrong types, a URL of the wrong scheme
      expect((await s.request('POST', '/api/uams/settings', { mfa: { enabled: true }, __proto__x: 1 })).body.status).not.toBe(0);
      expect((await s.request('POST', '/api/uams/settings', { mfa: { roles: [{ $ne: 1 }] } })).body.status).not.toBe(0);
      expect((await s.request('POST', '/api/uams/settings', { ldap: { enabled: true, url: 'http://dc.corp.example' } })).body.msg).toBe('LDAP 服务器地址须以 ldap:// 或 ldaps:// 开头');
      expect((await s.request('POST', '/api/uams/settings', { ldap: { enabled: true, url: 'ldap://dc', mode: 'search', baseDn: 'DC=x', userFilter: '(uid=*)' } })).body.msg).toBe(
        '用户过滤条件须包含 {account}',
      );
      const saved = await s.request<any>('POST', '/api/uams/settings', { mfa: { enabled: true, roles: ['sys_admin'] } });
      expect(saved.body.msg).toBe('保存成功');
      expect((await s.request<any>('GET', '/api/uams/options', undefined, null)).body.data).toEqual({ passwordForm: 'everyone', ldap: false, oidc: null });
    });

    it('the admin sets TOTP up at the next sign-in: no session before the code', async () => {
      const first = await passwordStep(s, 'admin', TEST_PASSWORD);
      expect(first.data).toMatchObject({ mfa: 'enroll' });
      expect(first.data.token).toBeUndefined();
      const ticket = first.data.ticket!;
      expect((await secondStep(s, ticket, '123456')).body.msg).toBe('请先扫描二维码完成绑定');
      const setup = await s.request<{ secret: string; uri: string; qr: string }>('POST', '/api/uams/login/totp/setup', { ticket }, null);
      expect(setup.body.data.uri).toMatch(/^otpauth:\/\/totp\//);
      expect(setup.body.data.qr).toMatch(/^data:image\/png;base64,/);
      secret = setup.body.data.secret;
      expect((await secondStep(s, ticket, '000000')).body.msg).toMatch(/^动态验证码错误，还可尝试 \d 次$/);
      setupCode = codeAt(secret);
      const done = await secondStep(s, ticket, setupCode);
      expect(done.body.status).toBe(0);
      recovery = done.body.data.recoveryCodes!;
      expect(recovery).toHaveLength(10);
      expect((await s.request('GET', '/api/uams/session/find', undefined, done.body.data.token)).body.status).toBe(0);
      // the ticket is spent
      expect((await secondStep(s, ticket, setupCode)).body.msg).toBe('验证已超时，请重新登录');
      // the secret is sealed in the store, never in clear
      const row = await s.app.ctx.db.selectFrom('sys_user_mfa').selectAll().executeTakeFirstOrThrow();
      expect(row.secret).not.toContain(secret);
      expect(row.recovery).not.toContain(recovery[0]);
    });

    it('later sign-ins ask for a code; a code is accepted once; a recovery code once', async () => {
      // the code just used for the setup cannot be used again (same time step)
      let t = (await passwordStep(s, 'admin', TEST_PASSWORD)).data;
      expect(t.mfa).toBe('verify');
      expect((await secondStep(s, t.ticket!, setupCode)).body.msg).toMatch(/^动态验证码错误/);
      // the next step's code (clock drift of one step allowed) is accepted once
      const next = codeAt(secret, 30);
      expect((await secondStep(s, t.ticket!, next)).body.status).toBe(0);
      t = (await passwordStep(s, 'admin', TEST_PASSWORD)).data;
      expect((await secondStep(s, t.ticket!, next)).body.msg).toMatch(/^动态验证码错误/);
      // a recovery code, typed in capitals without its dash, works once
      expect((await secondStep(s, t.ticket!, recovery[0].replace('-', '').toUpperCase())).body.status).toBe(0);
      t = (await passwordStep(s, 'admin', TEST_PASSWORD)).data;
      expect((await secondStep(s, t.ticket!, recovery[0])).body.msg).toMatch(/^动态验证码错误/);
      expect((await secondStep(s, 'x'.repeat(30), codeAt(secret))).body.msg).toBe('验证已超时，请重新登录');
      const status = await s.request<any>('GET', '/api/uams/totp');
      expect(status.body.data).toEqual({ enabled: true, required: true, recoveryLeft: 9, provider: false });
      // the role requires it: it cannot be turned off
      expect((await s.request('POST', '/api/uams/totp/disable', { code: codeAt(secret, -30) })).body.msg).toBe('您的角色要求使用双因素认证，不能关闭');
      await s.app.audit.settled();
      const log = await s.request<any>('POST', '/api/system/loginLog/list', { pageNum: 1, pageSize: 50 });
      const msgs = log.body.data.records.map((r: any) => r.msg);
      expect(msgs).toEqual(expect.arrayContaining(['登录成功（已绑定动态验证码）', '登录成功（使用恢复码）', '登录成功（动态验证码）']));
      expect(msgs.filter((m: string) => m.startsWith('动态验证码错误')).length).toBeGreaterThanOrEqual(3);
    });

    it('wrong codes are counted apart from passwords: five lock the account, whatever tickets they came with', async () => {
      await s.app.ctx.db.deleteFrom('sys_login_attempt').execute();
      // three on one ticket, a right password (which resets the password count) for a new ticket, two more: locked
      let t = (await passwordStep(s, 'admin', TEST_PASSWORD)).data;
      for (let i = 0; i < 3; i++) await secondStep(s, t.ticket!, '999999');
      t = (await passwordStep(s, 'admin', TEST_PASSWORD)).data;
      expect((await secondStep(s, t.ticket!, '999999')).body.msg).toBe('动态验证码错误，还可尝试 1 次');
      expect((await secondStep(s, t.ticket!, '999999')).body.msg).toBe('动态验证码连续输错 5 次，账号已锁定 1 分钟');
      t = (await passwordStep(s, 'admin', TEST_PASSWORD)).data;
      expect((await secondStep(s, t.ticket!, codeAt(secret, -30))).body.msg).toMatch(/^动态验证码错误次数过多，请 \d+ 秒后再试$/);
      await s.app.ctx.db.deleteFrom('sys_login_attempt').execute();
    });

    it("a user's own TOTP in 个人信息, and an admin's reset", async () => {
      const person = await addPerson(s, 'totp.self', [await roleId(s, 'default')]);
      const mine = (method: 'GET' | 'POST', path: string, body?: unknown) => s.request<any>(method, `/api/uams${path}`, body, person.token);
      expect((await mine('GET', '/totp')).body.data).toEqual({ enabled: false, required: false, recoveryLeft: 0, provider: false });
      expect((await mine('POST', '/totp/enable', { code: '123456' })).body.msg).toBe('二维码已过期，请重新开始绑定');
      const e = (await mine('POST', '/totp/setup')).body.data;
      expect((await mine('POST', '/totp/enable', { code: '000000' })).body.msg).toBe('动态验证码错误');
      const on = await mine('POST', '/totp/enable', { code: codeAt(e.secret) });
      expect(on.body.data.recoveryCodes).toHaveLength(10);
      // now the password alone is not enough
      expect((await passwordStep(s, 'totp.self', PERSON_PASSWORD)).data.mfa).toBe('verify');
      const again = await mine('POST', '/totp/recovery', { code: codeAt(e.secret, 30) });
      expect(again.body.data.recoveryCodes).toHaveLength(10);
      expect(again.body.data.recoveryCodes).not.toEqual(on.body.data.recoveryCodes);
      // the person cannot reset anyone's (nor their own through the admin's call)
      expect((await s.request('POST', `/api/system/user/resetTotp?id=${person.id}`, undefined, person.token)).body.msg).toBe(NO_PERMISSION);
      // the admin (signed in with the code) resets it: the person signs in with the password alone again
      const t = (await passwordStep(s, 'admin', TEST_PASSWORD)).data;
      const admin = (await secondStep(s, t.ticket!, recoveryCode())).body.data.token;
      const reset = await s.request('POST', `/api/system/user/resetTotp?id=${person.id}`, undefined, admin);
      expect(reset.body.msg).toBe('已重置双因素认证');
      expect((await s.request('POST', `/api/system/user/resetTotp?id=${person.id}`, undefined, admin)).body.msg).toBe('该用户未启用双因素认证');
      expect((await passwordStep(s, 'totp.self', PERSON_PASSWORD)).data.token).toBeTruthy();
      await s.app.audit.settled();
      const ops = await s.request<any>('POST', '/api/system/operLog/list', { pageNum: 1, pageSize: 50 }, admin);
      const titles = ops.body.data.records.map((r: any) => r.title);
      expect(titles).toEqual(expect.arrayContaining(['重置双因素认证', '启用双因素认证', '设置双因素认证', '重新生成恢复码']));
    });

    it('认证设置 may keep the password form to administrators: the server refuses everyone else', async () => {
      const person = await addPerson(s, 'totp.local', [await roleId(s, 'default')]);
      expect(person.token).toBeTruthy();
      expect((await s.request('POST', '/api/uams/settings', { passwordForm: 'admins' })).body.msg).toBe('保存成功');
      expect((await s.request<any>('GET', '/api/uams/options', undefined, null)).body.data.passwordForm).toBe('admins');
      expect((await passwordStep(s, 'totp.local', PERSON_PASSWORD)).msg).toBe('请使用企业账号登录');
      // the administrator still signs in with a password (and the code)
      expect((await passwordStep(s, 'admin', TEST_PASSWORD)).data.mfa).toBe('verify');
      await s.request('POST', '/api/uams/settings', { passwordForm: 'everyone' });
      expect((await passwordStep(s, 'totp.local', PERSON_PASSWORD)).data.token).toBeTruthy();
    });

    let used = 1;
    const recoveryCode = () => recovery[used++];
  });
}

async function roleId(s: TestServer, key: string): Promise<number> {
  const r = await s.request<any[]>('GET', '/api/system/role/options');
  return r.body.data.find((o) => o.roleKey === key).roleId;
}
