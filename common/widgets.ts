// What the browser's widget registry and the server's widget routes must agree on, in one copy: a kind's
// defaults (read from its JSON Schema `default`s), a new widget's props, where a kind may be used, and the
// catalogue the template list shows (spec §3 "Widget catalogue entry"). Framework-free: both sides import it.
import type { WidgetDeclaration as Declared } from '../schemas/generated/widget';

export type PageKind = 'screen' | 'form';

/** The shape of a widgets/<name>/<name>.widget.json (a kind's declaration) as both sides read it (property schemas left open). */
export type WidgetDeclarationLike = Omit<Declared, '$schema' | 'viewProps' | 'datasourceProps' | 'uiSchema'> & {
  viewProps: Record<string, any>;
  datasourceProps: Record<string, any>;
  uiSchema?: Record<string, any>;
};

/** Spec §3 "Widget catalogue entry": folders (M) hold components (C). */
export interface CatalogueEntry {
  id: string;
  parentId: string;
  widgetType: 'M' | 'C';
  widgetTitle: string;
  maxUse: number;
  icon: string;
  widgetName?: string;
}

export interface CatalogueFolder extends CatalogueEntry {
  widgetType: 'M';
  children: CatalogueEntry[];
}

/** Spec "general widget default size": a kind that declares no size gets this. */
export const GENERAL_WIDGET_SIZE = { width: 300, height: 300 } as const;

/** The value a JSON Schema declares by its `default`s (an object's from its properties'). */
export function defaultsOf(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object') return undefined;
  const s = schema as { default?: unknown; type?: unknown; properties?: unknown };
  if (s.default !== undefined) return structuredClone(s.default);
  if (s.type === 'object' && s.properties && typeof s.properties === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, sub] of Object.entries(s.properties)) {
      const value = defaultsOf(sub);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  return undefined;
}

export const maxUseOf = (d: WidgetDeclarationLike) => d.catalogue.maxUse ?? 0;

/** Whether a kind may be placed on a page of this kind: `catalogue.designers` names them; absent = both. */
export const allowedIn = (d: WidgetDeclarationLike, kind: PageKind) => !Array.isArray(d.catalogue.designers) || d.catalogue.designers.includes(kind);

/** A form field kind: its viewProps declare `field`, the key its value is submitted under. */
export const isFieldKind = (d: WidgetDeclarationLike) => Object.hasOwn(d.viewProps?.properties ?? {}, 'field');

export interface LayoutProps {
  width: number;
  height: number;
  top: number;
  left: number;
}

/** A widget's props as stored (spec §3 "Widget"); a new widget's viewProps always hold its layout. */
export interface WidgetPropsShape {
  widgetViewName: string;
  widgetFormName: string;
  selectedTab: 'view' | 'datasource' | 'interaction';
  viewProps: Record<string, unknown>;
  versionProps: Record<string, unknown>;
  datasourceProps: Record<string, unknown>;
}

const asObject = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** A new widget's props: the kind's declared defaults, the general size where none is declared, the drop point. */
/** What every kind's defaults hold: its layout, and the data-source props the meta-schema requires of it. */
export type NewWidgetProps = WidgetPropsShape & {
  viewProps: Record<string, unknown> & LayoutProps;
  versionProps: Declared['versionProps'];
  datasourceProps: { datasourceType: 'STATIC' | 'API'; dataMapping: any[]; dataConfig: Record<string, any> };
};

export function newWidgetProps(d: WidgetDeclarationLike, at: { top?: number; left?: number } = {}): NewWidgetProps {
  const viewProps = asObject(defaultsOf(d.viewProps)) as Record<string, unknown> & LayoutProps;
  viewProps.width ??= GENERAL_WIDGET_SIZE.width;
  viewProps.height ??= GENERAL_WIDGET_SIZE.height;
  viewProps.top ??= 0;
  viewProps.left ??= 0;
  if (at.top !== undefined) viewProps.top = at.top;
  if (at.left !== undefined) viewProps.left = at.left;
  return {
    widgetViewName: d.widgetViewName,
    widgetFormName: d.widgetFormName ?? 'SchemaPanel',
    selectedTab: 'view',
    viewProps,
    versionProps: { upgrade: false, docUrl: '', ...structuredClone(d.versionProps) },
    datasourceProps: asObject(defaultsOf(d.datasourceProps)) as NewWidgetProps['datasourceProps'],
  };
}

/**
 * The catalogue as folders (M) ordered by folderOrder, each holding its components (C) ordered by order (ties keep
 * the declarations' order). With `kind`, the kinds that designer may not use are left out, and so is a folder left
 * empty by that.
 */
export function catalogueTree(declarations: Iterable<WidgetDeclarationLike>, kind?: PageKind): CatalogueFolder[] {
  const kinds = [...declarations]
    .filter((d) => !kind || allowedIn(d, kind))
    .map((d) => ({ d, folderOrder: d.catalogue.folderOrder ?? 0, order: d.catalogue.order ?? 0 }))
    .sort((a, b) => a.folderOrder - b.folderOrder || a.order - b.order);
  const folders = new Map<string, { folder: CatalogueFolder; order: number }>();
  for (const { d, folderOrder } of kinds) {
    const c = d.catalogue;
    let f = folders.get(c.folderId);
    if (!f) {
      f = { folder: { id: c.folderId, parentId: '0', widgetType: 'M', widgetTitle: c.folderTitle, maxUse: 0, icon: 'FolderOutlined', children: [] }, order: folderOrder };
      folders.set(c.folderId, f);
    }
    f.folder.children.push({ id: d.widgetName, parentId: c.folderId, widgetType: 'C', widgetTitle: c.widgetTitle, maxUse: maxUseOf(d), icon: c.icon, widgetName: d.widgetName });
  }
  return [...folders.values()].sort((a, b) => a.order - b.order).map((f) => f.folder);
}

/** The flat catalogue (spec §3 entry shape): each folder followed by its components. */
export function catalogueOf(declarations: Iterable<WidgetDeclarationLike>, kind?: PageKind): CatalogueEntry[] {
  return catalogueTree(declarations, kind).flatMap(({ children, ...folder }) => [folder, ...children]);
}
