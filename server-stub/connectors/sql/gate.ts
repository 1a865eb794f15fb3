import { SqlConnectorError } from './types.js';

/** A counting semaphore with a wait deadline: at most `max` holders; the rest queue for up to waitMs. */
export class Gate {
  private active = 0;
  private readonly queue: Array<{ grant: () => void; fail: (err: Error) => void }> = [];
  constructor(readonly max: number) {}

  get inUse(): number {
    return this.active;
  }
  get waiting(): number {
    return this.queue.length;
  }

  acquire(waitMs: number): Promise<() => void> {
    if (this.active < this.max) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const entry = {
        grant: () => {
          clearTimeout(timer);
          this.active++;
          resolve(this.releaser());
        },
        fail: (err: Error) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      const timer = setTimeout(() => {
        const i = this.queue.indexOf(entry);
        if (i >= 0) this.queue.splice(i, 1);
        reject(new SqlConnectorError(`获取数据库连接超时（${Math.round(waitMs / 1000)}秒）`, 'WAIT_TIMEOUT'));
      }, waitMs);
      this.queue.push(entry);
    });
  }

  /** Rejects every waiter (pool closing). */
  drain(): void {
    this.queue.splice(0).forEach((e) => e.fail(new SqlConnectorError('连接池已关闭')));
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.active--;
      const next = this.queue.shift();
      if (next) next.grant();
    };
  }
}

/** Resolves with the promise, or rejects after ms (the promise keeps running; callers clean up). */
export function deadline<T>(p: Promise<T>, ms: number, message: string, code: 'WAIT_TIMEOUT' | 'QUERY_TIMEOUT' = 'WAIT_TIMEOUT'): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new SqlConnectorError(message, code)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
