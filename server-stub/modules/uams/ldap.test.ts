// Issue 38 items 2 and 3 against a real directory (server-stub/testing/ldap.ts, ldapjs's server shaped like Active
// Directory) over real TCP, on every store: 认证设置's LDAP section and its 测试连接 (why it failed, in Chinese), an
// AD account signing in with search-then-bind, the account made from the directory, 身份映射 applied at every
// sign-in (a person who leaves the group loses the role and their session), escaped filters, LDAPS, a directory
// that is down, the local account that is never taken over, and a mapping nobody may use to escalate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptFor, serverForSuite, testStores, TEST_PASSWORD, type TestServer } from '../../testing/server.js';
import { addPerson } from '../../testing/people.js';
import { startLdap, type TestLdap } from '../../testing/ldap.js';
import { MSG_NO_ROLE, msgLocalClash } from './accounts.js';
import { MSG_LDAP_DOWN } from './ldap.js';

const ZHANG = { sam: 'zhangsan', cn: '张三', password: 'Zs#2026pass', displayName: '张三', mail: 'zhangsan@corp.example', phone: '13800000001', groups: ['bi-designers', 'staff'] };
const LI = { sam: 'lisi', cn: '李四', password: 'Ls#2026pass', displayName: '李四', groups: ['staff'] };
const EVE = { sam: 'eve', cn: 'zhangsan', password: 'Ev#2026pass', displayName: '伊娃', groups: ['bi-designers'] };
const CLASH = { sam: 'admin', cn: 'Domain Admin', password: 'Ad#2026pass', displayName: '域管理员', groups: ['bi-designers'] };

async function ldapLogin(s: TestServer, account: string, password: string) {
  const pem = (await s.request<string>('GET', '/api/uams/publicKey', undefined, null)).body.data;
  return (await s.request<{ token: string }>('POST', '/api/uams/login', { loginType: 'ldap', area: '+86', mobilePhone: account, password: encryptFor(pem, password) }, null)).body;
}

