// 通知渠道 (issue 39 item 3): where alerts, job failures and report subscriptions are sent — DingTalk and WeCom group
// robots, a generic webhook, e-mail. A declared list page (schemas/pages/notifyChannel.page.json) over
// sys_notify_channel; each channel's secret (robot signing secret, webhook key, SMTP password) sealed with the
// deployment's key, bound to the channel and its address, answered masked. 发送测试 sends a test message and says
// why it failed in Chinese. Every send is retried (three tries, growing waits) and logged (sys_notify_log); a
// channel whose last three sends failed is marked 异常 until one succeeds. Only admins (system:channel:*) see or
// change channels; messages carry what the caller wrote, never a secret.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { ServerModule } from '../../core/module.js';
import type { NotifySendOptions } from '../../core/platform.js';
import { BizError, ok } from '../../core/envelope.js';
import { declareTable, listPageRoutes, migration, timestamps, type TableRow } from '../../core/tables.js';
import type { SecretBinding, Secrets } from '../../core/secrets.js';
import { addressProblem, checkUrl, NET_MSG, NetGuardError, type NetPolicy } from '../../core/net-guard.js';
import { idColumn, now } from '../../store/columns.js';
import type { Database } from '../../store/schema.js';
import { badMailbox, deliver, recipients, type ChannelKind, type Message } from './deliver.js';

export const KINDS: ChannelKind[] = ['dingtalk', 'wecom', 'webhook', 'email'];
/** Consecutive failed sends after which a channel shows 异常. */
export const FAILING_AFTER = 3;
export const TRIES = 3;

/** A secret is for this channel and where it is sent: the robot's or webhook's address, or the SMTP server and account. */
const binding = (row: Record<string, any>): SecretBinding =>
  row.kind === 'email'
    ? {
        table: 'sys_notify_channel',
        id: row.id ?? null,
        host: `smtp:${String(row.smtpHost ?? row.smtp_host ?? '')}`,
        port: row.smtpPort ?? row.smtp_port ?? null,
        account: String(row.smtpUser ?? row.smtp_user ?? ''),
      }
    : { table: 'sys_notify_channel', id: row.id ?? null, host: String(row.target ?? ''), account: String(row.kind ?? '') };

export const channels = declareTable({
  name: 'sys_notify_channel',
  migration: '20261208_04_sys_notify_channel',
  columns: {
    id: { type: 'id' },
    name: { type: 'varchar(64)', notNull: true },
    kind: { type: 'varchar(16)', notNull: true },
    /** the robot's or webhook's URL; for e-mail the recipients */
    target: { type: 'varchar(1000)', notNull: true },
    /** e-mail: the SMTP server, its port, SSL from the start (465) or STARTTLS, the account and the sender */
    smtpHost: { type: 'varchar(255)' },
    smtpPort: { type: 'integer' },
    smtpSecure: { type: 'integer', notNull: true, default: 0 },
    smtpUser: { type: 'varchar(255)' },
    mailFrom: { type: 'varchar(255)' },
    secret: { type: 'text' },
    /** 0 enabled, 1 disabled (NORMAL_DISABLE) */
    status: { type: 'integer', notNull: true, default: 0 },
    /** consecutive failed sends (0 after a success) */
    failures: { type: 'integer', notNull: true, default: 0 },
    lastError: { type: 'varchar(500)' },
    lastSent: { type: 'varchar(19)' },
    remark: { type: 'varchar(500)' },
    ...timestamps,
  },
  indexes: [{ name: 'ux_sys_notify_channel_name', columns: ['name'], unique: true }],
  duplicate: (rec) => `通知渠道【${rec.name}】已存在`,
  secrets: { secret: binding },
});

export interface NotifyLogTable {
  id: import('kysely').Generated<number>;
  channel_id: number;
  title: string;
  ok: number;
  tries: number;
  error: string | null;
  create_time: string;
}

declare module '../../store/schema.js' {
  interface Database {
    sys_notify_channel: TableRow<typeof channels>;
    sys_notify_log: NotifyLogTable;
  }
}

