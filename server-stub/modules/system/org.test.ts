// 部门管理, 岗位管理 and the users list's data scope over real HTTP on every store (issue 34 items 1–2): the
// department tree and its refusals, posts, a user's department and posts, the users page's side tree; each role's
// data scope on the users list, get by id, count, export, edits, and nobody widening their own scope.
import { describe, expect, it } from 'vitest';
import { encryptFor, serverForSuite, testStores, type TestServer } from '../../testing/server.js';
import { routesOf } from '../../security/sweep.js';
import { MSG_OUT_OF_SCOPE, MSG_SCOPE_WIDEN } from '../../core/org.js';
import { MSG_DEPT_ENABLED_BELOW, MSG_DEPT_HAS_CHILDREN, MSG_DEPT_HAS_USERS, MSG_DEPT_PARENT_SELF } from './org.js';
import { MSG_SCOPE_ALL_ONLY } from './roles.js';
import { MSG_GRANT_WIDER } from './users.js';

const NEW_PASSWORD = 'Fresh#Pass2026';

async function dept(s: TestServer, deptName: string, parentId = 0, extra: object = {}): Promise<number> {
  const r = await s.request<number>('POST', '/api/system/dept/save', { deptName, parentId, orderNum: 0, status: 0, ...extra });
  expect(r.body.msg).toBe('保存成功');
  return r.body.data;
}

async function role(s: TestServer, roleKey: string, dataScope: string, deptIds: number[] = []): Promise<number> {
  const r = await s.request<number>('POST', '/api/system/role/save', { roleName: roleKey, roleKey, roleType: 'default', orderNum: 9, dataScope, deptIds, permKeys: ['m:user', 'm:user-add', 'm:user-edit', 'm:user-resetpwd', 'm:role', 'm:role-edit', 'm:dept', 'm:dept-add', 'm:dept-remove'] });
  expect(r.body.msg).toBe('保存成功');
  return r.body.data;
}

/** A signed-in user with these roles and this department (first password changed). */
async function user(s: TestServer, username: string, roleIds: number[], deptId: number | null, token = s.token) {
  const r = await s.request<{ id: number; password: string }>('POST', '/api/system/user/save', { username, nickName: username, roleIds, deptId, status: 0 }, token);
  expect(r.body.msg).toBe('保存成功');
  const first = await s.loginAs(username, r.body.data.password);
  const pem = (await s.request<string>('GET', '/api/uams/publicKey', undefined, null)).body.data;
  const changed = await s.request<{ token: string }>('POST', '/api/uams/user/password', { oldPassword: encryptFor(pem, r.body.data.password), newPassword: encryptFor(pem, NEW_PASSWORD) }, first);
  expect(changed.body.status).toBe(0);
  return { id: r.body.data.id, token: changed.body.data.token };
}

/** The id of 普通用户 (a user needs a role). */
async function plain(s: TestServer): Promise<number> {
  const r = await s.request<any[]>('GET', '/api/system/role/options');
  return r.body.data.find((o) => o.roleKey === 'default').roleId;
}

const names = (records: Array<{ username: string }>) => records.map((r) => r.username).sort();

