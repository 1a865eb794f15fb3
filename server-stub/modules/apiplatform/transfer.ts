// Export and import of API groups and APIs (issue 25 §6): how an API moves from one deployment to another.
// The file holds each API's current online version (what runs: data source name, SQL, parameters, cache, paging)
// and the path of its group, checked against schemas/meta/api-export.schema.json (published: GET
// /api/gemini/api/transfer/schema). An import never carries a key, a password or an approval: the schema allows
// none, and every API arrives as a draft that must be submitted and approved again. An API whose name exists is a
// conflict the importer settles per API: skip it, or make the file's configuration the existing API's new draft
// (its online version keeps serving until the new one is approved). All or nothing, in one transaction.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { assertPermission } from '../../core/auth.js';
import { BizError, ok } from '../../core/envelope.js';
import { attachment } from '../../core/csv.js';
import { now } from '../../store/columns.js';
import type { Database } from '../../store/schema.js';
import { describeAjvErrors } from '../../../common/ajv-messages.js';
import type { API as ApiExportFile } from '../../../schemas/generated/api-export.js';
import { audit } from './audit.js';
import { freeKey } from '../../core/workspace.js';
import { API_STATUS, ONLINE_STATUS } from './design.js';
import { checkPagingConfig } from './paging.js';
import { checkParamList, rowsOf } from './params.js';
import { isSecretParam } from './plan.js';
import { PERM } from './perms.js';

type FileApi = ApiExportFile['apis'][number];
export type ImportDecision = 'skip' | 'newVersion';

export const TRANSFER_MSG = {
  notJson: '文件不是合法的 JSON',
  empty: '文件中没有接口',
  decision: (name: string) => `接口【${name}】已存在：请选择跳过或新建版本`,
  invalid: (name: string, why: string) => `接口【${name}】不能导入：${why}`,
  nothing: '没有要导入的接口（全部跳过）',
  done: (created: number, updated: number, skipped: number) => `导入完成：新建 ${created} 个，新版本 ${updated} 个，跳过 ${skipped} 个；均为草稿，提交审批通过后才能上线`,
} as const;

/** The group tree as paths of names, by id. */
async function groupPaths(db: Kysely<Database>): Promise<Map<number, string[]>> {
  const rows = await db.selectFrom('gemini_api_group').select(['id', 'parent_id', 'name']).execute();
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const out = new Map<number, string[]>();
  const pathOf = (id: number, seen = new Set<number>()): string[] => {
    const hit = out.get(id);
    if (hit) return hit;
    const r = byId.get(id);
    if (!r || seen.has(id)) return [];
    seen.add(id);
    const p = [...(Number(r.parent_id) ? pathOf(Number(r.parent_id), seen) : []), r.name];
    out.set(id, p);
    return p;
  };
  for (const id of byId.keys()) pathOf(id);
  return out;
}

/** The file's text or object as a checked export file (Chinese reasons for what is wrong). */
function readFile(app: FastifyInstance, raw: unknown): ApiExportFile {
  let data = raw;
  if (typeof raw === 'string') {
    try {
      data = JSON.parse(raw);
    } catch {
      throw new BizError(TRANSFER_MSG.notJson);
    }
  }
  const check = app.ctx.schemas.validators['api-export.schema.json'];
  if (!check(data)) throw new BizError(`文件不符合 API 导出格式：${describeAjvErrors(check.errors, { root: '文件' }).slice(0, 3).join('；')}`);
  const file = data as ApiExportFile;
  if (file.apis.length === 0) throw new BizError(TRANSFER_MSG.empty);
  const names = new Set<string>();
  for (const a of file.apis) {
    if (names.has(a.apiName)) throw new BizError(`文件中接口【${a.apiName}】出现了不止一次`);
    names.add(a.apiName);
  }
  return file;
}

interface Judged {
  api: FileApi;
  status: 'new' | 'conflict' | 'invalid';
  reason?: string;
  existing?: { id: number; api_status: number };
  fields?: ReturnType<typeof configFields>;
}

/** The draft columns the file's API sets, checked as a config save checks them. */
function configFields(a: FileApi) {
  const req = checkParamList(a.reqParams ?? [], 'request');
  const resp = checkParamList(a.respParams ?? [], 'response');
  const paging = checkPagingConfig({ pageable: a.pageable, pageSizeMax: a.pageSizeMax, maxRows: a.maxRows }, a.script, req.map((r) => r.paramName));
  return {
    api_comment: a.apiComment,
    api_desc: a.apiDesc ?? null,
    ds_name: a.dsName,
    script: a.script,
    req_params: JSON.stringify(req),
    resp_params: JSON.stringify(resp),
    cacheable: a.cacheable ?? 0,
    cache_time: a.cacheable ? (a.cacheTime ?? 60) : (a.cacheTime ?? null),
    is_public: a.isPublic ?? 0,
    ...paging,
  };
}

