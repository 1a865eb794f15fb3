// Operating published APIs for others (issue 25 items 1-2): rate limits with a burst and daily quotas per API
// and per key, address allow-lists per key and per API, and each key's usage per day.
//
// The checks run after the API and the key are known and before anything else: no cached answer, no data-source
// statement, no statistics write happens for a refused call. With REDIS_URL the buckets and the quota counters
// live in Redis under the deployment's tag (one Lua script each, Redis's own clock), so all the instances of a
// deployment together never pass a limit; without it they are counted in this process.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import ipaddr from 'ipaddr.js';
import { BizError, ok } from '../../core/envelope.js';
import { clientAddress } from '../../core/limits.js';
import { hasPermission } from '../../core/permissions.js';
import { deploymentTag } from '../../core/throttle.js';
import { declareTable, migration, type TableRow } from '../../core/tables.js';
import { listQuerySchema, pageOf } from '../../core/list.js';
import { now } from '../../store/columns.js';
import { PERM } from './perms.js';
import { periodicFlush } from './buffered.js';
import { tableTopic } from '../../core/invalidation.js';

/** What an API or a key may be limited by; null / empty: no limit of that kind. */
export const apiLimits = declareTable({
  name: 'gemini_api_limit',
  columns: {
    id: { type: 'id' },
    /** 'api' or 'key' */
    kind: { type: 'varchar(10)', notNull: true },
    refId: { type: 'integer', notNull: true },
    /** requests per second (sustained) */
    ratePerSec: { type: 'integer' },
    /** requests allowed at once above the rate (the bucket's size); the rate when null */
    burst: { type: 'integer' },
    /** calls per calendar day (server time) */
    dailyQuota: { type: 'integer' },
    /** addresses and CIDRs, one per line; empty: any address */
    allowIps: { type: 'text' },
    updateUser: { type: 'varchar(64)', notNull: true },
    updateTime: { type: 'time', notNull: true },
  },
  indexes: [{ name: 'ux_gemini_api_limit_ref', columns: ['kind', 'refId'], unique: true }],
});

/** Calls and refusals per day, key and API (key 0: a session or a public call). */
export const apiUsage = declareTable({
  name: 'gemini_api_usage',
  columns: {
    id: { type: 'id' },
    day: { type: 'varchar(10)', notNull: true },
    keyId: { type: 'integer', notNull: true },
    apiId: { type: 'integer', notNull: true },
    calls: { type: 'integer', notNull: true, default: 0 },
    refused: { type: 'integer', notNull: true, default: 0 },
  },
  indexes: [
    { name: 'ux_gemini_api_usage', columns: ['day', 'keyId', 'apiId'], unique: true },
    { name: 'ix_gemini_api_usage_key', columns: ['keyId', 'day'] },
  ],
});

declare module '../../store/schema.js' {
  interface Database {
    gemini_api_limit: TableRow<typeof apiLimits>;
    gemini_api_usage: TableRow<typeof apiUsage>;
  }
}

export const guardMigrations = {
  '20261128_10_api_limits_usage': migration(async (db, dialect) => {
    await apiLimits.create(db, dialect);
    await apiUsage.create(db, dialect);
  }),
};

export type LimitKind = 'api' | 'key';
export interface LimitRule {
  ratePerSec: number | null;
  burst: number | null;
  dailyQuota: number | null;
  allowIps: string | null;
}

export const GUARD_MSG = {
  badEntry: (entry: string) => `允许的地址【${entry.slice(0, 60)}】不是合法的 IP 地址或网段（如 10.0.0.8、192.168.1.0/24、2001:db8::/32）`,
  tooManyEntries: '允许的地址最多 100 条',
  burstBelowRate: '突发上限不能小于每秒请求数',
  rateApi: (name: string, rate: number) => `调用过于频繁：接口【${name}】每秒最多 ${rate} 次，请稍后再试`,
  rateKey: (rate: number) => `调用过于频繁：此 API Key 每秒最多 ${rate} 次，请稍后再试`,
  quotaApi: (name: string, quota: number) => `接口【${name}】今日调用次数已达上限（每日 ${quota} 次），次日 0 点恢复`,
  quotaKey: (quota: number) => `此 API Key 今日调用次数已达上限（每日 ${quota} 次），次日 0 点恢复`,
  deniedApi: (address: string, name: string) => `调用方地址 ${address} 不在接口【${name}】允许的地址列表中`,
  deniedKey: (address: string) => `调用方地址 ${address} 不在此 API Key 允许的地址列表中`,
} as const;

