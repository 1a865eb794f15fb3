// Published-call statistics: every call is counted (API, time, latency, success) for the detail screen's
// 24-hour figures, and in the monitor's per-minute counters (monitor.ts: per API and key, cache hits, latency
// histogram, the minute's slowest calls). Calls are buffered in memory and written every few seconds (and at
// close), so counting costs a published call no store write of its own.
import type { FastifyInstance } from 'fastify';
import { now } from '../../store/columns.js';
import type { AppContext } from '../../core/context.js';
import { minuteCounters, type MonitoredCall } from './monitor.js';
import { periodicFlush } from './buffered.js';

const DAY_MS = 24 * 3600 * 1000;

export interface CallRecorder {
  record(call: MonitoredCall): void;
  /** writes what is buffered (the monitor's counters too) */
  flush(): Promise<void>;
  /** count, errors and latency percentiles of the last 24 hours */
  stats(apiId: number): Promise<{ count: number; errors: number; p50: number | null; p95: number | null; since: string }>;
}

const perApp = new WeakMap<AppContext, CallRecorder>();

function percentile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** One recorder per app (both the /api and the /open plugins use it). */
export function callRecorder(app: FastifyInstance): CallRecorder {
  const found = perApp.get(app.ctx);
  if (found) return found;
  const { db } = app.ctx;
  let pending: Array<{ api_id: number; at: number; ms: number; ok: number }> = [];
  let lastPurge = 0;
  const minutes = minuteCounters(app);
  const flush = periodicFlush(app, 'api call statistics', async () => {
    await minutes.flush();
    if (!pending.length) return;
    const batch = pending;
    pending = [];
    await db.insertInto('gemini_api_call').values(batch).execute();
    if (Date.now() - lastPurge > 3600_000) {
      lastPurge = Date.now();
      await db.deleteFrom('gemini_api_call').where('at', '<', Date.now() - DAY_MS).execute();
    }
  });
  const rec: CallRecorder = {
    record(call) {
      pending.push({ api_id: call.apiId, at: Date.now(), ms: Math.round(call.ms), ok: call.ok ? 1 : 0 });
      minutes.add(call);
    },
    flush,
    async stats(apiId) {
      await flush();
      const rows = await db.selectFrom('gemini_api_call').select(['ms', 'ok']).where('api_id', '=', apiId).where('at', '>=', Date.now() - DAY_MS).limit(200_000).execute();
      const ms = rows.map((r) => Number(r.ms)).sort((a, b) => a - b);
      return { count: rows.length, errors: rows.filter((r) => !Number(r.ok)).length, p50: percentile(ms, 50), p95: percentile(ms, 95), since: now(new Date(Date.now() - DAY_MS)) };
    },
  };
  perApp.set(app.ctx, rec);
  return rec;
}