async function judge(app: FastifyInstance, file: ApiExportFile): Promise<Judged[]> {
  const { db } = app.ctx;
  const existing = new Map(
    (await db.selectFrom('gemini_api').select(['id', 'api_name', 'api_status']).where('api_name', 'in', file.apis.map((a) => a.apiName)).execute()).map((r) => [r.api_name, { id: Number(r.id), api_status: Number(r.api_status) }]),
  );
  const out: Judged[] = [];
  for (const api of file.apis) {
    const found = existing.get(api.apiName);
    let fields: Judged['fields'];
    let reason: string | undefined;
    try {
      fields = configFields(api);
      if (!(await app.sql.source('datasource', { dsName: api.dsName }))) reason = `数据源【${api.dsName}】在本环境不存在，请先添加同名数据源`;
      else if (found && found.api_status === API_STATUS.waiting) reason = '该接口正在审批中，审批结束后才能导入新版本';
    } catch (e) {
      reason = e instanceof BizError ? e.message : String(e);
    }
    out.push({ api, status: reason ? 'invalid' : found ? 'conflict' : 'new', reason, existing: found, fields });
  }
  return out;
}

const present = (j: Judged) => ({
  apiName: j.api.apiName,
  apiComment: j.api.apiComment,
  group: j.api.group.join(' / '),
  dsName: j.api.dsName,
  version: j.api.version ?? null,
  status: j.status,
  reason: j.reason ?? null,
});

/** The id of the group at `path`, made (with its parents) where missing. */
async function groupAt(trx: Kysely<Database>, path: readonly string[], time: string): Promise<number> {
  let parent = 0;
  for (const name of path) {
    const hit = await trx.selectFrom('gemini_api_group').select('id').where('parent_id', '=', parent).where('name', '=', name).executeTakeFirst();
    if (hit) {
      parent = Number(hit.id);
      continue;
    }
    const sortNo = Number((await trx.selectFrom('gemini_api_group').select((eb) => eb.fn.countAll().as('n')).where('parent_id', '=', parent).executeTakeFirst())?.n ?? 0);
    const row = await trx.insertInto('gemini_api_group').values({ name, parent_id: parent, sort_no: sortNo, create_time: time, update_time: time }).returning('id').executeTakeFirstOrThrow();
    parent = Number(row.id);
  }
  return parent;
}

/** An API's runnable configuration (its online version, or its draft) as the file holds it. */
type RunnableRow = {
  api_name: string;
  api_comment: string;
  api_desc: string | null;
  group_id: number;
  version?: number | null;
  ds_name: string | null;
  script: string | null;
  req_params: string | null;
  resp_params: string | null;
  cacheable: number | null;
  cache_time: number | null;
  is_public: number | null;
  pageable?: number | null;
  page_size_max?: number | null;
  max_rows?: number | null;
};
function fileApiOf(r: RunnableRow, paths: Map<number, string[]>): FileApi {
  return {
    apiName: r.api_name,
    apiComment: r.api_comment,
    apiDesc: r.api_desc,
    group: paths.get(Number(r.group_id)) ?? ['未分组'],
    ...(r.version ? { version: r.version } : {}),
    dsName: r.ds_name ?? '',
    script: r.script ?? '',
    // a sensitive parameter's value never leaves in a file (issue 25: an import carries no password)
    reqParams: rowsOf(r.req_params).map((p) => (isSecretParam(p) ? { ...p, paramValue: '' } : p)) as unknown as Record<string, unknown>[],
    respParams: rowsOf(r.resp_params) as unknown as Record<string, unknown>[],
    cacheable: r.cacheable ? 1 : 0,
    cacheTime: r.cache_time,
    isPublic: r.is_public ? 1 : 0,
    pageable: r.pageable ? 1 : 0,
    pageSizeMax: r.page_size_max ?? null,
    maxRows: r.max_rows ?? null,
  };
}

/**
 * Writes one API of a file as a draft (new, or the existing API's new draft: its online version keeps serving until
 * the new one is approved), in the import's transaction; answers whether it was new.
 */
