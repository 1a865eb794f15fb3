// 订阅 (issue 39 item 5): a list page's search, or a screen, sent on a schedule as an XLSX of its data and a link to
// open it. Each chosen user gets the file made as themselves — under a session of theirs (ended after), so their
// permissions, data scope and row rules decide the rows: a list page's own export call, a screen's charts' own
// questions (one sheet a chart; and a picture of the screen when SCREENSHOT_CHROMIUM names a browser, screenshot.ts)
// — by mail to their own address through the one e-mail channel chosen (its server). An e-mail channel chosen
// without users gets the file made as the job's owner, for its own recipients. A robot or webhook gets the text and
// the link (they cannot carry a file), once a file went out. The owner must be able to read the report, and the
// users must be within the owner's data scope, at save and at every run. No message holds a session token.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BizError } from '../../core/envelope.js';
import { refusal, toRequestUser } from '../../core/users.js';
import type { RequestUser } from '../../core/context.js';
import { hasPermission } from '../../core/permissions.js';
import { now } from '../../store/columns.js';
import { workbookOf } from '../../core/sheets.js';
import { AGGREGATIONS, DATE_GROUPS, dimensionKey, measureKey, type DatasetQuery } from '../../../common/dataset.js';
import { storedWidgetQuery } from '../../../common/datasetQuery.js';
import { screenshot } from './screenshot.js';
import { askCharts, asUser, jsonObject, KindRefusal, type JobKind } from './kinds.js';

const PAGE_ID = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const MAX_USERS = 200;
const MAX_CHANNELS = 10;
const SEARCH_KEYS = 50;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** What a subscription sends: its title, where the console opens it, and its file as one user would get it. */
interface Report {
  title: string;
  path: string | null;
  /** the job's owner must hold one of these (to read the report as themselves) */
  perms: string[];
  /** why it cannot be sent at all (a screen without a chart on a dataset and no browser for a picture), or null */
  problem?(): Promise<string | null>;
  /** the XLSX (and a picture, when one can be taken) made under `token`, a session of the recipient's */
  make(token: string, search: Record<string, string | string[]>): Promise<{ content: Buffer; image?: Buffer | null }>;
}

/** Where the console's menu opens a component (page:<id>), or null when no entry names it. */
async function menuPath(app: FastifyInstance, component: string): Promise<string | null> {
  const menu = await app.ctx.db.selectFrom('sys_menu').select('entry').where('entry', 'like', `%"component":"${component}"%`).executeTakeFirst();
  try {
    return menu ? ((JSON.parse(menu.entry) as { path?: string }).path ?? null) : null;
  } catch {
    return null;
  }
}

