// The `audit` platform service (core/platform.ts, app.audit): the platform's operation log (sys_oper_log), the
// foundation of 操作日志 (issue 21). One onResponse hook, registered once by the service, writes an entry for every
// write through the API: every non-GET request that reached a module's route (modulePlugin marks those routes
// with their module's name) while signed in, failures included, and the spec's writes answered on GET (a route
// whose last segment is one of GET_WRITES: /delete, /approve/online, /group/up, /key/revoke, /copy …). The
// spec's reads answered on POST (a last segment starting search / select / count / query / find / list / get:
// the list pages' searches) are reads and write nothing. Requests without a session write nothing: the
// guard refuses them before any module runs (401), and a public route used anonymously (a form filled in by
// anyone) has no one to name. Bodies are never logged: only the target's id (the body's or the query's `id`).
// Writing never delays or fails the answer: it happens after the answer is sent, its error is logged.
// Entries older than OPER_LOG_DAYS are deleted by 定时任务's clean-up job (modules/job, 清理过期日志, daily at 03:00).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientKey } from './limits.js';
import { declareTable, type TableRow } from './tables.js';
import { now } from '../store/columns.js';
import type { Database } from '../store/schema.js';
import type { Kysely } from 'kysely';

export const operLogs = declareTable({
  name: 'sys_oper_log',
  migration: '20261128_10_sys_oper_log',
  columns: {
    id: { type: 'id' },
    /** the ServerModule's name */
    module: { type: 'varchar(50)', notNull: true },
    /** method and route as matched: 'POST /api/gemini/datasource/info/save' */
    action: { type: 'varchar(300)', notNull: true },
    /** a Chinese label where known (the declared menu or button of the route's permission), else null */
    title: { type: 'varchar(100)' },
    targetId: { type: 'varchar(64)' },
    /** 0: done; else the answer's message (envelope msg), at most 500 characters */
    outcome: { type: 'varchar(500)', notNull: true },
    httpStatus: { type: 'integer', notNull: true },
    userId: { type: 'integer' },
    username: { type: 'varchar(100)' },
    address: { type: 'varchar(64)' },
    userAgent: { type: 'varchar(300)' },
    requestId: { type: 'varchar(64)' },
    createTime: { type: 'time', notNull: true },
    costMs: { type: 'integer' },
  },
  indexes: [{ name: 'ix_sys_oper_log_time', columns: ['createTime'] }],
});
declare module '../store/schema.js' {
  interface Database {
    sys_oper_log: TableRow<typeof operLogs>;
  }
}

/** The sign-in log (登录日志, issue 21): every password sign-in answered by the sign-in route, success or not. */
export const loginLogs = declareTable({
  name: 'sys_login_log',
  migration: '20261128_11_sys_login_log',
  columns: {
    id: { type: 'id' },
    /** the account as typed (also when it names nobody) */
    username: { type: 'varchar(100)', notNull: true },
    userId: { type: 'integer' },
    address: { type: 'varchar(64)' },
    userAgent: { type: 'varchar(300)' },
    /** the browser and system read from the user agent: Chrome 120 · Windows */
    browser: { type: 'varchar(100)' },
    /** 0 signed in, 1 refused (dictionary LOGIN_RESULT) */
    result: { type: 'integer', notNull: true },
    /** 登录成功, or the refusal as answered */
    msg: { type: 'varchar(300)', notNull: true },
    createTime: { type: 'time', notNull: true },
  },
  indexes: [{ name: 'ix_sys_login_log_time', columns: ['createTime'] }],
});
declare module '../store/schema.js' {
  interface Database {
    sys_login_log: TableRow<typeof loginLogs>;
  }
}

/** The store's migrations of the platform services' own tables (app.ts runs them with the modules'). */
export const auditMigrations = { ...operLogs.migrations, ...loginLogs.migrations };

/** "Chrome 120 · Windows" from a user agent: the first known browser and system named in it. */
export function browserOf(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null;
  const browsers: Array<[RegExp, string]> = [[/Edg\/(\d+)/, 'Edge'], [/OPR\/(\d+)/, 'Opera'], [/Firefox\/(\d+)/, 'Firefox'], [/HeadlessChrome\/(\d+)/, 'Headless Chrome'], [/Chrome\/(\d+)/, 'Chrome'], [/Version\/(\d+)[^ ]* (Mobile\/\S+ )?Safari/, 'Safari']];
  const systems: Array<[RegExp, string]> = [[/Windows/, 'Windows'], [/iPhone|iPad/, 'iOS'], [/Android/, 'Android'], [/Mac OS X/, 'macOS'], [/Linux/, 'Linux']];
  const b = browsers.map(([re, name]) => [re.exec(userAgent), name] as const).find(([m]) => m);
  const os = systems.find(([re]) => re.test(userAgent))?.[1];
  const parts = [b ? `${b[1]} ${b[0]![1]}` : null, os ?? null].filter(Boolean);
  return parts.length ? parts.join(' · ').slice(0, 100) : userAgent.slice(0, 60);
}

