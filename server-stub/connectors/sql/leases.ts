// Leases in Redis that count something across every instance of a deployment (quota.ts: the data sources a
// caller keeps busy; slots.ts: the statements running on one data source). A lease is one member of a sorted
// set, scored by its expiry; the instance holding it renews it (and the set's own lifetime) while the work runs,
// so a lease of an instance that died runs out after leaseMs and what it held comes back on its own.
import type { Redis } from 'ioredis';
import { SqlConnectorError } from './types.js';

export interface LeaseWait {
  /** one attempt: true when the lease was granted */
  tryTake(now: number, expiry: number): Promise<boolean>;
  waitMs: number;
  leaseMs: number;
  /** true once the app is closing: the wait ends with `closed` */
  isClosed(): boolean;
  closed: () => SqlConnectorError;
  timedOut: () => SqlConnectorError;
}

/** Tries until granted (pauses from 20 ms up to 250 ms, a last try at the deadline), past waitMs refused with timedOut(). */
export async function waitForLease(w: LeaseWait): Promise<void> {
  const until = Date.now() + w.waitMs;
  for (let pause = 20; ; pause = Math.min(pause * 2, 250)) {
    if (w.isClosed()) throw w.closed();
    const at = Date.now();
    if (await w.tryTake(at, at + w.leaseMs)) return;
    const left = until - Date.now();
    if (left <= 0) throw w.timedOut();
    await new Promise((res) => setTimeout(res, Math.min(pause, left)));
  }
}

/**
 * Keeps a granted lease alive: its score moves on and the set's lifetime (2 × leaseMs) with it, so a long
 * statement keeps its lease however long it runs. Answers the release (idempotent).
 */
export function holdLease(redis: Redis, key: string, member: string, leaseMs: number): () => void {
  const renew = setInterval(
    () =>
      void redis
        .multi()
        .zadd(key, 'XX', Date.now() + leaseMs, member)
        .pexpire(key, leaseMs * 2)
        .exec()
        .catch(() => undefined),
    Math.max(50, Math.floor(leaseMs / 3)),
  );
  renew.unref();
  let done = false;
  return () => {
    if (done) return;
    done = true;
    clearInterval(renew);
    void redis.zrem(key, member).catch(() => undefined);
  };
}
