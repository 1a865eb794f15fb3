// Issue 38 item 1 against a real OpenID provider (server-stub/testing/idp.ts: oidc-provider, a certified
// implementation) over real HTTP, on every store: the code flow with PKCE walked as a browser walks it (redirects,
// cookies, the provider's login form), the account made from the claims with 身份映射 applied, the group removed
// and the role gone at the next sign-in, no token in any address, the flow bound to the browser that began it, a
// callback used once, the return address kept to the console, single logout, and a provider that is down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverForSuite, testStores, TEST_PASSWORD } from '../../testing/server.js';
import { startIdp, type TestIdp } from '../../testing/idp.js';
import { Browser, postForm } from '../../testing/http-browser.js';
import { MSG_OIDC_EXPIRED } from './oidc.js';

/** The provider's login form on the page: fill it and send it. */
async function fillLogin(b: Browser, page: { url: URL; text: string }, username: string, password: string) {
  expect(page.text).toContain('测试身份提供方');
  return postForm(b, page, { username, password });
}

const WANG = { sub: 'u-1001', username: 'wangwu', password: 'Ww#2026pass', name: '王五', email: 'wangwu@corp.example', phone: '13700000003', groups: ['bi-designers', 'staff'] };

for (const store of testStores) {
  describe(`OpenID Connect sign-in (${store} store)`, () => {
    const s = serverForSuite({ store, env: { LOGINS_PER_MINUTE: '1000' } });
    let idp: TestIdp;
    let token = '';
    let deptId = 0;
    beforeAll(async () => {
      idp = await startIdp({ redirectUris: [`${s.url}/api/uams/oidc/callback`], postLogoutRedirectUris: [`${s.url}/login`], users: [{ ...WANG, groups: [...WANG.groups] }] });
      deptId = (await s.request<number>('POST', '/api/system/dept/save', { deptName: '数据分析部', parentId: 0, orderNum: 0, status: 0 })).body.data;
      await s.request('POST', '/api/uams/identityMap/save', { provider: 'oidc', groupName: 'bi-designers', roleKey: 'designer', deptId });
    });
    afterAll(() => idp?.close());

    it('认证设置: the client secret sealed; 测试连接 reads the discovery; the sign-in page offers the button', async () => {
      expect((await s.request<any>('GET', '/api/uams/options', undefined, null)).body.data.oidc).toBeNull();
      const test = await s.request<boolean>('POST', '/api/uams/settings/oidc/test', { issuer: idp.issuer, clientId: idp.clientId });
      expect(test.body).toMatchObject({ data: true, msg: `已读取提供方配置：${idp.issuer}（支持单点退出）` });
      expect((await s.request<boolean>('POST', '/api/uams/settings/oidc/test', { issuer: 'http://127.0.0.1:1/x' })).body).toMatchObject({ data: false, msg: '连接失败：无法连接到该地址' });
      const saved = await s.request<any>('POST', '/api/uams/settings', {
        oidc: { enabled: true, issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, scopes: 'openid profile email phone groups', label: '使用企业账号登录' },
      });
      expect(saved.body.data.oidc.clientSecret).toBe('******');
      const row = await s.app.ctx.db.selectFrom('sys_setting').select('value').where('key', '=', 'auth.settings').executeTakeFirstOrThrow();
      expect(row.value).not.toContain(idp.clientSecret);
      expect((await s.request<any>('GET', '/api/uams/options', undefined, null)).body.data.oidc).toEqual({ label: '使用企业账号登录' });
    });

    it('使用企业账号登录 as a member of bi-designers: the designer role in the mapped department, no token in any address', async () => {
      const b = new Browser();
      const form = await b.go(`${s.url}/api/uams/oidc/start?redirect=${encodeURIComponent('/datav/screen?x=1')}`);
      // at the provider, with PKCE and a nonce asked for
      const authorize = b.visited.find((u) => u.startsWith(`${idp.issuer}/auth`))!;
      expect(new URL(authorize).searchParams.get('code_challenge_method')).toBe('S256');
      expect(new URL(authorize).searchParams.get('nonce')).toBeTruthy();
      expect((await fillLogin(b, form, 'wangwu', 'wrong')).text).toContain('用户名或密码错误');
      const landed = await fillLogin(b, form, 'wangwu', WANG.password);
      expect(landed.url.pathname).toBe('/login');
      expect(landed.url.searchParams.get('sso')).toBe('1');
      expect(landed.url.searchParams.get('redirect')).toBe('/datav/screen?x=1');
      const finish = await b.post(`${s.url}/api/uams/sso/finish`);
      expect(finish.status).toBe(0);
      token = finish.data.token;
      // the handoff works once
      expect((await b.post(`${s.url}/api/uams/sso/finish`)).msg).toBe(MSG_OIDC_EXPIRED);
      for (const u of b.visited) expect(u, 'an address held the session token').not.toContain(token);
      const me = await s.request<any>('GET', '/api/uams/session/find', undefined, token);
      expect(me.body.data).toMatchObject({ username: 'wangwu', nickName: '王五', email: 'wangwu@corp.example', phoneNumber: '13700000003', roles: ['designer'] });
      expect(await s.app.ctx.db.selectFrom('sys_user').select(['source', 'dept_id']).where('username', '=', 'wangwu').executeTakeFirstOrThrow()).toEqual({ source: 'oidc', dept_id: deptId });
    });

    it('removed from the group at the provider: the next sign-in has no role, and the earlier session ends', async () => {
      idp.users.get('wangwu')!.groups = ['staff'];
      const b = new Browser();
      const form = await b.go(`${s.url}/api/uams/oidc/start`);
      const landed = await fillLogin(b, form, 'wangwu', WANG.password);
      expect(landed.url.searchParams.get('ssoError')).toBe('no_role');
      const old = await s.request('GET', '/api/uams/session/find', undefined, token);
      expect(old.http).toBe(401);
      idp.users.get('wangwu')!.groups = ['bi-designers'];
    });

    it('another identity at the provider with the same name never takes the account over', async () => {
      const wang = idp.users.get('wangwu')!;
      wang.sub = 'u-renamed';
      const b = new Browser();
      const landed = await fillLogin(b, await b.go(`${s.url}/api/uams/oidc/start`), 'wangwu', WANG.password);
      expect(landed.url.searchParams.get('ssoError')).toBe('clash');
      wang.sub = WANG.sub;
    });

    it('the flow belongs to the browser that began it, a callback works once, the return stays on the console', async () => {
      const b = new Browser();
      const form = await b.go(`${s.url}/api/uams/oidc/start?redirect=${encodeURIComponent('//evil.example/x')}`);
      // stop at the console's callback to replay it
      const atCallback = await postForm(b, form, { username: 'wangwu', password: WANG.password }, (u) => u.pathname === '/api/uams/oidc/callback');
      const callback = atCallback.url.href;
      // another browser (no flow cookie) presenting this callback: refused
      const stranger = new Browser();
      expect((await stranger.go(callback)).url.searchParams.get('ssoError')).toBe('expired');
      const done = await b.go(callback);
      expect(done.url.pathname).toBe('/login');
      expect(done.url.searchParams.get('redirect')).toBe('/');
      // replayed by the same browser: the flow is spent
      expect((await b.go(callback)).url.searchParams.get('ssoError')).toBe('expired');
    });

    it('single logout: signing out here ends the provider session; a provider that is down leaves local sign-in working', async () => {
      const b = new Browser();
      const form = await b.go(`${s.url}/api/uams/oidc/start`);
      await fillLogin(b, form, 'wangwu', WANG.password);
      const signedIn = (await b.post(`${s.url}/api/uams/sso/finish`)).data.token;
      const out = await b.post(`${s.url}/api/uams/logout`, signedIn);
      expect(out.data).toMatch(new RegExp(`^${idp.issuer}/session/end`));
      expect(out.data).not.toContain('id_token');
      const before = idp.logouts();
      // the provider's sign-out page submits its own form by script: posted here as the browser would
      const confirm = await b.go(out.data);
      const back = await postForm(b, confirm);
      expect(idp.logouts()).toBe(before + 1);
      expect(back.url.href).toBe(`${s.url}/login`);
      expect((await s.request('GET', '/api/uams/session/find', undefined, signedIn)).http).toBe(401);
      // the provider session is gone: the next 使用企业账号登录 asks for the password again
      expect((await b.go(`${s.url}/api/uams/oidc/start`)).text).toContain('测试身份提供方');
      // the provider away
      await s.request('POST', '/api/uams/settings', { oidc: { issuer: 'http://127.0.0.1:1', clientSecret: 'x' } });
      const away = await new Browser().go(`${s.url}/api/uams/oidc/start`);
      expect(away.url.searchParams.get('ssoError')).toBe('down');
      expect(await s.loginAs('admin', TEST_PASSWORD)).toBeTruthy();
    });
  });
}
