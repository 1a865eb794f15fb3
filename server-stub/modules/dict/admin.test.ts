// 字典管理 over real HTTP on every store (issue 21 item 4): the dictionaries live in the store; an edit is answered
// by the spec's calls, used by x-dict validation and export labels, survives a restart; 重置 writes the shipped
// file back; only system:dict:* holders reach the routes; hostile text is stored and answered as text.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyShippedDicts, shippedDicts, type DictMap } from '../../core/dicts.js';
import { serverForSuite, startTestServer, testStores, type TestServer } from '../../testing/server.js';

const dictDir = path.resolve(import.meta.dirname, '../../../schemas/dicts');
const files: Record<string, any> = Object.fromEntries(readdirSync(dictDir).map((f) => [f.replace('.json', ''), JSON.parse(readFileSync(path.join(dictDir, f), 'utf8'))]));

const ROUTES: Array<['GET' | 'POST', string, unknown]> = [
  ['POST', '/api/dict/admin/type/list', {}],
  ['GET', '/api/dict/admin/type/get?id=1', undefined],
  ['POST', '/api/dict/admin/type/save', { dictType: 'DEV_TRY', dictName: 'x', valueType: 'string' }],
  ['POST', '/api/dict/admin/type/delete?id=1', undefined],
  ['POST', '/api/dict/admin/type/reset?id=1', undefined],
  ['POST', '/api/dict/admin/type/resetAll', undefined],
  ['POST', '/api/dict/admin/data/list', { dictType: 'YES_OR_NO' }],
  ['GET', '/api/dict/admin/data/get?id=1', undefined],
  ['POST', '/api/dict/admin/data/save', { dictType: 'YES_OR_NO', dictValue: '7', dictLabel: 'x' }],
  ['POST', '/api/dict/admin/data/delete?id=1', undefined],
];

async function typeRow(s: TestServer, type: string) {
  const r = await s.request<{ records: any[] }>('POST', '/api/dict/admin/type/list', { search: type, pageSize: 100 });
  return r.body.data.records.find((t) => t.dictType === type);
}
async function entriesOf(s: TestServer, type: string) {
  const r = await s.request<{ records: any[]; total: number }>('POST', '/api/dict/admin/data/list', { dictType: type, pageSize: 500 });
  expect(r.body.status).toBe(0);
  return r.body.data.records;
}
async function mapData(s: TestServer, ...types: string[]) {
  const r = await s.request<Record<string, any[]>>('POST', '/api/dict/selectMapData', types);
  expect(r.body.status).toBe(0);
  return r.body.data;
}
async function dump(s: TestServer) {
  const types = await s.app.ctx.db.selectFrom('sys_dict_type').selectAll().orderBy('id').execute();
  const data = await s.app.ctx.db.selectFrom('sys_dict_data').selectAll().orderBy('id').execute();
  return JSON.stringify([types, data]);
}

