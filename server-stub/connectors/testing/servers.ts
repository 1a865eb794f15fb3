// Loopback test servers used by connector and module tests: a silent TCP host, an FTP server
// (ftp-srv) and an SSH server (ssh2). Test-only code.
import net from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import FtpSrv from 'ftp-srv';
import ssh2 from 'ssh2';
import { afterAll, beforeAll } from 'vitest';

/** A TCP server that accepts connections and never says a word (a host that never answers). */
export async function startSilentHost(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((sock) => {
    sockets.add(sock);
    sock.on('error', () => undefined);
    sock.on('close', () => sockets.delete(sock));
  });
  return listenOnLoopback(server, sockets, (s) => s.destroy());
}

/** Listens on a free loopback port; close() ends the connections still open (`open`), then the server. */
async function listenOnLoopback<C>(server: net.Server | ssh2.Server, open: Set<C>, end: (c: C) => void): Promise<{ port: number; close(): Promise<void> }> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((r) => {
        open.forEach(end);
        server.close(() => r());
      }),
  };
}

const silentLog: Record<string, unknown> = {};
for (const k of ['trace', 'debug', 'info', 'warn', 'error', 'fatal']) silentLog[k] = () => undefined;
silentLog.child = () => silentLog;

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** extra: ftp-srv options (e.g. pasv_url naming another host for data connections, blacklist of commands). */
export async function startFtpServer(user: string, password: string, extra: Record<string, unknown> = {}): Promise<{ port: number; root: string; close(): Promise<void> }> {
  const root = mkdtempSync(join(tmpdir(), 'ftp-root-'));
  // ftp-srv needs its port up front: a free port may be taken by a parallel suite before it listens, so retry
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const server = new FtpSrv({
      url: `ftp://127.0.0.1:${port}`,
      pasv_url: '127.0.0.1',
      pasv_min: 30000,
      pasv_max: 40000,
      anonymous: false,
      greeting: 'test ftp',
      log: silentLog as never,
      ...extra,
    });
    server.on('login', ({ username, password: pw }: { username: string; password: string }, resolve: (o: { root: string }) => void, reject: (e: Error) => void) => {
      if (username === user && pw === password) resolve({ root });
      else reject(new Error('Invalid username or password'));
    });
    server.on('client-error', () => undefined);
    try {
      await server.listen();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 5) continue;
      throw err;
    }
    return { port, root, close: () => server.close().then(() => undefined, () => undefined) };
  }
}

/** ssh2 strips leading zero bytes from ed25519 keys, so about 1 key in 256 cannot be parsed back
 *  (mscdex/ssh2#1390, #1513); draw again until both halves parse. */
function hostKeyPair(): { private: string; public: string } {
  for (;;) {
    const keys = ssh2.utils.generateKeyPairSync('ed25519');
    if (!(ssh2.utils.parseKey(keys.private) instanceof Error) && !(ssh2.utils.parseKey(keys.public) instanceof Error)) return keys;
  }
}

export async function startSshServer(user: string, password: string): Promise<{ port: number; close(): Promise<void> }> {
  const keys = hostKeyPair();
  const clients = new Set<ssh2.Connection>();
  const server = new ssh2.Server({ hostKeys: [keys.private] }, (client) => {
    clients.add(client);
    client.on('authentication', (ctx) => {
      if (ctx.method === 'password' && ctx.username === user && ctx.password === password) ctx.accept();
      else ctx.reject(['password']);
    });
    client.on('ready', () => undefined);
    client.on('error', () => undefined);
    client.on('close', () => clients.delete(client));
  });
  return listenOnLoopback(server, clients, (c) => c.end());
}

type Running = { port: number; close(): Promise<void> };

/**
 * For a describe block: an FTP server (ftpuser / Ftp#Ok_1) and an SSH server (etl / Ssh#Ok_1) on loopback while
 * its tests run, and every uncaughtException thrown meanwhile (a connector must never throw from a callback).
 */
export function ftpAndSshForSuite(): { readonly ftp: Running; readonly ssh: Running; uncaught: unknown[] } {
  const uncaught: unknown[] = [];
  const spy = (err: unknown) => uncaught.push(err);
  let ftp: Running | undefined;
  let ssh: Running | undefined;
  beforeAll(async () => {
    process.on('uncaughtException', spy);
    [ftp, ssh] = await Promise.all([startFtpServer('ftpuser', 'Ftp#Ok_1'), startSshServer('etl', 'Ssh#Ok_1')]);
  });
  afterAll(async () => {
    process.off('uncaughtException', spy);
    await Promise.all([ftp?.close(), ssh?.close()]);
  });
  const started = (r: Running | undefined) => {
    if (!r) throw new Error('the test servers are used before they started (ftpAndSshForSuite is for describe blocks)');
    return r;
  };
  return {
    get ftp() {
      return started(ftp);
    },
    get ssh() {
      return started(ssh);
    },
    uncaught,
  };
}

/** A loopback port nothing listens on (a connection there is refused). */
export async function closedPort(): Promise<number> {
  return freePort();
}

export interface DatabaseTarget {
  dbType: string;
  hostName: string;
  port: number;
  dbName: string;
  username: string;
}

/** Databases that refuse a sign-in: closed ports on 127.0.0.1 (PostgreSQL, MySQL), and the test PostgreSQL /
 *  MariaDB (PG_URL, MYSQL_URL, when set) with an account that does not exist. */
export function refusingDatabases(): DatabaseTarget[] {
  const targets: DatabaseTarget[] = [
    { dbType: 'postgresql', hostName: '127.0.0.1', port: 1, dbName: 'x', username: 'u' },
    { dbType: 'mysql', hostName: '127.0.0.1', port: 1, dbName: 'x', username: 'u' },
  ];
  const live = [
    [process.env.PG_URL, 'postgresql', 5432, 'no_such_role_x'],
    [process.env.MYSQL_URL, 'mariadb', 3306, 'no_such_user_x'],
  ] as const;
  for (const [url, dbType, defaultPort, username] of live) {
    if (!url) continue;
    const u = new URL(url);
    targets.push({ dbType, hostName: u.hostname, port: Number(u.port || defaultPort), dbName: u.pathname.slice(1), username });
  }
  return targets;
}