/** One sign-in as the sign-in route records it. */
export interface SignInEntry {
  username: string;
  userId?: number | null;
  address?: string | null;
  userAgent?: string | null;
  ok: boolean;
  msg: string;
}

/** One entry as a module writes it explicitly (app.audit.write): what is not given is left empty. */
export interface AuditEntry {
  module: string;
  action: string;
  title?: string | null;
  targetId?: string | number | null;
  /** '0' (or 0) when done, else the message */
  outcome?: string | number;
  httpStatus?: number;
  userId?: number | null;
  username?: string | null;
  address?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
  costMs?: number | null;
}

/** The `audit` platform service. */
export interface AuditService {
  /** Writes one entry, after the answer and without failing it (an error is logged). */
  write(entry: AuditEntry): void;
  /** Writes one sign-in, after the answer and without failing it. */
  signIn(entry: SignInEntry): void;
  /** Deletes the entries (operations and sign-ins) older than OPER_LOG_DAYS; answers how many went. */
  sweep(): Promise<number>;
  /** The writes not yet finished (tests wait for them). */
  settled(): Promise<void>;
}

const cut = (v: unknown, n: number): string | null => (v === undefined || v === null || v === '' ? null : String(v).slice(0, n));

/** The spec's writes on GET, by the matched route's last segment (the spec deletes with GET …/delete?id=). */
export const GET_WRITES = new Set(['delete', 'remove', 'online', 'offline', 'up', 'down', 'revoke', 'copy']);

/** The spec's reads on POST, by the matched route's last segment (searchList, select, selectMapData, count …). */
export const POST_READS = /^(search|select|count|query|find|list|get)/i;

/** What a write does, in words, by its route's last segments (for routes whose permission names no menu entry). */
const ACTION_WORDS: Array<[RegExp, string]> = [
  [/\/user\/password$|\/updatePwd$|\/changePassword$/i, '修改密码'],
  [/\/resetPwd$/i, '重置密码'],
  [/\/resetTotp$/i, '重置双因素认证'],
  [/\/totp\/setup$/i, '设置双因素认证'],
  [/\/totp\/enable$/i, '启用双因素认证'],
  [/\/totp\/disable$/i, '关闭双因素认证'],
  [/\/totp\/recovery$/i, '重新生成恢复码'],
  [/\/forceLogout$/i, '强制退出'],
  [/\/logout$/i, '退出登录'],
  [/\/login$/i, '登录'],
  [/\/(add|create)$/i, '新增'],
  [/\/(save)$/i, '保存'],
  [/\/(edit|update|modify)$/i, '修改'],
  [/\/status$/i, '修改状态'],
  [/\/(delete|remove)$/i, '删除'],
  [/\/submit$/i, '提交'],
  [/\/(approve|resolve\w*)$/i, '审批'],
  [/\/online$/i, '上线'],
  [/\/offline$/i, '下线'],
  [/\/revoke$/i, '吊销'],
  [/\/copy$/i, '复制'],
  [/\/import\w*$/i, '导入'],
  [/\/upload\w*$/i, '上传'],
  [/\/(test|run|execute)\w*$/i, '执行'],
  [/\/(up|down|move|sort)$/i, '调整顺序'],
];
export function actionWord(url: string): string {
  const path = url.split('?')[0];
  return ACTION_WORDS.find(([re]) => re.test(path))?.[1] ?? '操作';
}

/** The route config key modulePlugin sets on every route of a module: the module's name. */
export const MODULE_ROUTE_KEY = 'module';

/** The declared label of each permission: a button's name (F), else its page's (C). */
function titlesOf(menus: Record<string, any>): Map<string, string> {
  const buttons = new Map<string, string>();
  const pages = new Map<string, string>();
  const walk = (items: any[]) => {
    for (const i of items ?? []) {
      if (typeof i?.perms === 'string' && typeof i.name === 'string') (i.type === 'F' ? buttons : pages).set(i.perms, i.name);
      walk(i?.children);
    }
  };
  for (const doc of Object.values(menus)) walk(doc?.items);
  for (const [perm, name] of pages) if (!buttons.has(perm)) buttons.set(perm, name);
  return buttons;
}

/** The id a request names: the body's `id`, else the query's. */
function targetOf(req: FastifyRequest): unknown {
  const body = req.body as Record<string, unknown> | undefined;
  const query = req.query as Record<string, unknown> | undefined;
  const id = body && typeof body === 'object' && !Array.isArray(body) && !Buffer.isBuffer(body) ? body.id : undefined;
  const v = id ?? query?.id;
  return typeof v === 'string' || typeof v === 'number' ? v : undefined;
}

