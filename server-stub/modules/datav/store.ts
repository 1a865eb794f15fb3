// Reading and presenting pages and widgets, shared by the page and the widget routes.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Dialect } from '../../store/columns.js';
import type { Database } from '../../store/schema.js';
import type { WidgetProps } from './declarations.js';
import type { DatavPageTable, DatavWidgetTable, PageKind } from './tables.js';
import { variablesOf } from '../../../common/variables.js';

export type PageRow = Selectable<DatavPageTable>;
export type WidgetRow = Selectable<DatavWidgetTable>;
type Db = Kysely<Database> | Transaction<Database>;

/** A page of this kind; inside a transaction on PostgreSQL also locked, so writes to one page take turns. */
export async function findPage(db: Db, dialect: Dialect, kind: PageKind, id: number, lock = false): Promise<PageRow | undefined> {
  // a page in the recycle bin is no page of its kind until restored (issue 37)
  let q = db.selectFrom('datav_page').selectAll().where('id', '=', id).where('kind', '=', kind).where('deleted_time', 'is', null);
  // SQLite has no row locks: its single connection runs one transaction at a time
  if (lock && dialect === 'postgres') q = q.forUpdate();
  return q.executeTakeFirst();
}

export async function widgetCount(db: Db, pageId: number): Promise<number> {
  const r = await db.selectFrom('datav_widget').select((eb) => eb.fn.countAll().as('n')).where('page_id', '=', pageId).executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** The number of entries submitted to a form. */
export async function entryCount(db: Db, formId: number): Promise<number> {
  const r = await db.selectFrom('jimu_form_entry').select((eb) => eb.fn.countAll().as('n')).where('form_id', '=', formId).executeTakeFirst();
  return Number(r?.n ?? 0);
}

export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** A form's own settings (issue 11): who may fill it in, whether it takes submissions, how many it has. */
export interface FormFacts {
  fillAccess?: string;
  accepting?: number;
  entryCount?: number;
}

/** A page as the list shows it (spec §3 "Screen or form page"); a form adds its FormFacts. */
export function presentPage(r: PageRow, count: number, entries = 0) {
  const form: FormFacts = r.kind === 'form' ? { fillAccess: r.fill_access, accepting: Number(r.accepting), entryCount: entries } : {};
  return {
    id: r.id,
    pageName: r.page_name,
    width: r.width,
    height: r.height,
    // spec §3: empty when none is set (the canvas then falls back to #1D202D)
    backgroundColor: r.background_color ?? '',
    refreshSeconds: r.refresh_seconds,
    // issue 22: '' when none is set (the default theme, no image)
    theme: r.theme ?? '',
    backgroundImage: r.background_image ?? '',
    // issue 23: [] when none are declared
    variables: variablesOf(parseJson<unknown>(r.variables ?? null, [])),
    widgetCount: count,
    status: r.status,
    revision: r.revision,
    ...form,
    createUser: r.create_user,
    createTime: r.create_time,
    updateTime: r.update_time,
  };
}

/** A page as info/get and info/save answer it: the list's shape plus its preset lines. */
export function presentPageFull(r: PageRow, count: number, entries = 0) {
  const lines = parseJson<unknown>(r.preset_line, []);
  return { ...presentPage(r, count, entries), presetLine: Array.isArray(lines) ? lines : [] };
}

/** The widgets of a page, bottom first. */
export async function pageWidgets(db: Db, pageId: number): Promise<WidgetRow[]> {
  return db.selectFrom('datav_widget').selectAll().where('page_id', '=', pageId).orderBy('sort_no').orderBy('create_time').orderBy('id').execute();
}

/** A widget as the designer reads it (spec §3 "Widget"); isHead = top-most, isTail = bottom-most. */
export function presentWidget(r: WidgetRow, index: number, count: number) {
  const stored = parseJson<Partial<WidgetProps>>(r.widget_props, {});
  const props = stored && typeof stored === 'object' && !Array.isArray(stored) ? stored : {};
  const widgetProps: WidgetProps & Record<string, unknown> = {
    ...props,
    widgetViewName: props.widgetViewName ?? '',
    widgetFormName: props.widgetFormName ?? 'SchemaPanel',
    selectedTab: props.selectedTab === 'datasource' || props.selectedTab === 'interaction' ? props.selectedTab : 'view',
    viewProps: props.viewProps ?? {},
    versionProps: props.versionProps ?? {},
    datasourceProps: props.datasourceProps ?? {},
  };
  return {
    id: r.id,
    pageId: r.page_id,
    widgetName: r.widget_name,
    widgetTitle: r.widget_title,
    icon: r.icon,
    widgetProps,
    isHead: index === count - 1,
    isTail: index === 0,
  };
}

export const presentWidgets = (rows: WidgetRow[]) => rows.map((r, i) => presentWidget(r, i, rows.length));
