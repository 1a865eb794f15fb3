// 订阅 (issue 39 item 5): a list page's search, or a screen, sent on a schedule as an XLSX of its data and a link to
// open it. Each chosen user gets the file made as themselves — under a session of theirs (ended after), so their
// permissions, data scope and row rules decide the rows: a list page's own export call, a screen's charts' own
// questions (one sheet a chart; and a picture of the screen when SCREENSHOT_CHROMIUM names a browser, screenshot.ts)
// — by mail through the chosen e-mail channel's server to their own address. A chosen e-mail channel gets the file
// made as the job's owner, to its own recipients; a robot or webhook gets the text and the link (they cannot carry a
// file). No message holds a session token.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BizError } from '../../core/envelope.js';
import { refusal } from '../../core/users.js';
import { now } from '../../store/columns.js';
import { workbookOf } from '../../core/sheets.js';
import { AGGREGATIONS, DATE_GROUPS, dimensionKey, measureKey, type DatasetQuery } from '../../../common/dataset.js';
import { datasetQueryOf, type DatasetSlots } from '../../../common/datasetQuery.js';
import { screenshot } from './screenshot.js';
import { KindRefusal, type JobKind, type JobRow } from './kinds.js';

const PAGE_ID = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const MAX_USERS = 200;
const MAX_CHANNELS = 10;
const SEARCH_KEYS = 50;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** What a subscription sends: its title, where the console opens it, and its file as one user would get it. */
interface Report {
  title: string;
  path: string | null;
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
  if (declared?.api?.export === `GET /sheets/export/${id}`) [title, url] = [String(declared.title ?? id), `/api/sheets/export/${id}`];
  else {
    const made = await app.ctx.db.selectFrom('lowcode_page').select(['title']).where('page_key', '=', id).where('published', '=', 1).where('deleted_time', 'is', null).executeTakeFirst();
    if (made) [title, url] = [made.title, `/api/lowcode/data/${id}/export`];
  }
  if (title === null) return null;
  return { target: `page:${id}`, title, path: path ?? (declared ? null : `/custom/${id}`), make: async (token, search) => ({ content: await exported(app, url, token, search) }) };
}