/** The envelope's status and message, read from the answer as sent (onSend), without keeping the body. */
const answers = new WeakMap<FastifyRequest, string>();
function outcomeOf(payload: unknown): string | undefined {
  if (typeof payload !== 'string' || !payload.startsWith('{')) return undefined;
  try {
    const o = JSON.parse(payload) as { status?: unknown; msg?: unknown };
    if (o.status === 0) return '0';
    if (o.status !== undefined) return typeof o.msg === 'string' && o.msg ? o.msg : String(o.status);
  } catch {
    /* not an envelope */
  }
  return undefined;
}

export function auditService(app: FastifyInstance, db: Kysely<Database>, days: number): AuditService {
  const pending = new Set<Promise<unknown>>();
  const service: AuditService = {
    write(entry) {
      const row = {
        module: entry.module.slice(0, 50),
        action: entry.action.slice(0, 300),
        title: cut(entry.title, 100),
        target_id: cut(entry.targetId, 64),
        outcome: String(entry.outcome ?? '0').slice(0, 500),
        http_status: entry.httpStatus ?? 200,
        user_id: entry.userId ?? null,
        username: cut(entry.username, 100),
        address: cut(entry.address, 64),
        user_agent: cut(entry.userAgent, 300),
        request_id: cut(entry.requestId, 64),
        create_time: now(),
        cost_ms: entry.costMs ?? null,
      };
      const p = db
        .insertInto('sys_oper_log')
        .values(row)
        .execute()
        .catch((err: unknown) => app.ctx.log.error({ err: String(err), action: row.action }, 'operation log entry not written'))
        .finally(() => pending.delete(p));
      pending.add(p);
    },
    signIn(entry) {
      const row = {
        username: entry.username.slice(0, 100),
        user_id: entry.userId ?? null,
        address: cut(entry.address, 64),
        user_agent: cut(entry.userAgent, 300),
        browser: browserOf(entry.userAgent),
        result: entry.ok ? 0 : 1,
        msg: entry.msg.slice(0, 300),
        create_time: now(),
      };
      const p = db
        .insertInto('sys_login_log')
        .values(row)
        .execute()
        .catch((err: unknown) => app.ctx.log.error({ err: String(err) }, 'sign-in log entry not written'))
        .finally(() => pending.delete(p));
      pending.add(p);
    },
    async sweep() {
      const before = now(new Date(Date.now() - days * 24 * 60 * 60_000));
      const ops = await db.deleteFrom('sys_oper_log').where('create_time', '<', before).executeTakeFirst();
      const signIns = await db.deleteFrom('sys_login_log').where('create_time', '<', before).executeTakeFirst();
      return Number(ops.numDeletedRows ?? 0) + Number(signIns.numDeletedRows ?? 0);
    },
    async settled() {
      await Promise.all([...pending]);
    },
  };
  return service;
}

/** The hooks that write an entry for every signed-in write through a module's route. */
export function installAuditHooks(app: FastifyInstance, audit: AuditService): void {
  const titles = titlesOf(app.ctx.schemas?.menus ?? {});
  const configOf = (req: FastifyRequest) => (req.routeOptions.config ?? {}) as unknown as Record<string, unknown>;
  const isWrite = (req: FastifyRequest) => {
    if (req.method === 'HEAD' || req.method === 'OPTIONS') return false;
    const last = (req.routeOptions.url ?? '').split('/').pop() ?? '';
    return req.method === 'GET' ? GET_WRITES.has(last) : !POST_READS.test(last);
  };
  const logged = (req: FastifyRequest) => Boolean(req.user) && typeof configOf(req)[MODULE_ROUTE_KEY] === 'string' && isWrite(req);
  app.addHook('onSend', async (req, _reply, payload) => {
    if (logged(req)) {
      const outcome = outcomeOf(payload);
      if (outcome !== undefined) answers.set(req, outcome);
    }
    return payload;
  });
  app.addHook('onResponse', async (req: FastifyRequest, reply: FastifyReply) => {
    if (!logged(req)) return;
    const cfg = configOf(req);
    const http = reply.statusCode;
    audit.write({
      module: String(cfg[MODULE_ROUTE_KEY]),
      action: `${req.method} ${req.routeOptions.url ?? req.url.split('?')[0]}`,
      // the permission's menu title, else a word for what the route does (修改密码, 退出登录 …): never empty
      title: (typeof cfg.perm === 'string' ? titles.get(cfg.perm) : undefined) ?? actionWord(req.routeOptions.url ?? req.url),
      targetId: targetOf(req) as string | number | undefined,
      outcome: answers.get(req) ?? (http < 400 ? '0' : String(http)),
      httpStatus: http,
      userId: req.user?.id ?? null,
      username: req.user?.username ?? null,
      address: clientKey(req),
      userAgent: req.headers['user-agent'] ?? null,
      requestId: req.id,
      costMs: Math.round(reply.elapsedTime),
    });
  });
}
