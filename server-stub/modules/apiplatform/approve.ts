// Approval (spec part 2 "API approval list", "API approval", §4 transitions, §7 approve calls) and the
// online / offline moves that are ours.
//
// waiting 1 → pass 2 (a new immutable version Vn is frozen from the draft) or reject 3;
// pass and go online also makes Vn the served version. Every move is conditional on the state it was
// decided from, so two approvers (or an approval racing an edit) cannot both succeed.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { assertPermission } from '../../core/auth.js';
import { BizError, ok } from '../../core/envelope.js';
import { idQuery } from '../../core/declarations.js';
import { hasPermission } from '../../core/permissions.js';
import { now } from '../../store/columns.js';
import type { Database } from '../../store/schema.js';
import { audit } from './audit.js';
import { API_STATUS, ONLINE_STATUS, apiListSchema, loadApi, presentApi, presentConfig, searchApis, type ApiRow } from './design.js';
import { PERM } from './perms.js';
import { datasourceTarget } from '../../core/datasources.js';
import { isSecretParam, maskStrings, planFor, PLAN_MSG, secretTextsOf, type ApiPlan } from './plan.js';
import { rowsOf, testValues, type ParamRow } from './params.js';
import { pagingOf } from './paging.js';

export const APPROVE_MSG = {
  notWaiting: '接口不在待审批状态，不能审批',
  ownSubmission: '不能审批自己设计或提交的接口',
  commentTooLong: '审批意见不能超过255个字符',
  noVersion: '接口还没有审批通过的版本，不能上线',
  alreadyOnline: '当前版本已经在线',
  notOnline: '接口未上线，不能下线',
  cmdMismatch: '审批动作与请求的操作不一致',
  noSource: '接口的数据源不存在，不能审批通过',
} as const;

const approveBody = {
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'integer', minimum: 1, maximum: 2147483647, title: '编号' },
    approveCmdType: { type: ['string', 'null'], maxLength: 30, title: '审批动作' },
    approveResult: { type: ['string', 'null'], maxLength: 1000, title: '审批意见' },
    costReason: { type: ['string', 'null'], maxLength: 2000, title: '超限理由' },
  },
} as const;

type Decision = 'resolve' | 'reject' | 'resolveAndOnline';

/** The designer and the last submitter may not approve (sys_admin, holding *:*:*, aside). */
async function assertNotOwn(db: Kysely<Database>, req: FastifyRequest, row: ApiRow) {
  const me = req.user!;
  if (hasPermission(me.permissions, '*:*:*')) return;
  const lastSubmit = await db.selectFrom('gemini_api_audit').select('user_name').where('api_id', '=', row.id).where('action', '=', 'submit').orderBy('id', 'desc').executeTakeFirst();
  if (row.design_user === me.username || lastSubmit?.user_name === me.username) throw new BizError(APPROVE_MSG.ownSubmission);
}

/** Makes `version` the served one; the online sequence moves so every cached answer of the old one dies. */
async function goOnline(trx: Kysely<Database>, row: ApiRow, version: number) {
  await trx.updateTable('gemini_api').set({ online_status: ONLINE_STATUS.online, online_version: version, online_seq: row.online_seq + 1, update_time: now() }).where('id', '=', row.id).execute();
}

/**
 * The plan of the draft under approval, as its calls would run it: its SQL with the request parameters' stored
 * values (a call's defaults) bound.
 */
async function draftPlan(app: FastifyInstance, req: FastifyRequest, row: ApiRow): Promise<ApiPlan> {
  if (!row.ds_name || !row.script) throw new BizError('接口未配置数据源或脚本，无法获取执行计划');
  const ds = await app.sql.source('datasource', { dsName: row.ds_name });
  if (!ds) throw new BizError(APPROVE_MSG.noSource);
  const rows = rowsOf(row.req_params) as ParamRow[];
  let values: Record<string, unknown>;
  try {
    values = testValues(rows);
  } catch (err) {
    throw new BizError(`获取执行计划失败：${(err as Error).message}`);
  }
  return planFor(app, req, ds, row.script, rows, values, { paged: pagingOf(row).pageable });
}