const MAX_ENTRIES = 100;

/** Parses an allow-list (one entry per line, or separated by commas / spaces); throws a Chinese message on a bad entry. */
export function parseAllowList(text: string | null | undefined): Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> {
  const entries = (text ?? '').split(/[\s,，;；]+/).filter(Boolean);
  if (entries.length > MAX_ENTRIES) throw new BizError(GUARD_MSG.tooManyEntries);
  return entries.map((entry) => {
    try {
      if (entry.includes('/')) {
        const [addr, bits] = ipaddr.parseCIDR(entry);
        return [addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? (addr as ipaddr.IPv6).toIPv4Address() : addr, addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? Math.max(0, bits - 96) : bits];
      }
      const addr = ipaddr.process(entry);
      return [addr, addr.kind() === 'ipv6' ? 128 : 32];
    } catch {
      throw new BizError(GUARD_MSG.badEntry(entry));
    }
  });
}

/** Whether `address` (as the app sees the client: TRUST_PROXY decides) is in the list; an empty list allows all. */
export function addressAllowed(list: ReturnType<typeof parseAllowList>, address: string): boolean {
  if (!list.length) return true;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.process(address);
  } catch {
    return false;
  }
  return list.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net as never, bits));
}

/** The local calendar day of the server (the quota's day), and the seconds until it ends. */
function today(): { day: string; secondsLeft: number } {
  const d = new Date();
  const end = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1);
  return { day: now(d).slice(0, 10), secondsLeft: Math.max(1, Math.ceil((end.getTime() - d.getTime()) / 1000)) };
}

// A token bucket: `burst` tokens, refilled at `rate` a second. Returns 0 when a token was taken, else the
// milliseconds until one will be there. Redis's own clock, so every instance agrees.
const BUCKET_LUA = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local nowMs = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local h = redis.call('HMGET', KEYS[1], 'tk', 'ts')
local tk = tonumber(h[1])
local ts = tonumber(h[2])
if tk == nil or ts == nil then tk = burst ts = nowMs end
tk = math.min(burst, tk + (nowMs - ts) * rate / 1000)
local wait = 0
if tk < 1 then
  wait = math.ceil((1 - tk) * 1000 / rate)
else
  tk = tk - 1
end
redis.call('HSET', KEYS[1], 'tk', tostring(tk), 'ts', tostring(nowMs))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return wait
`;

// A day's counter below `max`: taken (1) or not (0); the key lives two days.
const QUOTA_LUA = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], 172800)
return 1
`;

export interface Counters {
  /** 0 when a call may go, else the milliseconds to wait */
  take(key: string, rate: number, burst: number): Promise<number>;
  /** true when the day's count was below max (and is now one more) */
  quota(key: string, max: number): Promise<boolean>;
}

/** Counters in Redis (shared by the deployment's instances) or, without Redis, in this process. */
export function counters(redis: Redis | null, tag: string): Counters {
  if (redis) {
    return {
      take: async (key, rate, burst) => Number(await redis.eval(BUCKET_LUA, 1, `api-bucket:${tag}:${key}`, rate, burst)),
      quota: async (key, max) => Number(await redis.eval(QUOTA_LUA, 1, `api-quota:${tag}:${today().day}:${key}`, max)) === 1,
    };
  }
  const buckets = new Map<string, { tk: number; ts: number }>();
  const days = new Map<string, number>();
  let day = '';
  return {
    async take(key, rate, burst) {
      const t = Date.now();
      const b = buckets.get(key) ?? { tk: burst, ts: t };
      b.tk = Math.min(burst, b.tk + ((t - b.ts) * rate) / 1000);
      b.ts = t;
      buckets.set(key, b);
      if (buckets.size > 100_000) buckets.clear();
      if (b.tk < 1) return Math.ceil(((1 - b.tk) * 1000) / rate);
      b.tk -= 1;
      return 0;
    },
    async quota(key, max) {
      const d = today().day;
      if (d !== day) {
        days.clear();
        day = d;
      }
      const n = days.get(key) ?? 0;
      if (n >= max) return false;
      days.set(key, n + 1);
      return true;
    },
  };
}

