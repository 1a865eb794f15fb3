// The widgets of a screen or form (spec part 2 "Screen designer", §3 "Widget", "Widget catalogue entry",
// §4 drop / save, §7 widget calls): the catalogue, select / reload, add (created on the server with the
// kind's declared defaults), update (the page's whole list, validated against each kind's schemas, in
// one transaction) and delete.
import { keepVersion } from './versions.js';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { BizError, ok } from '../../core/envelope.js';
import { idQuery, isUniqueViolation } from '../../core/declarations.js';
import { now } from '../../store/columns.js';
import { judgePatterns, patternFault } from '../../core/patterns.js';
import { allowedIn, catalogueOf, declarationOf, isFieldKind, maxUseOf, newWidgetProps, PropsValidators, type WidgetDeclaration, type WidgetProps } from './declarations.js';
import { customPatternsOf, isReservedField, newFieldName } from './fields.js';
import { groupFault } from '../../../common/groups.js';
import { interactionFault } from '../../../common/interaction.js';
import { variablesOf } from '../../../common/variables.js';
import { intIn } from './pages.js';
import { LIMITS, type KindConfig, type KindMessages } from './kinds.js';
import { findPage, pageWidgets, parseJson, presentWidget, presentWidgets } from './store.js';

const MAX_ID = 2147483647;
export const WIDGET_ID = /^[A-Za-z0-9-]+$/;

/** A page id sent as a number or as digits (the browser's entity types it as a string). */
const pageIdOf = (v: unknown) => intIn(v, 1, MAX_ID);

/** A field's lower / upper bound pairs (form-field kinds' viewProps). */
const BOUNDS = [
  ['minLength', 'maxLength'],
  ['minimum', 'maximum'],
  ['minItems', 'maxItems'],
] as const;
const pageIdProp = { type: ['integer', 'string'], minimum: 1, maximum: MAX_ID, pattern: '^[1-9][0-9]{0,9}$', title: '页面编号' } as const;
const widgetIdProp = { type: 'string', minLength: 1, maxLength: 36, pattern: WIDGET_ID.source, title: '部件编号' } as const;
const widgetNameProp = { type: 'string', minLength: 1, maxLength: 64, title: '部件名' } as const;
const text = (maxLength: number, title: string) => ({ type: ['string', 'null'], maxLength, title });

const pageIdQuery = { type: 'object', required: ['pageId'], properties: { pageId: { ...idQuery.properties.id, title: '页面编号' } } } as const;
const widgetIdQuery = { type: 'object', required: ['id'], properties: { id: widgetIdProp } } as const;

const addBody = {
  type: 'object',
  required: ['pageId', 'widgetName'],
  properties: {
    pageId: pageIdProp,
    widgetName: widgetNameProp,
    top: { type: ['integer', 'null'], minimum: -99999, maximum: 999999, title: '上边距' },
    left: { type: ['integer', 'null'], minimum: -99999, maximum: 999999, title: '左边距' },
  },
} as const;

const widgetItem = {
  type: 'object',
  title: '部件',
  required: ['id', 'widgetName', 'widgetProps'],
  properties: {
    id: widgetIdProp,
    pageId: pageIdProp,
    widgetName: widgetNameProp,
    widgetTitle: text(100, '部件标题'),
    icon: text(64, '图标'),
    widgetProps: {
      type: 'object',
      title: '部件属性',
      properties: {
        widgetViewName: text(100, '渲染组件名'),
        widgetFormName: text(100, '属性表单名'),
        // 'view' | 'datasource' | 'interaction'; anything else reads as 'view'
        selectedTab: text(20, '属性页签'),
        viewProps: { type: 'object', title: '视图样式' },
        versionProps: { type: ['object', 'null'], title: '版本信息' },
        datasourceProps: { type: 'object', title: '数据源' },
        // designer-only layer flags; any other key is kept as sent (within the size cap)
        locked: { type: ['boolean', 'null'], title: '锁定' },
        hidden: { type: ['boolean', 'null'], title: '隐藏' },
        // the layer group (common/groups.ts), checked with the whole list below
        group: { type: ['object', 'null'], title: '分组' },
        // what a click does in the preview (common/interaction.ts), checked against the page's variables below
        interactionProps: { type: ['object', 'null'], title: '交互' },
      },
    },
    isHead: { type: ['boolean', 'null'], title: '是否顶层' },
    isTail: { type: ['boolean', 'null'], title: '是否底层' },
  },
} as const;