/** A screen: a sheet for each chart fed by a dataset (the chart's own question), and its picture when possible. */
async function screenReport(app: FastifyInstance, idText: string): Promise<(Report & { target: string }) | null> {
  const id = Number(idText);
  if (!/^[1-9]\d{0,9}$/.test(idText) || !Number.isSafeInteger(id)) return null;
  const screen = await app.ctx.db.selectFrom('datav_page').select(['id', 'page_name', 'width', 'height']).where('id', '=', id).where('kind', '=', 'screen').where('deleted_time', 'is', null).executeTakeFirst();
  if (!screen) return null;
  return {
    target: `screen:${id}`,
    title: screen.page_name,
    path: `/datav/screen/preview?pageId=${id}`,
    make: async (token) => {
      const widgets = await app.ctx.db.selectFrom('datav_widget').select(['widget_title', 'widget_props']).where('page_id', '=', id).orderBy('sort_no').execute();
      const charts: Array<{ title: string; query: DatasetQuery; labels: Map<string, string> }> = [];
      for (const w of widgets) {
        let props: { datasourceProps?: DatasetSlots } | null = null;
        try {
          props = JSON.parse(w.widget_props);
        } catch {
          continue;
        }
        const query = datasetQueryOf(props?.datasourceProps);
        if (!query) continue;
        const labels = new Map((props?.datasourceProps?.dataConfig?.dataset?.fields ?? []).map((f) => [f.name, f.label || f.name]));
        charts.push({ title: w.widget_title, query, labels });
      }
      if (!charts.length) throw new Error('大屏上没有使用数据集的图表');
      const answers: Array<{ keys?: string[]; rows?: Array<Record<string, unknown>>; error?: string }> = [];
      for (let i = 0; i < charts.length; i += 50) {
        const res = await app.inject({ method: 'POST', url: '/api/dataset/query', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: { queries: charts.slice(i, i + 50).map((c) => c.query) } });
        const body = JSON.parse(res.body) as { status?: number; msg?: string; data?: typeof answers };
        if (body.status !== 0) throw new Error(body.msg ?? `HTTP ${res.statusCode}`);
        answers.push(...(body.data ?? []));
      }
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
  const raw = String(text ?? '').trim();
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new BizError('查询条件须为 JSON 对象，如 {"status": "0"}');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new BizError('查询条件须为 JSON 对象，如 {"status": "0"}');
  const out: Record<string, string | string[]> = {};
  const entries = Object.entries(parsed as Record<string, unknown>);
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

const idList = (v: unknown, max: number, what: string): number[] => {
  if (v == null) return [];
  if (!Array.isArray(v) || v.length > max || !v.every((x) => Number.isInteger(x) && x > 0)) throw new BizError(`${what}不合法（最多 ${max} 个）`);
  return [...new Set(v as number[])];
};

/** The console's address a link starts with: CONSOLE_URL, else where the job was saved from. */
function linkOf(base: string | null, path: string | null): string | null {
  if (!base || !path) return null;
  return `${base.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}

/** Runs `fn` with a session of `userId` (never sent anywhere; ended after). */
async function asUser<T>(app: FastifyInstance, userId: number, job: JobRow, runId: number, fn: (token: string) => Promise<T>): Promise<T> {
  const token = await app.ctx.sessions.create(userId, app.ctx.config.sessionTtl, { address: 'scheduler', userAgent: `订阅 #${job.id} 运行 #${runId}` });
  try {
    return await fn(token);
  } finally {
    await app.ctx.sessions.revoke(token).catch(() => {});
  }
}

/** The attachments of one recipient's mail. */
const filesOf = (made: { content: Buffer; image?: Buffer | null }, name: string) => [
  { filename: `${name}.xlsx`, content: made.content, contentType: XLSX_TYPE },
  ...(made.image ? [{ filename: `${name}.png`, content: made.image, contentType: 'image/png' }] : []),
];

const SUBSCRIPTION_FIELDS = { users: 'sendUsers', channels: 'sendChannels' } as const;

export const subscription: JobKind = {
  async check(app, rec, req: FastifyRequest) {
    const report = await reportOf(app, String(rec.target ?? ''));
    if (!report) throw new BizError('请选择要订阅的页面（可导出的列表页面或大屏）');
    rec.target = report.target;
    const search = searchOf(rec.args);
    rec.args = Object.keys(search).length ? JSON.stringify(search) : null;
    const users = idList(rec[SUBSCRIPTION_FIELDS.users], MAX_USERS, '接收用户');
    const channels = idList(rec[SUBSCRIPTION_FIELDS.channels], MAX_CHANNELS, '接收渠道');
    if (!users.length && !channels.length) throw new BizError('请选择接收的用户或通知渠道');
    if (channels.length && !(await app.notifier.exists(channels))) throw new BizError('所选通知渠道不存在');
    if (users.length) {
      const found = await app.ctx.db.selectFrom('sys_user').select(['id', 'username', 'email']).where('id', 'in', users).where('deleted', '=', 0).execute();
      if (found.length !== users.length) throw new BizError('所选用户不存在');
      const noMail = found.find((u) => !u.email);
      if (noMail) throw new BizError(`用户【${noMail.username}】没有邮箱，无法接收订阅`);
      const kinds = await app.notifier.kinds(channels);
      if (![...kinds.values()].includes('email')) throw new BizError('发给用户需要选择一个邮件渠道（用它的邮件服务器发送到各人的邮箱）');
    }
    rec[SUBSCRIPTION_FIELDS.users] = users;
    rec[SUBSCRIPTION_FIELDS.channels] = channels;
    rec.linkBase = app.ctx.config.consoleUrl || `${req.protocol}://${req.host}`;
  },
  async run(app, job, owner, ctx) {
    const page = await reportOf(app, job.target);
    if (!page) throw new KindRefusal(`订阅的页面【${(job.target ?? '').replace(/^(page|screen):/, '')}】已不存在或不能导出`);
    const search = searchOf(job.args);
    const users = (JSON.parse(job.send_users ?? '[]') as number[]) ?? [];
    const channels = (JSON.parse(job.send_channels ?? '[]') as number[]) ?? [];
    const kinds = await app.notifier.kinds(channels);
    const mailVia = channels.find((c) => kinds.get(c) === 'email');
    const link = linkOf(job.link_base, page.path);
    const day = now().slice(0, 10);
    const filename = `${page.title}-${day}`;
    const title = `【订阅】${page.title}（${day}）`;
    const text = (who: string) =>
      [`${who}：这是您订阅的「${page.title}」${Object.keys(search).length ? '（按订阅时的查询条件）' : ''}，数据见附件。`, link ? `打开页面：${link}` : '', `订阅：${job.job_name}`].filter(Boolean).join('\n');
    const sent: string[] = [];
    const failed: string[] = [];

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
        if (r?.error) failed.push(`用户 ${name}：${r.error}`);
        else sent.push(name);
      } catch (e) {
        failed.push(`用户 ${name}：${(e instanceof Error ? e.message : String(e)).slice(0, 120)}`);
      }
    }

    if (channels.length) {
      // the channels get the owner's rows (mail) or the link (robots, webhooks)
      const mailChannels = channels.filter((c) => kinds.get(c) === 'email');
      const others = channels.filter((c) => kinds.has(c) && kinds.get(c) !== 'email');
      const answers: Array<{ channelId: number; error: string | null }> = [];
      if (mailChannels.length && !users.length) {
        try {
          const made = await asUser(app, owner!.user.id, job, ctx.runId, (token) => page.make(token, search));
          answers.push(...(await app.notifier.send(mailChannels, { title, text: text('您好'), attachments: filesOf(made, filename) })));
        } catch (e) {
          failed.push(`邮件渠道：${(e instanceof Error ? e.message : String(e)).slice(0, 120)}`);
        }
      }
      if (others.length) answers.push(...(await app.notifier.send(others, { title, text: [`「${page.title}」的订阅已生成。`, link ? `打开页面：${link}` : '', `订阅：${job.job_name}`].filter(Boolean).join('\n') })));
      for (const a of answers) (a.error ? failed : sent).push(a.error ? `渠道 #${a.channelId}：${a.error}` : `渠道 #${a.channelId}`);
      for (const c of channels) if (!kinds.has(c)) failed.push(`渠道 #${c}：已停用或不存在`);
    }

    const summary = `订阅「${page.title}」：已发送 ${sent.length} 份${sent.length ? `（${sent.join('、')}）` : ''}${failed.length ? `；失败 ${failed.length} 份：${failed.join('；')}` : ''}`;
    if (!sent.length) throw new Error(summary);
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
