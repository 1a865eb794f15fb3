// 系统管理 over real HTTP on every store (issue 21 items 1–2 and "Security"): users and roles added, edited,
// disabled, deleted; the forced password change; sessions ended at once; no escalation, no removing the last
// administrator, nobody disabling or deleting themselves.
import { describe, expect, it } from 'vitest';
import { encryptFor, serverForSuite, testStores, TEST_PASSWORD, type TestServer } from '../../testing/server.js';
import { MSG_LAST_ADMIN, SIGNED_OUT } from './access.js';

const NEW_PASSWORD = 'Fresh#Pass2026';

async function changePassword(s: TestServer, token: string, oldPassword: string, newPassword: string) {
  const pem = (await s.request<string>('GET', '/api/uams/publicKey', undefined, null)).body.data;
  return s.request<{ token: string }>('POST', '/api/uams/user/password', { oldPassword: encryptFor(pem, oldPassword), newPassword: encryptFor(pem, newPassword) }, token);
}

async function roleId(s: TestServer, key: string): Promise<number> {
  const r = await s.request<any[]>('GET', '/api/system/role/options');
  return r.body.data.find((o) => o.roleKey === key).roleId;
}

/** Adds a user with roles; answers their id and a token for them, the first password already changed. */
async function addUser(s: TestServer, username: string, roleKeys: string[], token = s.token) {
  const roleIds = await Promise.all(roleKeys.map((k) => roleId(s, k)));
  const r = await s.request<{ id: number; password: string }>('POST', '/api/system/user/save', { username, nickName: username, roleIds, status: 0 }, token);
  expect(r.body.msg).toBe('保存成功');
  const first = await s.loginAs(username, r.body.data.password);
  const changed = await changePassword(s, first, r.body.data.password, NEW_PASSWORD);
  expect(changed.body.status).toBe(0);
  return { id: r.body.data.id, token: changed.body.data.token };
}

