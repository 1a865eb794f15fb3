// A data source's pool, kept in a process of its own (pool-runner.ts runs the real pool there). What the
// server holds is this proxy: it forwards each statement, and it stops the process when a statement
// outlives every limit (SQLite cannot be interrupted; a driver may hang) or when the process dies (a value
// too large to parse, memory exhausted). Pending statements then fail with a clear message, and the next
// query starts a fresh process. An idle process exits after a minute; at most MAX_PROCESSES run at once.
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SqlConnectorError } from './types.js';
import type { DbType, SqlPlanOptions, SqlPlanResult, SqlPool, SqlResult, SqlSettings } from './types.js';

/**
 * The compiled server (`npm run build`: dist-server/main.js, this module bundled into it) starts the compiled
 * runner beside it (dist-server/pool-runner.js) with plain node. Run from source (tsx, the tests), the runner is
 * TypeScript and the child loads it through tsx.
 */
const COMPILED = import.meta.url.endsWith('.js');
const RUNNER = fileURLToPath(new URL(COMPILED ? './pool-runner.js' : './pool-runner.ts', import.meta.url));
const LOADER = COMPILED ? [] : ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];
/** The process's heap: far above a capped result (rows.ts), far below the machine's memory. */
const HEAP_MB = 256;
export const MAX_PROCESSES = 16;
const IDLE_MS = 60_000;
const CODES = new Set(['WAIT_TIMEOUT', 'QUERY_TIMEOUT', 'CONFIG', 'DRIVER', 'REFUSED']);

export const POOL_MSG = {
  tooMany: '同时使用的数据源过多，请稍后再试',
  ended: '查询已中止：结果过大或数据源连接异常，请缩小查询范围后重试',
  closed: '连接池已关闭',
  timeout: (s: number) => `查询超时（${s}秒）`,
} as const;

/** Data-source processes running now (a killed one leaves at once, before its exit is reported). */
const children = new Set<ChildProcess>();
export const liveProcesses = () => children.size;
/** Pools with a running process, least recently used first: an idle one makes room when the cap is reached. */
const running = new Set<ProcessPool>();

interface Answer {
  id: number;
  ok: boolean;
  result?: SqlResult | SqlPlanResult;
  message?: string;
  code?: string;
  name?: string;
  /** a transaction's failed statement (0-based) */
  statement?: number;
}

interface Pending {
  resolve(r: unknown): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
  /** the process it was sent to: only its own exit fails it */
  child: ChildProcess;
}

function errorOf(a: Answer): Error {
  const at = typeof a.statement === 'number' ? { statement: a.statement } : {};
  if (a.code && CODES.has(a.code)) return Object.assign(new SqlConnectorError(a.message ?? '', a.code as SqlConnectorError['code']), at);
  return Object.assign(new Error(a.message), { name: a.name ?? 'Error', code: a.code }, at);
}

export class ProcessPool implements SqlPool {
  private child: ChildProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private seq = 0;
  private idle: NodeJS.Timeout | undefined;
  private closed = false;
  constructor(
    readonly dbType: DbType,
    private readonly s: SqlSettings,
    /** a statement is given up (and its process stopped) after this long */
    private readonly limitMs: number,
    private readonly queryMs: number,
  ) {}

  private spawn(): ChildProcess {
    if (children.size >= MAX_PROCESSES) {
      // an idle process (nothing pending) gives way; only when every one is busy is the query refused
      const idle = [...running].find((p) => p !== this && p.pending.size === 0);
      if (!idle) throw new SqlConnectorError(POOL_MSG.tooMany, 'WAIT_TIMEOUT');
      idle.stop();
    }
    const child = fork(RUNNER, [], {
      execArgv: [...LOADER, `--max-old-space-size=${HEAP_MB}`],
      serialization: 'advanced', // dates, buffers and big integers arrive as they left
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    children.add(child);
    child.on('message', (a: Answer) => {
      const p = this.pending.get(a.id);
      if (!p) return;
      this.pending.delete(a.id);
      clearTimeout(p.timer);
      if (a.ok) p.resolve(a.result!);
      else p.reject(errorOf(a));
      this.armIdle();
    });
    child.on('error', () => undefined); // reported through 'exit'
    child.on('exit', () => {
      children.delete(child);
      if (this.child === child) this.child = null;
      this.failAll(new SqlConnectorError(POOL_MSG.ended), child);
    });
    child.send({ kind: 'init', settings: this.s });
    return child;
  }

  query(sql: string, params: unknown[] = []): Promise<SqlResult> {
    return this.send({ kind: 'query', sql, params }, this.limitMs);
  }

  /** Statements in one transaction, run in the process like a statement (and given up like one). */
  transaction(statements: Array<{ sql: string; params: unknown[] }>): Promise<SqlResult[]> {
    return this.send({ kind: 'transaction', statements }, this.limitMs);
  }

  /**
   * An EXPLAIN, sent like a statement and given up like one: its own time limit is kept inside the process
   * (statement_timeout, the driver's timeout), so that a plan waiting for a busy pool's slot never stops the
   * process with the other statements in it.
   */
  explain(sql: string, params: unknown[], opts: SqlPlanOptions): Promise<SqlPlanResult> {
    return this.send({ kind: 'explain', sql, params, opts }, this.limitMs);
  }

  private async send<T>(message: object, limitMs: number): Promise<T> {
    if (this.closed) throw new SqlConnectorError(POOL_MSG.closed);
    clearTimeout(this.idle);
    const child = (this.child ??= this.spawn());
    running.delete(this); // most recently used last
    running.add(this);
    const id = ++this.seq;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new SqlConnectorError(POOL_MSG.timeout(Math.round(this.queryMs / 1000)), 'QUERY_TIMEOUT'));
        this.stop(); // whatever else waited in it fails as ended; the next query starts afresh
      }, limitMs);
      this.pending.set(id, { resolve, reject, timer, child });
      child.send({ ...message, id });
    });
  }

  private failAll(err: Error, of?: ChildProcess): void {
    for (const [id, p] of this.pending) {
      if (of && p.child !== of) continue;
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.reject(err);
    }
  }

  private armIdle(): void {
    clearTimeout(this.idle);
    if (this.pending.size) return;
    this.idle = setTimeout(() => this.stop(), IDLE_MS);
    this.idle.unref();
  }

  private stop(): void {
    const child = this.child;
    this.child = null;
    running.delete(this);
    if (child) children.delete(child);
    child?.kill('SIGKILL');
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idle);
    this.failAll(new SqlConnectorError(POOL_MSG.closed));
    this.stop();
  }
}
