// How many data sources one caller may keep busy at once. Every data source runs in a process of its own, and
// at most MAX_PROCESSES run (pool-process.ts): without a share per caller, one account sending long statements
// to 16 data sources would leave everyone else 同时使用的数据源过多. A caller may run any number of statements on
// the data sources it already uses (each pool's maxActive bounds those); a statement on one more data source
// waits until one of the caller's others is done, for up to waitMs, then is refused.
import { SqlConnectorError } from './types.js';

export const QUOTA_MSG = {
  full: (n: number) => `您同时查询的数据源已达上限（${n}个），请等已有查询结束后再试`,
  closed: '服务正在停止，请稍后再试',
} as const;

interface Waiter {
  source: string;
  grant(): void;
  fail(err: Error): void;
}

interface Share {
  /** statements running now, per data source */
  busy: Map<string, number>;
  waiting: Waiter[];
}

export interface SourceQuotaOptions {
  /** data sources one caller may keep busy at once */
  maxSources: number;
  /** how long a statement on one more data source waits for a free share */
  waitMs: number;
  /** statements a caller may have waiting; beyond, refused at once (bounds the memory a caller can hold) */
  maxWaiting?: number;
}

export class SourceQuota {
  private readonly shares = new Map<string, Share>();
  private readonly maxWaiting: number;
  private closed = false;
  constructor(private readonly o: SourceQuotaOptions) {
    this.maxWaiting = o.maxWaiting ?? 100;
  }

  /** Runs fn with a share of the caller's quota for source; the share is given back when fn settles. */
  async run<T>(caller: string, source: string, fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire(caller, source);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /** Data sources the caller keeps busy now (for tests and the log). */
  busySources(caller: string): number {
    return this.shares.get(caller)?.busy.size ?? 0;
  }

  /** The app is closing: waiters fail, and nothing new starts (it would start a data-source process). */
  close(): void {
    this.closed = true;
    for (const share of this.shares.values()) share.waiting.splice(0).forEach((w) => w.fail(new SqlConnectorError(QUOTA_MSG.closed)));
  }

  private acquire(caller: string, source: string): Promise<() => void> {
    if (this.closed) return Promise.reject(new SqlConnectorError(QUOTA_MSG.closed));
    let share = this.shares.get(caller);
    if (!share) {
      share = { busy: new Map(), waiting: [] };
      this.shares.set(caller, share);
    }
    if (this.fits(share, source)) return Promise.resolve(this.take(caller, share, source));
    if (share.waiting.length >= this.maxWaiting) return Promise.reject(this.refusal());
    const s = share;
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        source,
        grant: () => {
          clearTimeout(timer);
          resolve(this.take(caller, s, source));
        },
        fail: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      const timer = setTimeout(() => {
        const i = s.waiting.indexOf(waiter);
        if (i >= 0) s.waiting.splice(i, 1);
        this.forget(caller, s);
        reject(this.refusal());
      }, this.o.waitMs);
      timer.unref();
      s.waiting.push(waiter);
    });
  }

  private fits(share: Share, source: string): boolean {
    return share.busy.has(source) || share.busy.size < this.o.maxSources;
  }

  private take(caller: string, share: Share, source: string): () => void {
    share.busy.set(source, (share.busy.get(source) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (share.busy.get(source) ?? 1) - 1;
      if (left > 0) share.busy.set(source, left);
      else share.busy.delete(source);
      // waiters in arrival order, each as soon as it fits (a waiter on a source already busy always fits)
      for (let i = 0; i < share.waiting.length && !this.closed; ) {
        const w = share.waiting[i];
        if (!this.fits(share, w.source)) {
          i++;
          continue;
        }
        share.waiting.splice(i, 1);
        w.grant();
      }
      this.forget(caller, share);
    };
  }

  /** A caller with nothing running and nothing waiting is dropped, so the map holds only active callers. */
  private forget(caller: string, share: Share): void {
    if (share.busy.size === 0 && share.waiting.length === 0 && this.shares.get(caller) === share) this.shares.delete(caller);
  }

  private refusal(): SqlConnectorError {
    return new SqlConnectorError(QUOTA_MSG.full(this.o.maxSources), 'WAIT_TIMEOUT');
  }
}