describe.each(testStores)('系统管理 (%s)', (store) => {
  const s = serverForSuite({ store });

  it('adds a user with an initial password shown once; they must change it before anything else', async () => {
    const dev = await roleId(s, 'default');
    const r = await s.request<{ id: number; password: string }>('POST', '/api/system/user/save', { username: 'zhang.san', nickName: '张三', phoneNumber: '13800001111', email: 'zs@example.com', roleIds: [dev], status: 0 });
    expect(r.body.status).toBe(0);
    const initial = r.body.data.password;
    expect(initial.length).toBeGreaterThanOrEqual(8);
    // never again: the list and the record carry no password or hash
    const listed = await s.request<any>('POST', '/api/system/user/list', { search: 'zhang' });
    expect(listed.body.data.records).toHaveLength(1);
    expect(JSON.stringify(listed.body.data)).not.toMatch(/password_hash|scrypt|"password"/);
    expect(listed.body.data.records[0]).toMatchObject({ username: 'zhang.san', nickName: '张三', roleNames: '普通用户', status: 0, mustChangePassword: true });

    const token = await s.loginAs('zhang.san', initial);
    const session = await s.request<any>('GET', '/api/uams/session/find', undefined, token);
    expect(session.body.data.mustChangePassword).toBe(true);
    const blocked = await s.request('POST', '/api/gemini/datasource/search', {}, token);
    expect(blocked.http).toBe(403);
    expect(blocked.body.msg).toBe('请先修改初始密码后再使用');
    expect((await s.request('GET', '/api/menu/routes/get', undefined, token)).body.status).toBe(0);

    expect((await changePassword(s, token, 'wrong-old', NEW_PASSWORD)).body.msg).toBe('原密码错误，还可尝试 4 次');
    expect((await changePassword(s, token, initial, 'short')).body.msg).toBe('密码长度须为 8–64 个字符');
    expect((await changePassword(s, token, initial, 'zhang.san@2026X')).body.msg).toBe('密码不能包含账号');
    const changed = await changePassword(s, token, initial, NEW_PASSWORD);
    expect(changed.body.msg).toBe('密码已修改');
    // the old token is gone, the new one works and reaches the role's pages
    expect((await s.request('GET', '/api/uams/session/find', undefined, token)).http).toBe(401);
    expect((await s.request('POST', '/api/gemini/datasource/search', {}, changed.body.data.token)).body).toMatchObject({ status: 0 });
    expect((await s.request('POST', '/api/system/user/list', {}, changed.body.data.token)).http).toBe(403);
  });

  it('refuses a taken account or phone number, bad fields and unknown roles, with Chinese messages', async () => {
    const dev = await roleId(s, 'default');
    const save = (body: object) => s.request('POST', '/api/system/user/save', { nickName: '某人', roleIds: [dev], ...body });
    expect((await save({ username: 'zhang.san' })).body.msg).toBe('账号【zhang.san】已存在');
    expect((await save({ username: '13800001111' })).body.msg).toBe('账号【13800001111】已存在');
    expect((await save({ username: 'li.si', phoneNumber: '13800001111' })).body.msg).toBe('手机号码【13800001111】已被其他账号使用');
    expect((await save({ username: 'li.si', phoneNumber: '1380000' })).body.msg).toBe('请输入正确的手机号码');
    expect((await save({ username: 'li.si', email: 'not-mail' })).body.msg).toBe('请输入正确的邮箱地址');
    expect((await save({ username: "x' or 1=1--" })).body.msg).toBe('账号只能包含字母、数字、下划线、点和短横线，2–30 个字符');
    expect((await save({ username: 'li.si', roleIds: [] })).body.msg).toBe('请选择角色');
    expect((await save({ username: 'li.si', roleIds: [99999] })).body.msg).toBe('所选角色不存在，请刷新后重新选择');
    expect((await save({ username: 'li.si', effectiveFrom: '2030-01-02 00:00:00', effectiveUntil: '2030-01-01 00:00:00' })).body.msg).toBe('失效时间须晚于生效时间');
  });

  it('disabling, resetting the password and deleting end the user’s open session at once', async () => {
    const u = await addUser(s, 'wang.wu', ['default']);
    expect((await s.request('GET', '/api/uams/session/find', undefined, u.token)).body.status).toBe(0);
    expect((await s.request('POST', '/api/system/user/status', { id: u.id, status: 1 })).body.msg).toBe('已停用');
    // the next call is told why (the sign-in page shows it), not 登录已过期
    const ended = await s.request('GET', '/api/uams/session/find', undefined, u.token);
    expect(ended.http).toBe(401);
    expect(ended.body).toMatchObject({ status: 2, msg: SIGNED_OUT.disabled });
    const pem = (await s.request<string>('GET', '/api/uams/publicKey', undefined, null)).body.data;
    const refused = await s.request('POST', '/api/uams/login', { mobilePhone: 'wang.wu', password: encryptFor(pem, NEW_PASSWORD) }, null);
    expect(refused.body.msg).toBe('账号已停用，请联系管理员');
    expect((await s.request('POST', '/api/system/user/status', { id: u.id, status: 0 })).body.msg).toBe('已启用');

    let token = await s.loginAs('wang.wu', NEW_PASSWORD);
    const reset = await s.request<{ password: string }>('POST', `/api/system/user/resetPwd?id=${u.id}`);
    expect(reset.body.msg).toBe('密码已重置');
    expect((await s.request('GET', '/api/uams/session/find', undefined, token)).body).toMatchObject({ status: 2, msg: SIGNED_OUT.password });
    token = await s.loginAs('wang.wu', reset.body.data.password);
    expect((await s.request<any>('GET', '/api/uams/session/find', undefined, token)).body.data.mustChangePassword).toBe(true);
    // set by the admin: kept to the policy, answered with nothing to show
    expect((await s.request('POST', `/api/system/user/resetPwd?id=${u.id}`, { mode: 'set', password: 'abc' })).body.msg).toBe('密码长度须为 8–64 个字符');
    expect((await s.request('POST', `/api/system/user/resetPwd?id=${u.id}`, { mode: 'set' })).body.msg).toBe('请输入新密码');
    // 随机生成 ignores a password the hidden field still held
    const random = await s.request<{ password: string }>('POST', `/api/system/user/resetPwd?id=${u.id}`, { mode: 'random', password: 'Chosen#2026' });
    expect(random.body.data.password).not.toBe('Chosen#2026');
    const set = await s.request('POST', `/api/system/user/resetPwd?id=${u.id}`, { mode: 'set', password: 'Chosen#2026' });
    expect(set.body).toMatchObject({ status: 0, data: null });
    token = await s.loginAs('wang.wu', 'Chosen#2026');

    expect((await s.request('POST', `/api/system/user/delete?id=${u.id}`)).body.msg).toBe('删除成功');
    expect((await s.request('GET', '/api/uams/session/find', undefined, token)).body).toMatchObject({ status: 2, msg: SIGNED_OUT.deleted });
    expect((await s.request<any>('POST', '/api/system/user/list', { search: 'wang.wu' })).body.data.total).toBe(0);
    // the row stays for the audit
    const row = await s.app.ctx.db.selectFrom('sys_user').select(['deleted']).where('username', '=', 'wang.wu').executeTakeFirst();
    expect(row?.deleted).toBe(1);
  });

  it('taking a role away ends the session; an account past its end date cannot sign in', async () => {
    const u = await addUser(s, 'zhao.liu', ['default', 'dev_approve']);
    const dev = await roleId(s, 'default');
    const taken = await s.request('POST', '/api/system/user/save', { id: u.id, username: 'zhao.liu', nickName: 'zhao', roleIds: [dev], status: 0 });
    expect(taken.body.status).toBe(0);
    expect((await s.request('GET', '/api/uams/session/find', undefined, u.token)).body).toMatchObject({ status: 2, msg: SIGNED_OUT.roles });
    const token = await s.loginAs('zhao.liu', NEW_PASSWORD);
    await s.request('POST', '/api/system/user/save', { id: u.id, username: 'zhao.liu', nickName: 'zhao', roleIds: [dev], status: 0, effectiveUntil: '2020-01-01 00:00:00' });
    expect((await s.request('GET', '/api/uams/session/find', undefined, token)).http).toBe(401);
    const pem = (await s.request<string>('GET', '/api/uams/publicKey', undefined, null)).body.data;
    const refused = await s.request('POST', '/api/uams/login', { mobilePhone: 'zhao.liu', password: encryptFor(pem, NEW_PASSWORD) }, null);
    expect(refused.body.msg).toBe('账号已过期（失效时间 2020-01-01 00:00:00）');
  });

  it('a user manager without every permission can neither hand out the administrator role nor grant what they lack', async () => {
    const tree = (await s.request<any[]>('GET', '/api/system/role/permTree')).body.data;
    const flat: string[] = [];
    const walk = (ns: any[]) => ns.forEach((n) => (n.children ? walk(n.children) : flat.push(n.key)));
    walk(tree);
    // pages, buttons and the permissions no entry carries are all leaves
    expect(flat).toEqual(expect.arrayContaining(['m:datasource', 'm:datasource-add', 'p:gemini:datasource:test', 'm:user', 'm:user-add']));
    const managerKeys = ['m:user', 'm:user-add', 'm:user-edit', 'm:user-resetpwd', 'm:datasource'];
    const saved = await s.request<number>('POST', '/api/system/role/save', { roleName: '用户管理员', roleKey: 'user_manager', roleType: 'default', permKeys: managerKeys });
    expect(saved.body.msg).toBe('保存成功');
    const got = await s.request<any>('GET', `/api/system/role/get?id=${saved.body.data}`);
    expect(got.body.data.permKeys.sort()).toEqual([...managerKeys].sort());
    const mgr = await addUser(s, 'hr.manager', ['user_manager']);
    // the role's menus: 系统管理 › 用户管理 and 数据源管理, nothing else
    const menus = (await s.request<any[]>('GET', '/api/menu/routes/get', undefined, mgr.token)).body.data;
    const names = JSON.stringify(menus);
    expect(names).toContain('用户管理');
    expect(names).toContain('数据源管理');
    expect(names).not.toContain('角色管理');
    expect(names).not.toContain('页面管理');

    const admin = await roleId(s, 'sys_admin');
    const escalate = await s.request('POST', '/api/system/user/save', { username: 'sneaky', nickName: 'x', roleIds: [admin] }, mgr.token);
    expect(escalate.http).toBe(403);
    expect(escalate.body.msg).toBe('不能授予自己没有的权限：*:*:*');
    // not on themselves either
    const self = await s.request('POST', '/api/system/user/save', { id: mgr.id, username: 'hr.manager', nickName: 'x', roleIds: [admin, await roleId(s, 'user_manager')] }, mgr.token);
    expect(self.http).toBe(403);
    // and not the password of someone holding more than they do
    const me = (await s.request<any>('GET', '/api/uams/session/find')).body.data.id;
    expect((await s.request('POST', `/api/system/user/resetPwd?id=${me}`, undefined, mgr.token)).http).toBe(403);
    // nor edit, switch off or delete an administrator
    expect((await s.request('POST', '/api/system/user/save', { id: me, username: 'admin', nickName: '改名', roleIds: [admin] }, mgr.token)).http).toBe(403);
    expect((await s.request('POST', '/api/system/user/status', { id: me, status: 1 }, mgr.token)).http).toBe(403);
    expect((await s.request('POST', `/api/system/user/delete?id=${me}`, undefined, mgr.token)).http).toBe(403);
    // but a colleague holding no more than they do, yes
    const peer = await addUser(s, 'peer.user', ['user_manager']);
    expect((await s.request('POST', '/api/system/user/status', { id: peer.id, status: 1 }, mgr.token)).body.msg).toBe('已停用');
    // roles are not theirs to edit at all
    expect((await s.request('POST', '/api/system/role/save', { roleName: 'x', roleKey: 'x_role', roleType: 'default', permKeys: ['m:pagemanager'] }, mgr.token)).http).toBe(403);
  });

  it('a role is edited with its tree, refused when users hold it on delete; the administrator role is kept whole', async () => {
    const saved = await s.request<number>('POST', '/api/system/role/save', { roleName: '报表查看', roleKey: 'report_viewer', roleType: 'default', permKeys: ['m:screen', 'g:datav', 'nonsense'] });
    const id = saved.body.data;
    // a group key or an unknown key grants nothing; the page's directory comes with it
    expect((await s.request<any>('GET', `/api/system/role/get?id=${id}`)).body.data.permKeys).toEqual(['m:screen']);
    const menus = await s.app.ctx.db.selectFrom('sys_role_menu').select('menu_key').where('role_key', '=', 'report_viewer').execute();
    expect(menus.map((m) => m.menu_key).sort()).toEqual(['datav', 'screen']);
    expect((await s.request('POST', '/api/system/role/save', { roleName: '报表查看', roleKey: 'other_key', roleType: 'default' })).body.msg).toBe('角色名称或权限字符已存在：报表查看（other_key）');
    await addUser(s, 'viewer.one', ['report_viewer']);
    // 角色管理 › 用户: the role's users (the sub-list's list call carries roleId)
    const holders = await s.request<any>('POST', '/api/system/user/list', { roleId: String(id) });
    expect(holders.body.data.records.map((r: any) => r.username)).toEqual(['viewer.one']);
    expect((await s.request('POST', `/api/system/role/delete?id=${id}`)).body.msg).toBe('角色【报表查看】已分配给 1 个用户，请先取消分配再删除');
    const adminRole = await roleId(s, 'sys_admin');
    expect((await s.request('POST', `/api/system/role/delete?id=${adminRole}`)).body.msg).toBe('管理员角色不能删除');
    // a role manager who is no administrator cannot touch the administrator role
    await s.request('POST', '/api/system/role/save', { roleName: '角色管理员', roleKey: 'role_manager', roleType: 'default', permKeys: ['m:role', 'm:role-edit'] });
    const rm = await addUser(s, 'role.manager', ['role_manager']);
    const touched = await s.request('POST', '/api/system/role/save', { id: adminRole, roleName: '随便', roleType: 'default' }, rm.token);
    expect([touched.http, touched.body.msg]).toEqual([403, '不能授予自己没有的权限：*:*:*']);
    await s.request('POST', '/api/system/role/save', { id: adminRole, roleName: '管理员', roleType: 'sys_admin', permKeys: [] });
    const perms = await s.app.ctx.db.selectFrom('sys_role_permission').select('permission').where('role_id', '=', adminRole).execute();
    expect(perms.map((p) => p.permission)).toEqual(['*:*:*']);
  });

  it('a menu entry cannot be turned into a grant: its permission is emptied only by the administrator, and a role editor grants only entries they see (issue 40)', async () => {
    await s.request('POST', '/api/system/role/save', { roleName: '菜单编辑', roleKey: 'menu_editor', roleType: 'default', permKeys: ['m:menu', 'm:menu-edit'] });
    await s.request('POST', '/api/system/role/save', { roleName: '角色编辑', roleKey: 'role_editor', roleType: 'default', permKeys: ['m:role', 'm:role-edit', 'm:role-add'] });
    const me = await addUser(s, 'menu.editor', ['menu_editor']);
    const re = await addUser(s, 'role.editor', ['role_editor']);
    const list = (await s.request<any>('POST', '/api/system/menu/list', { pageNum: 1, pageSize: 500 })).body.data.records as any[];
    const user = list.find((r) => r.menuKey === 'user');
    expect(user.perms).toBe('system:user:list');
    // the menu editor may neither empty 用户管理's permission nor move it to another string they lack
    const emptied = await s.request('POST', '/api/system/menu/save', { ...user, perms: '' }, me.token);
    expect([emptied.http, emptied.body.msg]).toEqual([403, '清空菜单的权限标识需要管理员：没有权限标识的菜单，任何能编辑角色的人都能授予']);
    expect((await s.request('POST', '/api/system/menu/save', { ...user, perms: 'system:menu:list' }, me.token)).http).toBe(403);
    // nor by turning the page into a directory on the way (a directory keeps no permission)
    const asDir = await s.request('POST', '/api/system/menu/save', { ...user, type: 'M', perms: '' }, me.token);
    expect([asDir.http, asDir.body.msg]).toEqual([403, '清空菜单的权限标识需要管理员：没有权限标识的菜单，任何能编辑角色的人都能授予']);
    expect((await s.request<any>('GET', `/api/system/menu/get?id=${user.id}`)).body.data.perms).toBe('system:user:list');
    // the administrator may empty it; even then a role editor who does not see 用户管理 cannot grant it
    expect((await s.request('POST', '/api/system/menu/save', { ...user, perms: '' })).body.status).toBe(0);
    const granted = await s.request('POST', '/api/system/role/save', { roleName: '偷看用户', roleKey: 'peek_users', roleType: 'default', permKeys: ['m:user'] }, re.token);
    expect([granted.http, granted.body.msg]).toEqual([403, '不能授予自己看不到的菜单：用户管理']);
    expect((await s.request<any>('GET', '/api/menu/routes/get?moduleType=platform', undefined, re.token)).body.data.flatMap((n: any) => [n.key, ...(n.children ?? []).map((c: any) => c.key)])).not.toContain('user');
    // an entry the role editor does see stays grantable
    expect((await s.request('POST', '/api/system/role/save', { roleName: '看角色', roleKey: 'see_roles', roleType: 'default', permKeys: ['m:role'] }, re.token)).body.status).toBe(0);
    expect((await s.request('POST', '/api/system/menu/save', { ...user, perms: 'system:user:list' })).body.status).toBe(0);
  });

  it('every new route is refused without a session and to a role without its permission', async () => {
    const developer = await s.loginAs('developer', TEST_PASSWORD);
    const routes = s.app.routeTable.filter((r) => r.url.startsWith('/api/system/') && r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThanOrEqual(10);
    for (const r of routes) {
      const method = r.method as 'GET' | 'POST';
      const body = method === 'GET' ? undefined : {};
      expect((await s.request(method, `${r.url}?id=1&status=1`, body, null)).http, `${r.method} ${r.url}`).toBe(401);
      expect((await s.request(method, `${r.url}?id=1&status=1`, body, developer)).http, `${r.method} ${r.url}`).toBe(403);
    }
  });
  it('finds the acts in 操作日志 and the sign-ins in 登录日志, exports them as CSV, and offers no way to change them', async () => {
    const pem = (await s.request<string>('GET', '/api/uams/publicKey', undefined, null)).body.data;
    await s.request('POST', '/api/uams/login', { mobilePhone: '=HYPERLINK("x")', password: encryptFor(pem, 'nope') }, null);
    await s.app.audit.settled();
    const ops = await s.request<any>('POST', '/api/system/operLog/list', { search: 'user/save', pageSize: 100 });
    const saves = ops.body.data.records.filter((r: any) => r.action === 'POST /api/system/user/save');
    expect(saves.length).toBeGreaterThan(3);
    expect(saves.some((r: any) => r.outcome === '0' && r.username === 'admin' && r.title === '用户管理')).toBe(true);
    expect(saves.some((r: any) => r.outcome === '账号【zhang.san】已存在')).toBe(true);
    const statusOps = await s.request<any>('POST', '/api/system/operLog/list', { search: 'user/status' });
    expect(statusOps.body.data.records).toEqual(expect.arrayContaining([expect.objectContaining({ title: '编辑用户', outcome: '0', module: 'system', username: 'admin' })]));
    // refusals are written too: the weakest role's tries of the sweep above
    expect(statusOps.body.data.records).toEqual(expect.arrayContaining([expect.objectContaining({ username: 'developer', outcome: '没有权限访问该功能，请联系管理员授权', httpStatus: 403 })]));
    const signIns = await s.request<any>('POST', '/api/system/loginLog/list', { search: 'wang.wu', pageSize: 50 });
    const msgs = signIns.body.data.records.map((r: any) => r.msg);
    expect(msgs).toEqual(expect.arrayContaining(['登录成功', '账号已停用，请联系管理员']));
    const refused = await s.request<any>('POST', '/api/system/loginLog/list', { result: [1], pageSize: 100 });
    expect(refused.body.data.records.every((r: any) => r.result === 1)).toBe(true);
    // a date range outside every entry finds nothing
    expect((await s.request<any>('POST', '/api/system/loginLog/list', { beginTime: '2000-01-01 00:00:00', endTime: '2000-01-02 00:00:00' })).body.data.total).toBe(0);
    expect((await s.request('POST', '/api/system/loginLog/list', { beginTime: "2000' or 1=1" })).http).toBe(400);

    const csv = await fetch(`${s.url}/api/system/loginLog/export?result=1`, { headers: { authorization: `Bearer ${s.token}` } });
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    const bytes = Buffer.from(await csv.arrayBuffer());
    // UTF-8 with its byte-order mark (spreadsheet programs read the Chinese), the declared columns' titles first
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text.split('\r\n')[0]).toBe('"登录时间","账号","地址","浏览器","结果","说明"');
    // what a sheet would run as a formula is disarmed
    expect(text).toContain(`"'=HYPERLINK(""x"")"`);
    expect(text).toContain('"失败"');
    // the log has no write, edit or delete call
    for (const path of ['/api/system/operLog/save', '/api/system/operLog/delete', '/api/system/loginLog/delete']) {
      expect((await s.request('POST', path, { id: 1 })).http).toBe(404);
    }
  });

  it('菜单管理: moves a page under another directory, shows it there on the next load, refuses cycles and orphans', async () => {
    const list = (await s.request<any>('POST', '/api/system/menu/list', { pageNum: 1, pageSize: 500 })).body.data.records as any[];
    const byKey = (k: string) => list.find((r) => r.menuKey === k);
    const [screen, ops, datav] = [byKey('screen'), byKey('ops'), byKey('datav')];
    expect(screen).toMatchObject({ name: '大屏设计', type: 'C', parentId: datav.id, component: 'page:screen' });
    const moved = await s.request('POST', '/api/system/menu/save', { ...screen, parentId: ops.id, orderNum: 99 });
    expect(moved.body.msg).toBe('保存成功');
    const tree = (await s.request<any[]>('GET', '/api/menu/routes/get?moduleType=platform')).body.data;
    const opsNode = tree.find((n) => n.key === 'ops');
    expect(opsNode.children.map((c: any) => c.key)).toContain('screen');
    expect(tree.find((n) => n.key === 'datav').children.map((c: any) => c.key)).not.toContain('screen');
    // the key stays, whatever the body says; a directory cannot go under its own child
    await s.request('POST', '/api/system/menu/save', { ...screen, menuKey: 'renamed', parentId: ops.id });
    expect((await s.request<any>('GET', `/api/system/menu/get?id=${screen.id}`)).body.data.menuKey).toBe('screen');
    expect((await s.request('POST', '/api/system/menu/save', { ...ops, parentId: screen.id })).body.msg).toBe('上级菜单不能是它自己或它的下级');
    expect((await s.request('POST', `/api/system/menu/delete?id=${ops.id}`)).body.msg).toMatch(/^【运维管理】下还有 \d+ 个子菜单，请先删除它们$/);
    // a new entry: unique key, a page that exists, then gone again
    const add = (body: object) => s.request<number>('POST', '/api/system/menu/save', { parentId: ops.id, type: 'C', name: '报表', menuKey: 'report-x', path: '/ops/report', ...body });
    expect((await add({ menuKey: 'screen' })).body.msg).toBe('菜单标识【screen】已存在');
    expect((await add({ component: 'page:nope' })).body.msg).toBe('页面【nope】不存在：请填写已声明的页面或页面管理里发布的页面');
    expect((await add({ path: 'javascript:alert(1)' })).body.msg).toBe('路由地址以 / 开头，只能包含字母、数字、/、下划线和短横线');
    const created = await add({ component: 'page:variable', icon: 'FundOutlined' });
    expect(created.body.status).toBe(0);
    expect((await s.request('POST', `/api/system/menu/delete?id=${created.body.data}`)).body.msg).toBe('删除成功');
    expect((await s.request<any>('GET', '/api/system/menu/icons')).body.data).toEqual(expect.arrayContaining([{ value: 'FundOutlined', label: 'FundOutlined' }]));
  });

  // last: it signs the suite's admin token out
  it('nobody disables or deletes themselves, and the last administrator stays', async () => {
    const me = (await s.request<any>('GET', '/api/uams/session/find')).body.data.id;
    expect((await s.request('POST', '/api/system/user/status', { id: me, status: 1 })).body.msg).toBe('不能停用自己的账号');
    expect((await s.request('POST', `/api/system/user/delete?id=${me}`)).body.msg).toBe('不能删除自己的账号');
    const other = await addUser(s, 'admin.two', ['sys_admin']);
    const [dev, admin] = [await roleId(s, 'default'), await roleId(s, 'sys_admin')];
    // the second admin disables the first: allowed while two remain…
    expect((await s.request('POST', '/api/system/user/status', { id: me, status: 1 }, other.token)).body.status).toBe(0);
    // …but not the last one: neither taking its role, nor disabling, nor deleting (itself or by another), nor an end date
    const a2 = other.token;
    expect((await s.request('POST', '/api/system/user/save', { id: other.id, username: 'admin.two', nickName: 'a2', roleIds: [dev], status: 0 }, a2)).body.msg).toBe(MSG_LAST_ADMIN);
    expect((await s.request('POST', '/api/system/user/save', { id: other.id, username: 'admin.two', nickName: 'a2', roleIds: [admin], status: 1 }, a2)).body.msg).toBe('不能停用自己的账号');
    // nor by dates: an end already past, or a start still to come, is switching oneself off too
    expect((await s.request('POST', '/api/system/user/save', { id: other.id, username: 'admin.two', nickName: 'a2', roleIds: [admin], status: 0, effectiveFrom: '2099-01-01 00:00:00' }, a2)).body.msg).toBe('不能停用自己的账号');
    expect((await s.request('POST', '/api/system/user/save', { id: other.id, username: 'admin.two', nickName: 'a2', roleIds: [admin], status: 0, effectiveUntil: '2020-01-01 00:00:00' }, a2)).body.msg).toBe('不能停用自己的账号');
    expect((await s.request('POST', '/api/system/user/status', { id: me, status: 0 }, a2)).body.status).toBe(0);
    // with the first back, the second may drop its own administrator role
    expect((await s.request('POST', '/api/system/user/save', { id: other.id, username: 'admin.two', nickName: 'a2', roleIds: [dev], status: 0 }, a2)).body.status).toBe(0);
  });
});

