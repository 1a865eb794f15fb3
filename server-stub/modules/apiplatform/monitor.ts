// API 监控 (issue 25 §5): calls, errors, p50 / p95 latency and cache hit rate per API and per key over the last
// hour, day and week, from per-minute counters kept 30 days; the slowest calls with their parameters (secrets
// masked); an alert rule per API (error rate or p95 above a threshold over the last N minutes) that marks it red
// on the API list and in the monitor.
//
// Counting: every published call adds to one in-memory row per (API, key, minute) — calls, errors, cache hits,
// latency sum and maximum, and a latency histogram of fixed buckets (h0…h13) — added to the store every few
// seconds with one upsert per row (`calls = calls + excluded.calls`), so the instances of a deployment sharing a
// store add up to one row per minute and percentiles over any span are read off summed histograms. Each minute
// also keeps its three slowest calls per API. Nothing here runs for a call the guard refused (no SQL ran).
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { BizError, ok } from '../../core/envelope.js';
import { declareTable, migration, type TableRow } from '../../core/tables.js';
import { now } from '../../store/columns.js';
import { PERM } from './perms.js';
import { periodicFlush } from './buffered.js';
import { alertStep, moveAlert, sameMemory, TELL_MARK, type AlertColumns, type AlertMemory } from '../../core/alerting.js';
import type { AlertRule, AlertState, CallFigures, MonitorOverview, MonitorRange, SlowCall } from '../../../common/apiMonitor.js';

