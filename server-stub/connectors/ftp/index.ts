// FTP connection test: log in with basic-ftp and list rootPath. true/false within the timeout; never throws,
// never rejects.
//
// basic-ftp sends PASS from inside its socket 'data' handler and throws there on CR, LF or NUL (command
// injection guard); a throw in an event handler is an uncaught exception that ends the process. So account,
// password and path are checked here first and such values are answered as a failed test without connecting.
import { Client } from 'basic-ftp';
import { scrub } from '../../core/secrets.js';
import { describeError, limitText } from '../errors.js';
import { checkTarget } from '../target.js';

export interface FtpSettings {
  ip: string;
  port?: number | null;
  username?: string | null;
  password?: string | null;
  rootPath?: string | null;
  /** FTPS (explicit TLS) */
  secure?: boolean;
}

export interface RemoteTestOptions {
  /** seconds; default 10 */
  timeout?: number;
  onError?: (message: string) => void;
}

/** Characters an FTP command line cannot carry. */
const CONTROL = /[\r\n\0]/;
/** Longest account / password / path sent (FTP servers limit command lines). */
const MAX_FIELD = 1024;

export async function testFtp(s: FtpSettings, opts: RemoteTestOptions = {}): Promise<boolean> {
  const report = (err: unknown) => {
    try {
      opts.onError?.(limitText(scrub(describeError(err, '连接失败'), s.password)));
    } catch {
      /* a failing reporter must not fail the call */
    }
  };
  const ms = Math.round((opts.timeout && opts.timeout > 0 ? opts.timeout : 10) * 1000);
  for (const [label, v] of [['账号', s.username], ['密码', s.password], ['根目录', s.rootPath]] as const) {
    if (typeof v === 'string' && CONTROL.test(v)) {
      report(`${label}含有换行或空字符`);
      return false;
    }
    // a command line longer than the server takes is split by it, and the rest echoed back as a "command"
    if (typeof v === 'string' && v.length > MAX_FIELD) {
      report(`${label}过长`);
      return false;
    }
  }
  let client: Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    // where the test may connect at all (connectors/target.ts): no socket path, no link-local or metadata address
    await checkTarget({ host: s.ip });
    client = new Client(ms);
    const c = client;
    const attempt = (async () => {
      await c.access({
        host: s.ip,
        port: Number(s.port) || 21,
        user: s.username || 'anonymous',
        password: s.password ?? '',
        secure: s.secure ?? false,
      });
      await c.list(s.rootPath || '/');
    })();
    attempt.catch(() => undefined); // lost the race against the timer: its rejection is not unhandled
    await Promise.race([
      attempt,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`连接超时（${ms / 1000}秒）`)), ms);
      }),
    ]);
    return true;
  } catch (err) {
    report(err);
    return false;
  } finally {
    clearTimeout(timer);
    try {
      client?.close();
    } catch {
      /* already closed */
    }
  }
}