describe.each(testStores)('字典管理 (%s)', (store) => {
  const s = serverForSuite({ store });

  it('answers every shipped dictionary byte for byte as its file, from the store', async () => {
    const data = await mapData(s, ...Object.keys(files));
    for (const [type, file] of Object.entries(files)) expect(JSON.stringify(data[type]), type).toBe(JSON.stringify(file.items));
    const tree = await s.request<Record<string, any[]>>('POST', '/api/dict/tree/map/batchselect', [{ dictType: 'ROLE_TYPE' }, { dictType: 'YES_OR_NO', treeLevel: 1 }]);
    expect(JSON.stringify(tree.body.data)).toBe(JSON.stringify({ ROLE_TYPE: files.ROLE_TYPE.items, YES_OR_NO: files.YES_OR_NO.items }));
    expect(await s.app.ctx.db.selectFrom('sys_dict_type').select('dict_type').execute()).toHaveLength(Object.keys(files).length);
  });

  it('refuses every new route without a session (401) and to the weakest role (403)', async () => {
    const dev = await s.loginAs('developer');
    for (const [method, url, body] of ROUTES) {
      expect((await s.request(method, url, body, null)).http, `${method} ${url} unsigned`).toBe(401);
      const r = await s.request(method, url, body, dev);
      expect(r.http, `${method} ${url} developer`).toBe(403);
      expect(r.body.status).toBe(1);
    }
    // the spec's reads stay open to every signed-in user
    expect((await s.request('POST', '/api/dict/selectMapData', ['YES_OR_NO'], dev)).body.status).toBe(0);
  });

  it('an edited label is what selectMapData and the CSV export answer next', async () => {
    const yes = (await entriesOf(s, 'LOGIN_RESULT')).find((e) => e.dictValue === '1');
    expect(yes).toBeDefined();
    const r = await s.request('POST', '/api/dict/admin/data/save', { ...yes, dictLabel: '登录被拒绝' });
    expect(r.body.msg).toBe('保存成功');
    expect((await mapData(s, 'LOGIN_RESULT')).LOGIN_RESULT.find((e) => e.value === 1)).toEqual({ value: 1, label: '登录被拒绝', dictStyle: yes.tagStyle });
    // a refused sign-in, then the sign-in log's export writes the edited label
    await s.request('POST', '/api/uams/login', { loginType: 'password', area: '+86', mobilePhone: 'nobody_here', password: 'x' }, null);
    await new Promise((res) => setTimeout(res, 300)); // written after the answer
    const res = await fetch(`${s.url}/api/system/loginLog/export`, { headers: { authorization: `Bearer ${s.token}` } });
    const text = await res.text();
    expect(text).toContain('nobody_here');
    expect(text).toContain('登录被拒绝');
  });

  it('a value added to a dictionary is accepted by the x-dict validation of a page', async () => {
    const ftp = { envType: 'staging', nodeCode: `F${store}`, nodeName: '预发布', ip: '127.0.0.1' };
    const before = await s.request('POST', '/api/remote/ftp/save', ftp);
    expect(before.body.status).toBe(1);
    const add = await s.request('POST', '/api/dict/admin/data/save', { dictType: 'ENV_TYPE', dictValue: 'staging', dictLabel: '预发布环境', tagStyle: '#13c2c2', orderNum: 5 });
    expect(add.body.msg).toBe('保存成功');
    expect((await s.request('POST', '/api/remote/ftp/save', ftp)).body.msg).toBe('保存成功');
    expect((await mapData(s, 'ENV_TYPE')).ENV_TYPE.at(-1)).toEqual({ value: 'staging', label: '预发布环境', dictStyle: '#13c2c2' });
  });

  it('checks entries: unique value within the type, numbers for number types, label and colour', async () => {
    const save = (body: object) => s.request('POST', '/api/dict/admin/data/save', body);
    expect((await save({ dictType: 'ENV_TYPE', dictValue: 'dev', dictLabel: '重复' })).body.msg).toBe('字典值【dev】已存在');
    expect((await save({ dictType: 'YES_OR_NO', dictValue: 'abc', dictLabel: '不是数字' })).body.msg).toBe('字典值必须是数字');
    expect((await save({ dictType: 'YES_OR_NO', dictValue: '1.0', dictLabel: '重复的一' })).body.msg).toBe('字典值【1】已存在');
    expect((await save({ dictType: 'YES_OR_NO', dictValue: '2', dictLabel: '  ' })).body.msg).toBe('请输入标签');
    expect((await save({ dictType: 'YES_OR_NO', dictValue: '2', dictLabel: '二', tagStyle: 'red; x' })).body.msg).toContain('标签颜色只能是');
    expect((await save({ dictType: 'NO_SUCH_TYPE', dictValue: '2', dictLabel: '二' })).body.msg).toBe('字典类型不存在');
    expect((await save({ dictType: 'YES_OR_NO', dictValue: '2', dictLabel: '二', tagStyle: 'warning' })).body.msg).toBe('保存成功');
    expect((await mapData(s, 'YES_OR_NO')).YES_OR_NO.at(-1)).toEqual({ value: 2, label: '二', dictStyle: 'warning' });
  });

  it('adds, lists, and deletes a tree dictionary of its own; a shipped one cannot be deleted nor change its value type', async () => {
    const add = await s.request<number>('POST', '/api/dict/admin/type/save', { dictType: 'REGION', dictName: '地区', valueType: 'string' });
    expect(add.body.msg).toBe('保存成功');
    expect((await s.request('POST', '/api/dict/admin/type/save', { dictType: 'REGION', dictName: '又一个', valueType: 'string' })).body.msg).toBe('字典类型【REGION】已存在');
    expect((await s.request('POST', '/api/dict/admin/type/save', { dictType: 'region', dictName: 'x', valueType: 'string' })).body.msg).toBe('字典类型以大写字母开头，只能包含大写字母、数字和下划线，2–64 个字符');
    expect((await s.request('POST', '/api/dict/admin/type/save', { dictType: 'R2', dictName: 'x', valueType: 'boolean' })).body.status).toBe(1);
    const east = await s.request<number>('POST', '/api/dict/admin/data/save', { dictType: 'REGION', dictValue: 'east', dictLabel: '华东' });
    const sh = await s.request<number>('POST', '/api/dict/admin/data/save', { dictType: 'REGION', parentId: east.body.data, dictValue: 'sh', dictLabel: '上海' });
    expect(sh.body.status).toBe(0);
    await s.request('POST', '/api/dict/admin/data/save', { dictType: 'REGION', parentId: sh.body.data, dictValue: 'pd', dictLabel: '浦东' });
    // a parent below itself is refused
    const loop = await s.request('POST', '/api/dict/admin/data/save', { id: east.body.data, dictType: 'REGION', parentId: sh.body.data, dictValue: 'east', dictLabel: '华东' });
    expect(loop.body.msg).toBe('上级字典项不能是它自己或它的下级');
    expect((await mapData(s, 'REGION')).REGION).toEqual([{ value: 'east', label: '华东', children: [{ value: 'sh', label: '上海', children: [{ value: 'pd', label: '浦东' }] }] }]);
    const cut = await s.request<Record<string, any[]>>('POST', '/api/dict/tree/map/batchselect', { dictType: 'REGION', treeLevel: 2 });
    expect(cut.body.data.REGION).toEqual([{ value: 'east', label: '华东', children: [{ value: 'sh', label: '上海' }] }]);
    const rows = await entriesOf(s, 'REGION');
    expect(rows.map((r) => [r.dictValue, r.parentId])).toEqual(expect.arrayContaining([['east', null], ['sh', east.body.data], ['pd', sh.body.data]]));
    const region = await typeRow(s, 'REGION');
    expect(region).toMatchObject({ shipped: 0, entryCount: 3, valueType: 'string' });
    // string → number refused while a value is not a number
    expect((await s.request('POST', '/api/dict/admin/type/save', { ...region, valueType: 'number' })).body.msg).toBe('字典值【east】不是数字，不能改为数字类型');
    // deleting a parent deletes what is below it
    expect((await s.request('POST', `/api/dict/admin/data/delete?id=${sh.body.data}`)).body.msg).toBe('删除成功');
    expect(await entriesOf(s, 'REGION')).toHaveLength(1);
    expect((await s.request('POST', `/api/dict/admin/type/delete?id=${region.id}`)).body.msg).toBe('删除成功');
    expect((await mapData(s, 'REGION')).REGION).toEqual([]);
    expect(await s.app.ctx.db.selectFrom('sys_dict_data').select('id').where('dict_type', '=', 'REGION').execute()).toEqual([]);

    const yesNo = await typeRow(s, 'YES_OR_NO');
    expect(yesNo.shipped).toBe(1);
    expect((await s.request('POST', `/api/dict/admin/type/delete?id=${yesNo.id}`)).body.msg).toBe('内置字典【YES_OR_NO】不能删除，可以重置为内置取值');
    expect((await s.request('POST', '/api/dict/admin/type/save', { ...yesNo, valueType: 'string' })).body.msg).toBe('内置字典【YES_OR_NO】的值类型不能修改');
    const renamed = await s.request('POST', '/api/dict/admin/type/save', { ...yesNo, dictType: 'OTHER', dictName: '是与否' });
    expect(renamed.body.msg).toBe('保存成功');
    expect(await typeRow(s, 'YES_OR_NO')).toMatchObject({ dictName: '是与否' }); // the key stays
  });

  it('stores hostile text as text and answers it unchanged', async () => {
    const hostile = ["'; DROP TABLE sys_dict_data; --", '<img src=x onerror=alert(1)>', '" OR 1=1 --', '{{constructor}}', '%_\\'];
    const t = await s.request<number>('POST', '/api/dict/admin/type/save', { dictType: 'HOSTILE', dictName: hostile[0], valueType: 'string', remark: hostile[1] });
    expect(t.body.msg).toBe('保存成功');
    for (const [i, h] of hostile.entries()) {
      const r = await s.request('POST', '/api/dict/admin/data/save', { dictType: 'HOSTILE', dictValue: h, dictLabel: hostile[(i + 1) % hostile.length], orderNum: i });
      expect(r.body.msg, h).toBe('保存成功');
    }
    expect((await mapData(s, 'HOSTILE')).HOSTILE).toEqual(hostile.map((h, i) => ({ value: h, label: hostile[(i + 1) % hostile.length] })));
    expect(await typeRow(s, 'HOSTILE')).toMatchObject({ dictName: hostile[0], remark: hostile[1] });
    // the search matches the text (value or label), wildcards included, literally
    const found = await s.request<{ records: any[] }>('POST', '/api/dict/admin/data/list', { dictType: 'HOSTILE', search: '%_\\' });
    expect(found.body.data.records.map((r) => [r.dictValue, r.dictLabel]).sort()).toEqual([['%_\\', hostile[0]], ['{{constructor}}', '%_\\']]);
    expect((await mapData(s, 'YES_OR_NO')).YES_OR_NO.length).toBeGreaterThan(0); // the table is still there
  });

  it('a changed shipped file: its additions and changes applied, the admins’ other edits kept', async () => {
    const post = (await entriesOf(s, 'API_METHOD')).find((e) => e.dictValue === 'POST');
    await s.request('POST', '/api/dict/admin/data/save', { ...post, dictLabel: 'POST（管理员）' });
    const before = shippedDicts(files);
    const next: DictMap = JSON.parse(JSON.stringify(before));
    next.API_METHOD!.items = [{ value: 'GET', label: 'GET 查询' }, { value: 'POST', label: 'POST' }, { value: 'PUT', label: 'PUT', children: [{ value: 'PATCH', label: 'PATCH' }] }];
    await applyShippedDicts(s.app.ctx.db, next, before);
    await s.app.dicts.changed();
    expect((await mapData(s, 'API_METHOD')).API_METHOD).toEqual([
      { value: 'GET', label: 'GET 查询' },
      { value: 'POST', label: 'POST（管理员）' },
      { value: 'PUT', label: 'PUT', children: [{ value: 'PATCH', label: 'PATCH' }] },
    ]);
    // the same files again write nothing
    const once = await dump(s);
    await applyShippedDicts(s.app.ctx.db, next, next);
    expect(await dump(s)).toBe(once);
  });

  it('重置 writes the shipped file back, for one type and for all', async () => {
    const method = await typeRow(s, 'API_METHOD');
    expect((await s.request('POST', `/api/dict/admin/type/reset?id=${method.id}`)).body.msg).toBe('重置成功');
    expect(JSON.stringify((await mapData(s, 'API_METHOD')).API_METHOD)).toBe(JSON.stringify(files.API_METHOD.items));
    const own = await s.request<number>('POST', '/api/dict/admin/type/save', { dictType: 'OWN_ONLY', dictName: '自建', valueType: 'number' });
    expect((await s.request('POST', `/api/dict/admin/type/reset?id=${own.body.data}`)).body.msg).toBe('字典【OWN_ONLY】不是内置字典，无法重置');
    await s.request('POST', '/api/dict/admin/data/save', { dictType: 'OWN_ONLY', dictValue: '5', dictLabel: '五' });
    expect((await s.request('POST', '/api/dict/admin/type/resetAll')).body.msg).toBe('重置成功');
    const data = await mapData(s, ...Object.keys(files), 'OWN_ONLY');
    for (const [type, file] of Object.entries(files)) expect(JSON.stringify(data[type]), type).toBe(JSON.stringify(file.items));
    expect(data.OWN_ONLY).toEqual([{ value: 5, label: '五' }]);
    expect(await typeRow(s, 'YES_OR_NO')).toMatchObject({ dictName: '是否' });
  });

  it('a restart on the same store keeps the edits and writes nothing', async () => {
    const yes = (await entriesOf(s, 'YES_OR_NO')).find((e) => e.dictValue === '1');
    await s.request('POST', '/api/dict/admin/data/save', { ...yes, dictLabel: '是（已改）' });
    const once = await dump(s);
    const env: Record<string, string> = { DATA_DIR: s.dataDir, ...(store === 'pg' ? { DATABASE_SCHEMA: s.app.ctx.config.databaseSchema! } : {}) };
    const again = await startTestServer({ store, env });
    try {
      expect(await dump(again)).toBe(once);
      expect((await mapData(again, 'YES_OR_NO')).YES_OR_NO[0]).toEqual({ value: 1, label: '是（已改）', dictStyle: 'success' });
    } finally {
      await again.app.close();
    }
  });
});

