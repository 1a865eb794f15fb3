// Security regression: a stored ciphertext is usable only by the record it was made for. Copying an enc: value
// from the store (or from the encrypt button) into another record, another kind, or another host/port/account
// must never send the plain password anywhere: a capturing FTP listener on loopback records every PASS it gets.
import { createCipheriv, randomBytes } from 'node:crypto';
import net from 'node:net';
import { startTestServer, testStores, type TestServer } from '../../testing/server.js';
import { startFtpServer } from '../../connectors/testing/servers.js';
import { dumpStore } from '../../connectors/testing/secrets-scan.js';
import { LEGACY_PREFIX, SECRET_MSG, loadSecretKey } from '../../core/secrets.js';

const SECRET = 'Stored#Secret_731';
const DS_SECRET = 'Ds#Secret_derived_88';
const REAL_PW = 'Real#Ftp_Pass_5';
const FAR = '10.255.255.1'; // never contacted: every test against it is refused before connecting

/** An FTP "server" that takes any USER and records every PASS: a thief's listener. */
async function startCapture() {
  const seen: string[] = [];
  const server = net.createServer((sock) => {
    sock.on('error', () => undefined);
    sock.write('220 welcome\r\n');
    let buf = '';
    sock.on('data', (d) => {
      buf += d.toString('utf8');
      let i: number;
      while ((i = buf.indexOf('\r\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (/^USER /i.test(line)) sock.write('331 password please\r\n');
        else if (/^PASS /i.test(line)) {
          seen.push(line.slice(5));
          sock.write('530 no\r\n');
        } else sock.write('502 no\r\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as net.AddressInfo).port, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe.each(testStores)('ciphertexts are bound to their record and target (%s store)', (store) => {
  let s: TestServer;
  let dev: string;
  let cap: Awaited<ReturnType<typeof startCapture>>;
  let ftp: Awaited<ReturnType<typeof startFtpServer>>;
  const ids: Record<string, number> = {};
  const stored = async (table: 'remote_server' | 'gemini_datasource', id: number) => {
    const col = table === 'remote_server' ? 'password' : 'pwd';
    const row = await s.app.ctx.db.selectFrom(table).select(col as never).where('id', '=', id).executeTakeFirstOrThrow();
    return (row as Record<string, string>)[col];
  };
  const refused = (r: { http: number; body: { status: number; msg: string } }, what: string) => {
    expect(r.http, what).toBeLessThan(500);
    expect(r.body.status, `${what}: ${r.body.msg}`).toBe(1);
  };

  beforeAll(async () => {
    [s, cap, ftp] = await Promise.all([startTestServer({ store }), startCapture(), startFtpServer('ftpuser', REAL_PW)]);
    dev = await s.loginAs('developer');
    const f1 = await s.request('POST', '/api/remote/ftp/save', { envType: 'dev', nodeCode: 'F1', nodeName: 'far', ip: FAR, port: 21, username: 'ftpuser', password: SECRET });
    ids.f1 = f1.body.data;
    const e1 = await s.request('POST', '/api/remote/etl/save', { envType: 'dev', nodeName: 'etl-far', ip: FAR, port: 22, username: 'ftpuser', password: SECRET });
    ids.e1 = e1.body.data;
    const d1 = await s.request('POST', '/api/gemini/datasource/info/save', { dsName: 'far_pg', dbType: 'postgresql', hostName: '127.0.0.1', port: cap.port, dbName: 'x', username: 'ftpuser', pwd: DS_SECRET });
    ids.d1 = d1.body.data;
    const real = await s.request('POST', '/api/remote/ftp/save', { envType: 'dev', nodeCode: 'REAL', nodeName: 'real', ip: '127.0.0.1', port: ftp.port, username: 'ftpuser', password: REAL_PW });
    ids.real = real.body.data;
    for (const k of ['f1', 'e1', 'd1', 'real']) expect(ids[k], k).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await Promise.all([s?.close(), cap?.close(), ftp?.close()]);
  });

  it('a value copied from the store opens nowhere else: another record, kind, host, port or account', async () => {
    const c = await stored('remote_server', ids.f1);
    expect(c).toMatch(/^enc:v2:/);
    const to = { envType: 'dev', ip: '127.0.0.1', port: cap.port, username: 'ftpuser' };
    const attempts: Array<[string, string, unknown]> = [
      ['new FTP server at the listener', '/api/remote/ftp/validateConn', { ...to, password: c }],
      ['the same record pointed at the listener', '/api/remote/ftp/validateConn', { ...to, id: ids.f1, password: c }],
      ['the same record, another account', '/api/remote/ftp/validateConn', { id: ids.f1, ip: FAR, port: 21, username: 'root', password: c }],
      ['the same record, another port', '/api/remote/ftp/validateConn', { id: ids.f1, ip: FAR, port: 2121, username: 'ftpuser', password: c }],
      ['another FTP record', '/api/remote/ftp/validateConn', { ...to, id: ids.real, password: c }],
      ['an ETL server (another kind)', '/api/remote/etl/validateConn', { ...to, password: c }],
      ['an ETL record', '/api/remote/etl/validateConn', { ...to, id: ids.e1, ip: FAR, port: 22, password: c }],
    ];
    for (const [what, path, body] of attempts) {
      const r = await s.request('POST', path, body, dev);
      refused(r, what);
      expect(r.body.msg, what).toBe(SECRET_MSG.foreign);
    }
    // saving it into a new FTP / ETL server, or over another record's password
    refused(await s.request('POST', '/api/remote/ftp/save', { ...to, nodeCode: 'THIEF', nodeName: 't', password: c }, dev), 'save new ftp');
    refused(await s.request('POST', '/api/remote/etl/save', { ...to, nodeName: 'thief', password: c }, dev), 'save new etl');
    refused(await s.request('POST', '/api/remote/ftp/save', { envType: 'dev', nodeCode: 'REAL', nodeName: 'real', ip: '127.0.0.1', port: ftp.port, username: 'ftpuser', id: ids.real, password: c }, dev), 'save over another record');
    // an exact twin of the record (same host, port, account) is still another record
    refused(await s.request('POST', '/api/remote/ftp/save', { envType: 'dev', nodeCode: 'TWIN', nodeName: 'twin', ip: FAR, port: 21, username: 'ftpuser', password: c }, dev), 'twin record');
    // datasource → FTP, FTP → datasource
    const dc = await stored('gemini_datasource', ids.d1);
    refused(await s.request('POST', '/api/remote/ftp/validateConn', { ...to, password: dc }, dev), 'datasource value on FTP');
    refused(await s.request('POST', '/api/gemini/datasource/info/save', { dsName: 'thief_ds', dbType: 'postgresql', hostName: '127.0.0.1', port: cap.port, dbName: 'x', username: 'ftpuser', pwd: c }, dev), 'FTP value on a data source');
    refused(await s.request('POST', '/api/gemini/model/info/add', { dsName: 'thief_model', dbType: 'postgresql', hostName: '127.0.0.1', port: cap.port, dbName: 'x', username: 'ftpuser', pwd: dc }, dev), 'data-source value on a model');
    // moving the stored record to the listener without typing the password again
    refused(await s.request('POST', '/api/remote/ftp/save', { envType: 'dev', nodeCode: 'F1', nodeName: 'far', id: ids.f1, ip: '127.0.0.1', port: cap.port, username: 'ftpuser', password: '******' }, dev), 'move with ******');
    refused(await s.request('POST', '/api/gemini/datasource/info/save', { id: ids.d1, dsName: 'far_pg', dbType: 'postgresql', hostName: '127.0.0.2', port: cap.port, dbName: 'x', username: 'ftpuser', pwd: '******' }, dev), 'move data source with ******');
    // nothing reached the listener, nothing was saved
    expect(cap.seen).toEqual([]);
    const names = (await s.request('POST', '/api/remote/ftp/searchList', {})).body.data.records.map((r: { nodeCode: string }) => r.nodeCode);
    expect(names.sort()).toEqual(['F1', 'REAL']);
    expect(await stored('remote_server', ids.real)).not.toBe(c);
  });

  it('the encrypt button: its value works for the record and target it was made for, and nowhere else', async () => {
    const ctx = `id=${ids.real}&ip=127.0.0.1&port=${ftp.port}&username=ftpuser`;
    const enc = (await s.request('GET', `/api/remote/ftp/encrypt?pwd=${encodeURIComponent(REAL_PW)}&${ctx}`, undefined, dev)).body.data;
    expect(enc).toMatch(/^enc:v2:/);
    const real = { envType: 'dev', nodeCode: 'REAL', nodeName: 'real', ip: '127.0.0.1', port: ftp.port, username: 'ftpuser' };
    expect((await s.request('POST', '/api/remote/ftp/validateConn', { ...real, id: ids.real, password: enc }, dev)).body).toMatchObject({ status: 0, data: true });
    expect((await s.request('POST', '/api/remote/ftp/save', { ...real, id: ids.real, password: enc }, dev)).body.status).toBe(0);
    expect((await s.request('POST', '/api/remote/ftp/validateConn', { ...real, id: ids.real, password: '******' }, dev)).body).toMatchObject({ status: 0, data: true });
    // elsewhere: the listener, a new record, another record
    expect((await s.request('POST', '/api/remote/ftp/validateConn', { ...real, port: cap.port, id: ids.real, password: enc }, dev)).body.status).toBe(1);
    expect((await s.request('POST', '/api/remote/ftp/validateConn', { ...real, password: enc }, dev)).body.status).toBe(1);
    expect((await s.request('POST', '/api/remote/ftp/validateConn', { ...real, id: ids.f1, password: enc }, dev)).body.status).toBe(1);
    // a new server (new / copy dialog: no id): the value fits a new record with that target, FTP or ETL
    const fresh = (await s.request('GET', `/api/remote/ftp/encrypt?pwd=${encodeURIComponent(REAL_PW)}&ip=127.0.0.1&port=${ftp.port}&username=ftpuser`, undefined, dev)).body.data;
    expect((await s.request('POST', '/api/remote/ftp/validateConn', { ...real, password: fresh }, dev)).body).toMatchObject({ status: 0, data: true });
    const copy = await s.request('POST', '/api/remote/ftp/save', { ...real, nodeCode: 'COPY', password: fresh }, dev);
    expect(copy.body.status).toBe(0);
    expect((await s.request('POST', '/api/remote/ftp/validateConn', { ...real, id: copy.body.data, password: '******' }, dev)).body).toMatchObject({ status: 0, data: true });
    expect((await s.request('POST', '/api/remote/ftp/validateConn', { ...real, id: copy.body.data, password: fresh }, dev)).body.status).toBe(1); // it is no longer new
    // the data-source encrypt button: same rule
    const dsCtx = `hostName=127.0.0.1&port=5432&username=postgres`;
    const dsEnc = (await s.request('GET', `/api/gemini/datasource/encrypt?pwd=${encodeURIComponent(DS_SECRET)}&${dsCtx}`, undefined, dev)).body.data;
    expect((await s.request('POST', '/api/gemini/datasource/info/save', { dsName: 'ds_ok', dbType: 'postgresql', hostName: '127.0.0.1', port: 5432, dbName: 'x', username: 'postgres', pwd: dsEnc }, dev)).body.status).toBe(0);
    expect((await s.request('POST', '/api/gemini/datasource/info/save', { dsName: 'ds_moved', dbType: 'postgresql', hostName: '127.0.0.1', port: cap.port, dbName: 'x', username: 'postgres', pwd: dsEnc }, dev)).body.status).toBe(1);
    expect((await s.request('POST', '/api/remote/ftp/validateConn', { ...real, password: dsEnc }, dev)).body.status).toBe(1);
    expect(cap.seen).toEqual([]);
  });

  it('v1 values (from before the binding): still work for the record that holds them, never from a request; re-sealed on save', async () => {
    const key = loadSecretKey({ dataDir: s.dataDir });
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([cipher.update(REAL_PW, 'utf8'), cipher.final()]);
    const v1 = LEGACY_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64');
    await s.app.ctx.db.updateTable('remote_server').set({ password: v1 }).where('id', '=', ids.real).execute();
    const real = { envType: 'dev', nodeCode: 'REAL', nodeName: 'real', ip: '127.0.0.1', port: ftp.port, username: 'ftpuser' };
    expect((await s.request('POST', '/api/remote/ftp/validateConn', { ...real, id: ids.real, password: '******' }, dev)).body).toMatchObject({ status: 0, data: true });
    const fromBody = await s.request('POST', '/api/remote/ftp/validateConn', { ...real, port: cap.port, password: v1 }, dev);
    expect(fromBody.body).toMatchObject({ status: 1, msg: SECRET_MSG.legacy });
    expect((await s.request('POST', '/api/remote/ftp/save', { ...real, id: ids.real, password: v1 }, dev)).body.msg).toBe(SECRET_MSG.legacy);
    expect((await s.request('POST', '/api/remote/ftp/save', { ...real, id: ids.real, nodeName: 'real-2', password: '******' }, dev)).body.status).toBe(0);
    expect(await stored('remote_server', ids.real)).toMatch(/^enc:v2:/);
    expect((await s.request('POST', '/api/remote/ftp/validateConn', { ...real, id: ids.real, password: '******' }, dev)).body).toMatchObject({ status: 0, data: true });
    expect(cap.seen).toEqual([]);
  });

  it('a dump of the store (every table, and the raw file) holds no plain password', async () => {
    const dump = await dumpStore(s);
    expect(dump.length).toBeGreaterThan(1000);
    expect(dump.includes(Buffer.from('enc:v2:'))).toBe(true); // the dump does hold the ciphertexts
    for (const plain of [SECRET, DS_SECRET, REAL_PW]) expect(dump.includes(Buffer.from(plain)), plain).toBe(false);
  });
});