/** Per-day usage, buffered and added to the store every few seconds (and at close). */
function usageRecorder(app: FastifyInstance) {
  const { db } = app.ctx;
  let pending = new Map<string, { day: string; keyId: number; apiId: number; calls: number; refused: number }>();
  const flush = periodicFlush(app, 'api usage', async () => {
    if (!pending.size) return;
    const batch = [...pending.values()];
    pending = new Map();
    for (const u of batch) {
      await db
        .insertInto('gemini_api_usage')
        .values({ day: u.day, key_id: u.keyId, api_id: u.apiId, calls: u.calls, refused: u.refused })
        .onConflict((oc) =>
          oc.columns(['day', 'key_id', 'api_id']).doUpdateSet((eb) => ({ calls: eb('gemini_api_usage.calls', '+', u.calls), refused: eb('gemini_api_usage.refused', '+', u.refused) })),
        )
        .execute();
    }
  });
  return {
    add(keyId: number, apiId: number, refused: boolean) {
      const day = today().day;
      const k = `${day}|${keyId}|${apiId}`;
      const u = pending.get(k) ?? { day, keyId, apiId, calls: 0, refused: 0 };
      if (refused) u.refused += 1;
      else u.calls += 1;
      pending.set(k, u);
    },
    flush,
  };
}

export interface CallGuard {
  /**
   * Throws (429 with Retry-After, or 403) when the call may not go: the allow-lists first, then the rates, then
   * the daily quotas; a refusal is counted in the key's usage and logged. A call that goes is counted too.
   */
  check(req: FastifyRequest, reply: FastifyReply, api: { id: number; api_name: string }, keyId: number | null): Promise<void>;
  flush(): Promise<void>;
}

const guards = new WeakMap<object, CallGuard>();