describe.runIf(process.env.REDIS_URL).each(testStores)('字典管理 on two instances sharing Redis (%s)', (store) => {
  const a = serverForSuite({ store, env: { REDIS_URL: process.env.REDIS_URL! } });

  it('an edit on one instance is answered by the other on its next read', async () => {
    const env: Record<string, string> = { REDIS_URL: process.env.REDIS_URL!, DATA_DIR: a.dataDir, ...(store === 'pg' ? { DATABASE_SCHEMA: a.app.ctx.config.databaseSchema! } : {}) };
    const b = await startTestServer({ store, env });
    try {
      // both hold their copy first
      expect((await mapData(a, 'ENV_TYPE')).ENV_TYPE).toEqual(files.ENV_TYPE.items);
      expect((await mapData(b, 'ENV_TYPE')).ENV_TYPE).toEqual(files.ENV_TYPE.items);
      const dev = (await entriesOf(b, 'ENV_TYPE')).find((e) => e.dictValue === 'dev');
      expect((await b.request('POST', '/api/dict/admin/data/save', { ...dev, dictLabel: '开发（两实例）' })).body.msg).toBe('保存成功');
      expect((await mapData(a, 'ENV_TYPE')).ENV_TYPE[0].label).toBe('开发（两实例）');
      expect((await a.request('POST', '/api/remote/ftp/save', { envType: 'qa', nodeCode: 'Q1', nodeName: 'q', ip: '127.0.0.1' })).body.status).toBe(1);
      await b.request('POST', '/api/dict/admin/data/save', { dictType: 'ENV_TYPE', dictValue: 'qa', dictLabel: '测试环境' });
      expect((await a.request('POST', '/api/remote/ftp/save', { envType: 'qa', nodeCode: 'Q1', nodeName: 'q', ip: '127.0.0.1' })).body.msg).toBe('保存成功');
    } finally {
      await b.app.close();
    }
  });
});