async function writeDraft(trx: Kysely<Database>, api: FileApi, fields: ReturnType<typeof configFields>, existingId: number | null, req: FastifyRequest, time: string, name = api.apiName): Promise<void> {
  const values = { ...fields, group_id: await groupAt(trx, api.group, time), api_status: API_STATUS.draft, update_time: time };
  const comment = api.version ? `导入（来源版本 V${api.version}）` : '导入';
  if (existingId) {
    await trx.updateTable('gemini_api').set(values).where('id', '=', existingId).execute();
    await audit(trx, existingId, 'import', req, { comment });
    return;
  }
  const row = await trx
    .insertInto('gemini_api')
    .values({ ...values, api_name: name, design_user: req.user!.username, design_user_name: req.user!.nickName, design_time: time, online_status: ONLINE_STATUS.none, online_seq: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  await trx.updateTable('gemini_api').set({ api_num: `API${String(id).padStart(6, '0')}` }).where('id', '=', id).execute();
  await audit(trx, id, 'import', req, { comment });
}

/**
 * API designs in a workspace export and import (issue 37 item 3): an API by its name, its current design (the
 * draft configuration) in the API export's form, its data source by name (mapped on import). An import checks it
 * as a config save does and writes it as a draft that must be submitted and approved here.
 */
export function registerApiWorkspace(app: FastifyInstance) {
  const { db } = app.ctx;
  const draftColumns = ['api_name', 'api_comment', 'api_desc', 'group_id', 'ds_name', 'script', 'req_params', 'resp_params', 'cacheable', 'cache_time', 'is_public', 'pageable', 'page_size_max', 'max_rows'] as const;
  const asItem = async (key: string) => {
    const r = await db.selectFrom('gemini_api').select(draftColumns).where('api_name', '=', key).executeTakeFirst();
    if (!r) return null;
    const api = fileApiOf(r as RunnableRow, await groupPaths(db));
    return { kind: 'api' as const, key: api.apiName, title: api.apiComment, content: api as unknown as Record<string, unknown>, dataSources: api.dsName ? [api.dsName] : [] };
  };
  app.workspace.register<{ api: FileApi; fields: ReturnType<typeof configFields>; existingId: number | null; name: string }>({
    kind: 'api',
    readPerm: PERM.designList,
    writePerm: PERM.designAdd,
    list: async () => (await db.selectFrom('gemini_api').select(['api_name', 'api_comment']).orderBy('api_name').execute()).map((r) => ({ key: r.api_name, title: `${r.api_comment}（${r.api_name}）` })),
    read: (key) => asItem(key),
    existing: (key) => asItem(key),
    prepare: async (item, ctx, mode, key) => {
      const check = app.ctx.schemas.validators['api-export.schema.json'];
      const probe = { format: 'dsc-api-export', formatVersion: 1, apis: [item.content] };
      if (!check(probe)) throw new BizError(`接口内容不符合 API 导出格式：${describeAjvErrors(check.errors, { root: '接口' }).slice(0, 3).join('；')}`);
      if (!/^[A-Za-z][A-Za-z0-9_]{0,99}$/.test(key)) throw new BizError('接口名称须以字母开头，只能包含字母、数字和下划线');
      const file = item.content as unknown as FileApi;
      // an API not yet configured names no data source
      const api = { ...file, apiName: key, dsName: file.dsName ? ctx.dataSource(file.dsName).name : '' };
      const found = mode === 'replace' ? await db.selectFrom('gemini_api').select(['id', 'api_status']).where('api_name', '=', key).executeTakeFirst() : undefined;
      if (found && Number(found.api_status) === API_STATUS.waiting) throw new BizError('该接口正在审批中，审批结束后才能导入新版本');
      // a new draft of an existing API is an edit of it
      if (found) assertPermission(ctx.req, PERM.designEdit);
      return { api, fields: { ...configFields(api), ds_name: api.dsName }, existingId: found ? Number(found.id) : null, name: key };
    },
    write: async (p, on, ctx) => {
      await writeDraft(on, p.api, p.fields, p.existingId, ctx.req, now(), p.name);
      return p.name;
    },
    copyKey: (key) => freeKey(key, 100, async (n) => !!(await db.selectFrom('gemini_api').select('id').where('api_name', '=', n).executeTakeFirst())),
  });
}

const exportBody = {
  type: ['object', 'null'],
  properties: {
    search: { type: ['string', 'null'], maxLength: 100, title: '搜索' },
    groupIds: { type: ['array', 'null'], maxItems: 5000, items: { type: 'integer' }, title: '分组' },
  },
} as const;
const fileBody = {
  type: 'object',
  required: ['file'],
  properties: {
    file: { type: ['string', 'object'], maxLength: 20_000_000, title: '文件' },
    decisions: { type: ['object', 'null'], maxProperties: 1000, additionalProperties: { enum: ['skip', 'newVersion'] }, title: '处理方式' },
  },
} as const;

export function transferRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  // the published format, for whoever writes or checks such files
  app.get('/transfer/schema', { config: { perm: PERM.designList } }, async () => app.ctx.schemas.validators['api-export.schema.json'].schema);

  // the online version of every API in the list's current search (side tree groups, search text)
  app.post<{ Body: { search?: string | null; groupIds?: number[] | null } | null }>('/transfer/export', { config: { perm: PERM.designList }, schema: { body: exportBody } }, async (req, reply) => {
    const b = req.body ?? {};
    let q = db
      .selectFrom('gemini_api as a')
      .innerJoin('gemini_api_version as v', (j) => j.onRef('v.api_id', '=', 'a.id').onRef('v.version', '=', 'a.online_version'))
      .select(['a.api_name', 'a.api_comment', 'a.api_desc', 'a.group_id', 'v.version', 'v.ds_name', 'v.script', 'v.req_params', 'v.resp_params', 'v.cacheable', 'v.cache_time', 'v.is_public', 'v.pageable', 'v.page_size_max', 'v.max_rows'])
      .where('a.online_status', '=', ONLINE_STATUS.online)
      .orderBy('a.api_name');
    if (b.groupIds?.length) q = q.where('a.group_id', 'in', b.groupIds);
    const search = (b.search ?? '').trim().toLowerCase();
    const rows = (await q.execute()).filter((r) => !search || [r.api_name, r.api_comment, r.api_desc ?? ''].some((t) => t.toLowerCase().includes(search)));
    const paths = await groupPaths(db);
    const file: ApiExportFile = {
      format: 'dsc-api-export',
      formatVersion: 1,
      exportedAt: now(),
      groups: [...new Set(rows.map((r) => JSON.stringify(paths.get(Number(r.group_id)) ?? ['未分组'])))].map((p) => JSON.parse(p) as string[]),
      apis: rows.map((r) => fileApiOf(r, paths)),
    };
    const day = now().slice(0, 10).replace(/-/g, '');
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', attachment(`API导出-${day}.json`, `apis-${day}.json`))
      .send(JSON.stringify(file, null, 2));
  });

  // what an import would do, per API: new, a conflict to settle, or refused with its reason
  app.post<{ Body: { file: unknown } }>('/transfer/check', { config: { perm: PERM.designAdd }, schema: { body: fileBody } }, async (req) => {
    const judged = await judge(app, readFile(app, req.body.file));
    return ok({ items: judged.map(present) });
  });

  app.post<{ Body: { file: unknown; decisions?: Record<string, ImportDecision> | null } }>('/transfer/import', { config: { perm: PERM.designAdd }, schema: { body: fileBody } }, async (req) => {
    const judged = await judge(app, readFile(app, req.body.file));
    const decisions = req.body.decisions ?? {};
    const toImport: Judged[] = [];
    let skipped = 0;
    for (const j of judged) {
      const d = decisions[j.api.apiName];
      if (d === 'skip') {
        skipped++;
        continue;
      }
      if (j.status === 'invalid') throw new BizError(TRANSFER_MSG.invalid(j.api.apiName, j.reason!));
      if (j.status === 'conflict' && d !== 'newVersion') throw new BizError(TRANSFER_MSG.decision(j.api.apiName));
      toImport.push(j);
    }
    if (toImport.length === 0) throw new BizError(TRANSFER_MSG.nothing);
    // a new version of an existing API is an edit of it
    if (toImport.some((j) => j.status === 'conflict')) assertPermission(req, PERM.designEdit);
    const time = now();
    let created = 0;
    let updated = 0;
    await db.transaction().execute(async (trx) => {
      for (const j of toImport) {
        await writeDraft(trx, j.api, j.fields!, j.status === 'conflict' ? j.existing!.id : null, req, time);
        if (j.status === 'conflict') updated++;
        else created++;
      }
    });
    return ok({ created, updated, skipped }, TRANSFER_MSG.done(created, updated, skipped));
  });
}
