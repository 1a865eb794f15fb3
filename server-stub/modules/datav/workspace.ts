// Screens and forms in a workspace export and import (issue 37 item 3, core/workspace.ts). In the file a page is
// named by its name and holds its canvas and widgets (the version snapshot); a chart's dataset and a form field's
// options dataset are named by the dataset's name (ids differ between deployments), and the datasets and APIs its
// widgets read are its dependencies. An import checks the canvas and every widget as the designer's save does and
// writes the page with fresh widget ids (a copy beside the original must not take the original's) in the import's
// transaction; the target's datasets are found by name at the write, after the file's own were written.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { assertPermission } from '../../core/auth.js';
import { BizError } from '../../core/envelope.js';
import { copyName, type WorkspaceItem, type WorkspaceRef } from '../../core/workspace.js';
import { now } from '../../store/columns.js';
import type { Database } from '../../store/schema.js';
import type { KindConfig } from './kinds.js';
import { snapshotOf, type PageSnapshot } from './versions.js';
import type { SaveBody } from './pages.js';
import type { widgetRoutes } from './widgets.js';

type Saves = Pick<ReturnType<typeof widgetRoutes>, 'checkWidgets'> & { checkCanvas(b: SaveBody): Record<string, unknown> };
type Widget = PageSnapshot['widgets'][number];

/** The places a widget names a dataset by id: a chart's dataset query, a form field's options. */
function datasetSlots(w: Widget): Array<Record<string, unknown>> {
  const p = w.widgetProps as Record<string, any>;
  return [p?.datasourceProps?.dataConfig?.dataset, p?.viewProps?.optionsDataset].filter((x): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x) && x.datasetId != null);
}
/** The published APIs a widget reads (by name). */
function apiOf(w: Widget): string | null {
  const ds = (w.widgetProps as Record<string, any>)?.datasourceProps;
  return ds?.datasourceType === 'API' && typeof ds?.dataConfig?.datasource === 'string' && ds.dataConfig.datasource ? ds.dataConfig.datasource : null;
}
/** A copy of `v` with every string that is a key of `ids` replaced by its value (widget ids in links and groups). */
function replaceIds(v: unknown, ids: ReadonlyMap<string, string>, depth = 0): unknown {
  if (typeof v === 'string') return ids.get(v) ?? v;
  if (depth > 40 || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => replaceIds(x, ids, depth + 1));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replaceIds(x, ids, depth + 1)]));
}
/** The widgets with fresh ids (a copy beside the original must not take the original's). */
const renumber = (widgets: Widget[]) => replaceIds(widgets, new Map(widgets.map((w) => [w.id, randomUUID()]))) as Widget[];

