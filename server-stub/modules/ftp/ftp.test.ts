// FTP and ETL servers over real HTTP, with a real FTP server (ftp-srv) and SSH server (ssh2) on loopback.
import { serverForSuite } from '../../testing/server.js';
import { startFtpServer, startSilentHost, startSshServer } from '../../connectors/testing/servers.js';
import { dataDirContains, recordingAnswers, storeContains } from '../../connectors/testing/secrets-scan.js';

const FTP_PW = 'Ftp#Plain_42';
const SSH_PW = 'Ssh#Plain_42';

describe('FTP and ETL servers', () => {
  const s = serverForSuite();
  const { call, bodies } = recordingAnswers((method, path, body, token) => s.request(method, path, body, token));
  let ftp: Awaited<ReturnType<typeof startFtpServer>>;
  let ssh: Awaited<ReturnType<typeof startSshServer>>;
  beforeAll(async () => {
    [ftp, ssh] = await Promise.all([startFtpServer('ftpuser', FTP_PW), startSshServer('etl', SSH_PW)]);
  });
  afterAll(async () => {
    await Promise.all([ftp?.close(), ssh?.close()]);
  });

  it('FTP: saves with default port 21 and status 1, masks and encrypts the password', async () => {
    const r = await call('POST', '/api/remote/ftp/save', { envType: 'dev', nodeCode: 'F01', nodeName: '文件一', ip: '127.0.0.1', username: 'ftpuser', password: FTP_PW, rootPath: '/' });
    expect(r.body).toMatchObject({ status: 0, msg: '保存成功' });
    const list = await call('POST', '/api/remote/ftp/searchList', { pageNum: 1, pageSize: 10, search: 'f01' });
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.records[0]).toMatchObject({ nodeCode: 'F01', port: 21, status: 1, password: '******', envType: 'dev' });
    expect(await storeContains(s, FTP_PW, [['remote_server', 'password']])).toBe(false);
    const dup = await call('POST', '/api/remote/ftp/save', { envType: 'dev', nodeCode: 'F01', nodeName: 'x', ip: '127.0.0.2' });
    expect(dup.body).toMatchObject({ status: 1 });
    expect(dup.body.msg).toContain('已存在');
    const sel = await call('GET', '/api/remote/ftp/select');
    expect(sel.body.data[0]).toMatchObject({ nodeCode: 'F01', text: '文件一' });
  });

  it('FTP: declared messages for missing fields, bad dict value, oversized text', async () => {
    const good = { envType: 'dev', nodeCode: 'F02', nodeName: 'n', ip: '127.0.0.1', port: 21 };
    const cases: Array<[object, string | RegExp]> = [
      [{ ...good, envType: '' }, '请选择环境'],
      [{ ...good, nodeCode: '' }, '请输入编码'],
      [{ ...good, nodeName: undefined }, '请输入名称'],
      [{ ...good, ip: '' }, '请输入IP地址'],
      [{ ...good, envType: 'test' }, /环境.*不合法/],
      [{ ...good, nodeName: 'x'.repeat(101) }, /名称.*100/],
      [{ ...good, port: '21a' }, /端口|port/],
    ];
    for (const [body, msg] of cases) {
      const r = await call('POST', '/api/remote/ftp/save', body);
      expect(r.body.status, JSON.stringify(body)).toBe(1);
      expect(r.body.msg).toMatch(msg);
    }
    const bad = await s.request('POST', '/api/remote/ftp/save', '{bad json');
    expect(bad.body.status).toBe(1);
  });

  it('FTP: validateConn true with the stored password, false with a wrong one, and with a silent host', async () => {
    const list = await call('POST', '/api/remote/ftp/searchList', { search: 'F01' });
    const rec = list.body.data.records[0];
    const okRun = await call('POST', '/api/remote/ftp/validateConn', { ...rec, port: ftp.port, password: '******' });
    expect(okRun.body).toMatchObject({ status: 1 }); // port differs from the stored one: the stored password is not sent elsewhere
    // moving the server keeps no password: it is bound to the stored host, port and account
    const moved = await call('POST', '/api/remote/ftp/save', { ...rec, port: ftp.port, password: '******' });
    expect(moved.body).toMatchObject({ status: 1, msg: '修改了地址、端口或账号，请重新输入密码' });
    expect((await call('POST', '/api/remote/ftp/save', { ...rec, port: ftp.port, password: FTP_PW })).body.status).toBe(0);
    const good = await call('POST', '/api/remote/ftp/validateConn', { ...rec, port: ftp.port, password: '******' });
    expect(good.body).toMatchObject({ status: 0, data: true });
    const typed = await call('POST', '/api/remote/ftp/validateConn', { envType: 'dev', ip: '127.0.0.1', port: ftp.port, username: 'ftpuser', password: FTP_PW });
    expect(typed.body.data).toBe(true);
    const wrong = await call('POST', '/api/remote/ftp/validateConn', { ip: '127.0.0.1', port: ftp.port, username: 'ftpuser', password: 'Nope#Ftp_913' });
    expect(wrong.body).toMatchObject({ status: 0, data: false, msg: '连接失败：账号或密码错误' });
    const silent = await startSilentHost();
    const t0 = Date.now();
    const hang = await call('POST', '/api/remote/ftp/validateConn', { ip: '127.0.0.1', port: silent.port, username: 'u', password: 'p' });
    expect(hang.body.data).toBe(false);
    expect(Date.now() - t0).toBeLessThan(12_000);
    await silent.close();
    // the encrypt button's value, made for this record and target, works for it
    const enc = await call('GET', `/api/remote/ftp/encrypt?pwd=${encodeURIComponent(FTP_PW)}&id=${rec.id}&ip=127.0.0.1&port=${ftp.port}&username=ftpuser`);
    expect(enc.body.data).toMatch(/^enc:v2:/);
    expect((await call('POST', '/api/remote/ftp/validateConn', { ...rec, port: ftp.port, password: enc.body.data })).body).toMatchObject({ status: 0, data: true });
  }, 30_000);

  it('ETL: default port 22, SSH test right / wrong password, queryEtlList, env locked in edit', async () => {
    const r = await call('POST', '/api/remote/etl/save', { envType: 'dev', nodeName: 'etl-1', ip: '127.0.0.1', username: 'etl', password: SSH_PW });
    expect(r.body.status).toBe(0);
    const list = await call('POST', '/api/remote/etl/searchList', { pageNum: 1, pageSize: 10 });
    const rec = list.body.data.records[0];
    expect(rec).toMatchObject({ port: 22, password: '******', nodeName: 'etl-1' });
    expect((await call('POST', '/api/remote/etl/save', { ...rec, envType: 'prod', port: ssh.port })).body.msg).toBe('修改了地址、端口或账号，请重新输入密码');
    expect((await call('POST', '/api/remote/etl/save', { ...rec, envType: 'prod', port: ssh.port, password: SSH_PW })).body.status).toBe(0);
    const after = (await call('POST', '/api/remote/etl/searchList', {})).body.data.records[0];
    expect(after).toMatchObject({ envType: 'dev', port: ssh.port });
    expect((await call('POST', '/api/remote/etl/validateConn', { ...after })).body).toMatchObject({ status: 0, data: true });
    expect((await call('POST', '/api/remote/etl/validateConn', { ...after, id: undefined, password: 'Bad#Ssh_913' })).body).toMatchObject({ status: 0, data: false });
    const etls = await call('GET', '/api/remote/etl/queryEtlList');
    expect(etls.body.data).toEqual([expect.objectContaining({ ip: '127.0.0.1', nodeName: 'etl-1' })]);
    // the FTP list does not show ETL servers
    expect((await call('POST', '/api/remote/ftp/searchList', {})).body.data.total).toBe(1);
    expect(await storeContains(s, SSH_PW, [['remote_server', 'password']])).toBe(false);
    // the ETL dialog has the FTP one's fields: a code, optional here, unique when given
    for (const nodeCode of ['', '', undefined]) { const b = (await call('POST', '/api/remote/etl/save', { envType: 'dev', nodeCode, nodeName: 'etl-x', ip: '127.0.0.2', username: 'etl', password: SSH_PW })).body; expect(b.status, b.msg).toBe(0); }
    expect((await call('POST', '/api/remote/etl/save', { envType: 'dev', nodeCode: 'E01', nodeName: 'etl-2', ip: '127.0.0.3', username: 'etl', password: SSH_PW })).body.status).toBe(0);
    expect((await call('POST', '/api/remote/etl/save', { envType: 'dev', nodeCode: 'E01', nodeName: 'etl-3', ip: '127.0.0.4', username: 'etl', password: SSH_PW })).body.msg).toBe('编码【E01】已存在');
    const coded = (await call('POST', '/api/remote/etl/searchList', { pageSize: 50 })).body.data.records.find((x: any) => x.nodeName === 'etl-2');
    expect(coded.nodeCode).toBe('E01');
  });

  it('permissions and delete; no response carried a plain password', async () => {
    const biz = await s.loginAs('bizapprover');
    const denied = await call('POST', '/api/remote/ftp/searchList', {}, biz);
    expect(denied.body.status).toBe(1);
    expect(denied.body.msg).toContain('没有权限');
    const dev = await s.loginAs('devapprover');
    expect((await call('POST', '/api/remote/etl/save', { envType: 'dev', nodeName: 'x', ip: '1.1.1.1', port: 22 }, dev)).body.msg).toContain('没有权限');
    const list = await call('POST', '/api/remote/etl/searchList', {});
    const id = list.body.data.records[0].id;
    expect((await call('POST', `/api/remote/etl/delete?id=${id}`)).body).toMatchObject({ status: 0, msg: '删除成功' });
    expect((await call('POST', '/api/remote/etl/searchList', {})).body.data.total).toBe(list.body.data.total - 1);
    expect(bodies.some((b) => b.includes(FTP_PW) || b.includes(SSH_PW))).toBe(false);
    for (const pw of [FTP_PW, SSH_PW, 'Nope#Ftp_913', 'Bad#Ssh_913']) expect(dataDirContains(s.dataDir, pw)).toBeNull();
  });
});
