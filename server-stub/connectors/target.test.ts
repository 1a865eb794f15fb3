// Security regression (DNS rebinding): checkTarget judges a name when a data source is saved, tested or its pool
// is built, but a driver resolves the name again for every connection it opens, and a name under an attacker's
// control can answer differently the second time (first a harmless address, then the platform store on
// 127.0.0.1). So every connection's own lookup judges the name again, and the socket connects to what that
// lookup answered. Here no checkTarget runs before the pools: only the connections' lookups stand between a
// data source named "localhost" and a database the policy reserves, on real PostgreSQL and MariaDB servers.
import dns from 'node:dns';
import { TARGET_MSG, TargetError, checkTarget, targetLookup, type TargetPolicy } from './target.js';
import { PoolRegistry, createPool, testConnection, type SqlSettings } from './sql/index.js';
import { pgConfig } from './sql/drivers.js';
import { targetPolicy } from '../core/platform.js';
import { testFtp } from './ftp/index.js';
import { testSsh } from './ssh/index.js';
import { startFtpServer, startSshServer } from './testing/servers.js';

const PG_URL = process.env.PG_URL;
const MYSQL_URL = process.env.MYSQL_URL;

function lookup(fn: ReturnType<typeof targetLookup>, host: string): Promise<string> {
  return new Promise((resolve, reject) => fn(host, {}, (err, address) => (err ? reject(err) : resolve(String(address)))));
}

