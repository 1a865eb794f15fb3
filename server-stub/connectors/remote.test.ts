// FTP (ftp-srv) and SSH (ssh2 Server) connection tests on loopback: the same three cases for each.
import { testFtp } from './ftp/index.js';
import { testSsh } from './ssh/index.js';
import { startFtpServer, startSilentHost, startSshServer } from './testing/servers.js';

type Target = { ip: string; port: number; username: string; password: string };
const KINDS = [
  { kind: 'FTP', start: startFtpServer, test: (t: Target, o: { timeout: number; onError?: (m: string) => void }) => testFtp({ ...t, rootPath: '/' }, o), username: 'ftpuser', password: 'Ftp#Pass1' },
  { kind: 'SSH', start: startSshServer, test: testSsh, username: 'etl', password: 'Ssh#Pass1' },
];

describe.each(KINDS)('$kind connection test', ({ start, test, username, password }) => {
  let server: { port: number; close(): Promise<void> };
  beforeAll(async () => {
    server = await start(username, password);
  });
  afterAll(() => server.close());

  it('right password → true', async () => {
    expect(await test({ ip: '127.0.0.1', port: server.port, username, password }, { timeout: 5 })).toBe(true);
  });
  it('wrong password → false, reason without the password', async () => {
    let reason = '';
    expect(await test({ ip: '127.0.0.1', port: server.port, username, password: 'Nope#123' }, { timeout: 5, onError: (m) => (reason = m) })).toBe(false);
    expect(reason).not.toContain('Nope#123');
  });
  it('silent host → false within the timeout', async () => {
    const silent = await startSilentHost();
    const t0 = Date.now();
    expect(await test({ ip: '127.0.0.1', port: silent.port, username: 'u', password: 'p' }, { timeout: 1 })).toBe(false);
    expect(Date.now() - t0).toBeLessThan(2500);
    await silent.close();
  });
});
