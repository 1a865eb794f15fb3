// Screens and forms as pages (spec part 2 "Screen designer", "New dialogs", §3 "Screen or form page", §5,
// §7 screen / form calls): list, get, save (new or edit, with the stale-save refusal), delete, copy.
import { keepVersion } from './versions.js';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { assertPermission } from '../../core/auth.js';
import { BizError, ok } from '../../core/envelope.js';
import { idQuery, likePattern, optionalId } from '../../core/declarations.js';
import { listQuerySchema, pageOf } from '../../core/list.js';
import { now } from '../../store/columns.js';
import { LIMITS, PAGE_DEFAULTS, type KindConfig, type KindMessages } from './kinds.js';
import { entryCount, findPage, pageWidgets, presentPage, presentPageFull, widgetCount } from './store.js';
import type { FillAccess } from './tables.js';
import { placeTemplate, templateOf, type Templates } from './templates.js';
import { VARIABLES_MAX, variablesFault } from '../../../common/variables.js';

const COPY_SUFFIX = '-副本';
const SORTABLE: Record<string, string> = { pageName: 'p.page_name', createTime: 'p.create_time', widgetCount: 'widget_count' };
const FORM_SORTABLE: Record<string, string> = { ...SORTABLE, entryCount: 'entry_count' };

/** #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(r, g, b), rgba(r, g, b, a) (numbers or percentages). */
const HEX_COLOR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const CHANNEL = String.raw`\s*\d{1,3}(?:\.\d+)?%?\s*`;
const ALPHA = String.raw`\s*(?:\d(?:\.\d+)?|\.\d+|\d{1,3}%)\s*`;
const RGB_COLOR = new RegExp(String.raw`^rgb\(${CHANNEL},${CHANNEL},${CHANNEL}\)$|^rgba\(${CHANNEL},${CHANNEL},${CHANNEL},${ALPHA}\)$`, 'i');

export const isColor = (s: string) => HEX_COLOR.test(s) || RGB_COLOR.test(s);

/** A theme id as the canvas panel offers them (an id the browser does not know is drawn as the default). */
const THEME_ID = /^[a-zA-Z][a-zA-Z0-9]*$/;

