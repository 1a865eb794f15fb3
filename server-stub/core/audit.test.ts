// The operation log (core/audit.ts) over real HTTP: every signed-in write through a module's route writes one
// entry (failures too), reads write none, and a request without a session writes none (the guard refuses it
// before any module runs: there is no one to name).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testStores, type TestServer } from '../testing/server.js';

describe.each(testStores)('operation log (%s store)', (store) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ store });
  });
  afterAll(() => s?.close());

  const entries = async () => {
    await s.app.audit.settled();
    return s.app.ctx.db.selectFrom('sys_oper_log').selectAll().orderBy('id').execute();
  };

  it('writes one entry per write (save, failed save, delete, GET delete), none for reads or without a session', async () => {
    const before = (await entries()).length;
    const saved = await s.request('POST', '/api/sys/var/save', { variableName: 'AUDIT_A', variableValue: 'secret-value', variableDesc: 'x' });
    expect(saved.body).toMatchObject({ status: 0, msg: '保存成功' });
    const id = Number(saved.body.data);
    const dup = await s.request('POST', '/api/sys/var/save', { variableName: 'AUDIT_A', variableValue: 'v' });
    expect(dup.body.status).toBe(1);
    // reads: a GET and a search answered on POST
    expect((await s.request('POST', '/api/sys/var/searchList', { pageNum: 1, pageSize: 10 })).body.status).toBe(0);
    expect((await s.request('GET', '/api/gemini/datasource/select')).body.status).toBe(0);
    // no session: refused by the guard, nothing written
    expect((await s.request('POST', '/api/sys/var/save', { variableName: 'AUDIT_B' }, null)).http).toBe(401);
    expect((await s.request('POST', `/api/sys/var/delete?id=${id}`)).body).toMatchObject({ status: 0, msg: '删除成功' });
    // the spec's delete on GET is a write too
    expect((await s.request('GET', '/api/gemini/datasource/delete?id=999999')).body.status).toBe(1);

    const got = (await entries()).slice(before);
    const admin = got[0].username;
    expect(admin).toBeTruthy();
    expect(got.map((e) => [e.module, e.action, e.target_id, e.outcome, e.http_status, e.username])).toEqual([
      ['variable', 'POST /api/sys/var/save', null, '0', 200, admin],
      ['variable', 'POST /api/sys/var/save', null, dup.body.msg, 200, admin],
      ['variable', 'POST /api/sys/var/delete', String(id), '0', 200, admin],
      ['datasource', 'GET /api/gemini/datasource/delete', '999999', '数据源不存在', 200, admin],
    ]);
    for (const e of got) {
      expect(e.user_id).toEqual(expect.any(Number));
      expect(e.address).toMatch(/127\.0\.0\.1|::1/);
      expect(e.request_id).toBeTruthy();
      expect(e.create_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(e.cost_ms).toBeGreaterThanOrEqual(0);
    }
    // labels from the declared menus where the route's permission names one
    expect(got[3].title).toBe('删除数据源');
    // never a body
    expect(JSON.stringify(got)).not.toContain('secret-value');
  });

  it('writes explicit entries, and deletes entries older than OPER_LOG_DAYS', async () => {
    s.app.audit.write({ module: 'test', action: 'POST /explicit', targetId: 7, outcome: 0, username: 'someone' });
    const last = (await entries()).at(-1)!;
    expect([last.module, last.action, last.target_id, last.outcome, last.http_status]).toEqual(['test', 'POST /explicit', '7', '0', 200]);
    await s.exec("update sys_oper_log set create_time = '2000-01-01 00:00:00' where action = 'POST /explicit'");
    expect(await s.app.audit.sweep()).toBe(1);
    expect((await entries()).some((e) => e.action === 'POST /explicit')).toBe(false);
  });
});
