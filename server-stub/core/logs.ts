// Three log files, one per SERVER_NAME dictionary entry: auth, admin, platform (DATA_DIR/logs/<name>.log).
// Each request is logged to the file of the module that served it.
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import type { ServiceName } from './module.js';

export const SERVICES: ServiceName[] = ['auth', 'admin', 'platform'];

export type ServiceLoggers = Record<ServiceName, Logger> & { close(): void };

export function logFile(dataDir: string, service: ServiceName): string {
  return path.join(dataDir, 'logs', `${service}.log`);
}

/** Log lines name users, routes and addresses: the files are readable by the server's own account only. */
export const LOG_FILE_MODE = 0o600;

export function createLoggers(dataDir: string): ServiceLoggers {
  mkdirSync(path.join(dataDir, 'logs'), { recursive: true, mode: 0o700 });
  const dests: ReturnType<typeof pino.destination>[] = [];
  const make = (service: ServiceName) => {
    const file = logFile(dataDir, service);
    // created 0600 (umask can only narrow it); a file left 0644 by an older version is narrowed
    closeSync(openSync(file, 'a', LOG_FILE_MODE));
    chmodSync(file, LOG_FILE_MODE);
    const dest = pino.destination({ dest: file, sync: true, mkdir: true, mode: LOG_FILE_MODE });
    dests.push(dest);
    return pino(
      {
        base: { service },
        timestamp: pino.stdTimeFunctions.isoTime,
        // Secrets must never reach a log line.
        redact: { paths: ['req.headers.authorization', '*.password', '*.pwd', 'password', 'pwd'], censor: '******' },
      },
      dest,
    );
  };
  const loggers = { auth: make('auth'), admin: make('admin'), platform: make('platform') } as ServiceLoggers;
  loggers.close = () => dests.forEach((d) => d.end());
  return loggers;
}
