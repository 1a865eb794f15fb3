// API design and configuration (spec part 2 "API design list", "API design edit", "API configuration",
// §3 "API", "API config", §4, §5, §7 design / config / execute / query calls).
//
// A design row holds the current draft. Saving a passed or rejected design makes it a draft again; what is
// online (a frozen version, see approve.ts) does not change until a new version passes and goes online.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely, type Selectable } from 'kysely';
import { assertPermission } from '../../core/auth.js';
import { BizError, ok } from '../../core/envelope.js';
import { jsonObjectField } from '../../core/input.js';
import { idQuery, isUniqueViolation, likePattern, optionalId } from '../../core/declarations.js';
import { listQuerySchema, pageOf } from '../../core/list.js';
import { now } from '../../store/columns.js';
import type { Database } from '../../store/schema.js';
import { bindNamed, type DbType } from '../../connectors/sql/index.js';
import { assertApiScript } from './script.js';
import type { DatasourceTable } from '../../core/datasources.js';
import { checkParamList, paramsObject, rowsOf, testValues, type ParamRow } from './params.js';
import { PERM } from './perms.js';
import { alertingApis } from './monitor.js';
import type { ApiTable } from './tables.js';
import { audit } from './audit.js';
import { isSecretParam, planFor } from './plan.js';
import { checkPagingConfig, presentPaging } from './paging.js';

export const DESIGN_MSG = {
  groupRequired: '请选择分组',
  nameRequired: '请输入接口名',
  namePattern: '接口名只能包含字母、数字和下划线，且以字母开头（最多100个字符）',
  commentRequired: '请输入接口名称（中文）',
  commentTooLong: '接口名称（中文）不能超过100个字符',
  descTooLong: '描述不能超过255个字符',
  dsRequired: '请选择数据源',
  scriptRequired: '请配置脚本',
  cacheTime: '缓存时长只能是1到99999之间的整数（秒）',
  notFound: '接口不存在',
  groupNotFound: '分组不存在',
  waiting: '接口待审批中，不能修改',
  renameReleased: '接口已有发布版本，接口名不能再修改',
  duplicate: (name: string) => `接口名【${name}】已存在`,
  deleteOnline: '接口已上线，请先下线再删除',
  submitState: '只有草稿或已驳回的接口可以提交',
  submitIncomplete: '请先完成接口配置（数据源和脚本）再提交',
} as const;

export const API_STATUS = { draft: 0, waiting: 1, passed: 2, rejected: 3 } as const;
export const ONLINE_STATUS = { none: 0, online: 1, offline: 2 } as const;
const API_NAME = /^[A-Za-z][A-Za-z0-9_]{0,99}$/;

/** A stored API as read (every column plain). */
export type ApiRow = Selectable<ApiTable>;

export async function loadApi(db: Kysely<Database>, id: number): Promise<ApiRow> {
  const row = await db.selectFrom('gemini_api').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new BizError(DESIGN_MSG.notFound);
  return row as ApiRow;
}

async function groupName(db: Kysely<Database>, id: number): Promise<string | null> {
  return (await db.selectFrom('gemini_api_group').select('name').where('id', '=', id).executeTakeFirst())?.name ?? null;
}

/** spec §3 API.groupIds: the ids from the top group down to the API's own (the group tree select's path). */
async function groupPath(db: Kysely<Database>, id: number): Promise<number[]> {
  const parents = new Map((await db.selectFrom('gemini_api_group').select(['id', 'parent_id']).execute()).map((g) => [Number(g.id), Number(g.parent_id)]));
  const path: number[] = [];
  for (let at: number | undefined = id; at && parents.has(at) && !path.includes(at); at = parents.get(at)) path.unshift(at);
  return path;
}

/**
 * A newer version in the works while another serves (V1 online, V2 a draft, waiting, rejected or passed but
 * not online yet): its number, so that the screens show both (已上线 V1 · V2 待审批). Null otherwise.
 */
export function pendingOf(r: Pick<ApiRow, 'api_status' | 'online_status' | 'online_version' | 'latest_api_version'>): { pending: boolean; pendingVersion: number | null } {
  if (r.online_status !== ONLINE_STATUS.online || r.online_version == null) return { pending: false, pendingVersion: null };
  const latest = r.latest_api_version ?? 0;
  const next = r.api_status === API_STATUS.passed ? (latest > r.online_version ? latest : null) : latest + 1;
  return { pending: next != null, pendingVersion: next };
}

