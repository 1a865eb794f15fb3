// Published APIs (spec part 2 §7 "Run published API": POST /open/api/{apiName}; DESIGN §7 "API platform").
//
// What runs is the online version, never the draft. Order of checks, none of which runs SQL before it
// passes: the name (接口不存在), online (未上线), access (the version is public, or a live session, or an
// API key), the body against the version's request parameters. Results are cached per API, online
// sequence, version and parameters when the version caches; the online sequence moves at every online /
// offline change, so old entries are dead on every instance. The API's row and its online version are held in
// memory per name (issue 36), dropped on every instance by any committed write to gemini_api or
// gemini_api_version (store/watch.ts, core/invalidation.ts) before the writing call answers: a cached call
// reads nothing from the store.
// Each call is counted for the detail screen's 24-hour statistics (calls.ts). Callers with neither a session
// nor a valid key (of public versions) are limited per address: each uncached call runs SQL on the data source.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BizError, fail, ok } from '../../core/envelope.js';
import { deploymentTag } from '../../core/throttle.js';
import { datasourceTarget } from '../../core/datasources.js';
import { runScript, ONLINE_STATUS } from './design.js';
import { keyFinder, type LiveKey } from './keys.js';
import { tableTopic } from '../../core/invalidation.js';
import { callRecorder } from './calls.js';
import { callGuard } from './guard.js';
import { isSecretParam } from './plan.js';
import { MASK } from '../../core/secrets.js';
import { callValues, defaultOf, rowsOf, type ParamRow } from './params.js';
import type { ApiPaging } from './tables.js';
import { capRows, countScript, pageRequest, pageScript, pagingOf, PAGE_NUM_MAX, PAGE_SIZE_DEFAULT } from './paging.js';

/** Calls per client address per minute by callers with neither a session nor a valid API key. */
export const ANONYMOUS_CALLS = { max: 600, windowMs: 60_000 } as const;

/** The key a request's X-API-Key names, looked up once per request (the limit and the access check both ask). */
const keysOf = new WeakMap<FastifyRequest, Promise<LiveKey | undefined>>();
const finders = new WeakMap<object, ReturnType<typeof keyFinder>>();
function keyOf(app: FastifyInstance, req: FastifyRequest) {
  let found = keysOf.get(req);
  if (!found) {
    const header = req.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    found = key ? finders.get(app.ctx)!(key) : Promise.resolve(undefined);
    keysOf.set(req, found);
  }
  return found;
}

export const OPEN_MSG = {
  unknown: (name: string) => `接口【${name}】不存在`,
  offline: (name: string) => `接口【${name}】未上线`,
  noCredential: '缺少访问凭证：请在请求头 X-API-Key 中提供 API Key，或使用登录令牌（Authorization: Bearer）',
  badKey: 'API Key 无效或已吊销',
  dsGone: '接口的数据源已不存在，请联系接口负责人',
  dsChanged: '接口的数据源在审批后已变更（地址、数据库或账号），须重新提交审批后才能调用',
  postOnly: '请使用 POST 调用',
} as const;

/** Methods a caller may try on a published API by mistake: answered 405, whoever asks (nothing runs). */
export const WRONG_METHODS = ['GET', 'PUT', 'DELETE', 'PATCH'] as const;

/** Who is calling, when allowed: a session user or a key; null when the request carries neither. */
async function credentialOf(app: FastifyInstance, req: FastifyRequest): Promise<string | null> {
  if (req.headers['x-api-key']) return `key:${await keyIdOf(app, req)}`;
  if (req.user) return `user:${req.user.username}`;
  // a token that names no live session is not silently ignored: the caller meant to sign in
  if (req.token) throw new BizError('登录令牌无效或已过期', 401);
  return null;
}