/** One guard per app: the buckets, the quota counters and the usage buffer. */
export function callGuard(app: FastifyInstance): CallGuard {
  const found = guards.get(app.ctx);
  if (found) return found;
  const { db, config } = app.ctx;
  const count = counters(app.limits.redis, deploymentTag(config));
  const usage = usageRecorder(app);
  const refuse = (req: FastifyRequest, reply: FastifyReply, api: { id: number; api_name: string }, keyId: number | null, why: string, message: string, httpStatus: number, retryAfter?: number) => {
    usage.add(keyId ?? 0, api.id, true);
    req.log.warn({ api: api.api_name, keyId, address: clientAddress(req), why }, 'published call refused');
    if (retryAfter) reply.header('retry-after', String(retryAfter));
    throw new BizError(message, httpStatus);
  };
  // the rules of an API and a key, held in memory (issue 36) and dropped on every instance by any committed write
  // to gemini_api_limit before the saving call answers (store/watch.ts, core/invalidation.ts)
  const held = app.ctx.invalidation.memo<string, Awaited<ReturnType<typeof readRules>>>([tableTopic('gemini_api_limit')], { max: 10_000 });
  function readRules(apiId: number, keyId: number | null) {
    return db
      .selectFrom('gemini_api_limit')
      .select(['kind', 'rate_per_sec', 'burst', 'daily_quota', 'allow_ips'])
      .where((eb) => eb.or([eb.and([eb('kind', '=', 'api'), eb('ref_id', '=', apiId)]), ...(keyId ? [eb.and([eb('kind', '=', 'key'), eb('ref_id', '=', keyId)])] : [])]))
      .execute();
  }
  const guard: CallGuard = {
    async check(req, reply, api, keyId) {
      const rules = await held.get(`${api.id}:${keyId ?? 0}`, () => readRules(api.id, keyId));
      const apiRule = rules.find((r) => r.kind === 'api');
      const keyRule = rules.find((r) => r.kind === 'key');
      const address = clientAddress(req);
      if (keyRule?.allow_ips && !addressAllowed(parseAllowList(keyRule.allow_ips), address)) refuse(req, reply, api, keyId, 'key allow-list', GUARD_MSG.deniedKey(address), 403);
      if (apiRule?.allow_ips && !addressAllowed(parseAllowList(apiRule.allow_ips), address)) refuse(req, reply, api, keyId, 'api allow-list', GUARD_MSG.deniedApi(address, api.api_name), 403);
      for (const [rule, bucket, message] of [
        [keyRule, `key:${keyId}`, (r: number) => GUARD_MSG.rateKey(r)],
        [apiRule, `api:${api.id}`, (r: number) => GUARD_MSG.rateApi(api.api_name, r)],
      ] as const) {
        if (!rule?.rate_per_sec) continue;
        const wait = await count.take(bucket, rule.rate_per_sec, Math.max(rule.burst ?? rule.rate_per_sec, 1));
        if (wait > 0) refuse(req, reply, api, keyId, 'rate', message(rule.rate_per_sec), 429, Math.max(1, Math.ceil(wait / 1000)));
      }
      for (const [rule, counter, message] of [
        [keyRule, `key:${keyId}`, (q: number) => GUARD_MSG.quotaKey(q)],
        [apiRule, `api:${api.id}`, (q: number) => GUARD_MSG.quotaApi(api.api_name, q)],
      ] as const) {
        if (rule?.daily_quota == null) continue;
        if (!(await count.quota(counter, rule.daily_quota))) refuse(req, reply, api, keyId, 'quota', message(rule.daily_quota), 429, today().secondsLeft);
      }
      usage.add(keyId ?? 0, api.id, false);
    },
    flush: usage.flush,
  };
  guards.set(app.ctx, guard);
  return guard;
}

const idQuery = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, title: '编号' } } } as const;
const limitBody = {
  type: 'object',
  properties: {
    /** the form's initial values carry it back; the query's id is the one used */
    id: { type: ['integer', 'null'], title: '编号' },
    ratePerSec: { type: ['integer', 'null'], minimum: 1, maximum: 100000, title: '每秒请求数' },
    burst: { type: ['integer', 'null'], minimum: 1, maximum: 100000, title: '突发上限' },
    dailyQuota: { type: ['integer', 'null'], minimum: 0, maximum: 1000000000, title: '每日配额' },
    allowIps: { type: ['string', 'null'], maxLength: 5000, title: '允许的地址' },
  },
} as const;

