// The connectors themselves, below the HTTP input guards: whatever the password (lone surrogate, NUL, CR/LF,
// 100 KB), a connection test answers false with a scrubbed reason, and nothing is thrown from a callback,
// an event handler or a timer (no uncaughtException).
import { testFtp } from './ftp/index.js';
import { testSsh } from './ssh/index.js';
import { testConnection } from './sql/index.js';
import { ftpAndSshForSuite, refusingDatabases, type DatabaseTarget } from './testing/servers.js';

const HOSTILE = ['\ud800', 'p\udc00w', 'a\0b', 'a\r\nDELE x', 'x'.repeat(100_000)];

describe('hostile passwords at the connectors', () => {
  const loop = ftpAndSshForSuite();

  it('FTP and SSH: false, a reason without the password, no uncaught exception', async () => {
    for (const password of HOSTILE) {
      const label = JSON.stringify(password.slice(0, 12));
      for (const port of [loop.ftp.port, 1]) {
        let reason = '';
        expect(await testFtp({ ip: '127.0.0.1', port, username: 'ftpuser', password }, { timeout: 3, onError: (m) => (reason = m) }), `ftp ${port} ${label}`).toBe(false);
        expect(reason.length).toBeGreaterThan(0);
        expect(reason.length).toBeLessThanOrEqual(501);
        if (password.length > 3) expect(reason.toLowerCase()).not.toContain(password.toLowerCase().slice(0, 50));
      }
      for (const port of [loop.ssh.port, 1]) {
        let reason = '';
        expect(await testSsh({ ip: '127.0.0.1', port, username: 'etl', password }, { timeout: 3, onError: (m) => (reason = m) }), `ssh ${port} ${label}`).toBe(false);
        expect(reason.length).toBeGreaterThan(0);
      }
    }
    // a throwing reporter does not escape either
    const boom = () => {
      throw new Error('reporter failed');
    };
    expect(await testSsh({ ip: '127.0.0.1', port: 1, username: 'etl', password: '\ud800' }, { timeout: 3, onError: boom })).toBe(false);
    expect(await testFtp({ ip: '127.0.0.1', port: 1, username: 'u', password: '\ud800' }, { timeout: 3, onError: boom })).toBe(false);
    await new Promise((r) => setTimeout(r, 200)); // late socket events
    expect(loop.uncaught).toEqual([]);
  }, 60_000);

  it('SQL drivers: PostgreSQL, MariaDB, closed ports: false, never a throw', async () => {
    const targets: Array<DatabaseTarget & { properties?: string }> = [
      ...refusingDatabases(),
      { dbType: 'postgresql', hostName: '127.0.0.1', port: 1, dbName: 'x', username: 'u', properties: 'application_name=%E0%A4%A' }, // malformed %-escape
    ];
    for (const password of HOSTILE) {
      for (const t of targets) {
        let reason = '';
        const ok = await testConnection({ ...t, password, maxWaitTime: 3 }, { onError: (m) => (reason = m) });
        expect(ok, `${t.dbType}:${t.port} ${JSON.stringify(password.slice(0, 12))}`).toBe(false);
        expect(reason.length).toBeGreaterThan(0);
        if (password.length > 3) expect(reason).not.toContain(password.slice(0, 50));
      }
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(loop.uncaught).toEqual([]);
  }, 60_000);
});

describe('where a connection test may go', () => {
  it('FTP, SSH and SQL refuse a link-local or metadata address and a socket path at once, with the reason', async () => {
    const hosts: Array<[string, string]> = [
      ['169.254.169.254', '不允许连接该地址'],
      ['[fe80::1]', '不允许连接该地址'],
      ['metadata.google.internal', '不允许连接该地址'],
      ['/var/run/postgresql', '地址只能是主机名或 IP 地址'],
    ];
    for (const [ip, why] of hosts) {
      const t0 = Date.now();
      const reasons: string[] = [];
      const onError = (m: string) => reasons.push(m);
      expect(await testFtp({ ip, port: 80, username: 'u', password: 'p' }, { timeout: 5, onError }), `ftp ${ip}`).toBe(false);
      expect(await testSsh({ ip, port: 80, username: 'u', password: 'p' }, { timeout: 5, onError }), `ssh ${ip}`).toBe(false);
      expect(await testConnection({ dbType: 'postgresql', hostName: ip, port: 5432, dbName: 'x', username: 'u', password: 'p', maxWaitTime: 5 }, { onError }), `pg ${ip}`).toBe(false);
      expect(reasons, ip).toEqual([why, why, why]);
      expect(Date.now() - t0, ip).toBeLessThan(1000);
    }
  });
});