/** The id of the key the request names (401 when it names a revoked or unknown one), or null without a key. */
async function keyIdOf(app: FastifyInstance, req: FastifyRequest): Promise<number | null> {
  if (!req.headers['x-api-key']) return null;
  const found = await keyOf(app, req);
  if (!found) throw new BizError(OPEN_MSG.badKey, 401);
  return found.id;
}

/** A call's parameters as the monitor may show them: a secret parameter's value (plan.ts isSecretParam) as ******. */
function maskedParams(rows: ParamRow[], values: Record<string, unknown>, page: { pageNum: number; pageSize: number } | null): Record<string, unknown> {
  const secret = new Set(rows.filter((r) => isSecretParam(r)).map((r) => r.paramName));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) out[k] = secret.has(k) || isSecretParam({ paramName: k }) ? MASK : v;
  return page ? { ...out, pageNum: page.pageNum, pageSize: page.pageSize } : out;
}

/** Stable JSON (sorted keys) so that equal parameters make equal cache keys. */
function stable(o: Record<string, unknown>): string {
  return JSON.stringify(Object.keys(o).sort().map((k) => [k, o[k]]));
}

const JSON_TYPE = 'application/json; charset=utf-8';

export async function publishedRoutes(app: FastifyInstance) {
  const { db, cache, config } = app.ctx;
  finders.set(app.ctx, keyFinder(app));
  await app.limits.register(app, 'open-api:');
  // a session or a valid key is accountable and not limited here; everyone else counts per address
  const accountable = async (req: FastifyRequest) => Boolean(req.user) || Boolean(await keyOf(app, req));
  const tag = deploymentTag(config);

  const calls = callRecorder(app);
  const guard = callGuard(app);
  // the API and its online version by name; names of no API are not held
  const online = app.ctx.invalidation.memo<string, Awaited<ReturnType<typeof readApi>> | null>([tableTopic('gemini_api'), tableTopic('gemini_api_version')], { max: 5_000 });
  async function readApi(name: string) {
    const api = await db.selectFrom('gemini_api').select(['id', 'api_name', 'online_status', 'online_version', 'online_seq']).where('api_name', '=', name).executeTakeFirst();
    if (!api) return null;
    const version =
      api.online_status === ONLINE_STATUS.online && api.online_version != null
        ? await db.selectFrom('gemini_api_version').selectAll().where('api_id', '=', api.id).where('version', '=', api.online_version).executeTakeFirst()
        : undefined;
    return { api, version };
  }

  app.post<{ Params: { apiName: string }; Body: unknown }>(
    '/api/:apiName',
    {
      config: { public: true, sessionOptional: true, rateLimit: { max: ANONYMOUS_CALLS.max, timeWindow: ANONYMOUS_CALLS.windowMs, allowList: accountable } },
      schema: {
        params: { type: 'object', properties: { apiName: { type: 'string', maxLength: 100, title: '接口名' } } },
        body: { type: ['object', 'null'], maxProperties: 200, title: '请求参数' },
      },
    },
    async (req, reply: FastifyReply) => {
      const started = performance.now();
      const name = req.params.apiName;
      const found = await online.get(name, () => readApi(name), (r) => r != null);
      if (!found) throw new BizError(OPEN_MSG.unknown(name.slice(0, 100)), 404);
      const { api, version } = found;
      if (api.online_status !== ONLINE_STATUS.online || api.online_version == null) throw new BizError(OPEN_MSG.offline(api.api_name), 404);
      if (!version) throw new BizError(OPEN_MSG.offline(api.api_name), 404);
      if (!version.is_public && !(await credentialOf(app, req))) throw new BizError(OPEN_MSG.noCredential, 401);
      // allow-lists, rates and quotas before anything runs (a key sent to a public API counts as that key)
      const keyId = await keyIdOf(app, req);
      await guard.check(req, reply, api, keyId);
      let good = false;
      let cacheHit = false;
      // what the monitor keeps of the call if it is among the minute's slowest: secret values masked
      let shown: Record<string, unknown> | undefined;
      try {
        const paging = pagingOf(version);
        // a paged API takes pageNum and pageSize besides its own parameters (issue 25 §4)
        const page = paging.pageable ? pageRequest(paging, req.body) : null;
        const paramRows = rowsOf(version.req_params) as ParamRow[];
        const values = callValues(paramRows, page ? page.rest : req.body);
        shown = maskedParams(paramRows, values, page);
        const pageKey = page ? `:p${page.pageNum}x${page.pageSize}` : '';
        const key = version.cacheable && version.cache_time ? `openapi:${tag}:${api.id}:${api.online_seq}:${version.version}:${stable(values)}${pageKey}` : null;
        if (key) {
          const stored = await cache.get<{ body?: string; data?: unknown; cut?: string } | unknown[]>(key);
          // an entry written before paging held the rows themselves; one written before issue 36 the data
          const hit = Array.isArray(stored) ? { data: stored, cut: undefined } : stored;
          if (hit) {
            good = true;
            cacheHit = true;
            reply.header('x-cache', 'HIT');
            if (hit.cut) reply.header('x-result-truncated', 'true');
            // the answer as it was serialised when cached: sent as it is, never parsed and written again
            if (typeof hit.body === 'string') return reply.type(JSON_TYPE).send(hit.body);
            return ok(hit.data, hit.cut);
          }
        }
        const ds = await app.sql.source('datasource', { dsName: version.ds_name ?? '' });
        if (!ds) throw new BizError(OPEN_MSG.dsGone);
        if (version.ds_target && version.ds_target !== datasourceTarget(ds)) throw new BizError(OPEN_MSG.dsChanged);
        const script = version.script ?? '';
        let data: unknown;
        let cut: string | undefined;
        if (page) {
          // the page and the count of all rows, each a bound statement of its own
          const { res } = await runScript(app, req, ds, pageScript(script, page.pageNum, page.pageSize), values);
          const { res: counted } = await runScript(app, req, ds, countScript(script), values);
          const total = Number(Object.values(counted.rows[0] ?? {})[0] ?? 0);
          data = { records: res.rows, total, pageNum: page.pageNum, pageSize: page.pageSize };
        } else {
          const { res } = await runScript(app, req, ds, script, values);
          const capped = capRows(res.rows, Boolean(res.truncated), paging);
          data = capped.rows;
          cut = capped.cut;
        }
        if (cut) reply.header('x-result-truncated', 'true');
        good = true;
        if (key) {
          const body = JSON.stringify(ok(data, cut));
          await cache.set(key, { body, ...(cut ? { cut } : {}) }, version.cache_time!);
          reply.header('x-cache', 'MISS');
          return reply.type(JSON_TYPE).send(body);
        }
        return ok(data, cut);
      } finally {
        const params = shown;
        calls.record({ apiId: api.id, keyId, ms: performance.now() - started, ok: good, cacheHit, params: params && (() => params) });
      }
    },
  );

  // a published API is called with POST only: another method is told so (405), before any credential is
  // asked for, instead of a 401 that sends the caller looking for a key they already have
  for (const method of WRONG_METHODS) {
    app.route({
      method,
      url: '/api/:apiName',
      config: { public: true },
      schema: { params: { type: 'object', properties: { apiName: { type: 'string', maxLength: 100, title: '接口名' } } } },
      handler: async (_req, reply) => reply.code(405).header('allow', 'POST').send(fail(OPEN_MSG.postOnly)),
    });
  }

  // OpenAPI 3 of the online APIs, from their parameter lists (same access as a non-public API).
  app.get('/api-docs', { config: { public: true, sessionOptional: true } }, async (req) => {
    if (!(await credentialOf(app, req))) throw new BizError(OPEN_MSG.noCredential, 401);
    const rows = await db
      .selectFrom('gemini_api as a')
      .innerJoin('gemini_api_version as v', (j) => j.onRef('v.api_id', '=', 'a.id').onRef('v.version', '=', 'a.online_version'))
      .select(['a.api_name', 'a.api_desc', 'v.api_comment', 'v.req_params', 'v.resp_params', 'v.version', 'v.is_public', 'v.pageable', 'v.page_size_max', 'v.max_rows'])
      .where('a.online_status', '=', ONLINE_STATUS.online)
      .orderBy('a.api_name')
      .execute();
    return openApiDocument(rows);
  });
}