/** The export call's answer as a file, or an Error with the server's reason (no permission, page gone …). */
async function exported(app: FastifyInstance, url: string, token: string, search: Record<string, string | string[]>): Promise<Buffer> {
  const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` }, query: { ...search, format: 'xlsx' } });
  if (res.statusCode === 200 && String(res.headers['content-type'] ?? '').includes('spreadsheetml')) return res.rawPayload;
  let why = `HTTP ${res.statusCode}`;
  try {
    why = (JSON.parse(res.body) as { msg?: string }).msg ?? why;
  } catch {
    /* not JSON */
  }
  throw new Error(why);
}

/** The report a target names: `page:<id>` (a declared list page with 导出, or a published custom page), `screen:<id>`. */
async function reportOf(app: FastifyInstance, target: string | null): Promise<(Report & { target: string }) | null> {
  const [, kind = '', id = ''] = /^(page|screen):(.+)$/.exec(target ?? '') ?? [];
  if (kind === 'screen') return screenReport(app, id);
  if (!PAGE_ID.test(id)) return null;
  const pages = app.ctx.schemas.pages as Record<string, any>;
  const declared = Object.hasOwn(pages, id) ? pages[id] : undefined;
  const path = await menuPath(app, `page:${id}`);
  let title: string | null = null;
  let url = '';
  let perms: string[] = [];
  if (declared?.api?.export === `GET /sheets/export/${id}`) {
    [title, url] = [String(declared.title ?? id), `/api/sheets/export/${id}`];
    perms = [String(declared.perms?.export ?? declared.perms?.list ?? 'system:never')];
  } else {
    const made = await app.ctx.db.selectFrom('lowcode_page').select(['title']).where('page_key', '=', id).where('published', '=', 1).where('deleted_time', 'is', null).executeTakeFirst();
    if (made) [title, url, perms] = [made.title, `/api/lowcode/data/${id}/export`, [`lowcode:${id}:export`, 'lowcode:data:list']];
  }
  if (title === null) return null;
  return { target: `page:${id}`, title, perms, path: path ?? (declared ? null : `/custom/${id}`), make: async (token, search) => ({ content: await exported(app, url, token, search) }) };
}

/** A screen: a sheet for each chart fed by a dataset (the chart's own question), and its picture when possible. */
async function screenReport(app: FastifyInstance, idText: string): Promise<(Report & { target: string }) | null> {
  const id = Number(idText);
  if (!/^[1-9]\d{0,9}$/.test(idText) || !Number.isSafeInteger(id)) return null;
  const screen = await app.ctx.db.selectFrom('datav_page').select(['id', 'page_name', 'width', 'height']).where('id', '=', id).where('kind', '=', 'screen').where('deleted_time', 'is', null).executeTakeFirst();
  if (!screen) return null;
  /** The screen's charts fed by a dataset: each one's title, question and field labels. */
  const chartsOf = async () => {
    const widgets = await app.ctx.db.selectFrom('datav_widget').select(['widget_title', 'widget_props']).where('page_id', '=', id).orderBy('sort_no').execute();
    const charts: Array<{ title: string; query: DatasetQuery; labels: Map<string, string> }> = [];
    for (const w of widgets) {
      const asked = storedWidgetQuery(w.widget_props);
      if (!asked) continue;
      const labels = new Map((asked.slots.dataConfig?.dataset?.fields ?? []).map((f) => [f.name, f.label || f.name]));
      charts.push({ title: w.widget_title, query: asked.query, labels });
    }
    return charts;
  };
  return {
    target: `screen:${id}`,
    title: screen.page_name,
    path: `/datav/screen/preview?pageId=${id}`,
    perms: ['datav:dataset:query'],
    problem: async () => ((await chartsOf()).length ? null : '大屏上没有使用数据集的图表，没有可发送的数据'),
    make: async (token) => {
      const charts = await chartsOf();
      if (!charts.length) throw new Error('大屏上没有使用数据集的图表');
      const answers = await askCharts(app, token, charts.map((c) => c.query));
      const content = await workbookOf(
        charts.map((c, i) => {
          const a = answers[i] ?? {};
          if (a.error) return { name: c.title, columns: [{ title: '无法取数', field: 'error' }], rows: [{ error: a.error }] };
          const title = (key: string) => {
            const d = c.query.dimensions?.find((x) => dimensionKey(x) === key);
            if (d) return `${c.labels.get(d.field) ?? d.field}${d.dateGroup ? `（${DATE_GROUPS[d.dateGroup]}）` : ''}`;
            const m = c.query.measures?.find((x) => measureKey(x) === key);
            return m ? `${c.labels.get(m.field) ?? m.field}（${AGGREGATIONS[m.agg]}）` : key;
          };
          return { name: c.title, columns: (a.keys ?? []).map((k) => ({ title: title(k), field: k })), rows: a.rows ?? [] };
        }),
      );
      return { content, image: await screenshot(app, `/datav/screen/preview?pageId=${id}`, token, { width: screen.width, height: screen.height }) };
    },
  };
}

/** The list's search as the export's query: field → text (or texts), nothing nested. */
function searchOf(text: unknown): Record<string, string | string[]> {
  const parsed = jsonObject(text, '查询条件', '{"status": "0"}');
  const out: Record<string, string | string[]> = {};
  const entries = Object.entries(parsed);
  if (entries.length > SEARCH_KEYS) throw new BizError(`查询条件不能超过 ${SEARCH_KEYS} 项`);
  for (const [k, v] of entries) {
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(k) || ['format', 'pageNum', 'pageSize'].includes(k)) throw new BizError(`查询条件的字段名不合法：${k.slice(0, 40)}`);
    if (v === null || v === undefined || v === '') continue;
    const one = (x: unknown) => {
      if (typeof x !== 'string' && typeof x !== 'number' && typeof x !== 'boolean') throw new BizError(`查询条件「${k}」的值须为文字、数字或它们的列表`);
      const t = String(x);
      if (t.length > 200) throw new BizError(`查询条件「${k}」的值不能超过 200 个字符`);
      return t;
    };
    out[k] = Array.isArray(v) ? v.slice(0, 50).map(one) : one(v);
  }
  return out;
}

const MAX_ID = 2_147_483_647;
const idList = (v: unknown, max: number, what: string): number[] => {
  if (v == null) return [];
  if (!Array.isArray(v) || v.length > max || !v.every((x) => Number.isInteger(x) && x > 0 && x <= MAX_ID)) throw new BizError(`${what}不合法（最多 ${max} 个）`);
  return [...new Set(v as number[])];
};

/** A host as a browser would send it (a name or an address, a port): anything else is not used for links. */
const HOST = /^(?:[A-Za-z0-9.-]{1,180}|\[[0-9A-Fa-f:.]{2,60}\])(?::\d{1,5})?$/;

/** The console's address the links start with: CONSOLE_URL, else the address the job was saved from when it looks like one. */
function linkBaseOf(app: FastifyInstance, req: FastifyRequest): string | null {
  if (app.ctx.config.consoleUrl) return app.ctx.config.consoleUrl;
  return HOST.test(req.host) && ['http', 'https'].includes(req.protocol) ? `${req.protocol}://${req.host}` : null;
}