/** An API as the screens read it (spec §3 "API"). */
export function presentApi(r: ApiRow & { group_name?: string | null }) {
  return {
    id: r.id,
    groupId: r.group_id,
    groupName: r.group_name ?? null,
    apiNum: r.api_num,
    apiName: r.api_name,
    apiComment: r.api_comment,
    apiDesc: r.api_desc,
    apiPath: `/open/api/${r.api_name}`,
    latestApiVersion: r.latest_api_version,
    apiVersion: r.latest_api_version,
    onlineVersion: r.online_version,
    apiStatus: r.api_status,
    onlineStatus: r.online_status,
    designUser: r.design_user,
    designUserName: r.design_user_name,
    designTime: r.design_time,
    reqParamList: rowsOf(r.req_params),
    respParamList: rowsOf(r.resp_params),
    approveResult: r.approve_result,
    /** the design has a passed version: the detail's tag then shows the online status */
    resolve: r.latest_api_version != null,
    ...pendingOf(r),
    /** a passed version is not the one serving: 上线 applies */
    canOnline: r.latest_api_version != null && !(r.online_status === ONLINE_STATUS.online && r.online_version === r.latest_api_version),
    isPublic: r.is_public,
    dsName: r.ds_name,
    cacheable: r.cacheable,
    cacheTime: r.cache_time,
  };
}

/** An API's configuration (spec §3 "API config"); the config's id is the API's. */
export function presentConfig(r: ApiRow) {
  const req = rowsOf(r.req_params);
  return {
    id: r.id,
    apiId: r.id,
    apiName: r.api_name,
    apiComment: r.api_comment,
    apiVersion: r.latest_api_version,
    dsName: r.ds_name,
    cacheable: r.cacheable,
    cacheTime: r.cache_time,
    ...presentPaging(r),
    script: r.script,
    reqParamList: req,
    respParamList: rowsOf(r.resp_params),
    reqParams: JSON.stringify(paramsObject(req), null, 2),
    respResult: r.resp_result,
    querySql: r.query_sql,
    isPublic: r.is_public,
  };
}

/** Editing is open unless the design waits for approval; a passed or rejected design becomes a draft again. */
function assertEditable(row: ApiRow) {
  if (row.api_status === API_STATUS.waiting) throw new BizError(DESIGN_MSG.waiting);
}

const DESIGN_SORT: Record<string, string> = {
  apiNum: 'a.api_num',
  apiName: 'a.api_name',
  groupName: 'g.name',
  designUser: 'a.design_user',
  designTime: 'a.design_time',
  apiStatus: 'a.api_status',
};

const listFilters = {
  groupIds: { type: ['array', 'null'], maxItems: 5000, items: { type: 'integer' }, title: '分组' },
  designUser: { type: ['string', 'array', 'null'], maxLength: 64, maxItems: 100, items: { type: 'string', maxLength: 64 }, title: '设计人' },
  apiStatus: { type: ['integer', 'array', 'null'], maxItems: 10, items: { type: 'integer' }, title: '状态' },
  onlineStatus: { type: ['integer', 'array', 'null'], maxItems: 10, items: { type: 'integer' }, title: '上线状态' },
  dsName: { type: ['string', 'null'], maxLength: 100, title: '数据源' },
};
export const apiListSchema = listQuerySchema(listFilters);

const asList = <T>(v: T | T[] | null | undefined): T[] => (v == null ? [] : Array.isArray(v) ? v : [v]);

