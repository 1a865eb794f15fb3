import { serverForSuite, testStores } from '../../testing/server.js';

describe.each(testStores)('variables (%s store)', (store) => {
  const s = serverForSuite({ store });

  it('CRUD, search on name or value, sortable columns', async () => {
    for (const [n, v] of [['B_HOME', '/opt/b'], ['A_PATH', '/usr/bin'], ['C_MODE', 'prod']])
      expect((await s.request('POST', '/api/sys/var/save', { variableName: n, variableValue: v, variableDesc: `${n} 说明` })).body).toMatchObject({ status: 0, msg: '保存成功' });
    const byName = await s.request('POST', '/api/sys/var/searchList', { pageNum: 1, pageSize: 10, orderByColumn: 'variableName', isAsc: 'asc' });
    expect(byName.body.data.records.map((r: any) => r.variableName)).toEqual(['A_PATH', 'B_HOME', 'C_MODE']);
    const byValue = await s.request('POST', '/api/sys/var/searchList', { search: '/usr' });
    expect(byValue.body.data).toMatchObject({ total: 1, records: [{ variableName: 'A_PATH' }] });
    const desc = await s.request('POST', '/api/sys/var/searchList', { orderByColumn: 'variableValue', isAsc: 'desc' });
    expect(desc.body.data.records[0].variableValue).toBe('prod');
    const rec = byValue.body.data.records[0];
    expect((await s.request('POST', '/api/sys/var/save', { ...rec, variableValue: '/bin' })).body.status).toBe(0);
    expect((await s.request('POST', '/api/sys/var/searchList', { search: 'A_PATH' })).body.data.records[0].variableValue).toBe('/bin');
    expect((await s.request('POST', `/api/sys/var/delete?id=${rec.id}`)).body).toMatchObject({ status: 0, msg: '删除成功' });
    expect((await s.request('POST', '/api/sys/var/searchList', {})).body.data.total).toBe(2);
  });

  it('bad input: declared message, duplicates, types, lengths, malformed JSON, search over 20', async () => {
    expect((await s.request('POST', '/api/sys/var/save', { variableValue: 'x' })).body).toMatchObject({ status: 1, msg: '请输入参数名称' });
    expect((await s.request('POST', '/api/sys/var/save', { variableName: 'C_MODE' })).body.msg).toContain('已存在');
    expect((await s.request('POST', '/api/sys/var/save', { variableName: 5 })).body.status).toBe(1);
    expect((await s.request('POST', '/api/sys/var/save', { variableName: 'x'.repeat(101) })).body.status).toBe(1);
    const bad = await s.request('POST', '/api/sys/var/save', '{"variableName":');
    expect(bad.body.status).toBe(1);
    expect(bad.http).toBeLessThan(500);
    expect((await s.request('POST', '/api/sys/var/searchList', { search: 'x'.repeat(21) })).body.status).toBe(1);
    expect((await s.request('POST', '/api/sys/var/delete?id=0')).body.status).toBe(1);
  });

  it('permissions', async () => {
    const dev = await s.loginAs('devapprover');
    expect((await s.request('POST', '/api/sys/var/searchList', {}, dev)).body.status).toBe(0);
    const r = await s.request('POST', '/api/sys/var/save', { variableName: 'X' }, dev);
    expect(r.body.status).toBe(1);
    expect(r.body.msg).toContain('没有权限');
    const biz = await s.loginAs('bizapprover');
    expect((await s.request('POST', '/api/sys/var/searchList', {}, biz)).body.msg).toContain('没有权限');
  });
});
