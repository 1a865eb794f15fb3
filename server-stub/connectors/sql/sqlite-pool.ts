// A SQLite data source's pool: one worker thread (sqlite-worker.ts) running one statement at a time.
// The main thread never runs user SQL against SQLite: a statement past queryTimeout has its worker
// terminated (the next query starts a fresh one), and a statement whose result outgrows the worker's heap
// ends that worker with a clear message, while the server keeps answering everyone else.
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Gate } from './gate.js';
import { SqlConnectorError } from './types.js';
import type { DbType, SqlPool, SqlResult, SqlSettings } from './types.js';
import type { SqliteAnswer } from './sqlite-worker.js';

const WORKER_FILE = new URL('./sqlite-worker.ts', import.meta.url);
/** The worker's own heap: far above a capped result (rows.ts), far below the server's. */
const WORKER_HEAP_MB = 192;
const CODES = new Set(['WAIT_TIMEOUT', 'QUERY_TIMEOUT', 'CONFIG', 'DRIVER', 'REFUSED']);

/**
 * The worker is TypeScript: a one-line bootstrap registers tsx's CommonJS loader and requires it, whether the server
 * runs under tsx or under a test runner (a worker's --import is not applied to its entry on Node 20, and
 * tsx's ESM API cannot be required there).
 */
const BOOT = "const { workerData } = require('node:worker_threads'); require(workerData.tsxApi).register(); require(workerData.entry);";
const TSX_API = createRequire(import.meta.url).resolve('tsx/cjs/api');

interface Pending {
  resolve(r: SqlResult): void;
  reject(e: Error): void;
}

export class SqlitePool implements SqlPool {
  readonly dbType: DbType = 'sqlite';
  private readonly gate = new Gate(1);
  private worker: Worker | null = null;
  private pending: Pending | null = null;
  constructor(
    private readonly s: SqlSettings,
    private readonly waitMs: number,
    private readonly queryMs: number,
  ) {}

  private spawn(): Worker {
    const w = new Worker(BOOT, {
      eval: true,
      workerData: { settings: { ...this.s }, waitMs: this.waitMs, tsxApi: TSX_API, entry: fileURLToPath(WORKER_FILE) },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      stdout: false,
      stderr: false,
    });
    w.unref(); // an idle data source never keeps the process alive
    const fail = (err: Error) => {
      if (this.worker === w) this.worker = null;
      this.pending?.reject(err);
      this.pending = null;
    };
    w.on('message', (a: SqliteAnswer) => {
      const p = this.pending;
      this.pending = null;
      if (!p) return;
      if (a.ok) p.resolve(a.result);
      else p.reject(a.code && CODES.has(a.code) ? new SqlConnectorError(a.message, a.code as SqlConnectorError['code']) : Object.assign(new Error(a.message), { name: a.name ?? 'SqliteError' }));
    });
    w.on('error', (err: Error & { code?: string }) =>
      fail(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new SqlConnectorError('查询结果占用内存过多，已中止，请缩小查询范围', 'REFUSED') : new SqlConnectorError(`查询已中止：${err.message}`)),
    );
    w.on('exit', () => fail(new SqlConnectorError('查询已中止')));
    return w;
  }

  async query(sql: string, params: unknown[] = []): Promise<SqlResult> {
    const release = await this.gate.acquire(this.waitMs);
    let timer: NodeJS.Timeout | undefined;
    try {
      const w = (this.worker ??= this.spawn());
      return await new Promise<SqlResult>((resolve, reject) => {
        this.pending = { resolve, reject };
        timer = setTimeout(() => {
          // SQLite cannot be interrupted: the worker goes, and the next query starts a fresh one
          this.pending = null;
          this.stop();
          reject(new SqlConnectorError(`查询超时（${Math.round(this.queryMs / 1000)}秒）`, 'QUERY_TIMEOUT'));
        }, this.queryMs);
        w.postMessage({ sql, params });
      });
    } finally {
      clearTimeout(timer);
      this.pending = null;
      release();
    }
  }

  private stop(): void {
    const w = this.worker;
    this.worker = null;
    void w?.terminate();
  }

  async close(): Promise<void> {
    this.gate.drain();
    this.pending?.reject(new SqlConnectorError('连接池已关闭'));
    this.pending = null;
    this.stop();
  }
}