const migrations = {
  ...channels.migrations,
  '20261208_05_sys_notify_log': migration(async (db, dialect) => {
    await idColumn(db.schema.createTable('sys_notify_log'), dialect)
      .addColumn('channel_id', 'integer', (c) => c.notNull())
      .addColumn('title', 'varchar(200)', (c) => c.notNull())
      .addColumn('ok', 'integer', (c) => c.notNull())
      .addColumn('tries', 'integer', (c) => c.notNull())
      .addColumn('error', 'varchar(500)')
      .addColumn('create_time', 'varchar(19)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('ix_sys_notify_log_channel').on('sys_notify_log').columns(['channel_id', 'create_time']).execute();
  }),
};

/** Waits between tries: a second, then three (tests shorten them). */
export const RETRY_WAITS_MS = [1000, 3000];

/**
 * Sends `message` through channel `id`, up to `tries` times with growing waits; logged; the channel's state kept
 * (a success clears its failures). Answers null, or why the last try failed.
 */
export async function sendThrough(
  db: Kysely<Database>,
  secrets: Secrets,
  policy: NetPolicy,
  id: number,
  message: Message,
  tries = TRIES,
  waits = RETRY_WAITS_MS,
  options: NotifySendOptions = {},
): Promise<string | null> {
  const row = await db.selectFrom('sys_notify_channel').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return '通知渠道不存在';
  const secret = row.secret ? secrets.tryDecrypt(row.secret, binding(row)) : undefined;
  let why: string | null = null;
  let tried = 0;
  while (tried < tries) {
    if (tried) await new Promise((r) => setTimeout(r, waits[Math.min(tried - 1, waits.length - 1)] ?? 0));
    tried++;
    try {
      const smtp =
        row.kind === 'email' ? { host: row.smtp_host ?? '', port: Number(row.smtp_port ?? 25), secure: row.smtp_secure === 1, user: row.smtp_user ?? '', from: row.mail_from ?? '' } : undefined;
      await deliver({ kind: row.kind as ChannelKind, target: row.target, to: options.to, secret, smtp }, message, policy);
      why = null;
      break;
    } catch (e) {
      why = (e instanceof Error ? e.message : String(e)).slice(0, 300);
      // an address the guard refuses will be refused again: no second try
      if (/不允许访问|不合法|须以/.test(why)) break;
    }
  }
  const time = now();
  await db
    .insertInto('sys_notify_log')
    .values({ channel_id: id, title: message.title.slice(0, 200), ok: why ? 0 : 1, tries: tried, error: why, create_time: time })
    .execute();
  await db
    .updateTable('sys_notify_channel')
    .set(why ? (eb) => ({ failures: eb('failures', '+', 1), last_error: why }) : { failures: 0, last_error: null, last_sent: time })
    .where('id', '=', id)
    .execute();
  return why;
}

function notifyPlugin(app: FastifyInstance) {
  const { db, config } = app.ctx;
  const policy: NetPolicy = { allowLoopback: config.notifyAllowLoopback, allowPrivate: true };
  listPageRoutes(app, channels, {
    page: 'notifyChannel',
    notFound: '通知渠道不存在',
    secrets: app.secrets,
    async beforeSave(rec) {
      if (!KINDS.includes(rec.kind)) throw new BizError('请选择渠道类型');
      rec.target = String(rec.target ?? '').trim();
      if (rec.kind === 'email') {
        const to = recipients(rec.target);
        if (!to.length) throw new BizError('请填写收件人');
        const bad = to.find(badMailbox);
        if (bad) throw new BizError(`收件人邮箱格式不正确：${bad}`);
        if (to.length > 50) throw new BizError('收件人不能超过 50 个');
        rec.smtpHost = String(rec.smtpHost ?? '').trim();
        if (!rec.smtpHost) throw new BizError('请填写邮件服务器');
        if (!/^[A-Za-z0-9.-]+$|^\[?[0-9a-fA-F:.]+\]?$/.test(rec.smtpHost)) throw new BizError('邮件服务器地址不合法');
        // an address typed as such is judged now (a name, when the mail is sent: every address it resolves to)
        if (/^[\d.]+$|:/.test(rec.smtpHost) && addressProblem(rec.smtpHost, policy)) throw new BizError(`邮件服务器：${NET_MSG.refused}`);
        const port = Number(rec.smtpPort ?? 25);
        if (!Number.isInteger(port) || port < 1 || port > 65535) throw new BizError('端口须为 1–65535');
        rec.smtpPort = port;
        if (rec.mailFrom && badMailbox(String(rec.mailFrom))) throw new BizError('发件人邮箱格式不正确');
        return;
      }
      try {
        checkUrl(rec.target, policy);
      } catch (e) {
        throw new BizError(e instanceof NetGuardError ? `地址：${e.message.replace('API接口', '地址')}` : '地址不合法');
      }
    },
  });
  // the `notifier` platform service: alerts and jobs send through here without importing this module
  app.notifier.provide({
    async send(ids, message, options) {
      const rows = ids.length ? await db.selectFrom('sys_notify_channel').select(['id', 'status']).where('id', 'in', ids).execute() : [];
      const live = rows.filter((r) => r.status === 0).map((r) => r.id);
      return Promise.all(live.map(async (channelId) => ({ channelId, error: await sendThrough(db, app.secrets, policy, channelId, message, TRIES, RETRY_WAITS_MS, options) })));
    },
    async kinds(ids) {
      const rows = ids.length ? await db.selectFrom('sys_notify_channel').select(['id', 'kind']).where('id', 'in', ids).where('status', '=', 0).execute() : [];
      return new Map(rows.map((r) => [r.id, r.kind]));
    },
    async options() {
      const rows = await db.selectFrom('sys_notify_channel').select(['id', 'name', 'kind']).where('status', '=', 0).orderBy('name').limit(500).execute();
      const kinds: Record<string, string> = { dingtalk: '钉钉', wecom: '企业微信', webhook: 'Webhook', email: '邮件' };
      return rows.map((r) => ({ value: r.id, label: `${r.name}（${kinds[r.kind] ?? r.kind}）` }));
    },
    async prune(before) {
      const r = await db.deleteFrom('sys_notify_log').where('create_time', '<', before).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    async exists(ids) {
      if (!ids.length) return true;
      const rows = await db.selectFrom('sys_notify_channel').select('id').where('id', 'in', ids).execute();
      return rows.length === new Set(ids).size;
    },
  });
  // 发送测试: one message now (tried once, the reason answered), logged like any send
  app.post<{ Querystring: { id: number } }>(
    '/channel/test',
    { config: { perm: 'system:channel:edit' }, schema: { querystring: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, title: '编号' } } } } },
    async (req) => {
      if (!(await db.selectFrom('sys_notify_channel').select('id').where('id', '=', req.query.id).executeTakeFirst())) throw new BizError('通知渠道不存在');
      const why = await sendThrough(db, app.secrets, policy, req.query.id, { title: '通知渠道测试', text: `这是来自数据服务平台的测试消息（${now()}，${req.user!.username} 发送）。` }, 1);
      return why ? ok(false, `发送失败：${why}`) : ok(true, '发送成功');
    },
  );
}

export const notifyModule: ServerModule = {
  name: 'notify',
  prefix: '/api/notify',
  service: 'admin',
  migrations,
  needs: ['secrets', 'notifier'],
  plugin: async (app) => notifyPlugin(app),
};