describe('every connection judges the name it connects to', () => {
  it('the lookup refuses a reserved database and a metadata name, and answers what it judged', async () => {
    const reserved: TargetPolicy = { reserved: [{ host: '127.0.0.1', port: 5432, database: 'console' }] };
    await expect(lookup(targetLookup({ port: 5432, database: 'console' }, reserved), 'localhost')).rejects.toThrow(TARGET_MSG.platformStore);
    await expect(lookup(targetLookup({ port: 5432, database: 'console' }, reserved), 'localhost')).rejects.toBeInstanceOf(TargetError);
    await expect(lookup(targetLookup({ port: 5432, database: 'console' }), 'metadata.google.internal')).rejects.toThrow(TARGET_MSG.refused);
    // another database on the same server, or no reserved one: the address localhost resolves to
    const local = (await dns.promises.lookup('localhost')).address;
    expect(await lookup(targetLookup({ port: 5432, database: 'shop' }, reserved), 'localhost')).toBe(local);
    expect(await lookup(targetLookup({ port: 5432, database: 'console' }), 'localhost')).toBe(local);
  });

  it('reads the platform store behind a socket path as this machine, and hands drivers a bare IPv6 host', async () => {
    const viaSocket = targetPolicy('postgres:///console?host=/var/run/postgresql');
    await expect(checkTarget({ host: '127.0.0.1', port: 5432, database: 'console' }, viaSocket)).rejects.toThrow(TARGET_MSG.platformStore);
    await expect(checkTarget({ host: 'localhost', port: 5432, database: 'console' }, viaSocket)).rejects.toThrow(TARGET_MSG.platformStore);
    // a TLS server name is never an address in brackets
    expect(pgConfig({ dbType: 'postgresql', hostName: '[::1]' }, 1000, 1000).host).toBe('::1');
  });

  const servers = [
    { name: 'PostgreSQL', url: PG_URL, dbType: 'postgresql', port: 5432 },
    { name: 'MariaDB', url: MYSQL_URL, dbType: 'mysql', port: 3306 },
  ];
  for (const srv of servers) {
    (srv.url ? it : it.skip)(`${srv.name}: a pool and a connection test built without any check still refuse the reserved database`, async () => {
      const u = new URL(srv.url!);
      const database = decodeURIComponent(u.pathname.slice(1));
      const s: SqlSettings = {
        dbType: srv.dbType,
        hostName: 'localhost',
        port: Number(u.port) || srv.port,
        dbName: database,
        username: decodeURIComponent(u.username),
        password: decodeURIComponent(u.password),
        maxWaitTime: 10,
      };
      const policy: TargetPolicy = { reserved: [{ host: '127.0.0.1', port: Number(s.port), database }] };

      // the same settings without the policy reach the server: the refusal below is the policy's
      const open = createPool(s);
      try {
        expect((await open.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
      } finally {
        await open.close();
      }

      // short spellings of an address reach the server as before (the lookup answers them in canonical form)
      const short = createPool({ ...s, hostName: '127.1' });
      try {
        expect((await short.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
      } finally {
        await short.close();
      }
      if (srv.dbType === 'postgresql') {
        // no database name: pg would use the account's name, and that is the name judged (the check and the socket)
        const byAccount: TargetPolicy = { reserved: [{ host: '127.0.0.1', port: Number(s.port), database: String(s.username) }] };
        await expect(new PoolRegistry(byAccount).execute('no-db', { ...s, hostName: '127.0.0.1', dbName: '' }, 'select 1')).rejects.toThrow(TARGET_MSG.platformStore);
        const unnamed = createPool({ ...s, dbName: null, policy: byAccount });
        try {
          await expect(unnamed.query('select 1')).rejects.toThrow(TARGET_MSG.platformStore);
        } finally {
          await unnamed.close();
        }
      }

      const guarded = createPool({ ...s, policy });
      try {
        await expect(guarded.query('select 1 as one')).rejects.toThrow(TARGET_MSG.platformStore);
      } finally {
        await guarded.close();
      }

      // a name that rebinds: the check sees a harmless intranet address, the next lookup answers loopback
      const real = dns.promises.lookup.bind(dns.promises);
      let asked = 0;
      const spy = vi.spyOn(dns.promises, 'lookup').mockImplementation((async (host: string, opts?: unknown) => {
        if (host !== 'rebind.test') return real(host, opts as dns.LookupAllOptions);
        asked++;
        return [{ address: asked === 1 ? '10.255.255.1' : '127.0.0.1', family: 4 }];
      }) as typeof dns.promises.lookup);
      try {
        let reason = '';
        expect(await testConnection({ ...s, hostName: 'rebind.test' }, { policy, onError: (m) => (reason = m) })).toBe(false);
        expect(reason).toContain(TARGET_MSG.platformStore);
        expect(asked).toBe(2); // judged by the check, and again by the connection's own lookup
        // the same name, when the database is not reserved, connects: the socket went where its lookup said
        asked = 0;
        const other: TargetPolicy = { reserved: [{ host: '127.0.0.1', port: Number(s.port), database: `${database}_other` }] };
        expect(await testConnection({ ...s, hostName: 'rebind.test' }, { policy: other, onError: (m) => (reason = m) }), reason).toBe(true);
      } finally {
        spy.mockRestore();
      }
    });
  }

  it('FTP and SSH connect only where the checked lookup says, trying each address of the name in turn', async () => {
    const [ftp, ssh] = await Promise.all([startFtpServer('ftpuser', 'Ftp#Ok_1'), startSshServer('etl', 'Ssh#Ok_1')]);
    const real = dns.promises.lookup.bind(dns.promises);
    // a name only this lookup knows (were it resolved by basic-ftp, ssh2 or the system, it would not resolve),
    // answering an IPv6 address where nothing listens before the IPv4 one where the servers do; then, for the
    // second test, an intranet address to the check and the metadata address to the connection (rebinding)
    let answers: Array<{ address: string; family: number }[]> = [];
    const spy = vi.spyOn(dns.promises, 'lookup').mockImplementation((async (host: string, opts?: unknown) => {
      if (host !== 'only-here.test') return real(host, opts as dns.LookupAllOptions);
      return answers.length > 1 ? answers.shift()! : answers[0];
    }) as typeof dns.promises.lookup);
    try {
      let reason = '';
      answers = [[{ address: '::1', family: 6 }, { address: '127.0.0.1', family: 4 }]];
      expect(await testFtp({ ip: 'only-here.test', port: ftp.port, username: 'ftpuser', password: 'Ftp#Ok_1' }, { timeout: 10, onError: (m) => (reason = m) }), reason).toBe(true);
      expect(await testSsh({ ip: 'only-here.test', port: ssh.port, username: 'etl', password: 'Ssh#Ok_1' }, { timeout: 10, onError: (m) => (reason = m) }), reason).toBe(true);
      answers = [[{ address: '10.255.255.1', family: 4 }], [{ address: '169.254.169.254', family: 4 }]];
      expect(await testSsh({ ip: 'only-here.test', port: ssh.port, username: 'etl', password: 'Ssh#Ok_1' }, { timeout: 5, onError: (m) => (reason = m) })).toBe(false);
      expect(reason).toContain(TARGET_MSG.refused);
    } finally {
      spy.mockRestore();
      await Promise.all([ftp.close(), ssh.close()]);
    }
  });

  it("FTP's data connection goes to the control address, never to the one the server names", async () => {
    // no EPSV (which has no address), and a PASV answer naming a public address where nothing answers (TEST-NET-1; a private one basic-ftp would replace itself)
    const ftp = await startFtpServer('ftpuser', 'Ftp#Ok_1', { blacklist: ['EPSV'], pasv_url: () => '192.0.2.1' });
    try {
      let reason = '';
      expect(await testFtp({ ip: '127.0.0.1', port: ftp.port, username: 'ftpuser', password: 'Ftp#Ok_1' }, { timeout: 5, onError: (m) => (reason = m) }), reason).toBe(true);
    } finally {
      await ftp.close();
    }
  });
});
