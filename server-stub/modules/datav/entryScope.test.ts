// A form's entries under the data scope (issue 34 item 2) over real HTTP, on each store: an entry belongs to its
// submitter and the submitter's department; the list, its count, the CSV export and delete see only the caller's.
import { serverForSuite, testStores } from '../../testing/server.js';
import { addPerson } from '../../testing/people.js';

const F = '/api/jimu/form';

describe.each(testStores)('form entries under the data scope (%s store)', (store) => {
  const s = serverForSuite({ store });
  const ids: Record<string, number> = {};
  const tokens: Record<string, string> = {};
  let formId = 0;

  const must = async (method: 'GET' | 'POST', path: string, body?: unknown, token?: string) => {
    const r = await s.request(method, path, body, token);
    if (r.body.status !== 0) throw new Error(`${path}: ${r.body.msg}`);
    return r.body.data;
  };

  beforeAll(async () => {
    ids.a = await must('POST', '/api/system/dept/save', { deptName: '表单甲', parentId: 0, orderNum: 0 });
    ids.b = await must('POST', '/api/system/dept/save', { deptName: '表单乙', parentId: 0, orderNum: 0 });
    for (const [key, scope] of [['fe_dept', '3'], ['fe_self', '5']] as const) {
      ids[key] = await must('POST', '/api/system/role/save', { roleName: key, roleKey: key, roleType: 'default', orderNum: 9, dataScope: scope, permKeys: [] });
      await s.app.ctx.db.insertInto('sys_role_permission').values(['list', 'remove'].map((a) => ({ role_id: ids[key], permission: `jimu:form:${a}` }))).execute();
    }
    for (const [name, role, dept] of [['fe.a', 'fe_dept', 'a'], ['fe.a2', 'fe_self', 'a'], ['fe.b', 'fe_dept', 'b']] as const) tokens[name] = (await addPerson(s, name, [ids[role]], ids[dept])).token;
    const form = await must('POST', `${F}/info/save`, { pageName: '数据权限表单', fillAccess: 'login' });
    formId = form.id;
    await must('POST', `${F}/widget/add`, { pageId: formId, widgetName: 'formInput' });
    await must('POST', `${F}/widget/add`, { pageId: formId, widgetName: 'formSubmit' });
    for (const name of ['fe.a', 'fe.a2', 'fe.b']) await must('POST', `${F}/fill/submit?id=${formId}`, { values: { input_1: `from-${name}` } }, tokens[name]);
  });

  const listed = async (user: string) => {
    const d = await must('POST', `${F}/entry/search`, { formId, pageSize: 100 }, tokens[user]);
    return { names: d.records.map((r: any) => r.input_1).sort(), total: d.total };
  };

  it('lists, counts and exports only the entries of the caller’s scope', async () => {
    expect(await listed('fe.a')).toEqual({ names: ['from-fe.a', 'from-fe.a2'], total: 2 });
    expect(await listed('fe.b')).toEqual({ names: ['from-fe.b'], total: 1 });
    expect(await listed('fe.a2')).toEqual({ names: ['from-fe.a2'], total: 1 });
    expect((await must('POST', `${F}/entry/search`, { formId, pageSize: 100 })).total).toBe(3);
    const csv = await (await fetch(`${s.url}${F}/entry/export?formId=${formId}`, { headers: { authorization: `Bearer ${tokens['fe.a']}` } })).text();
    expect(csv).toContain('from-fe.a2');
    expect(csv).not.toContain('from-fe.b');
  });

  it('deletes only inside the scope', async () => {
    const all = (await must('POST', `${F}/entry/search`, { formId, pageSize: 100 })).records as any[];
    const theirs = all.find((r) => r.input_1 === 'from-fe.b').id;
    expect((await s.request('GET', `${F}/entry/delete?id=${theirs}`, undefined, tokens['fe.a'])).body.msg).toBe('填写记录不存在');
    expect((await must('POST', `${F}/entry/search`, { formId, pageSize: 100 })).total).toBe(3);
    const mine = all.find((r) => r.input_1 === 'from-fe.a2').id;
    expect((await s.request('GET', `${F}/entry/delete?id=${mine}`, undefined, tokens['fe.a'])).body.msg).toBe('删除成功');
  });
});
