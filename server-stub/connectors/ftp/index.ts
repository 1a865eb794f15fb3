// FTP connection test: log in with basic-ftp and list rootPath. true/false within the timeout; never throws.
import { Client } from 'basic-ftp';
import { scrub } from '../../core/secrets.js';

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

export async function testFtp(s: FtpSettings, opts: RemoteTestOptions = {}): Promise<boolean> {
  const ms = Math.round((opts.timeout && opts.timeout > 0 ? opts.timeout : 10) * 1000);
  const client = new Client(ms);
  let timer: NodeJS.Timeout | undefined;
  try {
    const attempt = (async () => {
      await client.access({
        host: s.ip,
        port: Number(s.port) || 21,
        user: s.username || 'anonymous',
        password: s.password ?? '',
        secure: s.secure ?? false,
      });
      await client.list(s.rootPath || '/');
    })();
    await Promise.race([
      attempt,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`连接超时（${ms / 1000}秒）`)), ms);
      }),
    ]);
    return true;
  } catch (err) {
    opts.onError?.(scrub(String((err as Error)?.message ?? err), s.password));
    return false;
  } finally {
    clearTimeout(timer);
    client.close();
  }
}