const sessionBackends = [{ name: 'store', env: {} as Record<string, string> }, ...(process.env.REDIS_URL ? [{ name: 'Redis', env: { REDIS_URL: process.env.REDIS_URL } }] : [])];

describe.each(sessionBackends)('在线用户 (sessions in the $name)', ({ env }) => {
  const s = serverForSuite({ env });

  it('lists the live sessions with address and browser, and ends one by force (not one’s own)', async () => {
    const dev = await s.loginAs('developer');
    const list = async () => (await s.request<any>('POST', '/api/system/online/list', { search: 'developer' })).body.data.records as any[];
    const mine = (await list())[0];
    expect(mine).toMatchObject({ username: 'developer', nickName: '开发者', current: false });
    expect(mine.id).toMatch(/^[0-9a-f]{64}$/);
    expect(mine.address).toBe('127.0.0.1');
    expect(JSON.stringify(await list())).not.toContain(dev);
    const own = (await s.request<any>('POST', '/api/system/online/list', { search: 'admin' })).body.data.records.find((r: any) => r.current);
    expect((await s.request('POST', '/api/system/online/forceLogout', { id: own.id })).body.msg).toBe('不能强制退出自己当前的会话，请用右上角的退出登录');
    expect((await s.request('POST', '/api/system/online/forceLogout', { ...mine })).body.msg).toBe('已强制退出');
    expect((await s.request('GET', '/api/uams/session/find', undefined, dev)).body).toMatchObject({ status: 2, msg: SIGNED_OUT.forced });
    // a session that merely expired or never was says the general words
    expect((await s.request('GET', '/api/uams/session/find', undefined, 'no-such-token')).body.msg).not.toBe(SIGNED_OUT.forced);
    expect(await list()).toEqual([]);
    expect((await s.request('POST', '/api/system/online/forceLogout', { id: mine.id })).body.msg).toBe('该会话已结束');
    expect((await s.request('POST', '/api/system/online/forceLogout', { id: "x' or 1=1" })).http).toBe(400);
    expect((await s.request('POST', '/api/system/online/list', {}, await s.loginAs('developer'))).http).toBe(403);
  });
});