/** Reading and setting the rules of an API (those who put APIs online) and of a key (PERM.keyLimit); a key's usage. */
export function guardRoutes(app: FastifyInstance) {
  const { db } = app.ctx;
  const present = (r: { rate_per_sec: number | null; burst: number | null; daily_quota: number | null; allow_ips: string | null } | undefined, id: number) => ({
    id,
    ratePerSec: r?.rate_per_sec ?? null,
    burst: r?.burst ?? null,
    dailyQuota: r?.daily_quota ?? null,
    allowIps: r?.allow_ips ?? '',
  });
  const exists = async (kind: LimitKind, id: number) =>
    kind === 'api'
      ? Boolean(await db.selectFrom('gemini_api').select('id').where('id', '=', id).executeTakeFirst())
      : Boolean(await db.selectFrom('gemini_api_key').select('id').where('id', '=', id).executeTakeFirst());
  const notFound = (kind: LimitKind) => (kind === 'api' ? '接口不存在' : 'API Key 不存在');

  for (const [kind, read, write] of [
    ['api', PERM.designList, PERM.online],
    ['key', PERM.keyList, PERM.keyLimit],
  ] as const) {
    app.get<{ Querystring: { id: number } }>(
      `/${kind === 'api' ? 'design' : 'key'}/limit`,
      { config: { perm: read }, schema: { querystring: idQuery } },
      async (req) => {
        if (!(await exists(kind, req.query.id))) throw new BizError(notFound(kind));
        const r = await db.selectFrom('gemini_api_limit').selectAll().where('kind', '=', kind).where('ref_id', '=', req.query.id).executeTakeFirst();
        return ok(present(r, req.query.id));
      },
    );
    app.post<{ Querystring: { id: number }; Body: { ratePerSec?: number | null; burst?: number | null; dailyQuota?: number | null; allowIps?: string | null } | null }>(
      `/${kind === 'api' ? 'design' : 'key'}/limit/save`,
      { config: { perm: write }, schema: { querystring: idQuery, body: limitBody } },
      async (req) => {
        const b = req.body ?? {};
        const id = req.query.id;
        if (!(await exists(kind, id))) throw new BizError(notFound(kind));
        const entries = parseAllowList(b.allowIps);
        if (b.burst != null && b.ratePerSec != null && b.burst < b.ratePerSec) throw new BizError(GUARD_MSG.burstBelowRate);
        const values = {
          rate_per_sec: b.ratePerSec ?? null,
          burst: b.ratePerSec == null ? null : (b.burst ?? null),
          daily_quota: b.dailyQuota ?? null,
          allow_ips: entries.length ? (b.allowIps ?? '').split(/[\s,，;；]+/).filter(Boolean).join('\n') : null,
          update_user: req.user!.username,
          update_time: now(),
        };
        await db
          .insertInto('gemini_api_limit')
          .values({ kind, ref_id: id, ...values })
          .onConflict((oc) => oc.columns(['kind', 'ref_id']).doUpdateSet(values))
          .execute();
        return ok(null, '保存成功');
      },
    );
  }

  // a key's calls and refusals per day and API (last 30 days, newest first): its creator, and those who may limit keys
  app.post<{ Body: { keyId: number | string; pageNum?: number; pageSize?: number } }>(
    '/key/usage/search',
    // the key's number as the sub-list sends it, or as text from the export's query string (sheets module)
    { config: { perm: PERM.keyList }, schema: { body: { ...listQuerySchema({ keyId: { type: ['integer', 'string'], minimum: 1, maximum: 2147483647, pattern: '^[1-9][0-9]{0,9}$', title: 'API Key' } }), required: ['keyId'] } } },
    async (req) => {
      const key = await db.selectFrom('gemini_api_key').select(['id', 'create_user']).where('id', '=', Number(req.body.keyId)).executeTakeFirst();
      if (!key) throw new BizError('API Key 不存在');
      if (key.create_user !== req.user!.username && !hasPermission(req.user!.permissions, PERM.keyLimit)) throw new BizError('只有 API Key 的创建人和管理员可以查看它的用量', 403);
      await callGuard(app).flush();
      const since = now(new Date(Date.now() - 30 * 24 * 3600 * 1000)).slice(0, 10);
      const base = db.selectFrom('gemini_api_usage as u').where('u.key_id', '=', key.id).where('u.day', '>=', since);
      const total = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
      const win = pageOf(req.body, {});
      const rows = await base
        .leftJoin('gemini_api as a', 'a.id', 'u.api_id')
        .select(['u.id', 'u.day', 'u.api_id', 'a.api_name', 'u.calls', 'u.refused'])
        .orderBy('u.day', 'desc')
        .orderBy('u.api_id')
        .limit(win.limit)
        .offset(win.offset)
        .execute();
      return ok({
        records: rows.map((r) => ({ id: r.id, day: r.day, apiId: r.api_id, apiName: r.api_name ?? `（已删除的接口 ${r.api_id}）`, calls: Number(r.calls), refused: Number(r.refused) })),
        total: Number(total?.n ?? 0),
      });
    },
  );
}
