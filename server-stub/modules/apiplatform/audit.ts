// The audit trail of an API: every transition with who, when, the version it concerns and the comment.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { ok } from '../../core/envelope.js';
import { idQuery } from '../../core/declarations.js';
import { now } from '../../store/columns.js';
import type { Database } from '../../store/schema.js';
import { PERM } from './perms.js';

export type AuditAction = 'create' | 'save' | 'config' | 'submit' | 'resolve' | 'reject' | 'online' | 'offline';

export const AUDIT_LABELS: Record<AuditAction, string> = {
  create: '新建',
  save: '保存设计',
  config: '保存配置',
  submit: '提交审批',
  resolve: '审批通过',
  reject: '审批驳回',
  online: '上线',
  offline: '下线',
};

export async function audit(db: Kysely<Database>, apiId: number, action: AuditAction, user: string, opts: { version?: number | null; comment?: string | null } = {}) {
  await db.insertInto('gemini_api_audit').values({ api_id: apiId, action, user_name: user, version: opts.version ?? null, comment: opts.comment ?? null, create_time: now() }).execute();
}

export function auditRoutes(app: FastifyInstance) {
  app.get<{ Querystring: { id: number } }>('/design/audit', { config: { perm: PERM.designList }, schema: { querystring: idQuery } }, async (req) => {
    const rows = await app.ctx.db.selectFrom('gemini_api_audit').selectAll().where('api_id', '=', req.query.id).orderBy('id', 'desc').limit(500).execute();
    return ok(rows.map((r) => ({ id: r.id, action: r.action, actionLabel: AUDIT_LABELS[r.action as AuditAction] ?? r.action, version: r.version, userName: r.user_name, comment: r.comment, createTime: r.create_time })));
  });
}
