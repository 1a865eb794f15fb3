// Query support (spec part 1 §2 "Query support", §3 "Query", §5, §7 "SQL query"): /api/gemini/sqlQuery/*
// Saved SQL or API queries; execute runs the SQL with bound parameters on a data source, or calls the API.
import { assertPermission } from '../../core/auth.js';
import type { FastifyRequest } from 'fastify';
import { BizError, ok } from '../../core/envelope.js';
import { listQuerySchema } from '../../core/list.js';
import type { ServerModule } from '../../core/module.js';
import { checkBody, idQuery, type PageDeclaration } from '../../core/declarations.js';
import { declareTable, type TableRow, timestamps } from '../../core/tables.js';
import { NET_MSG, NetGuardError, checkUrl, guardedRequest } from '../../core/net-guard.js';

export const sqlQueries = declareTable({
  name: 'gemini_sql_query',
  migration: '20261122_11_sql_query',
  columns: {
    id: { type: 'id' },
    queryType: { type: 'varchar(10)', notNull: true, default: 'SQL' },
    queryName: { type: 'varchar(50)', notNull: true },
    dsName: { type: 'varchar(100)' },
    script: { type: 'text' },
    api: { type: 'varchar(255)' },
    apiMethod: { type: 'varchar(10)' },
    requestParams: { type: 'text' },
    responseBody: { type: 'text' },
    ...timestamps,
  },
  indexes: [{ name: 'ux_gemini_sql_query_name', columns: ['queryName'], unique: true }],
  duplicate: (rec) => `查询名称【${rec.queryName}】已存在`,
});
declare module '../../store/schema.js' {
  interface Database {
    gemini_sql_query: TableRow<typeof sqlQueries>;
  }
}

// The query list's search and sort, declared as a page's would be (the query pane is no list page).
const LIST: PageDeclaration = {
  search: { fields: ['queryName'] },
  columns: ['queryName', 'queryType', 'createTime', 'updateTime'].map((field) => ({ field, sortable: true })),
};

// The query pane has no page declaration of its own (it is not a plain CRUD page); its field rules are
// declared here in the same form, with the spec's messages (§5).
const base = {
  queryName: { type: 'string', title: '名称', maxLength: 50, 'x-validator': [{ required: true, message: '请输入数据源名称' }] },
  queryType: { type: 'string', title: '类型', 'x-dict': 'QUERY_TYPE', 'x-validator': [{ required: true, message: '请选择类型' }] },
};
const NEW_QUERY: PageDeclaration = { dialog: { defaults: { queryType: 'SQL' }, schema: { type: 'object', properties: base } } };
const SQL_QUERY: PageDeclaration = {
  dialog: {
    schema: {
      type: 'object',
      properties: {
        ...base,
        dsName: { type: 'string', title: '数据源', maxLength: 100, 'x-validator': [{ required: true, message: '请选择数据源' }] },
        script: { type: 'string', title: 'SQL脚本', maxLength: 100000, 'x-validator': [{ required: true, message: '请输入SQL脚本' }] },
        responseBody: { type: 'string', title: '响应', maxLength: 1000000 },
      },
    },
  },
};
const API_QUERY: PageDeclaration = {
  dialog: {
    schema: {
      type: 'object',
      properties: {
        ...base,
        api: { type: 'string', title: 'API接口', maxLength: 255, 'x-validator': [{ required: true, message: '请输入API接口' }, { pattern: '^https?://', message: 'API接口须以 http:// 或 https:// 开头' }] },
        apiMethod: { type: 'string', title: '请求方式', 'x-dict': 'API_METHOD' },
        responseBody: { type: 'string', title: '响应', maxLength: 1000000 },
      },
    },
  },
};

interface Param {
  name: string;
  value?: unknown;
  type?: string;
}