describe.each(testStores)('部门、岗位与数据权限 (%s)', (store) => {
  const s = serverForSuite({ store });

  it('keeps a department tree: parent checks, duplicate names, refusals that say why', async () => {
    const head = await dept(s, '总部');
    const sales = await dept(s, '销售部', head, { leader: '王五', phone: '13800002222', email: 'sales@example.com' });
    const east = await dept(s, '华东区', sales);
    const list = await s.request<{ records: any[]; total: number }>('POST', '/api/system/dept/list', { pageNum: 1, pageSize: 500 });
    expect(list.body.data.records.find((d) => d.id === sales)).toMatchObject({ deptName: '销售部', parentId: head, leader: '王五', phone: '13800002222', email: 'sales@example.com', status: 0 });
    expect((await s.request('POST', '/api/system/dept/save', { deptName: '销售部', parentId: head, orderNum: 1 })).body.msg).toBe('同一上级部门下已有部门【销售部】');
    expect((await s.request('POST', '/api/system/dept/save', { id: sales, deptName: '销售部', parentId: east, orderNum: 0 })).body.msg).toBe(MSG_DEPT_PARENT_SELF);
    expect((await s.request('POST', '/api/system/dept/save', { id: sales, deptName: '销售部', parentId: sales, orderNum: 0 })).body.msg).toBe(MSG_DEPT_PARENT_SELF);
    expect((await s.request('POST', '/api/system/dept/save', { deptName: '孤儿', parentId: 999999, orderNum: 0 })).body.msg).toBe('上级部门不存在，请刷新后重新选择');
    expect((await s.request('POST', '/api/system/dept/save', { id: sales, deptName: '销售部', parentId: head, orderNum: 0, status: 1 })).body.msg).toBe(MSG_DEPT_ENABLED_BELOW);
    expect((await s.request('POST', '/api/system/dept/save', { deptName: '', parentId: head, orderNum: 0 })).body.msg).toBe('请输入部门名称');
    expect((await s.request('POST', `/api/system/dept/delete?id=${sales}`)).body.msg).toBe(MSG_DEPT_HAS_CHILDREN);
    const u = await s.request<{ id: number }>('POST', '/api/system/user/save', { username: 'east.one', nickName: '华东一', roleIds: [await plain(s)], deptId: east, status: 0 });
    expect(u.body.status).toBe(0);
    expect((await s.request('POST', `/api/system/dept/delete?id=${east}`)).body.msg).toBe(MSG_DEPT_HAS_USERS);
    // options for 上级部门: a root to choose the top level
    const opts = await s.request<any[]>('GET', '/api/system/dept/options');
    expect(opts.body.data[0]).toMatchObject({ id: 0, deptName: '顶级部门' });
    const spare = await dept(s, '临时部', head);
    expect((await s.request('POST', `/api/system/dept/delete?id=${spare}`)).body.msg).toBe('删除成功');
  });

  it('keeps posts; a user holds one department and any posts; a held post is not deleted', async () => {
    const p1 = await s.request<number>('POST', '/api/system/post/save', { postCode: 'ceo', postName: '董事长', orderNum: 1, status: 0 });
    const p2 = await s.request<number>('POST', '/api/system/post/save', { postCode: 'se', postName: '工程师', orderNum: 2, status: 0 });
    expect([p1.body.msg, p2.body.msg]).toEqual(['保存成功', '保存成功']);
    expect((await s.request('POST', '/api/system/post/save', { postCode: 'ceo', postName: '另一个', orderNum: 1 })).body.msg).toBe('岗位编码【ceo】或岗位名称【另一个】已存在');
    expect((await s.request('POST', '/api/system/post/save', { postCode: 'x y', postName: '坏编码', orderNum: 1 })).body.msg).toBe('岗位编码只能包含字母、数字、下划线、点和短横线');
    const head = await dept(s, '研发中心');
    const saved = await s.request<{ id: number }>('POST', '/api/system/user/save', { username: 'post.holder', nickName: '岗位人', roleIds: [await plain(s)], deptId: head, postIds: [p1.body.data, p2.body.data], status: 0 });
    expect(saved.body.status).toBe(0);
    const got = await s.request<any>('GET', `/api/system/user/get?id=${saved.body.data.id}`);
    expect(got.body.data).toMatchObject({ deptId: head, deptName: '研发中心', postIds: [p1.body.data, p2.body.data], postNames: '董事长、工程师' });
    expect((await s.request('POST', `/api/system/post/delete?id=${p1.body.data}`)).body.msg).toBe('岗位【董事长】已分配给 1 个用户，不能删除');
    // as with every field of the dialog, an edit that leaves them out (a cleared select sends nothing) clears them
    expect((await s.request('POST', '/api/system/user/save', { id: saved.body.data.id, username: 'post.holder', nickName: '改名', roleIds: [await plain(s)] })).body.status).toBe(0);
    expect((await s.request<any>('GET', `/api/system/user/get?id=${saved.body.data.id}`)).body.data).toMatchObject({ nickName: '改名', deptId: null, deptName: null, postIds: [], postNames: '' });
    expect((await s.request('POST', `/api/system/post/delete?id=${p1.body.data}`)).body.msg).toBe('删除成功');
    expect((await s.request('POST', '/api/system/user/save', { username: 'bad.dept', nickName: 'x', roleIds: [await plain(s)], deptId: 999999 })).body.msg).toBe('所选部门不存在，请刷新后重新选择');
    expect((await s.request('POST', '/api/system/user/save', { username: 'bad.post', nickName: 'x', roleIds: [await plain(s)], postIds: [999999] })).body.msg).toBe('所选岗位不存在，请刷新后重新选择');
    const options = await s.request<any[]>('GET', '/api/system/post/options');
    expect(options.body.data.map((o) => o.postName)).toEqual(expect.arrayContaining(['工程师']));
  });

  it('the users page side tree: departments with counts; a node filters the list by it and those below', async () => {
    const root = await dept(s, '集团');
    const a = await dept(s, '甲部', root);
    const b = await dept(s, '乙部', root);
    for (const [n, d] of [['jia.1', a], ['jia.2', a], ['yi.1', b]] as const) expect((await s.request('POST', '/api/system/user/save', { username: n, nickName: n, roleIds: [await plain(s)], deptId: d, status: 0 })).body.status).toBe(0);
    const tree = await s.request<any[]>('POST', '/api/system/dept/tree', {});
    expect(tree.body.data.find((d) => d.id === a)).toMatchObject({ deptName: '甲部', parentId: root, userCount: 2 });
    expect(tree.body.data.find((d) => d.id === root)).toMatchObject({ deptName: '集团', userCount: 3 });
    const listed = async (deptIds: number[]) => names((await s.request<any>('POST', '/api/system/user/list', { deptIds, pageSize: 100 })).body.data.records);
    expect(await listed([a])).toEqual(['jia.1', 'jia.2']);
    expect(await listed([b])).toEqual(['yi.1']);
    expect(await listed([root, a, b])).toEqual(['jia.1', 'jia.2', 'yi.1']);
  });

  it('data scope on the users list, get, count and export; edits keep rows in scope; nobody widens their own', async () => {
    const top = await dept(s, '公司');
    const north = await dept(s, '北区', top);
    const northSub = await dept(s, '北区一组', north);
    const south = await dept(s, '南区', top);
    const below = await role(s, 'scope_below', '4');
    const deptOnly = await role(s, 'scope_dept', '3');
    const selfOnly = await role(s, 'scope_self', '5');
    const custom = await role(s, 'scope_custom', '2', [south]);
    const all = await role(s, 'scope_all', '1');
    const got = await s.request<any>('GET', `/api/system/role/get?id=${custom}`);
    expect(got.body.data).toMatchObject({ dataScope: '2', deptIds: [south] });

    const boss = await user(s, 'north.boss', [below], north);
    const sub = await user(s, 'north.sub', [deptOnly], northSub);
    const southie = await user(s, 'south.one', [selfOnly], south);
    await user(s, 'south.two', [custom], south);

    const list = async (token: string, body: object = {}) => (await s.request<any>('POST', '/api/system/user/list', { pageSize: 100, ...body }, token)).body.data;
    // 本部门及以下: north and its group; 本部门: the group only; 仅本人: oneself; 自定义: the ticked department
    expect(names((await list(boss.token)).records)).toEqual(['north.boss', 'north.sub']);
    expect((await list(boss.token)).total).toBe(2);
    // every route that lists users: the account search too
    const searched = await s.request<any>('POST', '/api/uams/user/search', { pageSize: 100 }, boss.token);
    expect([names(searched.body.data.records), searched.body.data.total]).toEqual([['north.boss', 'north.sub'], 2]);
    expect(names((await list(sub.token)).records)).toEqual(['north.sub']);
    expect(names((await list(southie.token)).records)).toEqual(['south.one']);
    // search and the side tree's filter never reach past the scope
    expect(names((await list(boss.token, { search: 'south' })).records)).toEqual([]);
    expect(names((await list(boss.token, { deptIds: [south] })).records)).toEqual([]);
    // get by id, status, reset password, delete: a user outside the scope is not there
    for (const [m, url, body] of [
      ['GET', `/api/system/user/get?id=${southie.id}`, undefined],
      ['POST', '/api/system/user/status', { id: southie.id, status: 1 }],
      ['POST', `/api/system/user/resetPwd?id=${southie.id}`, { mode: 'random' }],
      ['POST', '/api/system/user/save', { id: southie.id, username: 'south.one', nickName: '改名', roleIds: [selfOnly], deptId: south }],
    ] as const) expect((await s.request(m, url, body, boss.token)).body.msg).toBe('用户不存在');
    // export: the list's rows as the caller
    const csv = await fetch(`${s.url}/api/sheets/export/user?format=csv`, { headers: { authorization: `Bearer ${boss.token}` } });
    const text = await csv.text();
    expect(text).toContain('north.sub');
    expect(text).not.toContain('south.one');

    // a union: 本部门 + 自定义 (south)
    const both = await user(s, 'both.roles', [deptOnly, custom], northSub);
    expect(names((await list(both.token)).records)).toEqual(['both.roles', 'north.sub', 'south.one', 'south.two']);

    // new users only inside the scope; edits cannot move a user out of it
    expect((await s.request('POST', '/api/system/user/save', { username: 'x.south', nickName: 'x', roleIds: [below], deptId: south }, boss.token)).body.msg).toBe(MSG_OUT_OF_SCOPE);
    expect((await s.request('POST', '/api/system/user/save', { username: 'x.none', nickName: 'x', roleIds: [below] }, boss.token)).body.msg).toMatch(/^请选择部门/);
    expect((await s.request('POST', '/api/system/user/save', { id: sub.id, username: 'north.sub', nickName: 'x', roleIds: [deptOnly], deptId: south }, boss.token)).body.msg).toBe(MSG_OUT_OF_SCOPE);
    expect((await s.request('POST', '/api/system/user/save', { id: sub.id, username: 'north.sub', nickName: 'x', roleIds: [deptOnly] }, boss.token)).body.msg).toMatch(/^请选择部门/);
    // nor grant a role that sees past the caller's scope
    expect((await s.request('POST', '/api/system/user/save', { id: sub.id, username: 'north.sub', nickName: 'x', roleIds: [all], deptId: northSub }, boss.token)).body.msg).toBe(MSG_GRANT_WIDER);
    expect((await s.request('POST', '/api/system/user/save', { id: sub.id, username: 'north.sub', nickName: 'x', roleIds: [custom], deptId: northSub }, boss.token)).body.msg).toBe(MSG_GRANT_WIDER);
    // moving a user down inside the scope is fine
    expect((await s.request('POST', '/api/system/user/save', { id: sub.id, username: 'north.sub', nickName: '北一', roleIds: [deptOnly], deptId: north }, boss.token)).body.msg).toBe('保存成功');

    // one's own department or roles: refused when the result sees more
    expect((await s.request('POST', '/api/system/user/save', { id: sub.id, username: 'north.sub', nickName: '北一', roleIds: [deptOnly], deptId: northSub }, boss.token)).body.msg).toBe('保存成功');
    const selfMove = await s.request('POST', '/api/system/user/save', { id: boss.id, username: 'north.boss', nickName: 'b', roleIds: [below], deptId: top }, boss.token);
    expect(selfMove.body.msg).toBe(MSG_OUT_OF_SCOPE);
    const selfRole = await s.request('POST', '/api/system/user/save', { id: boss.id, username: 'north.boss', nickName: 'b', roleIds: [below, custom], deptId: north }, boss.token);
    expect(selfRole.body.msg).toBe(MSG_SCOPE_WIDEN);
    // narrowing oneself is allowed
    expect((await s.request('POST', '/api/system/user/save', { id: boss.id, username: 'north.boss', nickName: 'b', roleIds: [below], deptId: northSub }, boss.token)).body.msg).toBe('保存成功');
    expect(names((await list(boss.token)).records)).toEqual(['both.roles', 'north.boss', 'north.sub']);
    // and may not climb back
    expect((await s.request('POST', '/api/system/user/save', { id: boss.id, username: 'north.boss', nickName: 'b', roleIds: [below], deptId: north }, boss.token)).body.msg).toBe(MSG_OUT_OF_SCOPE);

    // the users page's tree: the caller's departments, and those above them greyed (outside) to place them
    const tree = ((await s.request<any[]>('POST', '/api/system/dept/tree', {}, boss.token)).body.data ?? []).map((d) => [d.deptName, d.outside === true]);
    expect(tree).toEqual(expect.arrayContaining([['公司', true], ['北区', true], ['北区一组', false]]));
    expect(tree.map(([n]) => n)).not.toContain('南区');

    // 部门管理 under the scope: list, get, options, the role dialog's tree, delete and a new department
    const deptNames = async () => ((await s.request<any>('POST', '/api/system/dept/list', { pageSize: 500 }, boss.token)).body.data.records as any[]).map((d) => d.deptName).sort();
    expect(await deptNames()).toEqual(['北区一组']);
    expect((await s.request('GET', `/api/system/dept/get?id=${south}`, undefined, boss.token)).body.msg).toBe('部门不存在');
    expect((await s.request('POST', `/api/system/dept/delete?id=${south}`, undefined, boss.token)).body.msg).toBe('部门不存在');
    expect(((await s.request<any[]>('GET', '/api/system/role/deptTree', undefined, boss.token)).body.data ?? []).map((d) => d.deptName)).toEqual(['北区一组']);
    expect((await s.request('POST', '/api/system/dept/save', { deptName: '南区新组', parentId: south, orderNum: 0 }, boss.token)).body.msg).toBe(MSG_OUT_OF_SCOPE);

    // roles: a caller not seeing everything sets no 全部, ticks no department outside, widens no role they hold
    const roleBody = { roleName: 'scope_below', roleKey: 'scope_below', roleType: 'default', orderNum: 9, permKeys: ['m:user', 'm:user-add', 'm:user-edit', 'm:user-resetpwd', 'm:role', 'm:role-edit', 'm:dept', 'm:dept-add', 'm:dept-remove'] };
    expect((await s.request('POST', '/api/system/role/save', { ...roleBody, id: below, dataScope: '1' }, boss.token)).body.msg).toBe(MSG_SCOPE_ALL_ONLY);
    expect((await s.request('POST', '/api/system/role/save', { ...roleBody, id: below, dataScope: '2', deptIds: [south] }, boss.token)).body.msg).toBe(MSG_OUT_OF_SCOPE);
    expect((await s.request('POST', '/api/system/role/save', { ...roleBody, id: below, dataScope: '2', deptIds: [northSub] }, boss.token)).body.msg).toBe('保存成功');
    expect((await s.request('POST', '/api/system/role/save', { ...roleBody, id: below, dataScope: '4' }, boss.token)).body.msg).toBe('保存成功');
  });

  it('the route-table sweeps (security/) reach every new route, each guarded by its permission', () => {
    const table = routesOf(s.app.routeTable);
    const perms = Object.fromEntries(table.map((r) => [`${r.method} ${r.url}`, r.public ? 'public' : r.perm]));
    expect(perms).toMatchObject({
      'POST /api/system/dept/list': 'system:dept:list',
      'GET /api/system/dept/get': 'system:dept:list',
      'POST /api/system/dept/save': 'system:dept:list',
      'POST /api/system/dept/delete': 'system:dept:remove',
      'GET /api/system/dept/export': 'system:dept:list',
      'GET /api/system/dept/options': 'system:dept:list',
      'POST /api/system/dept/tree': 'system:user:list',
      'GET /api/system/role/deptTree': 'system:role:list',
      'POST /api/system/post/list': 'system:post:list',
      'POST /api/system/post/save': 'system:post:list',
      'POST /api/system/post/delete': 'system:post:remove',
      'GET /api/system/post/options': 'system:user:list',
    });
    // the list routes take a search text: security/search.test.ts sweeps them
    expect(table.filter((r) => r.method === 'POST' && r.bodyFields.includes('search')).map((r) => r.url)).toEqual(expect.arrayContaining(['/api/system/dept/list', '/api/system/post/list', '/api/system/user/list']));
  });
});