/** The design list and the approval list: one query, `scope` narrowing it (e.g. submitted designs only). */
export async function searchApis(db: Kysely<Database>, q: Record<string, any>, scope?: (qb: any) => any) {
  const filter = (qb: any) => {
    if (scope) qb = scope(qb);
    const text = typeof q.search === 'string' ? q.search.trim() : '';
    if (text) {
      const pat = likePattern(text.toLowerCase());
      qb = qb.where((eb: any) => eb.or(['a.api_num', 'a.api_name', 'a.api_desc', 'a.api_comment'].map((c) => sql<boolean>`lower(${sql.ref(c)}) like ${pat} escape '\\'`)));
    }
    const groupIds = asList<number>(q.groupIds);
    if (groupIds.length) qb = qb.where('a.group_id', 'in', groupIds);
    const users = asList<string>(q.designUser);
    if (users.length) qb = qb.where('a.design_user', 'in', users);
    const status = asList<number>(q.apiStatus);
    if (status.length) qb = qb.where('a.api_status', 'in', status);
    const online = asList<number>(q.onlineStatus);
    if (online.length) qb = qb.where('a.online_status', 'in', online);
    if (q.dsName) qb = qb.where('a.ds_name', '=', q.dsName);
    return qb;
  };
  const base = () => db.selectFrom('gemini_api as a').leftJoin('gemini_api_group as g', 'g.id', 'a.group_id');
  const win = pageOf(q, DESIGN_SORT);
  const total = await filter(base().select((eb: any) => eb.fn.countAll().as('n'))).executeTakeFirst();
  let rows = filter(base().selectAll('a').select('g.name as group_name'));
  rows = win.order ? rows.orderBy(win.order.column, win.order.dir).orderBy('a.id', 'desc') : rows.orderBy('a.id', 'desc');
  const records = (await rows.limit(win.limit).offset(win.offset).execute()).map((r: any) => {
    const { reqParamList: _req, respParamList: _resp, ...rest } = presentApi(r);
    return rest;
  });
  return { records, total: Number(total?.n ?? 0) };
}

const paramList = { type: ['array', 'string', 'null'], maxItems: 100, title: '参数' };
const designBody = {
  type: 'object',
  properties: {
    id: optionalId('编号'),
    groupId: optionalId('分组', 0),
    apiName: { type: ['string', 'null'], maxLength: 200, title: '接口名' },
    apiComment: { type: ['string', 'null'], maxLength: 200, title: '接口名称（中文）' },
    apiDesc: { type: ['string', 'null'], maxLength: 1000, title: '描述' },
    isPublic: { type: ['integer', 'boolean', 'null'], title: '公开' },
    reqParamList: paramList,
    respParamList: paramList,
  },
} as const;

const configBody = {
  type: 'object',
  properties: {
    id: optionalId('编号'),
    apiId: optionalId('接口'),
    dsName: { type: ['string', 'null'], maxLength: 100, title: '数据源' },
    cacheable: { type: ['integer', 'boolean', 'null'], title: '缓存' },
    cacheTime: { type: ['integer', 'string', 'null'], maxLength: 5, title: '缓存时长' },
    pageable: { type: ['integer', 'boolean', 'string', 'null'], maxLength: 1, title: '分页' },
    pageSizeMax: { type: ['integer', 'string', 'null'], maxLength: 5, title: '每页最大条数' },
    maxRows: { type: ['integer', 'string', 'null'], maxLength: 6, title: '最大返回行数' },
    script: { type: ['string', 'null'], maxLength: 100000, title: '脚本' },
    reqParamList: paramList,
    respParamList: paramList,
    reqParams: { type: ['string', 'object', 'null'], maxLength: 100000, title: '请求参数' },
    respResult: { type: ['string', 'object', 'array', 'null'], maxLength: 1000000, title: '响应结果' },
    querySql: { type: ['string', 'null'], maxLength: 200000, title: '执行SQL' },
  },
} as const;

const flag = (v: unknown): number => (v === true || v === 1 ? 1 : 0);

function cacheSeconds(cacheable: number, v: unknown): number | null {
  if (!cacheable) return v == null || v === '' ? null : cacheSecondsStrict(v);
  return cacheSecondsStrict(v);
}
function cacheSecondsStrict(v: unknown): number {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  if (!/^\d{1,5}$/.test(s) || Number(s) < 1) throw new BizError(DESIGN_MSG.cacheTime);
  return Number(s);
}

/** The JSON editor's text → overrides of the parameter values (the table and the JSON are kept in sync). */
function jsonOverrides(v: unknown): Record<string, unknown> {
  if (v == null || v === '') return {};
  return jsonObjectField(v, { notJson: '请求参数不是合法的 JSON', notObject: '请求参数必须是 JSON 对象（参数名: 值）' });
}

async function requireDatasource(app: FastifyInstance, dsName: unknown): Promise<DatasourceTable> {
  const name = typeof dsName === 'string' ? dsName.trim() : '';
  if (!name) throw new BizError(DESIGN_MSG.dsRequired);
  const ds = await app.sql.source('datasource', { dsName: name });
  if (!ds) throw new BizError(`数据源【${name.slice(0, 100)}】不存在`);
  return ds;
}