function linkOf(base: string | null, path: string | null): string | null {
  if (!base || !path) return null;
  return `${base.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}

/** The attachments of one recipient's mail. */
const filesOf = (made: { content: Buffer; image?: Buffer | null }, name: string) => [
  { filename: `${name}.xlsx`, content: made.content, contentType: XLSX_TYPE },
  ...(made.image ? [{ filename: `${name}.png`, content: made.image, contentType: 'image/png' }] : []),
];

const SUBSCRIPTION_FIELDS = { users: 'sendUsers', channels: 'sendChannels' } as const;

/**
 * Whom a subscription's owner may send to: the owner must be able to read the report themselves, and each user
 * recipient must be within the owner's data scope (an admin whose scope is one department cannot have another
 * department's people, or the administrators, mailed their data through a channel the admin controls). Answers why
 * not, or null.
 */
async function ownerMay(app: FastifyInstance, owner: RequestUser, report: Report, users: Array<{ id: number; dept_id: number | null; username: string }>): Promise<string | null> {
  if (!report.perms.some((p) => hasPermission(owner.permissions, p))) return `任务所有者【${owner.username}】没有查看「${report.title}」的权限`;
  const scope = await app.org.scopeOf(owner);
  const outside = users.find((u) => !app.org.holds(scope, { ownerId: u.id, deptId: u.dept_id }));
  return outside ? `用户【${outside.username}】不在任务所有者【${owner.username}】的数据权限范围内` : null;
}

export const subscription: JobKind = {
  async check(app, rec, req: FastifyRequest) {
    const report = await reportOf(app, String(rec.target ?? ''));
    if (!report) throw new BizError('请选择要订阅的页面（可导出的列表页面或大屏）');
    rec.target = report.target;
    const problem = await report.problem?.();
    if (problem) throw new BizError(problem);
    const search = searchOf(rec.args);
    rec.args = Object.keys(search).length ? JSON.stringify(search) : null;
    const users = idList(rec[SUBSCRIPTION_FIELDS.users], MAX_USERS, '接收用户');
    const channels = idList(rec[SUBSCRIPTION_FIELDS.channels], MAX_CHANNELS, '接收渠道');
    if (!users.length && !channels.length) throw new BizError('请选择接收的用户或通知渠道');
    if (channels.length && !(await app.notifier.exists(channels))) throw new BizError('所选通知渠道不存在');
    const found = users.length ? await app.ctx.db.selectFrom('sys_user').select(['id', 'username', 'email', 'dept_id']).where('id', 'in', users).where('deleted', '=', 0).execute() : [];
    if (found.length !== users.length) throw new BizError('所选用户不存在');
    if (users.length) {
      const noMail = found.find((u) => !u.email);
      if (noMail) throw new BizError(`用户【${noMail.username}】没有邮箱，无法接收订阅`);
      const mails = [...(await app.notifier.kinds(channels)).values()].filter((k) => k === 'email').length;
      if (!mails) throw new BizError('发给用户需要选择一个邮件渠道（用它的邮件服务器发送到各人的邮箱）');
      if (mails > 1) throw new BizError('发给用户时只能选择一个邮件渠道（用它的邮件服务器发送到各人的邮箱）');
    }
    const refused = await ownerMay(app, req.user!, report, found);
    if (refused) throw new BizError(refused);
    rec[SUBSCRIPTION_FIELDS.users] = users;
    rec[SUBSCRIPTION_FIELDS.channels] = channels;
    rec.linkBase = linkBaseOf(app, req);
  },
  async run(app, job, owner, ctx) {
    const page = await reportOf(app, job.target);
    if (!page) throw new KindRefusal(`订阅的页面【${(job.target ?? '').replace(/^(page|screen):/, '')}】已不存在或不能导出`);
    const problem = await page.problem?.();
    if (problem) throw new KindRefusal(problem);
    const search = searchOf(job.args);
    const users = idList(JSON.parse(job.send_users ?? '[]'), MAX_USERS, '接收用户');
    const channels = idList(JSON.parse(job.send_channels ?? '[]'), MAX_CHANNELS, '接收渠道');
    const people = users.length ? await app.ctx.db.selectFrom('sys_user').select(['id', 'username', 'dept_id']).where('id', 'in', users).execute() : [];
    // the owner's rights now, not when the job was saved
    const refused = await ownerMay(app, toRequestUser(owner!), page, people);
    if (refused) throw new KindRefusal(refused);
    const kinds = await app.notifier.kinds(channels);
    const mailVia = channels.find((c) => kinds.get(c) === 'email');
    const link = linkOf(job.link_base, page.path);
    const day = now().slice(0, 10);
    const filename = `${page.title}-${day}`;
    const title = `【订阅】${page.title}（${day}）`;
    const text = (who: string) =>
      [`${who}：这是您订阅的「${page.title}」${Object.keys(search).length ? '（按订阅时的查询条件）' : ''}，数据见附件。`, link ? `打开页面：${link}` : '', `订阅：${job.job_name}`].filter(Boolean).join('\n');
    /** files delivered (who), and what failed */
    const sent: string[] = [];
    const failed: string[] = [];
    const reason = (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 120);

    for (const id of users) {
      const loaded = await app.ctx.users.load(id);
      const name = loaded?.user.username ?? `#${id}`;
      if (!loaded || refusal(loaded.user) || !loaded.user.email) {
        failed.push(`用户 ${name}：${!loaded ? '不存在' : (refusal(loaded.user) ?? '没有邮箱')}`);
        continue;
      }
      if (mailVia === undefined) {
        failed.push(`用户 ${name}：没有可用的邮件渠道`);
        continue;
      }
      try {
        const made = await asUser(app, id, job, ctx.runId, (token) => page.make(token, search));
        const [r] = await app.notifier.send([mailVia], { title, text: text(loaded.user.nick_name || name), attachments: filesOf(made, filename) }, { to: [loaded.user.email] });
        if (!r) failed.push(`用户 ${name}：邮件渠道已停用或不存在`);
        else if (r.error) failed.push(`用户 ${name}：${r.error}`);
        else sent.push(name);
      } catch (e) {
        failed.push(`用户 ${name}：${reason(e)}`);
      }
    }

    // a mail channel chosen without users gets the owner's file for its own recipients (with users it is their server)
    const mailChannels = users.length ? [] : channels.filter((c) => kinds.get(c) === 'email');
    if (mailChannels.length) {
      try {
        const made = await asUser(app, owner!.user.id, job, ctx.runId, (token) => page.make(token, search));
        for (const a of await app.notifier.send(mailChannels, { title, text: text('您好'), attachments: filesOf(made, filename) })) (a.error ? failed : sent).push(a.error ? `渠道 #${a.channelId}：${a.error}` : `渠道 #${a.channelId}`);
      } catch (e) {
        failed.push(`邮件渠道：${reason(e)}`);
      }
    }
    for (const c of channels) if (!kinds.has(c)) failed.push(`渠道 #${c}：已停用或不存在`);

    // robots and webhooks get the link — once a file went out, or when they are all the subscription has
    const others = channels.filter((c) => kinds.has(c) && kinds.get(c) !== 'email');
    const filesWanted = users.length > 0 || mailChannels.length > 0;
    const told: string[] = [];
    if (others.length && (sent.length || !filesWanted)) {
      const note = [`「${page.title}」的订阅已发送${sent.length ? `（${sent.length} 份）` : ''}。`, link ? `打开页面：${link}` : '', `订阅：${job.job_name}`].filter(Boolean).join('\n');
      for (const a of await app.notifier.send(others, { title, text: note })) (a.error ? failed : told).push(a.error ? `渠道 #${a.channelId}：${a.error}` : `渠道 #${a.channelId}`);
    }

    const delivered = [...sent, ...told];
    const summary = `订阅「${page.title}」：已发送 ${delivered.length} 份${delivered.length ? `（${delivered.join('、')}）` : ''}${failed.length ? `；失败 ${failed.length} 份：${failed.join('；')}` : ''}`;
    // nothing delivered: a failure (retried); something delivered: never run again (people would get it twice)
    if (filesWanted ? !sent.length : !told.length) throw new Error(summary);
    return summary;
  },
  async targets(app) {
    const pages = app.ctx.schemas.pages as Record<string, any>;
    const declared = Object.entries(pages)
      .filter(([id, p]) => p?.api?.export === `GET /sheets/export/${id}`)
      .map(([id, p]) => ({ value: `page:${id}`, label: `${String(p.title ?? id)}（列表页）` }));
    const made = await app.ctx.db.selectFrom('lowcode_page').select(['page_key', 'title']).where('published', '=', 1).where('deleted_time', 'is', null).orderBy('title').limit(500).execute();
    const screens = await app.ctx.db.selectFrom('datav_page').select(['id', 'page_name']).where('kind', '=', 'screen').where('deleted_time', 'is', null).orderBy('page_name').limit(500).execute();
    return [
      ...made.map((m) => ({ value: `page:${m.page_key}`, label: `${m.title}（自定义页面）` })),
      ...declared,
      ...screens.map((x) => ({ value: `screen:${x.id}`, label: `${x.page_name}（大屏）` })),
    ];
  },
};