const OAS_TYPES: Record<string, object> = {
  string: { type: 'string' },
  integer: { type: 'integer' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date-time' },
  object: { type: 'object' },
  array: { type: 'array', items: {} },
};

export function openApiDocument(
  rows: Array<{ api_name: string; api_desc: string | null; api_comment: string; req_params: string | null; resp_params: string | null; version: number; is_public: number } & ApiPaging>,
) {
  const paths: Record<string, object> = {};
  for (const r of rows) {
    const req = rowsOf(r.req_params);
    const resp = rowsOf(r.resp_params);
    const props = (list: ParamRow[], withDefault = false) =>
      Object.fromEntries(
        list.map((p) => {
          const fallback = withDefault ? defaultOf(p) : undefined;
          return [p.paramName, { ...OAS_TYPES[p.paramType], ...(p.paramComment ? { description: p.paramComment } : {}), ...(fallback !== undefined ? { default: fallback } : {}) }];
        }),
      );
    const required = req.filter((p) => p.required).map((p) => p.paramName);
    const paging = pagingOf(r);
    const rowList = { type: 'array', items: { type: 'object', properties: props(resp) } };
    // a paged API: pageNum / pageSize beside its own parameters, { records, total, pageNum, pageSize } as data
    const pageProps = paging.pageable
      ? {
          pageNum: { type: 'integer', minimum: 1, maximum: PAGE_NUM_MAX, default: 1, description: '页码，从 1 开始' },
          pageSize: { type: 'integer', minimum: 1, maximum: paging.pageSizeMax, default: Math.min(PAGE_SIZE_DEFAULT, paging.pageSizeMax), description: `每页条数，至多 ${paging.pageSizeMax}` },
        }
      : {};
    const dataSchema = paging.pageable
      ? {
          type: 'object',
          required: ['records', 'total', 'pageNum', 'pageSize'],
          properties: { records: rowList, total: { type: 'integer', description: '符合条件的总行数（服务器计算）' }, pageNum: { type: 'integer' }, pageSize: { type: 'integer' } },
        }
      : { ...rowList, maxItems: paging.maxRows, description: `至多 ${paging.maxRows} 行；超出时只返回前面的行，msg 说明，并带响应头 X-Result-Truncated: true` };
    paths[`/open/api/${r.api_name}`] = {
      post: {
        operationId: r.api_name,
        summary: r.api_comment,
        ...(r.api_desc ? { description: r.api_desc } : {}),
        'x-api-version': `V${r.version}`,
        ...(r.is_public ? { security: [] } : {}),
        requestBody: {
          required: false,
          content: { 'application/json': { schema: { type: 'object', additionalProperties: false, properties: { ...props(req, true), ...pageProps }, ...(required.length ? { required } : {}) } } },
        },
        responses: {
          '200': {
            description: '成功时 status 为 0，data 为结果行；失败时 status 为 1，msg 为原因',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['status', 'msg', 'data'],
                  properties: { status: { type: 'integer' }, msg: { type: 'string' }, data: dataSchema },
                },
              },
            },
          },
          '400': { description: '参数不合法：缺少必填参数、未知参数或类型不符（msg 指明参数名）' },
          '401': { description: '缺少或无效的访问凭证' },
          '404': { description: '接口不存在或未上线' },
        },
      },
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: '数据服务平台 · 已上线接口', version: '1.0.0' },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
    security: [{ apiKey: [] }, { bearer: [] }],
    paths,
  };
}