/** The parameter table → { name: typed value } (REQ_PARAM_TYPE: string, integer, boolean, number). */
function paramsOf(list: unknown): Record<string, unknown> {
  if (list == null || list === '') return {};
  const arr = typeof list === 'string' ? safeJson(list) : list;
  if (arr && typeof arr === 'object' && !Array.isArray(arr)) return arr as Record<string, unknown>;
  if (!Array.isArray(arr)) throw new BizError('参数表格式不正确');
  const out: Record<string, unknown> = {};
  for (const p of arr as Param[]) {
    const name = String(p?.name ?? p?.['key' as keyof Param] ?? '').trim();
    if (!name) continue;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new BizError(`参数名不合法：${name}`);
    const v = p.value;
    switch (p.type) {
      case 'integer':
      case 'number': {
        const n = Number(v);
        if (v === '' || v == null || !Number.isFinite(n) || (p.type === 'integer' && !Number.isInteger(n))) throw new BizError(`参数 ${name} 应为${p.type === 'integer' ? '整数' : '数字'}`);
        out[name] = n;
        break;
      }
      case 'boolean':
        out[name] = v === true || v === 'true' || v === 1 || v === '1';
        break;
      default:
        out[name] = v == null ? null : String(v);
    }
  }
  return out;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new BizError('参数表不是合法的 JSON');
  }
}

const asText = (v: unknown) => (v == null ? null : typeof v === 'string' ? v : JSON.stringify(v));

