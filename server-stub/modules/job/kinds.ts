// The kinds of 定时任务 (dictionary JOB_KIND): what a job may do is one of these, with its target and parameters
// checked when the job is saved; a job is never free code. Each runs as the job's owner (index.ts ownerOf) and
// answers what it did, for the run log.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import { BizError } from '../../core/envelope.js';
import type { LoadedUser } from '../../core/users.js';
import { now } from '../../store/columns.js';
import type { Database } from '../../store/schema.js';
import type { DatasetQuery } from '../../../common/dataset.js';

export type JobRow = Selectable<Database['sys_job']>;

/** A failure that no retry can mend (the owner lost a right, the target is gone): the run fails at once. */
export class KindRefusal extends Error {}

export interface JobKind {
  /** a permission the owner must hold at every run, besides system:job:edit */
  perm?: string;
  /** the platform's own housekeeping: runs whoever saved the job (no owner's rights to check, none used) */
  system?: boolean;
  /** checks (and may normalise) the job's target and parameters when it is saved (BizError with the reason) */
  check(app: FastifyInstance, rec: Record<string, any>, req: FastifyRequest): Promise<void>;
  /** does the work; answers what it did (the run log's message) */
  run(app: FastifyInstance, job: JobRow, owner: LoadedUser | null, ctx: { runId: number }): Promise<string>;
  /** the dialog's choices of target */
  targets?(app: FastifyInstance): Promise<Array<{ value: string; label: string }>>;
}

const ARGS_MAX = 20_000;
const ONLINE = 1;

/** A JSON object typed in a job's dialog (at most ARGS_MAX characters); `what` names it in the refusal. */
export function jsonObject(text: unknown, what = '参数', example = '{"city": "杭州"}'): Record<string, unknown> {
  const raw = String(text ?? '').trim();
  if (!raw) return {};
  if (raw.length > ARGS_MAX) throw new BizError(`${what}不能超过 ${ARGS_MAX} 个字符`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new BizError(`${what}须为 JSON 对象，如 ${example}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new BizError(`${what}须为 JSON 对象，如 ${example}`);
  return parsed as Record<string, unknown>;
}

/**
 * Runs `fn` with a session of `userId` made for it: its token never leaves this process, it is ended as soon as `fn`
 * is done, and it lives no longer than the job may run (a session left by a stopped instance ends on its own).
 */
export async function asUser<T>(app: FastifyInstance, userId: number, job: JobRow, runId: number, fn: (token: string) => Promise<T>): Promise<T> {
  const ttl = Math.min(app.ctx.config.sessionTtl, job.timeout_seconds + 120);
  const token = await app.ctx.sessions.create(userId, ttl, { address: 'scheduler', userAgent: `定时任务 #${job.id} 运行 #${runId}` });
  try {
    return await fn(token);
  } finally {
    await app.ctx.sessions.revoke(token).catch(() => {});
  }
}

/** How many chart questions one call asks (the query route's limit). */
const QUERIES_PER_CALL = 50;

/** Charts' questions asked through the query route under `token`, in calls of QUERIES_PER_CALL; the answers in order. */
export async function askCharts(app: FastifyInstance, token: string, queries: DatasetQuery[]): Promise<Array<{ keys?: string[]; rows?: Array<Record<string, unknown>>; error?: string }>> {
  const answers: Array<{ keys?: string[]; rows?: Array<Record<string, unknown>>; error?: string }> = [];
  for (let i = 0; i < queries.length; i += QUERIES_PER_CALL) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/dataset/query',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: { queries: queries.slice(i, i + QUERIES_PER_CALL) },
    });
    const body = JSON.parse(res.body) as { status?: number; msg?: string; data?: typeof answers };
    if (body.status !== 0) throw new Error(body.msg ?? `HTTP ${res.statusCode}`);
    answers.push(...(body.data ?? []));
  }
  return answers;
}