/** Upper bounds (ms) of the latency buckets h0…h12; h13 holds everything slower than the last. */
export const LATENCY_BOUNDS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000] as const;
const BUCKETS = LATENCY_BOUNDS.length + 1;
const H = ['h0', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7', 'h8', 'h9', 'h10', 'h11', 'h12', 'h13'] as const;
type HCol = (typeof H)[number];
const KEEP_DAYS = 30;
const SLOW_PER_MINUTE = 3;
const PARAMS_MAX = 2000;

const counter = { type: 'integer', notNull: true, default: 0 } as const;
/** One row per API, key (0: a session or a public call without a key) and minute (epoch minutes). */
export const apiMinutes = declareTable({
  name: 'gemini_api_minute',
  columns: {
    id: { type: 'id' },
    apiId: { type: 'integer', notNull: true },
    keyId: { type: 'integer', notNull: true },
    minute: { type: 'integer', notNull: true },
    calls: counter,
    errors: counter,
    cacheHits: counter,
    msSum: { type: 'bigint', notNull: true, default: 0 },
    msMax: counter,
    h0: counter,
    h1: counter,
    h2: counter,
    h3: counter,
    h4: counter,
    h5: counter,
    h6: counter,
    h7: counter,
    h8: counter,
    h9: counter,
    h10: counter,
    h11: counter,
    h12: counter,
    h13: counter,
  },
  indexes: [
    { name: 'ux_gemini_api_minute', columns: ['apiId', 'keyId', 'minute'], unique: true },
    { name: 'ix_gemini_api_minute_minute', columns: ['minute'] },
  ],
});

/** The slowest calls of each minute per API, with their parameters (secret values masked). */
export const apiSlowCalls = declareTable({
  name: 'gemini_api_slow',
  columns: {
    id: { type: 'id' },
    apiId: { type: 'integer', notNull: true },
    keyId: { type: 'integer', notNull: true },
    /** epoch ms */
    at: { type: 'bigint', notNull: true },
    ms: { type: 'integer', notNull: true },
    ok: { type: 'integer', notNull: true },
    /** JSON text of the call's parameters, secrets as ****** */
    params: { type: 'text' },
  },
  indexes: [
    { name: 'ix_gemini_api_slow_at', columns: ['at'] },
    { name: 'ix_gemini_api_slow_api', columns: ['apiId', 'at'] },
  ],
});

/** One alert rule per API. */
export const apiAlerts = declareTable({
  name: 'gemini_api_alert',
  columns: {
    id: { type: 'id' },
    apiId: { type: 'integer', notNull: true },
    /** 'errorRate' (percent of calls) or 'p95' (ms) */
    metric: { type: 'varchar(10)', notNull: true },
    threshold: { type: 'integer', notNull: true },
    /** the span the metric is taken over: the last N minutes */
    minutes: { type: 'integer', notNull: true },
    enabled: { type: 'integer', notNull: true, default: 1 },
    updateUser: { type: 'varchar(64)', notNull: true },
    updateTime: { type: 'time', notNull: true },
  },
  indexes: [{ name: 'ux_gemini_api_alert_api', columns: ['apiId'], unique: true }],
});

/** Who an API's alert tells (通知渠道) and what it last told them (core/alerting.ts), beside its rule. */
export interface ApiAlertNotifyTable {
  api_id: number;
  channel_ids: string | null;
  firing: import('kysely').Generated<number>;
  notified: import('kysely').Generated<number>;
  last_notified: string | null;
}

declare module '../../store/schema.js' {
  interface Database {
    gemini_api_alert_notify: ApiAlertNotifyTable;
    gemini_api_minute: TableRow<typeof apiMinutes>;
    gemini_api_slow: TableRow<typeof apiSlowCalls>;
    gemini_api_alert: TableRow<typeof apiAlerts>;
  }
}

export const monitorMigrations = {
  '20261203_30_api_monitor': migration(async (db, dialect) => {
    await apiMinutes.create(db, dialect);
    await apiSlowCalls.create(db, dialect);
    await apiAlerts.create(db, dialect);
  }),
  '20261209_05_api_alert_notify': migration(async (db) => {
    await db.schema
      .createTable('gemini_api_alert_notify')
      .addColumn('api_id', 'integer', (c) => c.primaryKey())
      .addColumn('channel_ids', 'text')
      .addColumn('firing', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('notified', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_notified', 'varchar(19)')
      .execute();
  }),
};

/** The channel ids stored for a rule (JSON text), or none. */
const channelsOf = (text: string | null | undefined): number[] => {
  try {
    const v = JSON.parse(text ?? '[]');
    return Array.isArray(v) ? v.filter((x) => Number.isInteger(x)) : [];
  } catch {
    return [];
  }
};

const metricText = (rule: AlertRule, value: number | null) =>
  rule.metric === 'errorRate'
    ? `错误率 ${value === null ? '—' : `${Math.round(value * 10) / 10}%`}（阈值 ${rule.threshold}%）`
    : `P95 耗时 ${value === null ? '—' : `${Math.round(value * 10) / 10} ms`}（阈值 ${rule.threshold} ms）`;

/**
 * Looks at every enabled rule and tells its channels what changed (core/alerting.ts): a firing, a firing that lasts
 * (every ALERT_REPEAT_MINUTES), a recovery — each told by the one instance whose compare-and-set update wins.
 */
const API_ALERT_COLUMNS: AlertColumns = { table: 'gemini_api_alert_notify', key: 'api_id', firing: 'firing', notified: 'notified', lastNotified: 'last_notified' };

export async function watchAlerts(app: FastifyInstance): Promise<number> {
  const { db, config } = app.ctx;
  const states = await alertStates(app);
  if (!states.size) return 0;
  const ids = [...states.keys()];
  const stored = new Map((await db.selectFrom('gemini_api_alert_notify').selectAll().where('api_id', 'in', ids).execute()).map((r) => [r.api_id, r]));
  const names = new Map((await db.selectFrom('gemini_api').select(['id', 'api_name']).where('id', 'in', ids).execute()).map((r) => [r.id, r.api_name]));
  const time = now();
  const cutoff = now(new Date(Date.now() - config.alertRepeatMinutes * 60_000));
  let told = 0;
  for (const [apiId, state] of states) {
    const row = stored.get(apiId);
    const mem: AlertMemory = { firing: Number(row?.firing ?? 0), notified: Number(row?.notified ?? 0), lastNotified: row?.last_notified ?? null };
    const { next, tell } = alertStep(mem, state.firing, time, cutoff);
    if (sameMemory(mem, next)) continue;
    if (!row) await db.insertInto('gemini_api_alert_notify').values({ api_id: apiId, channel_ids: null }).onConflict((oc) => oc.column('api_id').doNothing()).execute();
    const won = await moveAlert(db, API_ALERT_COLUMNS, apiId, mem, next);
    if (!won || !tell) continue; // another instance moved it first, or nothing to say
    const channels = channelsOf(row?.channel_ids);
    if (!channels.length) continue;
    const name = names.get(apiId) ?? String(apiId);
    const what = tell === 'recover' ? '已恢复正常' : tell === 'repeat' ? '仍在告警' : '触发告警';
    await app.notifier
      .send(channels, { title: `${TELL_MARK[tell]}接口 ${name}`, text: `接口【${name}】${what}：最近 ${state.rule.minutes} 分钟${metricText(state.rule, state.value)}。时间：${time}` })
      .catch((err: unknown) => app.ctx.log.warn({ apiId, err: String(err) }, 'alert: sending failed'));
    told++;
  }
  return told;
}

export const MONITOR_MSG = {
  badMetric: '告警指标只能是错误率（errorRate）或 P95 耗时（p95）',
  badThreshold: (metric: string) => (metric === 'errorRate' ? '错误率阈值应为 1～100 的整数（%）' : 'P95 阈值应为 1～600000 的整数（毫秒）'),
  badMinutes: '持续时间应为 1～1440 的整数（分钟）',
  apiGone: 'API 不存在',
} as const;

/* ------------------------------------------------------------------ percentiles from histograms */

/** The p-th percentile (0–100) of the latencies counted in `hist`, interpolated inside its bucket. */
export function histogramPercentile(hist: number[], p: number, max: number): number | null {
  const total = hist.reduce((a, b) => a + b, 0);
  if (!total) return null;
  const target = (p / 100) * total;
  let before = 0;
  for (let i = 0; i < hist.length; i++) {
    const n = hist[i];
    if (n && before + n >= target) {
      const lower = i === 0 ? 0 : LATENCY_BOUNDS[i - 1];
      const upper = i < LATENCY_BOUNDS.length ? Math.min(LATENCY_BOUNDS[i], Math.max(max, lower)) : Math.max(max, lower);
      return Math.round((lower + ((upper - lower) * (target - before)) / n) * 10) / 10;
    }
    before += n;
  }
  return max;
}

/** Which bucket a latency falls in. */
export function bucketOf(ms: number): number {
  const i = LATENCY_BOUNDS.findIndex((b) => ms <= b);
  return i < 0 ? LATENCY_BOUNDS.length : i;
}

/* ------------------------------------------------------------------ counting */

export interface MonitoredCall {
  apiId: number;
  keyId: number | null;
  ms: number;
  ok: boolean;
  cacheHit: boolean;
  /** the call's parameters, secret values already masked (kept only for the minute's slowest calls) */
  params?: () => Record<string, unknown>;
}

interface MinuteRow {
  apiId: number;
  keyId: number;
  minute: number;
  calls: number;
  errors: number;
  cacheHits: number;
  msSum: number;
  msMax: number;
  h: number[];
}
interface SlowSample {
  apiId: number;
  keyId: number;
  at: number;
  ms: number;
  ok: boolean;
  params?: () => Record<string, unknown>;
}

export interface MinuteCounters {
  add(call: MonitoredCall): void;
  flush(): Promise<void>;
}

/** Per-minute counters, buffered and added to the store every few seconds (and before close); purged after 30 days. */
export function minuteCounters(app: FastifyInstance): MinuteCounters {
  const { db } = app.ctx;
  let rows = new Map<string, MinuteRow>();
  let slow = new Map<string, SlowSample[]>();
  let lastPurge = 0;
  const flush = periodicFlush(app, 'api monitor counters', async () => {
    if (!rows.size && !slow.size) return;
    const batch = [...rows.values()];
    const slowest = [...slow.values()].flat();
    rows = new Map();
    slow = new Map();
    for (const r of batch) {
      const hist = Object.fromEntries(H.map((c, i) => [c, r.h[i]])) as Record<HCol, number>;
      await db
        .insertInto('gemini_api_minute')
        .values({ api_id: r.apiId, key_id: r.keyId, minute: r.minute, calls: r.calls, errors: r.errors, cache_hits: r.cacheHits, ms_sum: r.msSum, ms_max: r.msMax, ...hist })
        .onConflict((oc) =>
          oc.columns(['api_id', 'key_id', 'minute']).doUpdateSet((eb) => {
            const add = (c: 'calls' | 'errors' | 'cache_hits' | 'ms_sum' | HCol) => eb(`gemini_api_minute.${c}`, '+', eb.ref(`excluded.${c}`));
            return {
              calls: add('calls'),
              errors: add('errors'),
              cache_hits: add('cache_hits'),
              ms_sum: add('ms_sum'),
              ms_max: app.ctx.dialect === 'postgres' ? sql<number>`greatest(gemini_api_minute.ms_max, excluded.ms_max)` : sql<number>`max(gemini_api_minute.ms_max, excluded.ms_max)`,
              ...(Object.fromEntries(H.map((c) => [c, add(c)])) as Record<HCol, ReturnType<typeof add>>),
            };
          }),
        )
        .execute();
    }
    if (slowest.length) {
      await db
        .insertInto('gemini_api_slow')
        .values(slowest.map((s) => ({ api_id: s.apiId, key_id: s.keyId, at: s.at, ms: s.ms, ok: s.ok ? 1 : 0, params: paramsText(s.params) })))
        .execute();
    }
    if (Date.now() - lastPurge > 3600_000) {
      lastPurge = Date.now();
      const cut = Date.now() - KEEP_DAYS * 86_400_000;
      await db.deleteFrom('gemini_api_minute').where('minute', '<', Math.floor(cut / 60_000)).execute();
      await db.deleteFrom('gemini_api_slow').where('at', '<', cut).execute();
    }
  });

  return {
    add(c) {
      const at = Date.now();
      const minute = Math.floor(at / 60_000);
      const keyId = c.keyId ?? 0;
      const ms = Math.max(0, Math.round(c.ms));
      const k = `${c.apiId}|${keyId}|${minute}`;
      let r = rows.get(k);
      if (!r) {
        r = { apiId: c.apiId, keyId, minute, calls: 0, errors: 0, cacheHits: 0, msSum: 0, msMax: 0, h: new Array(BUCKETS).fill(0) };
        rows.set(k, r);
      }
      r.calls += 1;
      if (!c.ok) r.errors += 1;
      if (c.cacheHit) r.cacheHits += 1;
      r.msSum += ms;
      r.msMax = Math.max(r.msMax, ms);
      r.h[bucketOf(ms)] += 1;
      // the minute's slowest few per API: parameters are read only for those
      const sk = `${c.apiId}|${minute}`;
      const list = slow.get(sk) ?? [];
      if (list.length < SLOW_PER_MINUTE || ms > list[list.length - 1].ms) {
        list.push({ apiId: c.apiId, keyId, at, ms, ok: c.ok, params: c.params });
        list.sort((a, b) => b.ms - a.ms);
        if (list.length > SLOW_PER_MINUTE) list.length = SLOW_PER_MINUTE;
        slow.set(sk, list);
      }
    },
    flush,
  };
}

function paramsText(params: SlowSample['params']): string | null {
  if (!params) return null;
  try {
    const text = JSON.stringify(params());
    return text.length > PARAMS_MAX ? `${text.slice(0, PARAMS_MAX)}…` : text;
  } catch {
    return null;
  }
}

/* ------------------------------------------------------------------ reading */

/** The span of a range in minutes and the width of one point of its charts. */
const RANGES: Record<MonitorRange, { minutes: number; step: number }> = {
  hour: { minutes: 60, step: 1 },
  day: { minutes: 1440, step: 15 },
  week: { minutes: 10080, step: 60 },
};

interface Summed {
  calls: number;
  errors: number;
  cacheHits: number;
  msSum: number;
  msMax: number;
  h: number[];
}

const pct = (a: number, b: number) => (b ? Math.round((a / b) * 1000) / 10 : null);
function figures(s: Summed): CallFigures {
  return {
    calls: s.calls,
    errors: s.errors,
    errorRate: pct(s.errors, s.calls),
    p50: histogramPercentile(s.h, 50, s.msMax),
    p95: histogramPercentile(s.h, 95, s.msMax),
    avg: s.calls ? Math.round((s.msSum / s.calls) * 10) / 10 : null,
    cacheHitRate: pct(s.cacheHits, s.calls),
  };
}

/** The summed columns of a grouped query, named as `summed` reads them. */
function sums() {
  return [
    sql<number>`sum(calls)`.as('calls'),
    sql<number>`sum(errors)`.as('errors'),
    sql<number>`sum(cache_hits)`.as('cache_hits'),
    sql<number>`sum(ms_sum)`.as('ms_sum'),
    sql<number>`max(ms_max)`.as('ms_max'),
    ...H.map((c) => sql<number>`sum(${sql.ref(c)})`.as(c)),
  ];
}
function summed(r: Record<string, unknown>): Summed {
  return { calls: Number(r.calls ?? 0), errors: Number(r.errors ?? 0), cacheHits: Number(r.cache_hits ?? 0), msSum: Number(r.ms_sum ?? 0), msMax: Number(r.ms_max ?? 0), h: H.map((c) => Number(r[c] ?? 0)) };
}

/** The state of every enabled alert rule (or of the given APIs' rules) now. */
export async function alertStates(app: FastifyInstance, apiIds?: number[]): Promise<Map<number, AlertState>> {
  const { db } = app.ctx;
  let q = db.selectFrom('gemini_api_alert').selectAll().where('enabled', '=', 1);
  if (apiIds) {
    if (!apiIds.length) return new Map();
    q = q.where('api_id', 'in', apiIds);
  }
  const rules = (await q.execute()).map(ruleOf);
  const out = new Map<number, AlertState>();
  if (!rules.length) return out;
  const nowMinute = Math.floor(Date.now() / 60_000);
  const longest = Math.max(...rules.map((r) => r.minutes));
  const rows = await db
    .selectFrom('gemini_api_minute')
    .select(['api_id', 'minute', ...sums()])
    .where('minute', '>', nowMinute - longest)
    .where(
      'api_id',
      'in',
      rules.map((r) => r.apiId),
    )
    .groupBy(['api_id', 'minute'])
    .execute();
  for (const rule of rules) {
    const s: Summed = { calls: 0, errors: 0, cacheHits: 0, msSum: 0, msMax: 0, h: new Array(BUCKETS).fill(0) };
    for (const r of rows) {
      if (Number(r.api_id) !== rule.apiId || Number(r.minute) <= nowMinute - rule.minutes) continue;
      const m = summed(r as Record<string, unknown>);
      s.calls += m.calls;
      s.errors += m.errors;
      s.msMax = Math.max(s.msMax, m.msMax);
      m.h.forEach((n, i) => (s.h[i] += n));
    }
    const f = figures(s);
    const value = rule.metric === 'errorRate' ? f.errorRate : f.p95;
    out.set(rule.apiId, { rule, value, firing: value !== null && value > rule.threshold });
  }
  return out;
}

function ruleOf(r: { api_id: number; metric: string; threshold: number; minutes: number; enabled: number }): AlertRule {
  return { apiId: Number(r.api_id), metric: r.metric === 'p95' ? 'p95' : 'errorRate', threshold: Number(r.threshold), minutes: Number(r.minutes), enabled: Number(r.enabled) === 1 };
}

const minuteText = (minute: number) => now(new Date(minute * 60_000)).slice(0, 16);

const rangeBody = {
  type: 'object',
  properties: {
    range: { enum: ['hour', 'day', 'week'], title: '时间范围' },
    apiId: { type: ['integer', 'null'], minimum: 1, title: 'API' },
    keyId: { type: ['integer', 'null'], minimum: 0, title: 'API Key' },
    limit: { type: ['integer', 'null'], minimum: 1, maximum: 100, title: '条数' },
  },
  additionalProperties: false,
} as const;
interface RangeBody {
  range?: MonitorRange;
  apiId?: number | null;
  keyId?: number | null;
  limit?: number | null;
}

const alertBody = {
  type: 'object',
  required: ['apiId', 'metric', 'threshold', 'minutes'],
  properties: {
    apiId: { type: 'integer', minimum: 1, title: 'API' },
    metric: { type: 'string', maxLength: 10, title: '告警指标' },
    threshold: { type: 'integer', title: '阈值' },
    minutes: { type: 'integer', title: '持续时间' },
    enabled: { type: ['boolean', 'integer', 'null'], title: '启用' },
    channelIds: { type: ['array', 'null'], maxItems: 10, uniqueItems: true, items: { type: 'integer', minimum: 1 }, title: '通知渠道' },
  },
  additionalProperties: false,
} as const;

/** The monitor's routes under /api/gemini/api: monitor/overview, monitor/slow, alert/{get,save,delete}. */
export function monitorRoutes(app: FastifyInstance, counters: () => Promise<void>) {
  const { db } = app.ctx;

  /** Where a range starts, and the store filters for the API and key asked for. */
  function scope(body: RangeBody) {
    const range = RANGES[body.range ?? 'hour'];
    const nowMinute = Math.floor(Date.now() / 60_000);
    const from = nowMinute - range.minutes + 1;
    let q = db.selectFrom('gemini_api_minute').where('minute', '>=', from);
    if (body.apiId) q = q.where('api_id', '=', body.apiId);
    if (body.keyId !== undefined && body.keyId !== null) q = q.where('key_id', '=', body.keyId);
    return { range, nowMinute, from, q };
  }

  app.post<{ Body: RangeBody }>('/monitor/overview', { config: { perm: PERM.monitor }, schema: { body: rangeBody } }, async (req) => {
    await counters();
    const { range, nowMinute, from, q } = scope(req.body ?? {});
    // the step is one of three constants (RANGES), never from the request
    const bucket = sql<number>`(minute - ${sql.lit(from)}) / ${sql.lit(range.step)}`;
    const [points, perApi, perKey] = await Promise.all([
      q.select([bucket.as('b'), ...sums()]).groupBy(bucket).execute(),
      q.select(['api_id', ...sums()]).groupBy('api_id').execute(),
      q.select(['key_id', ...sums()]).groupBy('key_id').execute(),
    ]);
    const byBucket = new Map(points.map((p) => [Number(p.b), summed(p as Record<string, unknown>)]));
    const total: Summed = { calls: 0, errors: 0, cacheHits: 0, msSum: 0, msMax: 0, h: new Array(BUCKETS).fill(0) };
    const series = [];
    for (let b = 0; b * range.step < nowMinute - from + 1; b++) {
      const s = byBucket.get(b);
      if (s) {
        total.calls += s.calls;
        total.errors += s.errors;
        total.cacheHits += s.cacheHits;
        total.msSum += s.msSum;
        total.msMax = Math.max(total.msMax, s.msMax);
        s.h.forEach((n, i) => (total.h[i] += n));
      }
      series.push({ time: minuteText(from + b * range.step), ...figures(s ?? { calls: 0, errors: 0, cacheHits: 0, msSum: 0, msMax: 0, h: [] }) });
    }
    const apiIds = perApi.map((r) => Number(r.api_id));
    const keyIds = perKey.map((r) => Number(r.key_id)).filter((k) => k > 0);
    // every API with a rule is listed, called or not, so a rule's state is always in view
    const states = await alertStates(app);
    const listed = [...new Set([...apiIds, ...states.keys()])].filter((id) => !req.body?.apiId || id === req.body.apiId);
    const [apiNames, keyNames] = await Promise.all([
      listed.length ? db.selectFrom('gemini_api').select(['id', 'api_name', 'api_comment']).where('id', 'in', listed).execute() : [],
      keyIds.length ? db.selectFrom('gemini_api_key').select(['id', 'key_name', 'key_prefix']).where('id', 'in', keyIds).execute() : [],
    ]);
    const names = new Map(apiNames.map((a) => [a.id, a]));
    const apiFigures = new Map(perApi.map((r) => [Number(r.api_id), figures(summed(r as Record<string, unknown>))]));
    const empty = figures({ calls: 0, errors: 0, cacheHits: 0, msSum: 0, msMax: 0, h: [] });
    const apis = listed
      .filter((id) => names.has(id))
      .map((id) => ({ apiId: id, apiName: names.get(id)!.api_name, apiComment: names.get(id)!.api_comment, ...(apiFigures.get(id) ?? empty), alert: states.get(id) ?? null }))
      .sort((a, b) => Number(Boolean(b.alert?.firing)) - Number(Boolean(a.alert?.firing)) || b.calls - a.calls);
    const keyLabel = new Map(keyNames.map((k) => [k.id, `${k.key_name}（${k.key_prefix}…）`]));
    const keys = perKey
      .map((r) => ({ keyId: Number(r.key_id), keyName: Number(r.key_id) === 0 ? '无 Key（登录会话或公开调用）' : (keyLabel.get(Number(r.key_id)) ?? `已删除的 Key #${r.key_id}`), ...figures(summed(r as Record<string, unknown>)) }))
      .sort((a, b) => b.calls - a.calls);
    const answer: MonitorOverview = { range: req.body?.range ?? 'hour', step: range.step, from: minuteText(from), to: minuteText(nowMinute), totals: figures(total), series, apis, keys };
    return ok(answer);
  });

  app.post<{ Body: RangeBody }>('/monitor/slow', { config: { perm: PERM.monitor }, schema: { body: rangeBody } }, async (req) => {
    await counters();
    const body = req.body ?? {};
    const range = RANGES[body.range ?? 'hour'];
    let q = db
      .selectFrom('gemini_api_slow as s')
      .leftJoin('gemini_api as a', 'a.id', 's.api_id')
      .leftJoin('gemini_api_key as k', 'k.id', 's.key_id')
      .select(['s.id', 's.api_id', 's.key_id', 's.at', 's.ms', 's.ok', 's.params', 'a.api_name', 'k.key_name'])
      .where('s.at', '>=', Date.now() - range.minutes * 60_000);
    if (body.apiId) q = q.where('s.api_id', '=', body.apiId);
    if (body.keyId !== undefined && body.keyId !== null) q = q.where('s.key_id', '=', body.keyId);
    const rows = await q
      .orderBy('s.ms', 'desc')
      .orderBy('s.at', 'desc')
      .limit(body.limit ?? 20)
      .execute();
    return ok({
      records: rows.map((r): SlowCall => ({
        id: Number(r.id),
        apiId: r.api_id,
        apiName: r.api_name ?? `已删除的 API #${r.api_id}`,
        keyId: r.key_id,
        keyName: Number(r.key_id) === 0 ? '无 Key' : (r.key_name ?? `已删除的 Key #${r.key_id}`),
        time: now(new Date(Number(r.at))),
        ms: r.ms,
        ok: r.ok === 1,
        params: r.params ?? '',
      })),
    });
  });

  app.get<{ Querystring: { apiId: number } }>(
    '/alert/get',
    { config: { perm: PERM.monitor }, schema: { querystring: { type: 'object', required: ['apiId'], properties: { apiId: { type: 'integer', minimum: 1, title: 'API' } } } } },
    async (req) => {
      const row = await db.selectFrom('gemini_api_alert').selectAll().where('api_id', '=', req.query.apiId).executeTakeFirst();
      const state = row ? (await alertStates(app, [req.query.apiId])).get(req.query.apiId) : undefined;
      const told = row ? await db.selectFrom('gemini_api_alert_notify').select('channel_ids').where('api_id', '=', req.query.apiId).executeTakeFirst() : undefined;
      return ok(row ? { ...ruleOf(row), channelIds: channelsOf(told?.channel_ids), firing: state?.firing ?? false, value: state?.value ?? null } : null);
    },
  );

  app.post<{ Body: { apiId: number; metric: string; threshold: number; minutes: number; enabled?: boolean | number | null; channelIds?: number[] | null } }>(
    '/alert/save',
    { config: { perm: PERM.alert }, schema: { body: alertBody } },
    async (req) => {
      const b = req.body;
      if (b.metric !== 'errorRate' && b.metric !== 'p95') throw new BizError(MONITOR_MSG.badMetric);
      const maxThreshold = b.metric === 'errorRate' ? 100 : 600_000;
      if (!(b.threshold >= 1 && b.threshold <= maxThreshold)) throw new BizError(MONITOR_MSG.badThreshold(b.metric));
      if (!(b.minutes >= 1 && b.minutes <= 1440)) throw new BizError(MONITOR_MSG.badMinutes);
      const api = await db.selectFrom('gemini_api').select('id').where('id', '=', b.apiId).executeTakeFirst();
      if (!api) throw new BizError(MONITOR_MSG.apiGone);
      const channelIds = b.channelIds ?? [];
      if (!(await app.notifier.exists(channelIds))) throw new BizError('所选通知渠道不存在');
      const values = { metric: b.metric, threshold: b.threshold, minutes: b.minutes, enabled: b.enabled === false || b.enabled === 0 ? 0 : 1, update_user: req.user!.username, update_time: now() };
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('gemini_api_alert')
          .values({ api_id: b.apiId, ...values })
          .onConflict((oc) => oc.column('api_id').doUpdateSet(values))
          .execute();
        // a rule turned off forgets its firing (turned on again, a firing is news again)
        const told = { channel_ids: JSON.stringify(channelIds), ...(values.enabled ? {} : { firing: 0, notified: 0 }) };
        await trx
          .insertInto('gemini_api_alert_notify')
          .values({ api_id: b.apiId, ...told })
          .onConflict((oc) => oc.column('api_id').doUpdateSet(told))
          .execute();
      });
      return ok(null, '告警规则已保存');
    },
  );

  app.get<{ Querystring: { apiId: number } }>(
    '/alert/delete',
    { config: { perm: PERM.alert }, schema: { querystring: { type: 'object', required: ['apiId'], properties: { apiId: { type: 'integer', minimum: 1, title: 'API' } } } } },
    async (req) => {
      await db.deleteFrom('gemini_api_alert').where('api_id', '=', req.query.apiId).execute();
      await db.deleteFrom('gemini_api_alert_notify').where('api_id', '=', req.query.apiId).execute();
      return ok(null, '告警规则已删除');
    },
  );

  // the alert dialog's choice of 通知渠道: names and kinds only
  app.get('/alert/channels', { config: { perm: PERM.alert } }, async () => ok(await app.notifier.options()));

  // every ALERT_CHECK_SECONDS: this instance's counted calls stored, then the rules looked at (one instance tells each event)
  const watch = async () => {
    try {
      await counters();
      await watchAlerts(app);
    } catch (err) {
      app.ctx.log.warn({ err: String(err) }, 'alert: looking at the rules failed');
    }
  };
  let watching: Promise<void> | null = null;
  const timer = setInterval(() => {
    watching ??= watch().finally(() => (watching = null));
  }, app.ctx.config.alertCheckSeconds * 1000);
  timer.unref();
  // before the store and the logs close
  app.addHook('preClose', async () => {
    clearInterval(timer);
    await watching;
  });
}

/** Whether an API is alerting now, for the API list's red mark. */
export async function alertingApis(app: FastifyInstance, apiIds: number[]): Promise<Set<number>> {
  const states = await alertStates(app, apiIds);
  return new Set([...states.values()].filter((s) => s.firing).map((s) => s.rule.apiId));
}

