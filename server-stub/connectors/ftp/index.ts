// FTP connection test: log in with basic-ftp and list rootPath. true/false within the timeout; never throws,
// never rejects.
//
// basic-ftp sends PASS from inside its socket 'data' handler and throws there on CR, LF or NUL (command
// injection guard); a throw in an event handler is an uncaught exception that ends the process. So account,
// password and path are checked here first and such values are answered as a failed test without connecting.
import { Client } from 'basic-ftp';
import { scrub } from '../../core/secrets.js';
import { ConnectReasonError, describeError, limitText, reportConnectFailure, testDeadlineMs, withinDeadline, type ConnectTestOptions } from '../errors.js';
import { isIP } from 'node:net';
import { bareHost, checkedAddresses } from '../target.js';

export interface FtpSettings {
  ip: string;
  port?: number | null;
  username?: string | null;
  password?: string | null;
  rootPath?: string | null;
  /** FTPS (explicit TLS) */
  secure?: boolean;
}

/** Connection errors after which the name's next address is tried. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'EAFNOSUPPORT']);

/** Characters an FTP command line cannot carry. */
const CONTROL = /[\r\n\0]/;
/** Longest account / password / path sent (FTP servers limit command lines). */
const MAX_FIELD = 1024;

export async function testFtp(s: FtpSettings, opts: ConnectTestOptions = {}): Promise<boolean> {
  const ms = testDeadlineMs(opts);
  const report = (err: unknown) => reportConnectFailure(opts.onError, () => limitText(scrub(describeError(err, '连接失败'), s.password)), err, ms / 1000);
  for (const [label, v] of [['账号', s.username], ['密码', s.password], ['根目录', s.rootPath]] as const) {
    if (typeof v === 'string' && CONTROL.test(v)) {
      report(new ConnectReasonError(`${label}含有换行或空字符`));
      return false;
    }
    // a command line longer than the server takes is split by it, and the rest echoed back as a "command"
    if (typeof v === 'string' && v.length > MAX_FIELD) {
      report(new ConnectReasonError(`${label}过长`));
      return false;
    }
  }
  let client: Client | undefined;
  let finished = false; // the answer is given: an attempt still under way opens nothing more
  try {
    const attempt = (async (): Promise<void> => {
      // where the test may connect at all (connectors/target.ts): no socket path, no link-local or metadata
      // address; it connects to these checked addresses, so the name cannot resolve elsewhere afterwards
      const addresses = await checkedAddresses(s.ip);
      const name = bareHost(s.ip);
      for (let i = 0; !finished; i++) {
        // data connections go to the control connection's address, never to one the server names in its PASV
        // answer (a server could send the console to any address and port)
        const c = (client = new Client(ms, { allowSeparateTransferHost: false }));
        try {
          await c.access({
            host: addresses[i],
            port: Number(s.port) || 21,
            user: s.username || 'anonymous',
            password: s.password ?? '',
            secure: s.secure ?? false,
            // connected by address: TLS still checks the certificate against the name that was given
            secureOptions: isIP(name) ? undefined : { servername: name },
          });
        } catch (err) {
          // the next address of the name, as a plain connect would try it; any other failure is the answer
          if (i + 1 < addresses.length && UNREACHABLE.has((err as NodeJS.ErrnoException)?.code ?? '')) {
            c.close();
            continue;
          }
          throw err;
        }
        await c.list(s.rootPath || '/');
        return;
      }
    })();
    await withinDeadline(attempt, ms);
    return true;
  } catch (err) {
    report(err);
    return false;
  } finally {
    finished = true;
    try {
      client?.close();
    } catch {
      /* already closed */
    }
  }
}
