// Connection tests answer in time, with the reason (issue 20): data sources within maxWaitTime, FTP and ETL
// servers within 10 s, over real HTTP, the message 连接失败：<reason> with data false (the spec's boolean answer).
// Silent hosts (accept TCP, never answer), closed ports, wrong passwords and missing databases against the real
// PostgreSQL (PG_URL) and MariaDB (MYSQL_URL), the test FTP (ftp-srv) and SSH (ssh2) servers.
import mysql from 'mysql2/promise';
import { startTestServer, type TestServer } from '../../testing/server.js';
import { closedPort, startFtpServer, startSilentHost, startSshServer } from '../../connectors/testing/servers.js';

const PG_URL = process.env.PG_URL;
const MYSQL_URL = process.env.MYSQL_URL;
if (!PG_URL) console.log('[skip] connection reasons against PostgreSQL: PG_URL is not set');
if (!MYSQL_URL) console.log('[skip] connection reasons against MariaDB: MYSQL_URL is not set');

/** The browser's own deadline must never be what answers: every test answers well inside these bounds. */
const MARGIN_MS = 1500;

describe('connection tests answer in time, with the reason', () => {
  let s: TestServer;
  let silent: Awaited<ReturnType<typeof startSilentHost>>;
  let ftp: Awaited<ReturnType<typeof startFtpServer>>;
  let ssh: Awaited<ReturnType<typeof startSshServer>>;
  let closed: number;
  beforeAll(async () => {
    [s, silent, ftp, ssh, closed] = await Promise.all([startTestServer(), startSilentHost(), startFtpServer('ftpuser', 'Ftp#Right_1'), startSshServer('etl', 'Ssh#Right_1'), closedPort()]);
  });
  afterAll(async () => {
    await Promise.all([s?.close(), silent?.close(), ftp?.close(), ssh?.close()]);
  });

  let n = 0;
  /** Saves a data source and times its connection test (GET /test?id=, the list's 测试). */
  const testSource = async (fields: Record<string, unknown>) => {
    const saved = await s.request('POST', '/api/gemini/datasource/info/save', { dbType: 'postgresql', hostName: '127.0.0.1', port: 5432, dbName: 'test', username: 'postgres', pwd: 'Some#Pw_1', dsName: `reason_${++n}`, ...fields });
    expect(saved.body, JSON.stringify(saved.body)).toMatchObject({ status: 0 });
    const t0 = Date.now();
    const r = await s.request('GET', `/api/gemini/datasource/test?id=${saved.body.data}`);
    return { body: r.body, ms: Date.now() - t0 };
  };
  const testRemote = async (kind: 'ftp' | 'etl', body: Record<string, unknown>) => {
    const t0 = Date.now();
    const r = await s.request('POST', `/api/remote/${kind}/validateConn`, { envType: 'dev', ip: '127.0.0.1', rootPath: '/', ...body });
    return { body: r.body, ms: Date.now() - t0 };
  };

  it('a silent host: 等待超时 within maxWaitTime, for PostgreSQL and MariaDB', async () => {
    const [pg, my] = await Promise.all([testSource({ port: silent.port, maxWaitTime: 2 }), testSource({ dbType: 'mariadb', port: silent.port, username: 'root', maxWaitTime: 2 })]);
    for (const r of [pg, my]) {
      expect(r.body).toEqual({ status: 0, data: false, msg: '连接失败：等待超时（2秒内没有应答）' });
      expect(r.ms).toBeGreaterThanOrEqual(1900);
      expect(r.ms).toBeLessThan(2000 + MARGIN_MS);
    }
  });

  it('a closed port: 连接被拒绝 at once', async () => {
    for (const dbType of ['postgresql', 'mariadb']) {
      const r = await testSource({ dbType, port: closed, maxWaitTime: 5 });
      expect(r.body, dbType).toMatchObject({ status: 0, data: false, msg: '连接失败：连接被拒绝（该地址和端口上没有服务在监听）' });
      expect(r.ms).toBeLessThan(MARGIN_MS);
    }
  });

  it('a host name that does not resolve: 无法连接 within maxWaitTime', async () => {
    const r = await testSource({ hostName: 'no-such-host.invalid', maxWaitTime: 3 });
    expect(r.body).toMatchObject({ status: 0, data: false });
    expect(r.body.msg).toMatch(/^连接失败：(无法连接：|等待超时（3秒)/);
    expect(r.ms).toBeLessThan(3000 + MARGIN_MS);
  });

  it('a missing SQLite file: its own reason', async () => {
    const r = await testSource({ dbType: 'sqlite', dbName: 'missing.db' });
    expect(r.body).toMatchObject({ status: 0, data: false, msg: '连接失败：SQLite 数据库文件不存在：missing.db' });
  });

  it.skipIf(!PG_URL)('PostgreSQL: a refused account is 账号或密码错误, a missing database 数据库不存在', async () => {
    const u = new URL(PG_URL!);
    const at = { hostName: u.hostname, port: Number(u.port || 5432), maxWaitTime: 5 };
    // an unknown role fails the sign-in under trust and password authentication alike (28000 / 28P01)
    const wrong = await testSource({ ...at, dbName: 'postgres', username: 'no_such_role_x', pwd: 'Wrong#Pw_1' });
    expect(wrong.body).toEqual({ status: 0, data: false, msg: '连接失败：账号或密码错误' });
    expect(JSON.stringify(wrong.body)).not.toContain('Wrong#Pw_1');
    const missing = await testSource({ ...at, dbName: 'no_such_database_x', username: decodeURIComponent(u.username) || 'postgres', pwd: decodeURIComponent(u.password) || 'unused' });
    expect(missing.body).toEqual({ status: 0, data: false, msg: '连接失败：数据库不存在' });
    for (const r of [wrong, missing]) expect(r.ms).toBeLessThan(5000);
  });

  it.skipIf(!MYSQL_URL)('MariaDB: a wrong password is 账号或密码错误, a missing database 数据库不存在', async () => {
    const u = new URL(MYSQL_URL!);
    const admin = await mysql.createConnection(MYSQL_URL!);
    const user = `dsr_${process.pid}`.slice(0, 30);
    const pw = 'Maria#Right_1';
    try {
      for (const h of ['%', 'localhost']) {
        await admin.query(`CREATE USER IF NOT EXISTS '${user}'@'${h}' IDENTIFIED BY '${pw}'`);
        // rights on a database that does not exist: the server then says that it does not
        await admin.query(`GRANT SELECT ON \`no_such_database_x\`.* TO '${user}'@'${h}'`);
      }
      const at = { dbType: 'mariadb', hostName: u.hostname, port: Number(u.port || 3306), username: user, maxWaitTime: 5 };
      const wrong = await testSource({ ...at, dbName: u.pathname.slice(1), pwd: 'Wrong#Pw_1' });
      expect(wrong.body).toEqual({ status: 0, data: false, msg: '连接失败：账号或密码错误' });
      expect(JSON.stringify(wrong.body)).not.toContain('Wrong#Pw_1');
      const missing = await testSource({ ...at, dbName: 'no_such_database_x', pwd: pw });
      expect(missing.body).toEqual({ status: 0, data: false, msg: '连接失败：数据库不存在' });
      // without rights on it, MariaDB does not say whether it exists
      const hidden = await testSource({ ...at, dbName: 'no_such_database_y', pwd: pw });
      expect(hidden.body).toEqual({ status: 0, data: false, msg: '连接失败：数据库不存在或账号没有该数据库的权限' });
      for (const r of [wrong, missing, hidden]) expect(r.ms).toBeLessThan(5000);
    } finally {
      for (const h of ['%', 'localhost']) await admin.query(`DROP USER IF EXISTS '${user}'@'${h}'`).catch(() => undefined);
      await admin.end();
    }
  });

  it('FTP and ETL: a silent host is 等待超时 within 10 s, a closed port 连接被拒绝, a wrong password 账号或密码错误', async () => {
    const [ftpSilent, etlSilent, ftpClosed, etlClosed, ftpWrong, etlWrong, ftpRight, etlRight] = await Promise.all([
      testRemote('ftp', { port: silent.port, username: 'u', password: 'p' }),
      testRemote('etl', { port: silent.port, username: 'u', password: 'p' }),
      testRemote('ftp', { port: closed, username: 'u', password: 'p' }),
      testRemote('etl', { port: closed, username: 'u', password: 'p' }),
      testRemote('ftp', { port: ftp.port, username: 'ftpuser', password: 'Wrong#Pw_1' }),
      testRemote('etl', { port: ssh.port, username: 'etl', password: 'Wrong#Pw_1' }),
      testRemote('ftp', { port: ftp.port, username: 'ftpuser', password: 'Ftp#Right_1' }),
      testRemote('etl', { port: ssh.port, username: 'etl', password: 'Ssh#Right_1' }),
    ]);
    for (const r of [ftpSilent, etlSilent]) {
      expect(r.body).toEqual({ status: 0, data: false, msg: '连接失败：等待超时（10秒内没有应答）' });
      expect(r.ms).toBeGreaterThanOrEqual(9900);
      expect(r.ms).toBeLessThan(10_000 + MARGIN_MS);
    }
    for (const r of [ftpClosed, etlClosed]) expect(r.body).toEqual({ status: 0, data: false, msg: '连接失败：连接被拒绝（该地址和端口上没有服务在监听）' });
    for (const r of [ftpWrong, etlWrong]) {
      expect(r.body).toEqual({ status: 0, data: false, msg: '连接失败：账号或密码错误' });
      expect(JSON.stringify(r.body)).not.toContain('Wrong#Pw_1');
    }
    for (const r of [ftpRight, etlRight]) expect(r.body).toEqual({ status: 0, data: true, msg: '连接成功' });
  }, 20_000);
});
