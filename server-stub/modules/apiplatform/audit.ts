// The audit trail of an API (the platform's operation log): every transition with who, when, the version it
// concerns, the comment and the request id of the call that made it (X-Request-Id, the id its log lines carry:
// an entry leads to the log lines of its call on whichever instance answered it).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { ok } from '../../core/envelope.js';
import { idQuery } from '../../core/declarations.js';
import { migration } from '../../core/tables.js';
import { now } from '../../store/columns.js';
import type { Database } from '../../store/schema.js';
import { PERM } from './perms.js';

export type AuditAction = 'create' | 'save' | 'config' | 'submit' | 'resolve' | 'reject' | 'online' | 'offline' | 'import';

export const AUDIT_LABELS: Record<AuditAction, string> = {
  create: '新建',
  save: '保存设计',
  config: '保存配置',
  submit: '提交审批',
  resolve: '审批通过',
  reject: '审批驳回',
  online: '上线',
  offline: '下线',
  import: '导入',
};

// the column request_id this migration adds is in ApiAuditTable (tables.ts)
export const auditMigrations = {
  '20261127_10_api_audit_request_id': migration(async (db) => {
    await db.schema.alterTable('gemini_api_audit').addColumn('request_id', 'varchar(128)').execute();
  }),
  // the cost guard (plan.ts): the approver's reason for passing a plan above the threshold, and the plan's estimate
  '20261202_10_api_audit_plan': migration(async (db) => {
    await db.schema.alterTable('gemini_api_audit').addColumn('cost_reason', 'varchar(500)').execute();
    await db.schema.alterTable('gemini_api_audit').addColumn('plan_rows', 'bigint').execute();
  }),
};

/** Writes one entry for the call `req` made (its user and its request id). */
export async function audit(db: Kysely<Database>, apiId: number, action: AuditAction, req: FastifyRequest, opts: { version?: number | null; comment?: string | null; costReason?: string | null; planRows?: number | null } = {}) {
  await db
    .insertInto('gemini_api_audit')
    .values({
      api_id: apiId,
      action,
      user_name: req.user!.username,
      version: opts.version ?? null,
      comment: opts.comment ?? null,
      request_id: req.id,
      create_time: now(),
      ...(opts.costReason ? { cost_reason: opts.costReason } : {}),
      ...(opts.planRows != null ? { plan_rows: Math.round(opts.planRows) } : {}),
    })
    .execute();
}

export function auditRoutes(app: FastifyInstance) {
  app.get<{ Querystring: { id: number } }>('/design/audit', { config: { perm: PERM.designList }, schema: { querystring: idQuery } }, async (req) => {
    const rows = await app.ctx.db.selectFrom('gemini_api_audit').selectAll().where('api_id', '=', req.query.id).orderBy('id', 'desc').limit(500).execute();
    return ok(rows.map((r) => ({ id: r.id, action: r.action, actionLabel: AUDIT_LABELS[r.action as AuditAction] ?? r.action, version: r.version, userName: r.user_name, comment: r.comment, costReason: r.cost_reason ?? null, planRows: r.plan_rows == null ? null : Number(r.plan_rows), requestId: r.request_id, createTime: r.create_time })));
  });
}
