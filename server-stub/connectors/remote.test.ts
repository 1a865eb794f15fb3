// FTP (ftp-srv) and SSH (ssh2 Server) connection tests on loopback.
import { testFtp } from './ftp/index.js';
import { testSsh } from './ssh/index.js';
import { startFtpServer, startSilentHost, startSshServer } from './testing/servers.js';

describe('FTP connection test', () => {
  let ftp: Awaited<ReturnType<typeof startFtpServer>>;
  beforeAll(async () => {
    ftp = await startFtpServer('ftpuser', 'Ftp#Pass1');
  });
  afterAll(() => ftp.close());

  it('right password → true', async () => {
    expect(await testFtp({ ip: '127.0.0.1', port: ftp.port, username: 'ftpuser', password: 'Ftp#Pass1', rootPath: '/' }, { timeout: 5 })).toBe(true);
  });
  it('wrong password → false, reason without the password', async () => {
    let reason = '';
    expect(await testFtp({ ip: '127.0.0.1', port: ftp.port, username: 'ftpuser', password: 'Nope#123' }, { timeout: 5, onError: (m) => (reason = m) })).toBe(false);
    expect(reason).not.toContain('Nope#123');
  });
  it('silent host → false within the timeout', async () => {
    const silent = await startSilentHost();
    const t0 = Date.now();
    expect(await testFtp({ ip: '127.0.0.1', port: silent.port, username: 'u', password: 'p' }, { timeout: 1 })).toBe(false);
    expect(Date.now() - t0).toBeLessThan(2500);
    await silent.close();
  });
});

describe('SSH connection test', () => {
  let ssh: Awaited<ReturnType<typeof startSshServer>>;
  beforeAll(async () => {
    ssh = await startSshServer('etl', 'Ssh#Pass1');
  });
  afterAll(() => ssh.close());

  it('right password → true', async () => {
    expect(await testSsh({ ip: '127.0.0.1', port: ssh.port, username: 'etl', password: 'Ssh#Pass1' }, { timeout: 5 })).toBe(true);
  });
  it('wrong password → false, reason without the password', async () => {
    let reason = '';
    expect(await testSsh({ ip: '127.0.0.1', port: ssh.port, username: 'etl', password: 'Nope#123' }, { timeout: 5, onError: (m) => (reason = m) })).toBe(false);
    expect(reason).not.toContain('Nope#123');
  });
  it('silent host → false within the timeout', async () => {
    const silent = await startSilentHost();
    const t0 = Date.now();
    expect(await testSsh({ ip: '127.0.0.1', port: silent.port, username: 'u', password: 'p' }, { timeout: 1 })).toBe(false);
    expect(Date.now() - t0).toBeLessThan(2500);
    await silent.close();
  });
});