/** `{ pageId, widgets, revision? }`, or the bare list (the spec's "list"), each item carrying pageId. */
const updateBody = {
  type: ['object', 'array'],
  items: widgetItem,
  required: ['pageId', 'widgets'],
  properties: {
    pageId: pageIdProp,
    widgets: { type: 'array', maxItems: LIMITS.widgets, items: widgetItem, title: '部件列表' },
    revision: { type: ['integer', 'null'], minimum: 0, maximum: MAX_ID, title: '版本' },
  },
} as const;

interface WidgetItem {
  id: string;
  pageId?: number | string;
  widgetName: string;
  widgetTitle?: string | null;
  icon?: string | null;
  widgetProps: Partial<Record<keyof WidgetProps, unknown>> & Record<string, unknown>;
}

export type UpdateBody = WidgetItem[] | { pageId: number | string; widgets: WidgetItem[]; revision?: number | null };

export function widgetRoutes(app: FastifyInstance, cfg: KindConfig, msg: KindMessages) {
  const { db, dialect } = app.ctx;
  const { kind, perm } = cfg;
  const validators = new PropsValidators();
  // read at each call: the loaded declarations are the one source (a test may add a kind before listening)
  const declarations = () => app.ctx.schemas.widgets;
  const titleOf = (d: WidgetDeclaration) => d.catalogue.widgetTitle;

  const loadPage = async (id: number) => {
    const row = await findPage(db, dialect, kind, id);
    if (!row) throw new BizError(msg.notFound);
    return row;
  };

  /** How a widget is named in a refusal: its label when it has one, else its title or its kind's. */
  const labelOf = (w: { widgetName: string; widgetTitle?: string | null; widgetProps?: { viewProps?: unknown } }) => {
    const v = w.widgetProps?.viewProps as Record<string, unknown> | undefined;
    const label = typeof v?.label === 'string' ? v.label.trim() : '';
    const d = declarationOf(declarations(), w.widgetName);
    return label || w.widgetTitle?.trim() || (d ? titleOf(d) : w.widgetName);
  };

  /**
   * A field's own checks, before its schema's (so an empty name is told as such, not as a bad pattern):
   * a name, not a reserved one, and a custom pattern the ReDoS check passes.
   */
  const checkField = (d: WidgetDeclaration, viewProps: unknown, pointer: string, verdicts: ReadonlyMap<string, string | null>) => {
    if (!viewProps || typeof viewProps !== 'object' || Array.isArray(viewProps)) return; // the schema says what is wrong
    const v = viewProps as Record<string, unknown>;
    const name = labelOf({ widgetName: d.widgetName, widgetProps: { viewProps: v } });
    const field = typeof v.field === 'string' ? v.field.trim() : '';
    if (!field) throw new BizError(msg.fieldEmpty(name));
    if (isReservedField(field)) throw new BizError(msg.fieldReserved(name, field));
    // a lower bound above its upper one makes a field nobody can fill
    const props = (d.viewProps as { properties?: Record<string, { title?: string }> }).properties ?? {};
    for (const [low, high] of BOUNDS) {
      const a = v[low];
      const b = v[high];
      if (typeof a === 'number' && typeof b === 'number' && a > b) throw new BizError(msg.fieldBounds(name, props[low]?.title ?? low, props[high]?.title ?? high));
    }
    // checked as it will run: trimmed (fields.ts and the browser's rules trim it)
    const pattern = typeof v.customPattern === 'string' ? v.customPattern.trim() : '';
    if (pattern) {
      const fault = verdicts.has(pattern) ? verdicts.get(pattern)! : patternFault(pattern);
      if (fault) throw new BizError(msg.badProps(name, `${pointer}/customPattern ${fault}`));
    }
  };

  /** The field names already used on a page. */
  const fieldNames = async (trx: typeof db, pageId: number) => {
    const names: string[] = [];
    for (const r of await pageWidgets(trx, pageId)) {
      const v = presentWidget(r, 0, 1).widgetProps.viewProps;
      if (typeof v.field === 'string' && v.field) names.push(v.field);
    }
    return names;
  };

  /** A widget of a page of this kind, or the refusal. */
  const loadWidget = async (id: string) => {
    const w = await db
      .selectFrom('datav_widget as w')
      .innerJoin('datav_page as p', 'p.id', 'w.page_id')
      .selectAll('w')
      .where('w.id', '=', id)
      .where('p.kind', '=', kind)
      .where('p.deleted_time', 'is', null)
      .executeTakeFirst();
    if (!w) throw new BizError(msg.widgetNotFound);
    return w;
  };

  /** The declaration of a kind this designer may use, or the refusal. */
  const kindOf = (widgetName: string) => {
    const d = declarationOf(declarations(), widgetName);
    if (!d) throw new BizError(msg.unknownWidget(widgetName));
    if (!allowedIn(d, kind)) throw new BizError(msg.notForKind(titleOf(d)));
    return d;
  };

  app.get('/widget/catalogue', { config: { perm: perm.list } }, async () => ok(catalogueOf(Object.values(declarations()), kind)));

  app.get<{ Querystring: { pageId: number } }>('/widget/select', { config: { perm: perm.list }, schema: { querystring: pageIdQuery } }, async (req) => {
    const page = await loadPage(req.query.pageId);
    return ok(presentWidgets(await pageWidgets(db, page.id)));
  });

  app.get<{ Querystring: { id: string } }>('/widget/reload', { config: { perm: perm.list }, schema: { querystring: widgetIdQuery } }, async (req) => {
    const w = await loadWidget(req.query.id);
    const list = await pageWidgets(db, w.page_id);
    const at = list.findIndex((x) => x.id === w.id);
    return ok(presentWidget(list[at] ?? w, at, list.length));
  });

  app.post<{ Body: { pageId: number | string; widgetName: string; top?: number | null; left?: number | null } }>(
    '/widget/add',
    { config: { perm: perm.edit }, schema: { body: addBody } },
    async (req) => {
      const b = req.body;
      const pageId = pageIdOf(b.pageId);
      if (pageId === undefined) throw new BizError(msg.pageIdMissing);
      await loadPage(pageId);
      const d = kindOf(b.widgetName);
      const props = newWidgetProps(d, { top: b.top ?? undefined, left: b.left ?? undefined });
      // a field gets its name below, with the page locked; the declared default ('') would not pass
      if (isFieldKind(d)) props.viewProps.field = newFieldName(d.widgetName, []);
      const fault = validators.check(d, props, '/widgetProps');
      if (fault) throw new BizError(msg.badProps(titleOf(d), fault));
      const time = now();
      const created = await db.transaction().execute(async (trx) => {
        // locked: two drops racing for the last allowed one cannot both pass
        const page = await findPage(trx, dialect, kind, pageId, true);
        if (!page) throw new BizError(msg.notFound);
        const stats = await trx
          .selectFrom('datav_widget')
          .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('sort_no').as('top')])
          .where('page_id', '=', page.id)
          .executeTakeFirst();
        const count = Number(stats?.n ?? 0);
        if (count >= LIMITS.widgets) throw new BizError(msg.tooManyWidgets);
        const max = maxUseOf(d);
        if (max > 0) {
          const same = await trx.selectFrom('datav_widget').select((eb) => eb.fn.countAll().as('n')).where('page_id', '=', page.id).where('widget_name', '=', d.widgetName).executeTakeFirst();
          if (Number(same?.n ?? 0) >= max) throw new BizError(msg.maxUse(titleOf(d), max));
        }
        if (isFieldKind(d)) props.viewProps.field = newFieldName(d.widgetName, await fieldNames(trx, page.id));
        const row = await trx
          .insertInto('datav_widget')
          .values({
            id: randomUUID(),
            page_id: page.id,
            sort_no: stats?.top == null ? 0 : Number(stats.top) + 1,
            widget_name: d.widgetName,
            widget_title: titleOf(d),
            icon: d.catalogue.icon,
            widget_props: JSON.stringify(props),
            create_time: time,
            update_time: time,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return presentWidget(row, count, count + 1);
      });
      return ok(created, '添加成功');
    },
  );

  /**
   * Writes a page's whole widget list (what it leaves out is deleted), every widget checked first; conditional on
   * the revision sent. The route's and a version restore's one way in (issue 37); answers the page's id.
   */
  const saveWidgets = async (body: UpdateBody): Promise<number> => {
    const bare = Array.isArray(body);
    const items = bare ? body : body.widgets;
    const pageId = pageIdOf(bare ? items[0]?.pageId : body.pageId);
    if (pageId === undefined) throw new BizError(msg.pageIdMissing);
    const revision = bare ? undefined : (body.revision ?? undefined);
    const page = await loadPage(pageId);
    const rows = await checkWidgets(items, pageId, parseJson<unknown>(page.variables ?? null, []), bare);
    try {
      await db.transaction().execute((trx) => writeWidgets(trx, pageId, rows, revision));
    } catch (err) {
      // an id another page took meanwhile
      if (isUniqueViolation(err)) throw new BizError(msg.idTaken());
      throw err;
    }
    return pageId;
  };

  /**
   * Every widget of a page's list checked as a save checks it (kind, props against its schema, fields, clicks on
   * the page's variables, groups, limits); answers the rows to write. A save's and a workspace import's one check.
   */
  const checkWidgets = async (items: WidgetItem[], pageId: number, variables: unknown, bare = false) => {
    const at = bare ? '' : '/widgets';
    if (items.length > LIMITS.widgets) throw new BizError(msg.tooManyWidgets);
    const declared = variablesOf(variables);
    const time = now();
    const seen = new Set<string>();
    const perKind = new Map<WidgetDeclaration, number>();
    // the fields' own patterns are judged first, off the event loop (core/patterns.ts)
    const verdicts = await judgePatterns(customPatternsOf(items.map((w) => w.widgetProps?.viewProps)));
    const rows = items.map((w, i) => {
      // the bare list names its page in every item; in { pageId, widgets } an item may leave it out
      const named = bare || w.pageId != null;
      if (named && pageIdOf(w.pageId) !== pageId) throw new BizError(msg.pageIdMismatch(i));
      if (seen.has(w.id)) throw new BizError(msg.duplicateId(w.id));
      seen.add(w.id);
      const d = kindOf(w.widgetName);
      const { widgetViewName: _v, widgetFormName: _f, selectedTab: _t, viewProps: _vp, versionProps: _ver, datasourceProps: _ds, ...extra } = w.widgetProps;
      const p = w.widgetProps;
      const props = {
        ...extra,
        widgetViewName: typeof p.widgetViewName === 'string' && p.widgetViewName ? p.widgetViewName : d.widgetViewName,
        widgetFormName: typeof p.widgetFormName === 'string' && p.widgetFormName ? p.widgetFormName : (d.widgetFormName ?? 'SchemaPanel'),
        selectedTab: p.selectedTab === 'datasource' || p.selectedTab === 'interaction' ? p.selectedTab : 'view',
        viewProps: p.viewProps,
        versionProps: p.versionProps ?? { upgrade: false, docUrl: '', ...d.versionProps },
        datasourceProps: p.datasourceProps,
      };
      const json = JSON.stringify(props);
      if (Buffer.byteLength(json) > LIMITS.widgetPropsBytes) throw new BizError(msg.propsTooLarge(titleOf(d)));
      if (isFieldKind(d)) checkField(d, props.viewProps, `${at}/${i}/widgetProps/viewProps`, verdicts);
      // clicks: only kinds that emit them, variables the page declares, same-origin or http(s) targets
      if (p.interactionProps != null) {
        if (!d.catalogue.interactions) throw new BizError(msg.badProps(labelOf(w), '此部件不支持点击交互'));
        const bad = interactionFault(p.interactionProps, declared);
        if (bad) throw new BizError(msg.badProps(labelOf(w), bad));
      }
      const fault = validators.check(d, props, `${at}/${i}/widgetProps`);
      if (fault) throw new BizError(msg.badProps(titleOf(d), fault));
      perKind.set(d, (perKind.get(d) ?? 0) + 1);
      return {
        id: w.id,
        page_id: pageId,
        sort_no: i,
        widget_name: d.widgetName,
        widget_title: w.widgetTitle?.trim() || titleOf(d),
        icon: w.icon?.trim() || d.catalogue.icon,
        widget_props: json,
        create_time: time,
        update_time: time,
      };
    });
    for (const [d, n] of perKind) if (maxUseOf(d) > 0 && n > maxUseOf(d)) throw new BizError(msg.maxUse(titleOf(d), maxUseOf(d)));
    // layer groups: well formed, members adjacent in the list, one name, two members at least
    const badGroup = groupFault(items, (i) => `第 ${i + 1} 个部件【${labelOf(items[i])}】`);
    if (badGroup) throw new BizError(badGroup);
    // a field name names one value of a submission: once per page
    const owners = new Map<string, string>();
    for (const w of items) {
      const v = w.widgetProps.viewProps as Record<string, unknown>;
      if (!isFieldKind(kindOf(w.widgetName)) || typeof v?.field !== 'string') continue;
      const other = owners.get(v.field);
      if (other !== undefined) throw new BizError(msg.fieldDuplicate(labelOf(w), v.field, other));
      owners.set(v.field, labelOf(w));
    }
    return rows;
  };

  /** Writes a page's checked widget list in `trx` (what it leaves out is deleted), conditional on `revision`. */
  const writeWidgets = async (trx: typeof db, pageId: number, rows: Awaited<ReturnType<typeof checkWidgets>>, revision?: number) => {
    const time = now();
    const page = await findPage(trx, dialect, kind, pageId, true);
    if (!page) throw new BizError(msg.notFound);
    if (revision !== undefined && revision !== page.revision) throw new BizError(msg.stale(page.revision));
    const ids = rows.map((r) => r.id);
    for (let i = 0; i < ids.length; i += 500) {
      const taken = await trx.selectFrom('datav_widget').select('id').where('id', 'in', ids.slice(i, i + 500)).where('page_id', '<>', pageId).executeTakeFirst();
      if (taken) throw new BizError(msg.idTaken(taken.id));
    }
    // what the list leaves out is deleted; the rest is written back in the list's order
    const kept = new Map((await trx.selectFrom('datav_widget').select(['id', 'create_time']).where('page_id', '=', pageId).execute()).map((r) => [r.id, r.create_time]));
    await trx.deleteFrom('datav_widget').where('page_id', '=', pageId).execute();
    for (let i = 0; i < rows.length; i += 100) {
      await trx
        .insertInto('datav_widget')
        .values(rows.slice(i, i + 100).map((r) => ({ ...r, page_id: pageId, create_time: kept.get(r.id) ?? time })))
        .execute();
    }
  };

  app.post<{ Body: UpdateBody }>('/widget/update', { config: { perm: perm.edit }, bodyLimit: LIMITS.updateBodyBytes, schema: { body: updateBody } }, async (req) => {
    const pageId = await saveWidgets(req.body);
    await keepVersion(app, cfg, pageId, req);
    return ok(presentWidgets(await pageWidgets(db, pageId)), '保存成功');
  });

  app.get<{ Querystring: { id: string } }>('/widget/delete', { config: { perm: perm.edit }, schema: { querystring: widgetIdQuery } }, async (req) => {
    const w = await loadWidget(req.query.id);
    await db.deleteFrom('datav_widget').where('id', '=', w.id).execute();
    return ok(null, '删除成功');
  });
  return { saveWidgets, checkWidgets, writeWidgets };
}
