// SSH connection test (ETL servers): a real handshake and password authentication with ssh2.
// true/false within the timeout; never throws, never rejects, and nothing it runs in an event handler or a
// timer can throw out of it (a throw there would be an uncaught exception and end the process).
import { Client } from 'ssh2';
import { scrub } from '../../core/secrets.js';
import { describeError, limitText } from '../errors.js';
import { TargetError, bareHost, checkTarget, targetSocket } from '../target.js';

export interface SshSettings {
  ip: string;
  port?: number | null;
  username?: string | null;
  password?: string | null;
}

export interface SshTestOptions {
  /** seconds; default 10 */
  timeout?: number;
  onError?: (message: string) => void;
}

export async function testSsh(s: SshSettings, opts: SshTestOptions = {}): Promise<boolean> {
  // where the test may connect at all (connectors/target.ts): no socket path, no link-local or metadata address
  try {
    await checkTarget({ host: s.ip });
  } catch (err) {
    if (!(err instanceof TargetError)) throw err;
    opts.onError?.(err.message);
    return false;
  }
  return handshake(s, opts);
}

function handshake(s: SshSettings, opts: SshTestOptions): Promise<boolean> {
  const ms = Math.round((opts.timeout && opts.timeout > 0 ? opts.timeout : 10) * 1000);
  return new Promise<boolean>((resolve) => {
    let client: Client | undefined;
    let settled = false;
    // the callback runs after finish is defined (never synchronously)
    const timer: NodeJS.Timeout = setTimeout(() => finish(false, `连接超时（${ms / 1000}秒）`), ms);
    const finish = (ok: boolean, err?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(ok); // first: whatever happens below, the call has its answer
      if (!ok) {
        try {
          opts.onError?.(limitText(scrub(describeError(err, '连接失败'), s.password)));
        } catch {
          /* a failing reporter must not turn into an uncaught exception */
        }
      }
      try {
        client?.end();
        if (!ok) client?.destroy();
      } catch {
        /* already closed */
      }
    };
    try {
      client = new Client();
      client.on('ready', () => finish(true));
      client.on('error', (err) => finish(false, err));
      client.on('close', () => finish(false, '连接已关闭'));
      const port = Number(s.port) || 22;
      client.connect({
        // the socket judges the name again in its own lookup and connects to what it answered (every address
        // of the name, in turn), so the name cannot resolve elsewhere after the check above
        sock: targetSocket({ port }).connect(port, bareHost(s.ip)),
        port,
        username: s.username ?? '',
        password: s.password ?? '',
        readyTimeout: ms,
        tryKeyboard: false,
        // a test must not hang on a host key prompt; the console has no known_hosts to check against
        hostVerifier: () => true,
      });
    } catch (err) {
      finish(false, err);
    }
  });
}