const literal = (v: unknown) => (v === null ? 'NULL' : typeof v === 'string' ? `'${v.replace(/'/g, "''")}'` : String(v));

/**
 * Runs a script with bound values; answers the rows and the SQL as the driver received it, with the bound
 * values listed beside it (never spliced into it).
 */
export async function runScript(app: FastifyInstance, req: FastifyRequest, ds: DatasourceTable, script: string, values: Record<string, unknown>, secrets: ReadonlySet<string> = new Set()) {
  assertApiScript(ds, script);
  let bound: { sql: string; values: unknown[] };
  let names: unknown[] = [];
  try {
    const dialect = String(ds.db_type).toLowerCase() as DbType;
    bound = bindNamed(script, values, dialect);
    // which placeholder carries which parameter: secret ones are listed as ****** (plan.ts isSecretParam)
    if (secrets.size) names = bindNamed(script, Object.fromEntries(Object.keys(values).map((k) => [k, k])), dialect).values;
  } catch (err) {
    throw new BizError(`执行失败：${(err as Error).message}`);
  }
  const res = await app.sql.run('datasource', ds, script, values, req);
  const shown = bound.values.map((v, i) => (secrets.has(String(names[i])) ? '******' : v));
  const list = shown.map((v, i) => `-- [${i + 1}] ${literal(v)}`).join('\n');
  return { res, querySql: list ? `${bound.sql}\n-- 绑定参数（按占位符顺序，绑定传入，不拼接）：\n${list}` : bound.sql, boundValues: shown };
}

/** The configuration as sent declares paging (its answer is cut to pages whatever the SQL says: no LIMIT warning). */
const declaresPaging = (b: { pageable?: unknown }) => b.pageable === true || b.pageable === 1 || b.pageable === '1';

