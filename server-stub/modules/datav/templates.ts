// Ready screens a new screen may start from (issue 22 item 3): schemas/templates/<name>.screen.json, files in the
// designer's export format (schemas/meta/screen-export.schema.json, checked by the loader at start like every
// declaration). Here, once at start, every widget of every template is checked as widget/update would check it
// (a known kind allowed on screens, props within its schemas and the size cap, maxUse, the widget cap): a bad
// template refuses the start with its file and JSON pointer, so a creation never meets one.
//
// GET template/list answers the choices of the new-screen dialog: 空白大屏 first (value ''), then each template.
// info/save with `template` creates the page and the template's widgets (new ids) in one transaction (pages.ts).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import { BizError, ok } from '../../core/envelope.js';
import type { Database } from '../../store/schema.js';
import { allowedIn, declarationOf, maxUseOf, PropsValidators, type WidgetDeclaration } from './declarations.js';
import { LIMITS, type KindConfig } from './kinds.js';

/** The blank screen's choice: no template. */
export const BLANK = { value: '', label: '空白大屏', description: '从空白画布开始（1920×1080）' } as const;

export interface ScreenTemplate {
  name: string;
  title: string;
  description: string;
  canvas: { width: number; height: number; background_color: string | null; refresh_seconds: number | null };
  /** the widgets as stored, bottom first, without page, id and times */
  widgets: Array<{ widget_name: string; widget_title: string; icon: string; widget_props: string }>;
}

export type Templates = ReadonlyMap<string, ScreenTemplate>;

export const unknownTemplate = (name: string) => `未知的大屏模板：${name}`;

/** Checks and prepares every shipped template; throws (refusing the start) at the first fault, naming file and pointer. */
export function loadTemplates(app: FastifyInstance): Templates {
  const validators = new PropsValidators();
  const out = new Map<string, ScreenTemplate>();
  const files: Record<string, any> = app.ctx.schemas.screenTemplates ?? {};
  for (const name of Object.keys(files).sort()) {
    const doc = files[name];
    const where = `schemas/templates/${name}.screen.json`;
    const fail = (pointer: string, detail: string): never => {
      throw new Error(`大屏模板 ${where} 不可用：${pointer ? `${pointer} ` : ''}${detail}`);
    };
    const list: any[] = doc.widgets;
    if (list.length > LIMITS.widgets) fail('/widgets', `最多 ${LIMITS.widgets} 个部件`);
    const perKind = new Map<WidgetDeclaration, number>();
    const widgets = list.map((w, i) => {
      const d = declarationOf(app.ctx.schemas.widgets, w.widgetName);
      if (!d) return fail(`/widgets/${i}/widgetName`, `未知部件：${w.widgetName}`);
      if (!allowedIn(d, 'screen')) fail(`/widgets/${i}/widgetName`, `【${d.catalogue.widgetTitle}】不能用于大屏`);
      const p = w.widgetProps;
      const props = {
        ...p,
        widgetViewName: d.widgetViewName,
        widgetFormName: d.widgetFormName ?? 'SchemaPanel',
        selectedTab: 'view',
        versionProps: p.versionProps ?? { upgrade: false, docUrl: '', ...d.versionProps },
      };
      const fault = validators.check(d, props, `/widgets/${i}/widgetProps`);
      if (fault) fail('', fault);
      const json = JSON.stringify(props);
      if (Buffer.byteLength(json) > LIMITS.widgetPropsBytes) fail(`/widgets/${i}`, '部件属性过大');
      perKind.set(d, (perKind.get(d) ?? 0) + 1);
      return { widget_name: d.widgetName, widget_title: String(w.widgetTitle ?? '').trim() || d.catalogue.widgetTitle, icon: String(w.icon ?? '').trim() || d.catalogue.icon, widget_props: json };
    });
    for (const [d, n] of perKind) if (maxUseOf(d) > 0 && n > maxUseOf(d)) fail('/widgets', `【${d.catalogue.widgetTitle}】最多只能添加 ${maxUseOf(d)} 个`);
    const page = doc.page;
    out.set(name, {
      name,
      title: String(page.pageName ?? '').trim() || name,
      description: String(doc.description ?? ''),
      canvas: { width: page.width, height: page.height, background_color: page.backgroundColor || null, refresh_seconds: page.refreshSeconds ?? null },
      widgets,
    });
  }
  return out;
}

/** Inserts a template's widgets into a new page (inside the page's transaction), each with a new id. */
export async function placeTemplate(trx: Transaction<Database>, pageId: number, t: ScreenTemplate, time: string): Promise<number> {
  const rows = t.widgets.map((w, i) => ({ ...w, id: randomUUID(), page_id: pageId, sort_no: i, create_time: time, update_time: time }));
  for (let i = 0; i < rows.length; i += 100) await trx.insertInto('datav_widget').values(rows.slice(i, i + 100)).execute();
  return rows.length;
}

/** The template a new page names ('' / null / absent: none), or the refusal. */
export function templateOf(templates: Templates | null, name: unknown): ScreenTemplate | null {
  if (name === undefined || name === null || name === '') return null;
  const t = typeof name === 'string' && templates?.has(name) ? templates.get(name)! : null;
  if (!t) throw new BizError(unknownTemplate(String(name).slice(0, 40)));
  return t;
}

export function templateRoutes(app: FastifyInstance, cfg: KindConfig, templates: Templates) {
  // the choices of the new-screen dialog: whoever may create a screen may read them
  app.get('/template/list', { config: { perm: cfg.perm.add } }, async () =>
    ok([
      { ...BLANK, width: 1920, height: 1080, widgetCount: 0 },
      ...[...templates.values()].map((t) => ({ value: t.name, label: t.title, description: t.description, width: t.canvas.width, height: t.canvas.height, widgetCount: t.widgets.length })),
    ]),
  );
}