export function registerScreenWorkspace(app: FastifyInstance, cfg: KindConfig, saves: Saves) {
  const { db } = app.ctx;
  const kind = cfg.kind;
  const live = (on: Kysely<Database> = db) => on.selectFrom('datav_page').selectAll().where('kind', '=', kind).where('deleted_time', 'is', null);

  /** The page as the file holds it: datasets by name, its datasets and APIs as dependencies. */
  const asItem = async (row: Awaited<ReturnType<ReturnType<typeof live>['executeTakeFirstOrThrow']>>): Promise<WorkspaceItem> => {
    const snap = await snapshotOf(app, row);
    const ids = [...new Set(snap.widgets.flatMap((w) => datasetSlots(w).map((s) => Number(s.datasetId))).filter((n) => Number.isInteger(n) && n > 0))];
    const names = new Map(ids.length ? (await db.selectFrom('dataset').select(['id', 'name']).where('id', 'in', ids).execute()).map((r) => [Number(r.id), r.name]) : []);
    const deps: WorkspaceRef[] = [];
    for (const w of snap.widgets) {
      for (const s of datasetSlots(w)) {
        const name = names.get(Number(s.datasetId));
        s.datasetId = name ?? null; // a dataset gone here is gone in the file too: the chart shows no data
        if (name) deps.push({ kind: 'dataset', key: name });
      }
      const api = apiOf(w);
      if (api) deps.push({ kind: 'api', key: api });
    }
    const { pageName: _n, ...canvas } = snap.canvas;
    const unique = [...new Map(deps.map((d) => [`${d.kind}:${d.key}`, d])).values()];
    return { kind, key: row.page_name, title: row.page_name, content: { canvas, widgets: snap.widgets }, deps: unique };
  };

  app.workspace.register<{ key: string; canvas: Record<string, unknown>; widgets: Widget[]; replaceId: number | null }>({
    kind,
    readPerm: cfg.perm.list,
    // a new page and its widgets: the widget save's permission (edit), as the designer needs it
    writePerm: cfg.perm.edit,
    list: async () => (await live().orderBy('page_name').orderBy('id').execute()).map((r) => ({ key: String(r.id), title: r.page_name })),
    // an export names a page by id (two pages may share a name); the file names it by name
    read: async (key) => {
      const row = /^\d{1,10}$/.test(key) ? await live().where('id', '=', Number(key)).executeTakeFirst() : await live().where('page_name', '=', key).orderBy('id').executeTakeFirst();
      return row ? asItem(row) : null;
    },
    existing: async (key) => {
      const row = await live().where('page_name', '=', key).orderBy('id').executeTakeFirst();
      return row ? asItem(row) : null;
    },
    prepare: async (item, ctx, mode, key) => {
      const c = item.content as Partial<PageSnapshot>;
      if (!c || typeof c.canvas !== 'object' || !c.canvas || !Array.isArray(c.widgets)) throw new BizError('内容不完整（画布、部件）');
      if (mode !== 'replace') assertPermission(ctx.req, cfg.perm.add);
      const canvas: Record<string, unknown> = { ...(c.canvas as Record<string, unknown>), pageName: key };
      saves.checkCanvas(canvas as SaveBody);
      // a dataset named must come with the file or be here already
      for (const w of c.widgets)
        for (const s of datasetSlots(w)) {
          const name = String(s.datasetId);
          if (!ctx.inFile('dataset', name) && !(await db.selectFrom('dataset').select('id').where('name', '=', name).where('deleted_time', 'is', null).executeTakeFirst())) throw new BizError(`部件「${w.widgetTitle ?? w.widgetName}」的数据集「${name}」不在文件中，本环境也没有`);
        }
      const widgets = renumber(c.widgets);
      // checked as the designer's save checks them, with a stand-in dataset id (the real one is known at the write)
      const probe = JSON.parse(JSON.stringify(widgets)) as Widget[];
      for (const w of probe) for (const s of datasetSlots(w)) s.datasetId = 1;
      await saves.checkWidgets(probe, 0, canvas.variables ?? []);
      const replaceId = mode === 'replace' ? Number((await live().select('id').where('page_name', '=', key).orderBy('id').executeTakeFirst())?.id ?? 0) || null : null;
      return { key, canvas, widgets, replaceId };
    },
    write: async (p, on, ctx) => {
      // datasets by name, now that the file's own are written (a copy of one under its new name)
      for (const w of p.widgets)
        for (const s of datasetSlots(w)) {
          const name = ctx.keyOf('dataset', String(s.datasetId));
          const hit = await on.selectFrom('dataset').select('id').where('name', '=', name).where('deleted_time', 'is', null).executeTakeFirst();
          if (!hit) throw new BizError(`数据集「${name}」在本环境不存在`);
          s.datasetId = Number(hit.id);
        }
      const rows = await saves.checkWidgets(p.widgets, 0, p.canvas.variables ?? []);
      const fields = saves.checkCanvas(p.canvas as SaveBody);
      const time = now();
      let pageId = p.replaceId;
      if (pageId) {
        await on.updateTable('datav_page').set((eb) => ({ ...fields, update_time: time, revision: eb('revision', '+', 1) })).where('id', '=', pageId).execute();
      } else {
        const r = await on
          .insertInto('datav_page')
          .values({ ...(fields as object), kind, page_name: p.key, status: 0, revision: 1, create_user: ctx.req.user?.username ?? null, create_time: time, update_time: time } as never)
          .returning('id')
          .executeTakeFirstOrThrow();
        pageId = Number(r.id);
      }
      await on.deleteFrom('datav_widget').where('page_id', '=', pageId).execute();
      for (let i = 0; i < rows.length; i += 100) await on.insertInto('datav_widget').values(rows.slice(i, i + 100).map((r) => ({ ...r, page_id: pageId! }))).execute();
      await app.versions.record(kind, pageId, { canvas: p.canvas, widgets: p.widgets }, ctx.req, { title: p.key, note: '工作区导入' }, on);
      return p.key;
    },
    // widgets are renumbered at every import: compared by their place in the list
    comparable: (content) => {
      const c = content as Partial<PageSnapshot>;
      return Array.isArray(c?.widgets) ? replaceIds(content, new Map(c.widgets.map((w, i) => [w.id, `#${i}`]))) : content;
    },
    copyKey: (key) => copyName(key, async (n) => !!(await live().select('id').where('page_name', '=', n).executeTakeFirst())),
  });

}
