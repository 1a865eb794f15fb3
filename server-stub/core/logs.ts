// Three log files, one per SERVER_NAME dictionary entry: auth, admin, platform (DATA_DIR/logs/<name>.log).
// Each request is logged to the file of the module that served it.
//
// Writes are asynchronous (issue 36: no synchronous write per request): SonicBoom queues a line while a write is in
// flight and writes what queued in one go, so under load many lines cost one syscall and the event loop never waits
// for the disk; close() flushes what is queued.
//
// Rotation by size: every write is counted; once a file passes `maxBytes` it is renamed x.log → x.log.1
// (x.log.1 → x.log.2 … up to x.log.<keep>, the oldest dropped) and a fresh x.log is opened (SonicBoom's
// reopen). The count starts from the file's size at start-up, so a restart does not let a file grow past
// the limit. Files written by another process (or by hand) are not counted: the limit is per writer.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { ServiceName } from './module.js';

export const SERVICES: ServiceName[] = ['auth', 'admin', 'platform'];

export type ServiceLoggers = Record<ServiceName, Logger> & { close(): void };

export interface LogOptions {
  /** Rotate a file once it passes this many bytes (LOG_MAX_BYTES, default 20 MB). */
  maxBytes?: number;
  /** How many rotated files to keep: x.log.1 … x.log.<keep> (LOG_KEEP, default 5). */
  keep?: number;
  /** INSTANCE_ID: several instances sharing one DATA_DIR each write <service>-<instance>.log. */
  instanceId?: string;
}

export const DEFAULT_LOG_MAX_BYTES = 20 * 1024 * 1024;
export const DEFAULT_LOG_KEEP = 5;

export function logFile(dataDir: string, service: ServiceName, instanceId?: string): string {
  return path.join(dataDir, 'logs', instanceId ? `${service}-${instanceId}.log` : `${service}.log`);
}

/** The files of one service, newest first: the current file, then x.log.1 … x.log.<keep>. */
export function logFiles(dataDir: string, service: ServiceName, keep = DEFAULT_LOG_KEEP, instanceId?: string): string[] {
  const file = logFile(dataDir, service, instanceId);
  return [file, ...Array.from({ length: keep }, (_, i) => `${file}.${i + 1}`)];
}

/** Log lines name users, routes and addresses: the files are readable by the server's own account only. */
export const LOG_FILE_MODE = 0o600;

/** Shifts x.log.(n) → x.log.(n+1) (dropping the oldest) and x.log → x.log.1. */
function shiftFiles(file: string, keep: number) {
  rmSync(`${file}.${keep}`, { force: true });
  for (let i = keep - 1; i >= 1; i--) if (existsSync(`${file}.${i}`)) renameSync(`${file}.${i}`, `${file}.${i + 1}`);
  if (existsSync(file)) {
    renameSync(file, `${file}.1`);
    chmodSync(`${file}.1`, LOG_FILE_MODE);
  }
}

export function createLoggers(dataDir: string, opts: LogOptions = {}): ServiceLoggers {
  const maxBytes = opts.maxBytes && opts.maxBytes > 0 ? opts.maxBytes : DEFAULT_LOG_MAX_BYTES;
  const keep = Math.max(1, Math.floor(opts.keep ?? DEFAULT_LOG_KEEP));
  mkdirSync(path.join(dataDir, 'logs'), { recursive: true, mode: 0o700 });
  const dests: ReturnType<typeof pino.destination>[] = [];
  const make = (service: ServiceName) => {
    const file = logFile(dataDir, service, opts.instanceId);
    // created 0600 (umask can only narrow it); a file left 0644 by an older version is narrowed
    closeSync(openSync(file, 'a', LOG_FILE_MODE));
    chmodSync(file, LOG_FILE_MODE);
    const dest = pino.destination({ dest: file, sync: false, mkdir: true, mode: LOG_FILE_MODE });
    dests.push(dest);
    let written = statSync(file).size;
    const rotate = () => {
      try {
        shiftFiles(file, keep);
      } catch {
        // a failed rename must not lose the line being written: keep writing to the file we have
        written = 0;
        return;
      }
      try {
        // the fresh file made 0600 now: the (asynchronous) reopen opens it once the queue is written
        closeSync(openSync(file, 'a', LOG_FILE_MODE));
        chmodSync(file, LOG_FILE_MODE);
      } catch {
        // the reopen below makes it (with the destination's mode)
      }
      dest.reopen();
      written = 0;
    };
    // pino hands over whole lines: the count is exact and the check costs one addition (a line queued before a
    // rotation is written to the file it was queued for: SonicBoom reopens once its queue is written)
    const stream: DestinationStream = {
      write(line: string) {
        dest.write(line);
        written += Buffer.byteLength(line);
        if (written >= maxBytes) rotate();
      },
    };
    return pino(
      {
        base: { service },
        timestamp: pino.stdTimeFunctions.isoTime,
        // Secrets must never reach a log line.
        redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.pwd', 'password', 'pwd', 'token', '*.token'], censor: '******' },
      },
      stream,
    );
  };
  const loggers = { auth: make('auth'), admin: make('admin'), platform: make('platform') } as ServiceLoggers;
  loggers.close = () =>
    dests.forEach((d) => {
      try {
        d.flushSync();
      } catch {
        // nothing queued, or the file is gone: end() below still closes it
      }
      d.end();
    });
  return loggers;
}