export function designRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  app.post<{ Body: Record<string, any> }>('/design/search', { config: { perm: PERM.designList }, schema: { body: apiListSchema } }, async (req) => {
    const found = await searchApis(db, req.body ?? {});
    // an API whose alert rule fires is marked on the list (issue 25 §5: the 状态 column's 告警 tag)
    const alerting = await alertingApis(app, found.records.map((r: any) => Number(r.id)));
    return ok({ ...found, records: found.records.map((r: any) => ({ ...r, alerting: alerting.has(Number(r.id)) ? 1 : 0 })) });
  });

  app.get<{ Querystring: { id: number } }>('/design/info/get', { config: { perm: PERM.designList }, schema: { querystring: idQuery } }, async (req) => {
    const row = await loadApi(db, req.query.id);
    return ok({ ...presentApi({ ...row, group_name: await groupName(db, row.group_id) }), groupIds: await groupPath(db, row.group_id) });
  });

  app.post<{ Body: Record<string, any> }>('/design/info/save', { config: { perm: PERM.designList }, schema: { body: designBody } }, async (req) => {
    const b = req.body ?? {};
    const id = b.id ?? undefined;
    // one route for new and edited designs: which permission applies depends on the body
    assertPermission(req, id ? PERM.designEdit : PERM.designAdd);
    const stored = id ? await loadApi(db, id) : undefined;
    if (stored) assertEditable(stored);
    if (b.groupId == null || b.groupId === 0) throw new BizError(DESIGN_MSG.groupRequired);
    if (!(await groupName(db, b.groupId))) throw new BizError(DESIGN_MSG.groupNotFound);
    const apiName = typeof b.apiName === 'string' ? b.apiName.trim() : '';
    if (!apiName) throw new BizError(DESIGN_MSG.nameRequired);
    if (!API_NAME.test(apiName)) throw new BizError(DESIGN_MSG.namePattern);
    if (stored && stored.api_name !== apiName && stored.latest_api_version != null) throw new BizError(DESIGN_MSG.renameReleased);
    const apiComment = typeof b.apiComment === 'string' ? b.apiComment.trim() : '';
    if (!apiComment) throw new BizError(DESIGN_MSG.commentRequired);
    if ([...apiComment].length > 100) throw new BizError(DESIGN_MSG.commentTooLong);
    const apiDesc = typeof b.apiDesc === 'string' ? b.apiDesc : null;
    if (apiDesc && [...apiDesc].length > 255) throw new BizError(DESIGN_MSG.descTooLong);
    const reqRows = b.reqParamList === undefined ? rowsOf(stored?.req_params) : checkParamList(b.reqParamList, 'request');
    const respRows = b.respParamList === undefined ? rowsOf(stored?.resp_params) : checkParamList(b.respParamList, 'response');
    const time = now();
    const fields = {
      group_id: b.groupId,
      api_name: apiName,
      api_comment: apiComment,
      api_desc: apiDesc,
      req_params: JSON.stringify(reqRows),
      resp_params: JSON.stringify(respRows),
      is_public: b.isPublic === undefined ? (stored?.is_public ?? 0) : flag(b.isPublic),
      api_status: API_STATUS.draft,
      update_time: time,
    };
    try {
      const savedId = await db.transaction().execute(async (trx) => {
        if (stored) {
          await trx.updateTable('gemini_api').set(fields).where('id', '=', stored.id).execute();
          await audit(trx, stored.id, 'save', req);
          return stored.id;
        }
        const row = await trx
          .insertInto('gemini_api')
          .values({ ...fields, design_user: req.user!.username, design_user_name: req.user!.nickName, design_time: time, online_status: ONLINE_STATUS.none, online_seq: 0, cacheable: 0 })
          .returning('id')
          .executeTakeFirstOrThrow();
        const newId = Number(row.id);
        await trx.updateTable('gemini_api').set({ api_num: `API${String(newId).padStart(6, '0')}` }).where('id', '=', newId).execute();
        await audit(trx, newId, 'create', req);
        return newId;
      });
      return ok(savedId, '保存成功');
    } catch (err) {
      if (isUniqueViolation(err)) throw new BizError(DESIGN_MSG.duplicate(apiName));
      throw err;
    }
  });

  app.post<{ Body: { id?: number | null } }>(
    '/design/info/submit',
    { config: { perm: PERM.designSubmit }, schema: { body: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647, title: '编号' } } } } },
    async (req) => {
      const row = await loadApi(db, req.body.id!);
      if (row.api_status !== API_STATUS.draft && row.api_status !== API_STATUS.rejected) throw new BizError(DESIGN_MSG.submitState);
      if (!row.ds_name || !row.script) throw new BizError(DESIGN_MSG.submitIncomplete);
      const ds = await app.sql.source('datasource', { dsName: row.ds_name });
      if (ds) assertApiScript(ds, row.script);
      await db.transaction().execute(async (trx) => {
        // conditional on the state read above: two submits (or a submit racing an approval) cannot both pass
        const r = await trx.updateTable('gemini_api').set({ api_status: API_STATUS.waiting, update_time: now() }).where('id', '=', row.id).where('api_status', '=', row.api_status).executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) throw new BizError(DESIGN_MSG.submitState);
        await audit(trx, row.id, 'submit', req);
      });
      return ok(null, '提交成功');
    },
  );

  // 删除 moves the design to the recycle bin (issue 37): its rows (the design, its released versions and its
  // approval record) kept in the bin's entry, encrypted under this deployment's key (a parameter's value may be a
  // secret); 还原 writes them back under the same id, 彻底删除 and RECYCLE_DAYS drop the entry. Call statistics go.
  const binding = (id: number | string) => ({ table: 'gemini_api_recycle', id });
  app.get<{ Querystring: { id: number } }>('/design/delete', { config: { perm: PERM.designRemove }, schema: { querystring: idQuery } }, async (req) => {
    const row = await loadApi(db, req.query.id);
    if (row.online_status === ONLINE_STATUS.online) throw new BizError(DESIGN_MSG.deleteOnline);
    await db.transaction().execute(async (trx) => {
      const versions = await trx.selectFrom('gemini_api_version').selectAll().where('api_id', '=', row.id).execute();
      const audits = await trx.selectFrom('gemini_api_audit').selectAll().where('api_id', '=', row.id).execute();
      const sealed = app.secrets.encrypt(JSON.stringify({ api: row, versions, audits }), binding(row.id));
      const took = [`${versions.length} 个已定版本`, `${audits.length} 条审批记录`];
      await app.recycle.put('api', row.id, `${row.api_comment}（${row.api_name}）`, took, { sealed }, req, trx);
      for (const t of ['gemini_api_version', 'gemini_api_audit', 'gemini_api_call'] as const) await trx.deleteFrom(t).where('api_id', '=', row.id).execute();
      await trx.deleteFrom('gemini_api').where('id', '=', row.id).execute();
    });
    return ok(null, '删除成功');
  });
  app.recycle.register({
    kind: 'api',
    perm: PERM.designRemove,
    restore: async (key, payload: { sealed: string }) => {
      const { api, versions, audits } = JSON.parse(app.secrets.decrypt(payload.sealed, binding(key))) as { api: Record<string, unknown>; versions: Record<string, unknown>[]; audits: Record<string, unknown>[] };
      const notes: string[] = [];
      if (await db.selectFrom('gemini_api').select('id').where('api_name', '=', String(api.api_name)).executeTakeFirst()) throw new BizError(`接口名称【${String(api.api_name)}】已被另一个接口使用：请先改名或删除它`);
      const groupGone = !!api.group_id && !(await db.selectFrom('gemini_api_group').select('id').where('id', '=', Number(api.group_id)).executeTakeFirst());
      if (groupGone) notes.push('原来的分组已不存在，已放在第一个分组下');
      const firstGroup = groupGone ? ((await db.selectFrom('gemini_api_group').select('id').orderBy('id').executeTakeFirst())?.id ?? 0) : api.group_id;
      try {
        await db.transaction().execute(async (trx) => {
          await trx.insertInto('gemini_api').values({ ...(api as never as object), group_id: firstGroup } as never).execute();
          if (versions.length) await trx.insertInto('gemini_api_version').values(versions as never).execute();
          if (audits.length) await trx.insertInto('gemini_api_audit').values(audits as never).execute();
        });
      } catch (err) {
        // its name taken meanwhile, or a second restore of the same entry
        if (isUniqueViolation(err)) throw new BizError(`接口【${String(api.api_name)}】已经存在：可能已被还原，或名称已被另一个接口使用`);
        throw err;
      }
      return notes;
    },
    // the rows live only in the bin's entry: dropping the entry is the purge
    purge: async () => {},
  });

  // The remote filter of the designer column: name(account) of everyone who designed an API.
  app.get<{ Querystring: { search?: string } }>(
    '/design/designers',
    { config: { perm: PERM.designList }, schema: { querystring: { type: 'object', properties: { search: { type: 'string', maxLength: 20, title: '搜索' } } } } },
    async (req) => {
      let q = db.selectFrom('gemini_api').select(['design_user', 'design_user_name']).distinct();
      const text = (req.query.search ?? '').trim();
      if (text) {
        const pat = likePattern(text.toLowerCase());
        q = q.where((eb) => eb.or([sql<boolean>`lower(design_user) like ${pat} escape '\\'`, sql<boolean>`lower(design_user_name) like ${pat} escape '\\'`]));
      }
      const rows = await q.orderBy('design_user').limit(50).execute();
      return ok(rows.map((r) => ({ value: r.design_user, label: `${r.design_user_name}(${r.design_user})` })));
    },
  );

  // The version selector: released versions, newest first, and one version's frozen configuration.
  app.get<{ Querystring: { id: number } }>('/design/versions', { config: { perm: PERM.designList }, schema: { querystring: idQuery } }, async (req) => {
    const rows = await db.selectFrom('gemini_api_version').select(['version', 'approve_user', 'create_time']).where('api_id', '=', req.query.id).orderBy('version', 'desc').execute();
    return ok(rows.map((r) => ({ value: r.version, label: `V${r.version}`, approveUser: r.approve_user, createTime: r.create_time })));
  });
  app.get<{ Querystring: { id: number; version: number } }>(
    '/design/version/get',
    { config: { perm: PERM.designList }, schema: { querystring: { type: 'object', required: ['id', 'version'], properties: { id: idQuery.properties.id, version: { type: 'integer', minimum: 1, maximum: 1000000, title: '版本' } } } } },
    async (req) => {
      const api = await loadApi(db, req.query.id);
      const v = await db.selectFrom('gemini_api_version').selectAll().where('api_id', '=', api.id).where('version', '=', req.query.version).executeTakeFirst();
      if (!v) throw new BizError(`版本 V${req.query.version} 不存在`);
      return ok({ ...presentConfig({ ...api, ...v, id: api.id } as ApiRow), apiVersion: v.version, approveUser: v.approve_user, approveResult: v.approve_result, createTime: v.create_time });
    },
  );

  app.get<{ Querystring: { apiId: number } }>(
    '/config/get',
    { config: { perm: PERM.designList }, schema: { querystring: { type: 'object', required: ['apiId'], properties: { apiId: { type: 'integer', minimum: 1, maximum: 2147483647, title: '接口' } } } } },
    async (req) => ok(presentConfig(await loadApi(db, req.query.apiId))),
  );

  app.post<{ Body: Record<string, any> }>('/config/save', { config: { perm: PERM.designEdit }, schema: { body: configBody } }, async (req) => {
    const b = req.body ?? {};
    const apiId = b.apiId ?? b.id;
    if (!apiId) throw new BizError('缺少接口编号（apiId）');
    const row = await loadApi(db, apiId);
    assertEditable(row);
    const ds = await requireDatasource(app, b.dsName);
    const script = typeof b.script === 'string' ? b.script : '';
    if (!script.trim()) throw new BizError(DESIGN_MSG.scriptRequired);
    assertApiScript(ds, script);
    const cacheable = flag(b.cacheable);
    const reqRows = b.reqParamList === undefined ? rowsOf(row.req_params) : checkParamList(b.reqParamList, 'request');
    // the JSON editor's values win over the table's (both are sent; the screen keeps them in sync)
    const overrides = jsonOverrides(b.reqParams);
    const synced: ParamRow[] = reqRows.map((r) => (Object.hasOwn(overrides, r.paramName) ? { ...r, paramValue: overrides[r.paramName] as ParamRow['paramValue'] } : r));
    checkParamList(synced, 'request');
    const paging = checkPagingConfig(b, script, synced.map((r) => r.paramName));
    const respRows = b.respParamList === undefined ? rowsOf(row.resp_params) : checkParamList(b.respParamList, 'response');
    const text = (v: unknown) => (v == null ? null : typeof v === 'string' ? v : JSON.stringify(v));
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('gemini_api')
        .set({
          ds_name: ds.ds_name,
          cacheable,
          cache_time: cacheSeconds(cacheable, b.cacheTime),
          ...paging,
          script,
          req_params: JSON.stringify(synced),
          resp_params: JSON.stringify(respRows),
          resp_result: text(b.respResult)?.slice(0, 1_000_000) ?? row.resp_result,
          query_sql: text(b.querySql) ?? row.query_sql,
          api_status: API_STATUS.draft,
          update_time: now(),
        })
        .where('id', '=', row.id)
        .execute();
      await audit(trx, row.id, 'config', req);
    });
    return ok(row.id, '保存成功');
  });

  // The test button: runs the configuration as sent (not yet saved) with the parameter values shown.
  app.post<{ Body: Record<string, any> }>('/execute', { config: { perm: PERM.designExecute }, schema: { body: configBody } }, async (req) => {
    const b = req.body ?? {};
    const ds = await requireDatasource(app, b.dsName);
    const script = typeof b.script === 'string' ? b.script : '';
    if (!script.trim()) throw new BizError(DESIGN_MSG.scriptRequired);
    const rows = checkParamList(b.reqParamList ?? [], 'request');
    const values = testValues(rows, jsonOverrides(b.reqParams));
    const secrets = new Set(rows.filter(isSecretParam).map((r) => r.paramName));
    const { res, querySql, boundValues } = await runScript(app, req, ds, script, values, secrets);
    // the test pane shows the plan beside the rows: taken by EXPLAIN, after the run, never failing the run
    const plan = await planFor(app, req, ds, script, rows, values, { paged: declaresPaging(b) }).then(
      (p) => ({ plan: p, planError: null }),
      (err: Error) => ({ plan: null, planError: err.message }),
    );
    return ok({ respResult: res.rows, columns: res.columns, rowCount: res.rowCount, truncated: res.truncated ?? false, querySql, boundValues, ...plan }, '测试完成');
  });

  // The plan only (issue 25 item 3): the configuration as sent, its values bound, EXPLAIN only — nothing runs.
  app.post<{ Body: Record<string, any> }>('/design/plan', { config: { perm: PERM.designExecute }, schema: { body: configBody } }, async (req) => {
    const b = req.body ?? {};
    const ds = await requireDatasource(app, b.dsName);
    const script = typeof b.script === 'string' ? b.script : '';
    if (!script.trim()) throw new BizError(DESIGN_MSG.scriptRequired);
    const rows = checkParamList(b.reqParamList ?? [], 'request');
    return ok(await planFor(app, req, ds, script, rows, testValues(rows, jsonOverrides(b.reqParams)), { paged: declaresPaging(b) }));
  });
}
