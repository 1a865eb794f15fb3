import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/server.js';

const dictDir = path.resolve(import.meta.dirname, '../../../schemas/dicts');
const declared = Object.fromEntries(readdirSync(dictDir).map((f) => [f.replace('.json', ''), JSON.parse(readFileSync(path.join(dictDir, f), 'utf8'))]));

describe('dictionaries', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s?.close());

  it('holds every dictionary the spec names', () => {
    for (const t of ['YES_OR_NO', 'ENV_TYPE', 'ROLE_TYPE', 'MENU_TYPES', 'API_METHOD', 'DATA_SOURCE_TYPE', 'REQ_PARAM_TYPE', 'SERVER_NAME', 'DB_TYPE', 'QUERY_TYPE', 'API_STATUS', 'ONLINE_STATUS', 'REQUEST_PARAMETER_TYPE', 'RESPONSE_PARAMETER_TYPE', 'RESPONSE_BODY_TYPE', 'PROPS_TEXT_ALIGN']) {
      expect(declared[t], t).toBeDefined();
    }
    expect(declared.YES_OR_NO.items.map((e: any) => [e.value, e.label])).toEqual([[1, '是'], [0, '否']]);
    expect(declared.API_STATUS.items.map((e: any) => e.value)).toEqual([0, 1, 2, 3]);
    expect(declared.SERVER_NAME.items).toHaveLength(3);
  });

  it('answers selectMapData with the declared entries, empty for unknown types', async () => {
    const r = await s.request<Record<string, any[]>>('POST', '/api/dict/selectMapData', ['YES_OR_NO', 'DB_TYPE', 'NO_SUCH_DICT']);
    expect(r.body.status).toBe(0);
    expect(r.body.data.YES_OR_NO).toEqual(declared.YES_OR_NO.items);
    expect(r.body.data.DB_TYPE.map((e) => e.value)).toEqual(['mysql', 'mariadb', 'postgresql', 'sqlite']);
    expect(r.body.data.NO_SUCH_DICT).toEqual([]);
  });

  it('answers the tree batch call for one or many types', async () => {
    const one = await s.request<Record<string, any[]>>('POST', '/api/dict/tree/map/batchselect', { dictType: 'ENV_TYPE', treeLevel: 1 });
    expect(one.body.data.ENV_TYPE.map((e) => e.value)).toEqual(['dev', 'prod']);
    const many = await s.request<Record<string, any[]>>('POST', '/api/dict/tree/map/batchselect', [{ dictType: 'ROLE_TYPE' }, { dictType: 'API_METHOD', treeLevel: 2 }]);
    expect(Object.keys(many.body.data).sort()).toEqual(['API_METHOD', 'ROLE_TYPE']);
  });

  it('rejects a malformed type list', async () => {
    const r = await s.request('POST', '/api/dict/selectMapData', ['bad type; drop']);
    expect(r.body.status).toBe(1);
    expect(r.body.msg).toContain('格式不正确');
    const notList = await s.request('POST', '/api/dict/selectMapData', { type: 'YES_OR_NO' });
    expect(notList.body.status).toBe(1);
  });
});