function parsed(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function present(row: Record<string, any>) {
  const rec = sqlQueries.toApi(row);
  rec.requestParams = parsed(rec.requestParams);
  return rec;
}

const API_TIMEOUT_MS = 30_000;
const API_MAX_BYTES = 1_000_000;

/**
 * Calls an API query's address. The address rules live in core/net-guard: every hop (redirects are followed
 * by hand, at most 5) is checked as addresses after DNS resolution and the socket connects only to a checked
 * address; link-local / metadata / unspecified addresses are refused, intranet and loopback APIs are allowed.
 * The body is read up to 1 MB (truncated: true beyond), the whole call has 30 s.
 */
async function callApi(url: string, method: string, params: Record<string, unknown>) {
  let u: URL;
  try {
    u = checkUrl(url);
  } catch (err) {
    throw asBizError(err);
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: string | undefined;
  if (method === 'GET') for (const [k, v] of Object.entries(params)) u.searchParams.set(k, String(v));
  else {
    body = JSON.stringify(params);
    headers['content-type'] = 'application/json';
  }
  let res: Awaited<ReturnType<typeof guardedRequest>>;
  try {
    res = await guardedRequest(u, { method, headers, body, timeoutMs: API_TIMEOUT_MS, maxBytes: API_MAX_BYTES });
  } catch (err) {
    throw asBizError(err);
  }
  const text = res.body.toString('utf8');
  let parsedBody: unknown = text;
  try {
    parsedBody = JSON.parse(text);
  } catch {
    /* not JSON (or cut at the size limit) */
  }
  return { httpStatus: res.status, body: parsedBody, ...(res.truncated ? { truncated: true } : {}) };
}

function asBizError(err: unknown): BizError {
  if (err instanceof NetGuardError) return new BizError(err.message);
  return new BizError(NET_MSG.unreachable);
}

export const sqlQueryModule: ServerModule = {
  name: 'sqlquery',
  prefix: '/api/gemini/sqlQuery',
  service: 'platform',
  needs: ['secrets', 'sql'],
  migrations: sqlQueries.migrations,
  plugin: async (app) => {
    const store = sqlQueries.on(app.ctx.db, { page: LIST, filters: ['queryType', 'dsName'] });
    const queryBody = {
      type: 'object',
      properties: {
        id: { type: ['integer', 'null'], title: '编号' },
        queryName: { type: ['string', 'null'], title: '名称' },
        queryType: { type: ['string', 'null'], title: '类型' },
        dsName: { type: ['string', 'null'], title: '数据源' },
        script: { type: ['string', 'null'], title: 'SQL脚本' },
        api: { type: ['string', 'null'], title: 'API接口' },
        apiMethod: { type: ['string', 'null'], title: '请求方式' },
        requestParams: { type: ['array', 'object', 'string', 'null'], maxItems: 200, title: '参数' },
        responseBody: { type: ['string', 'object', 'array', 'null'], title: '响应' },
      },
    };

    app.post<{ Body: any }>('/search', { config: { perm: 'gemini:sqlQuery:list' }, schema: { body: listQuerySchema({ queryType: { type: ['string', 'null'], title: '类型' }, dsName: { type: ['string', 'null'], maxLength: 100, title: '数据源' } }) } }, async (req) => {
      const res = await store.list((req.body ?? {}) as any);
      return ok({ records: res.records.map((r: any) => ({ ...r, requestParams: parsed(r.requestParams) })), total: res.total });
    });

    app.get<{ Querystring: { id: number } }>('/info/get', { config: { perm: 'gemini:sqlQuery:list' }, schema: { querystring: idQuery } }, async (req) => {
      const row = await store.get(req.query.id);
      if (!row) throw new BizError('查询不存在');
      return ok(present(row));
    });

    const save = async (req: FastifyRequest, mode: 'add' | 'save') => {
      const body = { ...((req.body ?? {}) as any) };
      const id = mode === 'save' ? (body.id ?? undefined) : undefined;
      if (mode === 'add' && body.id) throw new BizError('新增时不能指定编号');
      assertPermission(req, id ? 'gemini:sqlQuery:edit' : 'gemini:sqlQuery:add');
      const stored = id ? await store.get(id) : undefined;
      if (id && !stored) throw new BizError('查询不存在');
      // a new query needs only its name and type; saving a query's content checks what its type needs
      const type = body.queryType ?? stored?.query_type ?? 'SQL';
      const decl = !stored && mode === 'add' ? NEW_QUERY : type === 'API' ? API_QUERY : SQL_QUERY;
      const rec = checkBody(decl, { ...body, queryType: type }, { dicts: await app.dicts.current(), applyDefaults: true });
      if (type === 'API') rec.apiMethod = rec.apiMethod ?? 'GET';
      if (body.requestParams !== undefined) {
        paramsOf(body.requestParams); // refuse a malformed parameter table now, not at execution
        rec.requestParams = asText(body.requestParams);
      }
      if (body.responseBody !== undefined) rec.responseBody = asText(body.responseBody);
      if (type === 'SQL' && rec.dsName && !(await app.sql.source('datasource', { dsName: String(rec.dsName) }))) throw new BizError(`数据源【${rec.dsName}】不存在`);
      return ok(await store.save(stored, rec), '保存成功');
    };
    app.post('/info/add', { config: { perm: 'gemini:sqlQuery:add' }, schema: { body: queryBody } }, (req) => save(req, 'add'));
    app.post('/info/save', { config: { perm: 'gemini:sqlQuery:list' }, schema: { body: queryBody } }, (req) => save(req, 'save'));

    app.get<{ Querystring: { id: number } }>('/delete', { config: { perm: 'gemini:sqlQuery:remove' }, schema: { querystring: idQuery } }, async (req) => {
      if (!(await store.remove(req.query.id))) throw new BizError('查询不存在');
      return ok(null, '删除成功');
    });

    // Runs the query as sent (the Test button), or the stored one when only an id is given.
    app.post('/execute', { config: { perm: 'gemini:sqlQuery:execute' }, schema: { body: queryBody } }, async (req) => {
      const body = { ...((req.body ?? {}) as any) };
      const stored = body.id ? await store.get(body.id) : undefined;
      if (body.id && !stored) throw new BizError('查询不存在');
      const merged = { ...(stored ? present(stored) : {}), ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined && v !== null)) } as any;
      const type = merged.queryType ?? 'SQL';
      const rec = checkBody(type === 'API' ? API_QUERY : SQL_QUERY, { ...merged, queryName: merged.queryName ?? '临时查询', queryType: type }, { dicts: await app.dicts.current() });
      const params = paramsOf(merged.requestParams);
      if (type === 'API') return ok(await callApi(String(rec.api), String(rec.apiMethod ?? 'GET'), params));
      const ds = await app.sql.source('datasource', { dsName: String(rec.dsName) });
      if (!ds) throw new BizError(`数据源【${rec.dsName}】不存在`);
      return ok(await app.sql.run('datasource', ds, String(rec.script), params, req));
    });
  },
};