/** The image kind's address rules (widgets/imageView/checkImageUrl.ts): a shipped sample, a same-origin path or http(s). */
export function isImageAddress(s: string): boolean {
  if (/^builtin:[\w./-]+$/.test(s)) return true;
  if (s.startsWith('/')) return !/^\/[/\\]/.test(s);
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

export interface SaveBody {
  id?: number | null;
  pageName?: string | null;
  width?: number | string | null;
  height?: number | string | null;
  backgroundColor?: string | null;
  refreshSeconds?: number | string | null;
  theme?: string | null;
  backgroundImage?: string | null;
  variables?: unknown[] | null;
  presetLine?: unknown[] | null;
  revision?: number | null;
  /** screens, a new one only: the shipped template it starts from ('' / null: a blank screen) */
  template?: string | null;
  /** forms only */
  fillAccess?: string | null;
  accepting?: number | boolean | string | null;
  /** the designer's save: its widget list follows at once (widget/update), which keeps the one version of both */
  withWidgets?: boolean | null;
}

/** accepting as sent: 1 / 0, true / false, '1' / '0'; else undefined. */
function flagOf(v: unknown): number | undefined {
  if (v === 1 || v === true || v === '1') return 1;
  if (v === 0 || v === false || v === '0') return 0;
  return undefined;
}

/** An integer sent as a number or as digits (an input box's text), within [min, max]; else undefined. */
export function intIn(v: unknown, min: number, max: number): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d{1,10}\s*$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

/** The columns a save sets, checked; absent fields keep their stored value (a new page takes the defaults). */
function pageFields(b: SaveBody, isNew: boolean, msg: KindMessages, isForm: boolean) {
  const out: {
    page_name?: string;
    width?: number;
    height?: number;
    background_color?: string | null;
    refresh_seconds?: number | null;
    theme?: string | null;
    background_image?: string | null;
    variables?: string | null;
    preset_line?: string;
    fill_access?: FillAccess;
    accepting?: number;
  } = {};
  if (isNew || b.pageName != null) {
    const name = (b.pageName ?? '').trim();
    if (!name) throw new BizError(msg.nameRequired);
    if ([...name].length > LIMITS.pageName) throw new BizError(msg.nameTooLong);
    out.page_name = name;
  }
  for (const [key, col, what] of [
    ['width', 'width', '宽度'],
    ['height', 'height', '高度'],
  ] as const) {
    const v = b[key];
    if (v == null || v === '') {
      if (isNew) out[col] = PAGE_DEFAULTS[key];
      continue;
    }
    const n = intIn(v, 1, LIMITS.size);
    if (n === undefined) throw new BizError(msg.size(what));
    out[col] = n;
  }
  if (b.backgroundColor !== undefined || isNew) {
    const c = (b.backgroundColor ?? '').trim();
    if (c && (c.length > LIMITS.color || !isColor(c))) throw new BizError(msg.color);
    out.background_color = c || null;
  }
  // absent keeps the stored value (a client from before themes), '' or null is none
  if (b.theme !== undefined || isNew) {
    const t = (b.theme ?? '').trim();
    if (t && (t.length > LIMITS.theme || !THEME_ID.test(t))) throw new BizError(msg.theme);
    out.theme = t || null;
  }
  if (b.backgroundImage !== undefined || isNew) {
    const u = (b.backgroundImage ?? '').trim();
    if (u && (u.length > LIMITS.backgroundImage || !isImageAddress(u))) throw new BizError(msg.backgroundImage);
    out.background_image = u || null;
  }
  // absent keeps the stored list; null or [] is none
  if (b.variables !== undefined) {
    const fault = variablesFault(b.variables);
    if (fault) throw new BizError(fault);
    out.variables = b.variables && b.variables.length ? JSON.stringify(b.variables) : null;
  }
  if (b.refreshSeconds !== undefined || isNew) {
    const v = b.refreshSeconds;
    if (v == null || v === '') out.refresh_seconds = null;
    else {
      const n = intIn(v, 1, LIMITS.refreshSeconds);
      if (n === undefined) throw new BizError(msg.refresh);
      out.refresh_seconds = n;
    }
  }
  if (b.presetLine !== undefined || isNew) {
    const text = JSON.stringify(b.presetLine ?? []);
    if (text.length > LIMITS.presetLineChars) throw new BizError(msg.presetLine);
    out.preset_line = text;
  }
  // a form's settings: absent (or null) keeps the stored value, a new form takes 'login' and 1
  if (isForm && b.fillAccess != null) {
    if (b.fillAccess !== 'login' && b.fillAccess !== 'public') throw new BizError(msg.fillAccess);
    out.fill_access = b.fillAccess;
  }
  if (isForm && b.accepting != null) {
    const flag = flagOf(b.accepting);
    if (flag === undefined) throw new BizError(msg.accepting);
    out.accepting = flag;
  }
  return out;
}

/** `templates`: the ready screens a new page may start from (screens only; null for forms). */
export function pageRoutes(app: FastifyInstance, cfg: KindConfig, msg: KindMessages, templates: Templates | null = null) {
  const { db, dialect } = app.ctx;
  const { kind, perm, noun } = cfg;
  const isForm = kind === 'form';

  const loadPage = async (id: number) => {
    const row = await findPage(db, dialect, kind, id);
    if (!row) throw new BizError(msg.notFound);
    return row;
  };

  app.post<{ Body: { search?: string | null; orderByColumn?: string | null; isAsc?: string | null; pageNum?: number; pageSize?: number } }>(
    '/search',
    { config: { perm: perm.list }, schema: { body: listQuerySchema() } },
    async (req) => {
      const q = req.body ?? {};
      const filter = (qb: any) => {
        qb = qb.where('p.kind', '=', kind).where('p.deleted_time', 'is', null);
        const text = typeof q.search === 'string' ? q.search.trim() : '';
        if (text) qb = qb.where(sql<boolean>`lower(p.page_name) like ${likePattern(text.toLowerCase())} escape '\\'`);
        return qb;
      };
      const win = pageOf(q, isForm ? FORM_SORTABLE : SORTABLE);
      const total = await filter(db.selectFrom('datav_page as p').select((eb) => eb.fn.countAll().as('n'))).executeTakeFirst();
      let rows = filter(
        db
          .selectFrom('datav_page as p')
          .selectAll('p')
          .select((eb) => eb.selectFrom('datav_widget as w').whereRef('w.page_id', '=', 'p.id').select((e) => e.fn.countAll().as('c')).as('widget_count'))
          .select((eb) => eb.selectFrom('jimu_form_entry as e').whereRef('e.form_id', '=', 'p.id').select((e) => e.fn.countAll().as('c')).as('entry_count'))
          // a screen's thumbnail: its ETag, or null while none was taken (thumbnails.ts)
          .select((eb) => eb.selectFrom('datav_thumbnail as t').whereRef('t.page_id', '=', 'p.id').select('t.etag').as('thumbnail')),
      );
      rows = win.order ? rows.orderBy(win.order.column, win.order.dir).orderBy('p.id', 'desc') : rows.orderBy('p.id', 'desc');
      const records = (await rows.limit(win.limit).offset(win.offset).execute()).map((r: any) => ({
        ...presentPage(r, Number(r.widget_count ?? 0), Number(r.entry_count ?? 0)),
        ...(isForm ? {} : { thumbnail: (r.thumbnail as string | null) ?? null }),
      }));
      return ok({ records, total: Number(total?.n ?? 0) });
    },
  );

  app.get<{ Querystring: { id: number } }>('/info/get', { config: { perm: perm.list }, schema: { querystring: idQuery } }, async (req) => {
    const row = await loadPage(req.query.id);
    return ok(presentPageFull(row, await widgetCount(db, row.id), isForm ? await entryCount(db, row.id) : 0));
  });

  const int = (title: string) => ({ type: ['number', 'string', 'null'], maxLength: 12, title });
  const saveBody = {
    type: 'object',
    properties: {
      id: optionalId('编号'),
      pageName: { type: ['string', 'null'], maxLength: 200, title: `${noun}名称` },
      width: int('宽度'),
      height: int('高度'),
      backgroundColor: { type: ['string', 'null'], maxLength: 200, title: '背景颜色' },
      refreshSeconds: int('刷新间隔（秒）'),
      theme: { type: ['string', 'null'], maxLength: 50, title: '主题' },
      backgroundImage: { type: ['string', 'null'], maxLength: 4000, title: '背景图片' },
      variables: { type: ['array', 'null'], maxItems: VARIABLES_MAX, title: '变量' },
      presetLine: { type: ['array', 'null'], maxItems: LIMITS.presetLines, title: '参考线' },
      revision: optionalId('版本', 0),
      template: { type: ['string', 'null'], maxLength: 200, title: '模板' },
      // forms only (a screen ignores them): 'login' | 'public', and 1 | 0 (true / false, '1' / '0')
      fillAccess: { type: ['string', 'null'], maxLength: 10, title: '填写权限' },
      accepting: { type: ['integer', 'boolean', 'string', 'null'], maxLength: 10, title: '是否收集' },
      withWidgets: { type: ['boolean', 'null'], title: '随后保存组件' },
    },
  } as const;

  app.post<{ Body: SaveBody }>('/info/save', { config: { perm: perm.list }, schema: { body: saveBody } }, async (req) => {
    const b = req.body ?? {};
    const id = b.id ?? undefined;
    // one route for new and edited pages: which permission applies depends on the body
    assertPermission(req, id ? perm.edit : perm.add);
    const time = now();
    if (!id) {
      const f = pageFields(b, true, msg, isForm);
      // a template gives the canvas (size, background, refresh) and the widgets; the name is the caller's
      const template = templateOf(templates, b.template);
      const canvas = template?.canvas;
      const { row, count } = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('datav_page')
          .values({
            kind,
            page_name: f.page_name!,
            width: canvas?.width ?? f.width!,
            height: canvas?.height ?? f.height!,
            background_color: canvas ? canvas.background_color : (f.background_color ?? null),
            refresh_seconds: canvas ? canvas.refresh_seconds : (f.refresh_seconds ?? null),
            // a template is drawn for the default theme; a blank screen takes what the dialog chose
            theme: canvas ? null : (f.theme ?? null),
            background_image: canvas ? null : (f.background_image ?? null),
            variables: f.variables ?? null,
            preset_line: f.preset_line ?? '[]',
            ...(f.fill_access ? { fill_access: f.fill_access } : {}),
            ...(f.accepting !== undefined ? { accepting: f.accepting } : {}),
            status: 0,
            revision: 1,
            create_user: req.user!.username,
            create_time: time,
            update_time: time,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        const count = template ? await placeTemplate(trx, Number(row.id), template, time) : 0;
        return { row, count };
      });
      await keepVersion(app, cfg, Number(row.id), req);
      return ok(presentPageFull(row, count), '保存成功');
    }
    if (b.template) throw new BizError('只有新建时才能选择模板');
    const row = await saveInfo({ ...b, id });
    // one version per designer save: kept after its widget list (widget/update), not after the canvas too
    if (!b.withWidgets) await keepVersion(app, cfg, row.id, req);
    return ok(presentPageFull(row, await widgetCount(db, row.id), isForm ? await entryCount(db, row.id) : 0), '保存成功');
  });

  /** Saves an existing page's canvas settings, conditional on the revision sent (the route's and a restore's way in). */
  async function saveInfo(b: SaveBody & { id: number }) {
    const id = b.id;
    const time = now();
    const stored = await loadPage(id);
    const sent = b.revision ?? undefined;
    if (sent !== undefined && sent !== stored.revision) throw new BizError(msg.stale(stored.revision));
    const f = pageFields(b, false, msg, isForm);
    // conditional on the revision the caller loaded: of two saves from the same revision only one passes
    let q = db
      .updateTable('datav_page')
      .set((eb) => ({ ...f, update_time: time, revision: eb('revision', '+', 1) }))
      .where('id', '=', id)
      .where('kind', '=', kind);
    if (sent !== undefined) q = q.where('revision', '=', sent);
    const row = await q.returningAll().executeTakeFirst();
    if (!row) {
      const current = await findPage(db, dialect, kind, id);
      throw new BizError(current ? msg.stale(current.revision) : msg.notFound);
    }
    return row;
  }

  // 删除 moves the page to the recycle bin (issue 37): marked deleted, its widgets, thumbnail and entries kept;
  // 还原 clears the mark, 彻底删除 and RECYCLE_DAYS delete it all (purge)
  app.get<{ Querystring: { id: number } }>('/delete', { config: { perm: perm.remove }, schema: { querystring: idQuery } }, async (req) => {
    await db.transaction().execute(async (trx) => {
      const row = await findPage(trx, dialect, kind, req.query.id, true);
      if (!row) throw new BizError(msg.notFound);
      const widgets = await widgetCount(trx, row.id);
      const entries = isForm ? await entryCount(trx, row.id) : 0;
      const took = [...(widgets ? [`${widgets} 个组件`] : []), ...(entries ? [`${entries} 条填写记录`] : [])];
      await trx.updateTable('datav_page').set({ deleted_time: now() }).where('id', '=', row.id).execute();
      await app.recycle.put(kind, row.id, row.page_name, took, {}, req, trx);
    });
    return ok(null, '删除成功');
  });

  /** Deletes a page in the recycle bin for good, with its widgets, thumbnail and (a form's) entries. */
  const purge = async (id: number) => {
    await db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('datav_page').selectAll().where('id', '=', id).where('kind', '=', kind).where('deleted_time', 'is not', null).executeTakeFirst();
      if (!row) return;
      await trx.deleteFrom('datav_widget').where('page_id', '=', row.id).execute();
      await trx.deleteFrom('datav_thumbnail').where('page_id', '=', row.id).execute();
      // a form's entries go with it; their images are then the sweep's (formImages.ts)
      if (isForm) {
        await trx
          .deleteFrom('jimu_form_entry_image')
          .where('entry_id', 'in', (q) => q.selectFrom('jimu_form_entry').select('id').where('form_id', '=', row.id))
          .execute();
        await trx.deleteFrom('jimu_form_entry').where('form_id', '=', row.id).execute();
      }
      await trx.deleteFrom('datav_page').where('id', '=', row.id).execute();
    });
  };
  app.recycle.register({
    kind,
    perm: perm.remove,
    restore: async (key) => {
      await db.updateTable('datav_page').set({ deleted_time: null }).where('id', '=', Number(key)).where('kind', '=', kind).execute();
      return [];
    },
    purge: (key) => purge(Number(key)),
  });

  app.get<{ Querystring: { id: number } }>('/copy', { config: { perm: perm.add }, schema: { querystring: idQuery } }, async (req) => {
    const newId = await db.transaction().execute(async (trx) => {
      const src = await findPage(trx, dialect, kind, req.query.id, true);
      if (!src) throw new BizError(msg.notFound);
      const time = now();
      // the suffix stays whole: a long name gives way to it
      const name = [...src.page_name].slice(0, LIMITS.pageName - COPY_SUFFIX.length).join('') + COPY_SUFFIX;
      const { id: _id, ...rest } = src;
      const page = await trx
        .insertInto('datav_page')
        .values({ ...rest, page_name: name, status: 0, revision: 1, create_user: req.user!.username, create_time: time, update_time: time })
        .returning('id')
        .executeTakeFirstOrThrow();
      const pageId = Number(page.id);
      const widgets = await pageWidgets(trx, src.id);
      for (let i = 0; i < widgets.length; i += 100) {
        const chunk = widgets.slice(i, i + 100).map((w, j) => ({ ...w, id: randomUUID(), page_id: pageId, sort_no: i + j, create_time: time, update_time: time }));
        await trx.insertInto('datav_widget').values(chunk).execute();
      }
      // the copy looks like its source until its first save takes its own picture
      const thumb = await trx.selectFrom('datav_thumbnail').selectAll().where('page_id', '=', src.id).executeTakeFirst();
      if (thumb) await trx.insertInto('datav_thumbnail').values({ ...thumb, page_id: pageId }).execute();
      return pageId;
    });
    return ok(newId, '复制成功');
  });
  /** A page's canvas settings checked as info/save checks them (a new page's by default): an import's and a restore's. */
  const checkCanvas = (b: SaveBody, isNew = true) => pageFields(b, isNew, msg, isForm);
  return { saveInfo, checkCanvas };
}