/** 调用已发布接口: POST /open/api/<name> with the parameters, as the owner (a session of the owner's, ended after). */
const api: JobKind = {
  async check(app, rec) {
    const name = String(rec.target ?? '').trim();
    if (!name) throw new BizError('请选择要调用的接口');
    const row = await app.ctx.db.selectFrom('gemini_api').select(['api_name', 'online_status']).where('api_name', '=', name).executeTakeFirst();
    if (!row) throw new BizError(`接口【${name.slice(0, 100)}】不存在`);
    if (row.online_status !== ONLINE) throw new BizError(`接口【${row.api_name}】未上线`);
    rec.target = row.api_name;
    const args = jsonObject(rec.args);
    rec.args = Object.keys(args).length ? JSON.stringify(args) : null;
  },
  async run(app, job, owner, ctx) {
    const name = job.target ?? '';
    return asUser(app, owner!.user.id, job, ctx.runId, async (token) => {
      const res = await app.inject({
        method: 'POST',
        url: `/open/api/${encodeURIComponent(name)}`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: job.args || '{}',
      });
      let body: { status?: number; msg?: string; data?: unknown } = {};
      try {
        body = JSON.parse(res.body);
      } catch {
        /* not JSON: said below */
      }
      if (res.statusCode >= 400 || body.status !== 0) {
        const why = body.msg ?? `HTTP ${res.statusCode}`;
        // the API gone, offline or refusing the owner: no retry mends that
        if (res.statusCode === 401 || res.statusCode === 403 || res.statusCode === 404) throw new KindRefusal(`调用接口【${name}】失败：${why}`);
        throw new Error(`调用接口【${name}】失败：${why}`);
      }
      const data = body.data as unknown;
      const rows = Array.isArray(data) ? data.length : Array.isArray((data as { records?: unknown[] })?.records) ? (data as { records: unknown[] }).records.length : null;
      return `调用接口【${name}】成功${rows == null ? '' : `，返回 ${rows} 行`}${res.headers['x-cache'] === 'HIT' ? '（缓存）' : ''}`;
    });
  },
  async targets(app) {
    const rows = await app.ctx.db.selectFrom('gemini_api').select(['api_name']).where('online_status', '=', ONLINE).orderBy('api_name').limit(1000).execute();
    return rows.map((r) => ({ value: r.api_name, label: r.api_name }));
  },
};

/** 清理过期日志: what the server used to delete daily by itself (whoever owns it: disabling admin must not stop it). */
const cleanLogs: JobKind = {
  system: true,
  async check(_app, rec) {
    rec.target = null;
    rec.args = null;
  },
  async run(app) {
    const { db, config } = app.ctx;
    const cutoff = now(new Date(Date.now() - config.jobLogDays * 24 * 3600_000));
    const operations = await app.audit.sweep();
    const runs = await db.deleteFrom('sys_job_log').where('create_time', '<', cutoff).where('status', 'in', [2, 3, 4]).executeTakeFirst();
    // the send log is the notify module's: it prunes its own
    const sends = await app.notifier.prune(cutoff);
    return `删除操作与登录日志 ${operations} 条（超过 ${config.operLogDays} 天），任务运行记录 ${Number(runs.numDeletedRows)} 条、通知记录 ${sends} 条（超过 ${config.jobLogDays} 天）`;
  },
};

/**
 * 刷新数据集: every cached answer of the dataset retired (on every instance), then what its charts ask asked again
 * as the owner, so that the first viewer after (with the owner's row rules: the same statements) meets an answer.
 */
const dataset: JobKind = {
  perm: 'datav:dataset:edit',
  async check(app, rec) {
    const id = Number(rec.target);
    if (!Number.isSafeInteger(id) || id < 1) throw new BizError('请选择要刷新的数据集');
    const row = await app.ctx.db.selectFrom('dataset').select(['id']).where('id', '=', id).where('deleted_time', 'is', null).executeTakeFirst();
    if (!row) throw new BizError('数据集不存在');
    rec.target = String(row.id);
    rec.args = null;
  },
  async run(app, job, owner, ctx) {
    let plan: Awaited<ReturnType<FastifyInstance['datasets']['refresh']>>;
    try {
      plan = await app.datasets.refresh(Number(job.target));
    } catch (e) {
      if (e instanceof BizError) throw new KindRefusal(`刷新数据集失败：${e.message}`);
      throw e;
    }
    let answers: Awaited<ReturnType<typeof askCharts>>;
    try {
      answers = await asUser(app, owner!.user.id, job, ctx.runId, (token) => askCharts(app, token, plan.queries));
    } catch (e) {
      throw new Error(`刷新数据集【${plan.name}】失败：${e instanceof Error ? e.message : String(e)}`);
    }
    const faults = answers.flatMap((a) => (a.error ? [a.error] : []));
    const asked = answers.length - faults.length;
    const retired = plan.kind === 'file' ? '' : '旧的缓存已作废，';
    return `刷新数据集【${plan.name}】：${retired}预先计算了 ${asked} 个图表查询${faults.length ? `，${faults.length} 个失败（${faults.slice(0, 3).join('；')}）` : ''}`;
  },
  async targets(app) {
    return app.datasets.names();
  },
};

export const BASE_KINDS = { api, cleanLogs, dataset };
