// The embedded analytical engine of file datasets (issue 35 §1): DuckDB (@duckdb/node-api), one database file per
// dataset version under DATA_DIR/duckdb. A file is written once, under a temporary name, and renamed into place
// when complete; it is never changed afterwards: an append or a replace writes the next version's file from a copy.
// So every instance sharing DATA_DIR opens any version read-only at any moment, readers never see half a write,
// and a version's cached answers stay true for as long as the version lives.
// Read-only databases have file access turned off (no read_csv('/etc/passwd') even if a statement could be
// smuggled in: it cannot, statements are compiled from the dataset's fields), a memory limit and two threads.
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { BizError } from '../../core/envelope.js';

/** A DuckDB answer as the other connectors give theirs: JSON values (big integers and decimals as text, dates as text). */
export interface DuckResult {
  columns: string[];
  rows: Record<string, unknown>[];
}

const FILE_RE = /^ds-[0-9a-f-]{36}\.duckdb$/;
const OPEN_MAX = 16;

export class DuckFiles {
  readonly dir: string;
  /** read-only databases open now, least recently used first */
  private readonly open = new Map<string, Promise<DuckDBInstance>>();
  /** queries running now: more wait (DuckDB uses both cores for one query already) */
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(
    dataDir: string,
    private readonly opts: { timeoutMs: number; concurrency?: number; memory?: string } = { timeoutMs: 30_000 },
  ) {
    this.dir = path.join(dataDir, 'duckdb');
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  /** A new version's file name (never reused). */
  static newName(): string {
    return `ds-${randomUUID()}.duckdb`;
  }

  private pathOf(name: string): string {
    if (!FILE_RE.test(name)) throw new BizError('数据集文件名不合法');
    return path.join(this.dir, name);
  }

  private async instance(name: string): Promise<DuckDBInstance> {
    let p = this.open.get(name);
    if (p) {
      this.open.delete(name);
      this.open.set(name, p);
      return p;
    }
    const file = this.pathOf(name);
    if (!existsSync(file)) throw new BizError('数据集的数据文件不存在（多个实例须共享 DATA_DIR）');
    p = DuckDBInstance.create(file, { access_mode: 'READ_ONLY', enable_external_access: 'false', threads: '2', memory_limit: this.opts.memory ?? '512MB' });
    this.open.set(name, p);
    p.catch(() => this.open.delete(name));
    while (this.open.size > OPEN_MAX) {
      const [oldest, inst] = this.open.entries().next().value as [string, Promise<DuckDBInstance>];
      this.open.delete(oldest);
      void inst.then((i) => i.closeSync()).catch(() => undefined);
    }
    return p;
  }

  private async slot<T>(fn: () => Promise<T>): Promise<T> {
    const max = this.opts.concurrency ?? 4;
    if (this.active >= max) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }

  /** Runs one read statement on a version's file, named parameters ($name) bound, interrupted after the timeout. */
  async run(name: string, sqlText: string, params: Record<string, unknown> = {}): Promise<DuckResult> {
    return this.slot(async () => {
      const inst = await this.instance(name);
      const conn = await inst.connect();
      const timer = setTimeout(() => conn.interrupt(), this.opts.timeoutMs);
      try {
        return await read(conn, sqlText, params);
      } catch (err) {
        if (/interrupt/i.test(String((err as Error).message))) throw new BizError(`查询超过 ${Math.round(this.opts.timeoutMs / 1000)} 秒，已取消`);
        throw new BizError(`数据集查询失败：${String((err as Error).message).split('\n')[0].slice(0, 300)}`);
      } finally {
        clearTimeout(timer);
        conn.closeSync();
      }
    });
  }

  /**
   * Writes a new version from a scratch session: a copy of `from` (or a new database) under a temporary name,
   * attached as `out` and changed by `fn`, checkpointed and detached, then renamed to its own name. Answers it.
   */
  async publish(conn: DuckDBConnection, from: string | null, fn: () => Promise<void>): Promise<string> {
    const name = DuckFiles.newName();
    const tmp = path.join(this.dir, `tmp-${randomUUID()}.duckdb`);
    if (from) {
      const src = this.pathOf(from);
      if (!existsSync(src)) throw new BizError('数据集的数据文件不存在（多个实例须共享 DATA_DIR）');
      copyFileSync(src, tmp);
    }
    let attached = false;
    try {
      await conn.run(`attach '${tmp.replace(/'/g, "''")}' as out`);
      attached = true;
      await fn();
      await conn.run('checkpoint out');
      await conn.run('detach out');
      attached = false;
      renameSync(tmp, this.pathOf(name));
      return name;
    } catch (err) {
      if (attached) await conn.run('detach out').catch(() => undefined);
      rmSync(tmp, { force: true });
      rmSync(`${tmp}.wal`, { force: true });
      throw err;
    }
  }

  /** Attaches a version's file read-only as `out` for `fn` (a preview's checks against the stored rows). */
  async attachReadOnly<T>(conn: DuckDBConnection, name: string, fn: () => Promise<T>): Promise<T> {
    const file = this.pathOf(name);
    if (!existsSync(file)) throw new BizError('数据集的数据文件不存在（多个实例须共享 DATA_DIR）');
    await conn.run(`attach '${file.replace(/'/g, "''")}' as out (read_only)`);
    try {
      return await fn();
    } finally {
      await conn.run('detach out').catch(() => undefined);
    }
  }

  /** A scratch database in memory, thrown away afterwards: an upload is staged there, and new versions published from it. */
  async scratch<T>(fn: (conn: DuckDBConnection, scratch: string) => Promise<T>): Promise<T> {
    const dir = path.join(this.dir, `tmp-${randomUUID()}`);
    mkdirSync(dir, { mode: 0o700 });
    const inst = await DuckDBInstance.create(':memory:', { threads: '2', memory_limit: this.opts.memory ?? '512MB', temp_directory: dir });
    const conn = await inst.connect();
    try {
      return await fn(conn, dir);
    } finally {
      conn.closeSync();
      inst.closeSync();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** Forgets a version: closed here, its file removed after `delayMs` (other instances may still be reading it). */
  retire(name: string | null | undefined, delayMs = 60_000): void {
    if (!name || !FILE_RE.test(name)) return;
    const drop = () => {
      const inst = this.open.get(name);
      this.open.delete(name);
      void inst?.then((i) => i.closeSync()).catch(() => undefined);
      rmSync(this.pathOf(name), { force: true });
      rmSync(`${this.pathOf(name)}.wal`, { force: true });
    };
    if (delayMs <= 0) drop();
    else setTimeout(drop, delayMs).unref();
  }

  close(): void {
    for (const p of this.open.values()) void p.then((i) => i.closeSync()).catch(() => undefined);
    this.open.clear();
  }
}

/** Runs a statement on a connection and answers JSON values. */
export async function read(conn: DuckDBConnection, sqlText: string, params: Record<string, unknown> = {}): Promise<DuckResult> {
  const values = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v === undefined ? null : v])) as Record<string, never>;
  const reader = await conn.runAndReadAll(sqlText, Object.keys(values).length ? values : undefined);
  return { columns: reader.columnNames(), rows: reader.getRowObjectsJson() as Record<string, unknown>[] };
}

/** A DuckDB identifier, quoted. */
export const duckId = (name: string) => `"${name.replace(/"/g, '""')}"`;
