// Security regression: no password can take the server down. A lone surrogate once made scrub() throw inside
// the SSH client's error callback (an uncaught exception ends the process); on FTP it answered 500. Each
// hostile password (lone surrogate, NUL, CR/LF, 100 KB) on the ETL and FTP connection tests and on the
// data-source test answers status 1 or 连接失败, below HTTP 500, and no uncaughtException fires.
import { serverForSuite, testStores } from '../../testing/server.js';
import { ftpAndSshForSuite, refusingDatabases } from '../../connectors/testing/servers.js';
import { datasourceBinding } from '../../core/datasources.js';

const HOSTILE = ['\ud800', 'pw\udfffx', 'a\0b', 'a\r\nDELE x', 'x'.repeat(100_000)];

describe.each(testStores)('hostile passwords never take the server down (%s store)', (store) => {
  const s = serverForSuite({ store });
  const loop = ftpAndSshForSuite();

  /** Status 1 (refused), or a failed test: 连接失败 with its reason (connectors/errors.ts), never the password. Never 5xx. */
  const refusedOrFailed = (r: { http: number; body: { status: number; data: unknown; msg: string } }, what: string) => {
    expect(r.http, what).toBeLessThan(500);
    if (r.body.status === 1) expect(r.body.msg, what).toMatch(/[\u4e00-\u9fa5]/);
    else {
      expect(r.body, what).toMatchObject({ status: 0, data: false });
      expect(r.body.msg, what).toMatch(/^连接失败：[\u4e00-\u9fa5]/);
    }
  };

  it('ETL (SSH) and FTP validateConn: live server and closed port', async () => {
    for (const password of HOSTILE) {
      for (const [kind, port, username] of [
        ['etl', loop.ssh.port, 'etl'],
        ['etl', 1, 'etl'],
        ['ftp', loop.ftp.port, 'ftpuser'],
        ['ftp', 1, 'ftpuser'],
      ] as const) {
        const r = await s.request('POST', `/api/remote/${kind}/validateConn`, { envType: 'dev', ip: '127.0.0.1', port, username, password });
        refusedOrFailed(r, `${kind}:${port} ${JSON.stringify(password.slice(0, 12))}`);
      }
    }
    // a hostile account name too
    for (const username of ['\ud800', 'u\0', 'u\r\nPASS x']) {
      refusedOrFailed(await s.request('POST', '/api/remote/ftp/validateConn', { ip: '127.0.0.1', port: loop.ftp.port, username, password: 'p' }), `ftp user ${JSON.stringify(username)}`);
      refusedOrFailed(await s.request('POST', '/api/remote/etl/validateConn', { ip: '127.0.0.1', port: loop.ssh.port, username, password: 'p' }), `etl user ${JSON.stringify(username)}`);
    }
    expect(loop.uncaught).toEqual([]);
  }, 60_000);

  it('data-source test with such a password stored (PostgreSQL, MariaDB, a closed port)', async () => {
    const targets = refusingDatabases();
    const { secrets } = s.app;
    let n = 0;
    for (const password of HOSTILE) {
      // through the API: refused at the door (NUL, lone surrogate) or by the declared length, or saved
      const api = await s.request('POST', '/api/gemini/datasource/info/save', { dbType: 'postgresql', hostName: '127.0.0.1', port: 1, dbName: 'x', username: 'u', dsName: `hostile_api_${n++}`, pwd: password, maxWaitTime: 3 });
      expect(api.http).toBeLessThan(500);
      if (api.body.status === 0) refusedOrFailed(await s.request('GET', `/api/gemini/datasource/test?id=${api.body.data}`), `api ${JSON.stringify(password.slice(0, 12))}`);
      else expect(api.body.msg).toMatch(/[\u4e00-\u9fa5]/);
      // already in the store (written before the input guards, or by hand): the test still answers
      for (const t of targets) {
        const t0 = new Date().toISOString().slice(0, 19).replace('T', ' ');
        const row = { kind: 'datasource', ds_name: `hostile_${n++}`, db_type: t.dbType, host_name: t.hostName, port: t.port, db_name: t.dbName, username: t.username, properties: null, pwd: null, max_wait_time: 3, max_active: 2, query_timeout: 5, status: 1, create_time: t0, update_time: t0 };
        const { id } = await s.app.ctx.db.insertInto('gemini_datasource').values(row).returning('id').executeTakeFirstOrThrow();
        await s.app.ctx.db.updateTable('gemini_datasource').set({ pwd: secrets.encrypt(password, datasourceBinding({ ...row, id })) }).where('id', '=', id).execute();
        refusedOrFailed(await s.request('GET', `/api/gemini/datasource/test?id=${id}`), `${t.dbType}:${t.port} ${JSON.stringify(password.slice(0, 12))}`);
      }
    }
    expect(loop.uncaught).toEqual([]);
  }, 60_000);

  it('the server is alive and answers', async () => {
    expect((await s.request('GET', '/api/gemini/datasource/select')).body.status).toBe(0);
    expect(loop.uncaught).toEqual([]);
  });
});