for (const store of testStores) {
  describe(`LDAP sign-in (${store} store)`, () => {
    const s = serverForSuite({ store, env: { LOGINS_PER_MINUTE: '1000' } });
    let dir: TestLdap;
    beforeAll(async () => {
      dir = await startLdap({ users: [ZHANG, LI, CLASH, EVE].map((u) => ({ ...u, groups: [...u.groups] })) });
    });
    afterAll(() => dir?.close());
    const settings = () => ({
      enabled: true,
      url: dir.url,
      mode: 'search',
      bindDn: dir.bindDn,
      bindPassword: dir.bindPassword,
      baseDn: dir.baseDn,
      userFilter: '(&(objectClass=user)(sAMAccountName={account}))',
    });
    let zhangToken = '';

    it('认证设置: the service password sealed and masked; 测试连接 says why it failed', async () => {
      const test = (body: object) => s.request<boolean>('POST', '/api/uams/settings/ldap/test', body);
      expect((await test(settings())).body).toMatchObject({ data: true, msg: '连接成功' });
      expect((await test({ ...settings(), bindPassword: 'wrong' })).body).toMatchObject({ data: false, msg: '连接失败：服务账号 DN 或密码错误' });
      expect((await test({ ...settings(), baseDn: 'OU=Nowhere,DC=corp,DC=example' })).body).toMatchObject({ data: false, msg: '连接失败：搜索起点不存在：OU=Nowhere,DC=corp,DC=example' });
      expect((await test({ ...settings(), url: 'ldap://127.0.0.1:1' })).body.msg).toMatch(/^连接失败：连接被拒绝/);
      expect((await test({ ...settings(), url: 'http://127.0.0.1:1' })).body.msg).toBe('连接失败：LDAP 服务器地址须以 ldap:// 或 ldaps:// 开头');
      const saved = await s.request<any>('POST', '/api/uams/settings', { ldap: settings() });
      expect(saved.body.msg).toBe('保存成功');
      expect(saved.body.data.ldap.bindPassword).toBe('******');
      const row = await s.app.ctx.db.selectFrom('sys_setting').select('value').where('key', '=', 'auth.settings').executeTakeFirstOrThrow();
      expect(row.value).not.toContain(dir.bindPassword);
      // the masked password stands for the stored one while the target is the same; a new target needs it again
      expect((await test({ ...settings(), bindPassword: '******' })).body.data).toBe(true);
      expect((await s.request('POST', '/api/uams/settings', { ldap: { ...settings(), url: 'ldap://127.0.0.2:389', bindPassword: '******' } })).body.msg).toMatch(/密码/);
      expect((await s.request<any>('GET', '/api/uams/options', undefined, null)).body.data.ldap).toBe(true);
    });

    it('an AD account signs in; the account is made from the directory with the mapped role and department', async () => {
      expect((await ldapLogin(s, 'zhangsan', ZHANG.password)).msg).toBe(MSG_NO_ROLE);
      const dept = (await s.request<number>('POST', '/api/system/dept/save', { deptName: 'BI 部', parentId: 0, orderNum: 0, status: 0 })).body.data;
      const map = await s.request('POST', '/api/uams/identityMap/save', { provider: '*', groupName: 'BI-Designers', roleKey: 'designer', deptId: dept });
      expect(map.body.msg).toBe('保存成功');
      const list = await s.request<any>('POST', '/api/uams/identityMap/list', { pageNum: 1, pageSize: 10 });
      expect(list.body.data.records[0]).toMatchObject({ groupName: 'BI-Designers', roleName: expect.any(String), deptName: 'BI 部' });
      const signed = await ldapLogin(s, 'zhangsan', ZHANG.password);
      expect(signed.status, signed.msg).toBe(0);
      zhangToken = signed.data.token;
      const me = await s.request<any>('GET', '/api/uams/session/find', undefined, zhangToken);
      expect(me.body.data).toMatchObject({ username: 'zhangsan', nickName: '张三', email: 'zhangsan@corp.example', phoneNumber: '13800000001', roles: ['designer'] });
      const user = await s.app.ctx.db.selectFrom('sys_user').selectAll().where('username', '=', 'zhangsan').executeTakeFirstOrThrow();
      expect(user).toMatchObject({ source: 'ldap', dept_id: dept });
      // the same account again, by its UPN-less name in another case: the directory decides, the same person
      expect((await ldapLogin(s, 'ZhangSan', ZHANG.password)).data.token).toBeTruthy();
      expect(await s.app.ctx.db.selectFrom('sys_user').select('id').where('source', '=', 'ldap').execute()).toHaveLength(1);
    });

    it('a wrong password, an injected filter, an empty password: nobody signs in, each try counted', async () => {
      expect((await ldapLogin(s, 'lisi', 'nope')).msg).toMatch(/^账号或密码错误，还可尝试 \d 次$/);
      for (const account of ['*)(uid=*', '*', 'zhang*', 'zhangsan)(|(objectClass=*']) expect((await ldapLogin(s, account, ZHANG.password)).msg, account).toMatch(/^账号或密码错误/);
      expect((await ldapLogin(s, 'zhangsan', '')).msg).toBe('请输入密码');
      // lisi's groups map to nothing: refused, and no account is made
      expect((await ldapLogin(s, 'lisi', LI.password)).msg).toBe(MSG_NO_ROLE);
      expect(await s.app.ctx.db.selectFrom('sys_user').select('id').where('username', '=', 'lisi').executeTakeFirst()).toBeUndefined();
      // a directory account named like a local one never takes it over
      expect((await ldapLogin(s, 'admin', CLASH.password)).msg).toBe(msgLocalClash('admin'));
      await s.app.audit.settled();
      const log = await s.request<any>('POST', '/api/system/loginLog/list', { pageNum: 1, pageSize: 50 });
      expect(log.body.data.records.map((r: any) => r.msg)).toEqual(expect.arrayContaining(['登录成功（LDAP）', MSG_NO_ROLE]));
      await s.app.ctx.db.deleteFrom('sys_login_attempt').execute();
    });

    it('leaving the group: the role is gone at the next sign-in, and the session made with it ends', async () => {
      dir.users.get('zhangsan')!.groups = ['staff'];
      expect((await ldapLogin(s, 'zhangsan', ZHANG.password)).msg).toBe(MSG_NO_ROLE);
      const old = await s.request('GET', '/api/uams/session/find', undefined, zhangToken);
      expect(old.http).toBe(401);
      expect(old.body.msg).toBe('您所在的组已变更，权限随之更新，请重新登录');
      const user = await s.app.ctx.db.selectFrom('sys_user').select('id').where('username', '=', 'zhangsan').executeTakeFirstOrThrow();
      expect(await s.app.ctx.db.selectFrom('sys_user_role').selectAll().where('user_id', '=', user.id).execute()).toEqual([]);
      // back in the group, but disabled here: the console's word stands
      dir.users.get('zhangsan')!.groups = ['bi-designers'];
      expect((await s.request('POST', '/api/system/user/status', { id: user.id, status: 1 })).body.status).toBe(0);
      expect((await ldapLogin(s, 'zhangsan', ZHANG.password)).msg).toBe('账号已停用，请联系管理员');
      expect((await s.request('POST', '/api/system/user/status', { id: user.id, status: 0 })).body.status).toBe(0);
      expect((await ldapLogin(s, 'zhangsan', ZHANG.password)).data.token).toBeTruthy();
    });

    it('bind mode reads the account that was bound; a phone number from the directory never takes a sign-in name', async () => {
      // Eve's CN is "zhangsan": bound as CN=zhangsan she is Eve, never the account whose sAMAccountName is zhangsan
      const bind = { ...settings(), mode: 'bind', userDnTemplate: 'CN={account},OU=Users,DC=corp,DC=example', bindPassword: dir.bindPassword };
      expect((await s.request('POST', '/api/uams/settings', { ldap: bind })).body.msg).toBe('保存成功');
      const eve = await ldapLogin(s, 'zhangsan', EVE.password);
      expect(eve.status, eve.msg).toBe(0);
      expect((await s.request<any>('GET', '/api/uams/session/find', undefined, eve.data.token)).body.data.username).toBe('eve');
      expect((await s.request('POST', '/api/uams/settings', { ldap: { ...settings(), bindPassword: dir.bindPassword } })).body.msg).toBe('保存成功');
      // a telephoneNumber of "admin" (users may edit their own in AD) is not taken: the local admin still signs in
      dir.users.get('zhangsan')!.phone = 'admin';
      expect((await ldapLogin(s, 'zhangsan', ZHANG.password)).status).toBe(0);
      expect((await s.app.ctx.db.selectFrom('sys_user').select('phone_number').where('username', '=', 'zhangsan').executeTakeFirstOrThrow()).phone_number).not.toBe('admin');
      expect(await s.loginAs('admin', TEST_PASSWORD)).toBeTruthy();
    });

    it('LDAPS and StartTLS with the CA; a directory that is down; local sign-in still works', async () => {
      if (dir.ldapsUrl) {
        const ldaps = { ...settings(), url: dir.ldapsUrl, bindPassword: dir.bindPassword };
        expect((await s.request<boolean>('POST', '/api/uams/settings/ldap/test', ldaps)).body.msg).toMatch(/^连接失败：证书校验失败/);
        expect((await s.request<boolean>('POST', '/api/uams/settings/ldap/test', { ...ldaps, ca: dir.ca })).body.data).toBe(true);
        expect((await s.request('POST', '/api/uams/settings', { ldap: { ...ldaps, ca: dir.ca } })).body.msg).toBe('保存成功');
        expect((await ldapLogin(s, 'zhangsan', ZHANG.password)).data.token).toBeTruthy();
      }
      if (dir.startTlsUrl) {
        // StartTLS on the plain port: refused without the CA, trusted with it, and a sign-in goes through it
        const starttls = { ...settings(), url: dir.startTlsUrl, startTls: true, bindPassword: dir.bindPassword, ca: '' };
        expect((await s.request<boolean>('POST', '/api/uams/settings/ldap/test', starttls)).body.msg).toMatch(/^连接失败：证书校验失败/);
        expect((await s.request<boolean>('POST', '/api/uams/settings/ldap/test', { ...starttls, ca: dir.ca })).body).toMatchObject({ data: true, msg: '连接成功' });
        // without StartTLS the front hangs up on the first plain request: that is no directory
        expect((await s.request<boolean>('POST', '/api/uams/settings/ldap/test', { ...starttls, startTls: false })).body.data).toBe(false);
        expect((await s.request('POST', '/api/uams/settings', { ldap: { ...starttls, ca: dir.ca } })).body.msg).toBe('保存成功');
        expect((await ldapLogin(s, 'zhangsan', ZHANG.password)).data.token).toBeTruthy();
      }
      expect((await s.request('POST', '/api/uams/settings', { ldap: { ...settings(), url: 'ldap://127.0.0.1:1', bindPassword: dir.bindPassword } })).body.msg).toBe('保存成功');
      expect((await ldapLogin(s, 'zhangsan', ZHANG.password)).msg).toMatch(new RegExp(`^${MSG_LDAP_DOWN}`));
      expect(await s.loginAs('admin', TEST_PASSWORD)).toBeTruthy();
    });

    it('身份映射 cannot grant what its editor could not grant by hand; the weakest role cannot touch it', async () => {
      const weak = await addPerson(s, 'ldap.weak', [await roleId(s, 'default')]);
      expect((await s.request('POST', '/api/uams/identityMap/list', { pageNum: 1, pageSize: 10 }, weak.token)).http).toBe(403);
      expect((await s.request('POST', '/api/uams/identityMap/save', { provider: '*', groupName: 'x', roleKey: 'sys_admin' }, weak.token)).http).toBe(403);
      const mapperRole = (
        await s.request<number>('POST', '/api/system/role/save', {
          roleName: 'mapper',
          roleKey: 'mapper',
          roleType: 'default',
          orderNum: 9,
          dataScope: '1',
          permKeys: ['m:identity-map', 'm:identity-map-add', 'm:identity-map-edit'],
        })
      ).body.data;
      const mapper = await addPerson(s, 'ldap.mapper', [mapperRole]);
      const tryMap = (roleKey: string) => s.request('POST', '/api/uams/identityMap/save', { provider: 'ldap', groupName: 'staff', roleKey }, mapper.token);
      expect((await tryMap('sys_admin')).body.msg).toMatch(/^不能映射您自己无法授予的角色/);
      expect((await tryMap('mapper')).body.msg).toBe('保存成功');
      // an admin's mapping to the administrator role: the mapper may neither move it to another group (leaving the
      // role out of the body keeps it) nor delete it
      const adminMap = (await s.request<any>('POST', '/api/uams/identityMap/save', { provider: 'ldap', groupName: 'domain-admins', roleKey: 'sys_admin' })).body.data;
      const adminMapId = adminMap?.id ?? (await s.request<any>('POST', '/api/uams/identityMap/list', { pageNum: 1, pageSize: 50, search: 'domain-admins' })).body.data.records[0].id;
      expect((await s.request('POST', '/api/uams/identityMap/save', { id: adminMapId, provider: 'ldap', groupName: 'staff' }, mapper.token)).body.msg).toMatch(/^不能映射您自己无法授予的角色/);
      expect((await s.request('POST', `/api/uams/identityMap/delete?id=${adminMapId}`, undefined, mapper.token)).body.status).not.toBe(0);
      expect((await s.request('POST', '/api/uams/identityMap/save', { provider: 'ldap', groupName: 'staff' })).body.msg).toBe('请至少选择角色或部门');
      expect((await s.request('POST', '/api/uams/identityMap/save', { provider: 'evil', groupName: 'staff', roleKey: 'mapper' })).body.status).not.toBe(0);
      expect((await s.request('POST', '/api/uams/identityMap/save', { provider: 'ldap', groupName: 'staff', roleKey: 'no_such' })).body.msg).toBe('角色不存在，请刷新后重新选择');
    });
  });
}

async function roleId(s: TestServer, key: string): Promise<number> {
  const r = await s.request<any[]>('GET', '/api/system/role/options');
  return r.body.data.find((o) => o.roleKey === key).roleId;
}
