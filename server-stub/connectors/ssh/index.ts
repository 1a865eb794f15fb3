// SSH connection test (ETL servers): a real handshake and password authentication with ssh2.
// true/false within the timeout; never throws, never rejects, and nothing it runs in an event handler or a
// timer can throw out of it (a throw there would be an uncaught exception and end the process).
import { Client } from 'ssh2';
import { scrub } from '../../core/secrets.js';
import { CONNECT_REASON, ConnectReasonError, ConnectTimeoutError, describeError, limitText, reportConnectFailure, testDeadlineMs, withinDeadline, type ConnectTestOptions } from '../errors.js';
import { bareHost, checkTarget, targetSocket } from '../target.js';

export interface SshSettings {
  ip: string;
  port?: number | null;
  username?: string | null;
  password?: string | null;
}

/** Answers within the timeout, the target check included; a failure is reported with its reason. */
export async function testSsh(s: SshSettings, opts: ConnectTestOptions = {}): Promise<boolean> {
  const ms = testDeadlineMs(opts);
  const started = Date.now();
  // where the test may connect at all (connectors/target.ts): no socket path, no link-local or metadata address
  try {
    await withinDeadline(checkTarget({ host: s.ip }), ms);
  } catch (err) {
    reportConnectFailure(opts.onError, () => limitText(describeError(err, '连接失败')), err, ms / 1000);
    return false;
  }
  return handshake(s, opts, ms, Math.max(1, ms - (Date.now() - started)));
}

/** ms: the whole test's timeout (named in the reason); left: what is left of it for the handshake. */
function handshake(s: SshSettings, opts: ConnectTestOptions, ms: number, left: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    let client: Client | undefined;
    let settled = false;
    // the callback runs after finish is defined (never synchronously)
    const timer: NodeJS.Timeout = setTimeout(() => finish(false, new ConnectTimeoutError(ms / 1000)), left);
    const finish = (ok: boolean, err?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(ok); // first: whatever happens below, the call has its answer
      if (!ok) reportConnectFailure(opts.onError, () => limitText(scrub(describeError(err, '连接失败'), s.password)), err, ms / 1000);
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
      client.on('close', () => finish(false, new ConnectReasonError(`${CONNECT_REASON.unreachable}：连接被对方关闭`)));
      const port = Number(s.port) || 22;
      client.connect({
        // the socket judges the name again in its own lookup and connects to what it answered (every address
        // of the name, in turn), so the name cannot resolve elsewhere after the check above
        sock: targetSocket({ port }).connect(port, bareHost(s.ip)),
        port,
        username: s.username ?? '',
        password: s.password ?? '',
        readyTimeout: left,
        tryKeyboard: false,
        // a test must not hang on a host key prompt; the console has no known_hosts to check against
        hostVerifier: () => true,
      });
    } catch (err) {
      finish(false, err);
    }
  });
}
