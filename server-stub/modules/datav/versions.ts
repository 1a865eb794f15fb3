// Versions of screens and forms (issue 37 item 1): a page's canvas settings and its widgets as one snapshot, kept
// by the `versions` platform service at every save of either (info/save, widget/update), and restored through the
// same saves (every widget checked as the designer's save checks it) as a new version.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BizError } from '../../core/envelope.js';
import type { KindConfig } from './kinds.js';
import { findPage, pageWidgets, presentPageFull, presentWidgets, type PageRow } from './store.js';
import type { SaveBody } from './pages.js';
import type { widgetRoutes } from './widgets.js';
import { now } from '../../store/columns.js';

/** What a screen's or form's version holds: its canvas settings and its widgets, bottom first. */
export interface PageSnapshot {
  canvas: Record<string, unknown>;
  widgets: Array<{ id: string; widgetName: string; widgetTitle: string | null; icon: string | null; widgetProps: Record<string, unknown> }>;
}

/** The canvas settings a snapshot keeps (what info/save writes), from a page as info/get answers it. */
const CANVAS_KEYS = ['pageName', 'width', 'height', 'backgroundColor', 'refreshSeconds', 'theme', 'backgroundImage', 'variables', 'presetLine', 'fillAccess', 'accepting'] as const;

export async function snapshotOf(app: FastifyInstance, row: PageRow): Promise<PageSnapshot> {
  const full = presentPageFull(row, 0) as Record<string, unknown>;
  const canvas = Object.fromEntries(CANVAS_KEYS.filter((k) => full[k] !== undefined).map((k) => [k, full[k]]));
  const widgets = presentWidgets(await pageWidgets(app.ctx.db, row.id)).map((w) => ({ id: w.id, widgetName: w.widgetName, widgetTitle: w.widgetTitle, icon: w.icon, widgetProps: w.widgetProps as Record<string, unknown> }));
  return { canvas, widgets };
}

/** Keeps the page as it is now as its newest version. */
export async function keepVersion(app: FastifyInstance, cfg: KindConfig, pageId: number, req: FastifyRequest, note?: string): Promise<void> {
  const row = await findPage(app.ctx.db, app.ctx.dialect, cfg.kind, pageId);
  if (!row) return;
  await app.versions.record(cfg.kind, pageId, await snapshotOf(app, row), req, { title: row.page_name, note: note ?? null, published: row.status === 1 });
}

/** Registers the kind's versions: seen and restored by those who may edit such pages. */
type Saves = Pick<ReturnType<typeof widgetRoutes>, 'checkWidgets' | 'writeWidgets'> & { checkCanvas(b: SaveBody, isNew?: boolean): object };
export function registerVersions(app: FastifyInstance, cfg: KindConfig, saves: Saves) {
  app.versions.register({
    kind: cfg.kind,
    perm: cfg.perm.edit,
    current: async (key) => {
      const row = await findPage(app.ctx.db, app.ctx.dialect, cfg.kind, Number(key));
      return row ? { title: row.page_name, content: await snapshotOf(app, row) } : null;
    },
    restore: async (key, content, req, note) => {
      const pageId = Number(key);
      const snap = content as Partial<PageSnapshot>;
      if (!snap || typeof snap !== 'object' || !snap.canvas || !Array.isArray(snap.widgets)) throw new BizError('历史版本的内容不完整，不能恢复');
      // everything checked first (the widgets against the variables the version declares), then the canvas and the
      // widget list written in one transaction: a restore is whole or nothing
      const canvas = snap.canvas as SaveBody;
      const fields = saves.checkCanvas(canvas, false);
      const rows = await saves.checkWidgets(snap.widgets as Parameters<Saves['checkWidgets']>[0], pageId, canvas.variables ?? []);
      await app.ctx.db.transaction().execute(async (trx) => {
        const done = await trx
          .updateTable('datav_page')
          .set((eb) => ({ ...fields, update_time: now(), revision: eb('revision', '+', 1) }))
          .where('id', '=', pageId)
          .where('kind', '=', cfg.kind)
          .executeTakeFirst();
        if (!Number(done.numUpdatedRows)) throw new BizError(`${cfg.noun}不存在`);
        await saves.writeWidgets(trx, pageId, rows);
      });
      await keepVersion(app, cfg, pageId, req, note);
    },
  });
}