/** The approver reads the request parameters' values, never a secret one's. */
const maskSecrets = (rows: ParamRow[]) => rows.map((r) => (isSecretParam(r) && r.paramValue != null && r.paramValue !== '' ? { ...r, paramValue: '******' } : r));

export function approveRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  // The plan of the version under approval, shown beside the diff, with whether passing it needs a reason.
  app.get<{ Querystring: { id: number } }>('/approve/plan', { config: { perm: PERM.approveList }, schema: { querystring: idQuery } }, async (req) => {
    const row = await loadApi(db, req.query.id);
    return ok(await draftPlan(app, req, row));
  });

  // every design that has been submitted (waiting, passed, rejected)
  app.post<{ Body: Record<string, any> }>('/approve/search', { config: { perm: PERM.approveList }, schema: { body: apiListSchema } }, async (req) =>
    ok(await searchApis(db, req.body ?? {}, (qb) => qb.where('a.api_status', '<>', API_STATUS.draft))),
  );

  // What the approver compares: the submitted draft beside the version online now.
  app.get<{ Querystring: { id: number } }>('/approve/info', { config: { perm: PERM.approveList }, schema: { querystring: idQuery } }, async (req) => {
    const row = await loadApi(db, req.query.id);
    const group = await db.selectFrom('gemini_api_group').select('name').where('id', '=', row.group_id).executeTakeFirst();
    const online = row.online_version != null ? await db.selectFrom('gemini_api_version').selectAll().where('api_id', '=', row.id).where('version', '=', row.online_version).executeTakeFirst() : undefined;
    const api = presentApi({ ...row, group_name: group?.name ?? null });
    const submitted = presentConfig(row);
    const onlineConfig = online ? presentConfig({ ...row, ...online, id: row.id } as ApiRow) : null;
    // a secret's stored value may also sit in the last test's SQL listing (saved before secrets were masked there)
    const secretTexts = [submitted.reqParamList, onlineConfig?.reqParamList ?? []].flatMap((list) => secretTextsOf(list, Object.fromEntries(list.map((r) => [r.paramName, r.paramValue]))));
    return maskStrings(ok({
      api: { ...api, reqParamList: maskSecrets(api.reqParamList) },
      submitted: { ...submitted, reqParamList: maskSecrets(submitted.reqParamList), reqParams: undefined },
      online: onlineConfig ? { ...onlineConfig, reqParamList: maskSecrets(onlineConfig.reqParamList), reqParams: undefined, apiVersion: online!.version, isPublic: online!.is_public } : null,
    }), secretTexts);
  });

  const decide = (decision: Decision) => async (req: FastifyRequest<{ Body: { id: number; approveCmdType?: string | null; approveResult?: string | null; costReason?: string | null } }>) => {
    // the route decides; a form that names another action was built for another button
    if (req.body.approveCmdType && req.body.approveCmdType !== decision) throw new BizError(APPROVE_MSG.cmdMismatch);
    const comment = (req.body.approveResult ?? '').trim() || null;
    if (comment && [...comment].length > 255) throw new BizError(APPROVE_MSG.commentTooLong);
    const row = await loadApi(db, req.body.id);
    if (row.api_status !== API_STATUS.waiting) throw new BizError(APPROVE_MSG.notWaiting);
    await assertNotOwn(db, req, row);
    if (decision === 'resolveAndOnline') assertPermission(req, PERM.online);
    const user = req.user!.username;
    // the database approved against: a version refuses to run once its data source points elsewhere
    const source = decision === 'reject' || !row.ds_name ? undefined : await app.sql.source('datasource', { dsName: row.ds_name });
    // nothing to bind the version to: whatever later takes the name would run the approved SQL
    if (decision !== 'reject' && !source) throw new BizError(APPROVE_MSG.noSource);
    // the cost guard: a plan estimated above the threshold passes only with the approver's reason (kept in the audit)
    const costReason = (req.body.costReason ?? '').trim() || null;
    if (costReason && [...costReason].length > 500) throw new BizError(PLAN_MSG.reasonTooLong);
    let planRows: number | null = null;
    if (decision !== 'reject') {
      // a plan that cannot be taken (the database down, a text EXPLAIN refuses) is no pass: a reason is asked for too
      const plan = await draftPlan(app, req, row).catch((err: Error) => err);
      if (plan instanceof Error) {
        if (!costReason) throw new BizError(PLAN_MSG.noPlan(plan.message.replace(/^获取执行计划失败：/, '').slice(0, 200)));
      } else {
        planRows = plan.guardRows;
        if (plan.reasonRequired && !costReason) throw new BizError(PLAN_MSG.reasonRequired(plan.guardRows, plan.threshold, plan.guardCapped));
      }
    }
    await db.transaction().execute(async (trx) => {
      const next = decision === 'reject' ? API_STATUS.rejected : API_STATUS.passed;
      const version = decision === 'reject' ? row.latest_api_version : (row.latest_api_version ?? 0) + 1;
      const moved = await trx
        .updateTable('gemini_api')
        .set({ api_status: next, approve_result: comment, latest_api_version: version, update_time: now() })
        .where('id', '=', row.id)
        .where('api_status', '=', API_STATUS.waiting)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) throw new BizError(APPROVE_MSG.notWaiting);
      if (decision === 'reject') {
        await audit(trx, row.id, 'reject', req, { comment });
        return;
      }
      await trx
        .insertInto('gemini_api_version')
        .values({
          api_id: row.id,
          version: version!,
          api_comment: row.api_comment,
          ds_name: row.ds_name,
          ds_target: source ? datasourceTarget(source) : null,
          cacheable: row.cacheable,
          cache_time: row.cache_time,
          pageable: row.pageable ?? 0,
          page_size_max: row.page_size_max ?? null,
          max_rows: row.max_rows ?? null,
          script: row.script,
          req_params: row.req_params,
          resp_params: row.resp_params,
          is_public: row.is_public,
          approve_user: user,
          approve_result: comment,
          create_time: now(),
        })
        .execute();
      await audit(trx, row.id, 'resolve', req, { version, comment, costReason, planRows });
      if (decision === 'resolveAndOnline') {
        await goOnline(trx, row, version!);
        await audit(trx, row.id, 'online', req, { version });
      }
    });
    return ok(null, decision === 'reject' ? '审批驳回完成' : decision === 'resolve' ? '审批通过成功' : '审批并上线成功');
  };
  app.post('/approve/resolve', { config: { perm: PERM.approve }, schema: { body: approveBody } }, decide('resolve'));
  app.post('/approve/reject', { config: { perm: PERM.approve }, schema: { body: approveBody } }, decide('reject'));
  app.post('/approve/resolveAndOnline', { config: { perm: PERM.approve }, schema: { body: approveBody } }, decide('resolveAndOnline'));

  // Puts the latest passed version online (after a plain pass), or back online after being taken offline.
  app.get<{ Querystring: { id: number } }>('/approve/online', { config: { perm: PERM.online }, schema: { querystring: idQuery } }, async (req) => {
    const row = await loadApi(db, req.query.id);
    const version = row.latest_api_version;
    if (version == null) throw new BizError(APPROVE_MSG.noVersion);
    if (row.online_status === ONLINE_STATUS.online && row.online_version === version) throw new BizError(APPROVE_MSG.alreadyOnline);
    await db.transaction().execute(async (trx) => {
      await goOnline(trx, row, version);
      await audit(trx, row.id, 'online', req, { version });
    });
    return ok(null, '上线成功');
  });

  app.get<{ Querystring: { id: number } }>('/approve/offline', { config: { perm: PERM.online }, schema: { querystring: idQuery } }, async (req) => {
    const row = await loadApi(db, req.query.id);
    if (row.online_status !== ONLINE_STATUS.online) throw new BizError(APPROVE_MSG.notOnline);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('gemini_api').set({ online_status: ONLINE_STATUS.offline, online_seq: row.online_seq + 1, update_time: now() }).where('id', '=', row.id).execute();
      await audit(trx, row.id, 'offline', req, { version: row.online_version });
    });
    return ok(null, '下线成功');
  });
}
