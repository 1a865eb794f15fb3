// The one widget registry shared by the screen and form designers and the preview.
import type { UiSchema } from '@rjsf/utils';
import { widgetDeclarations } from './declarations';
import { hasKindCode, lazyKindComponent } from './kindCode';
import { catalogueOf, catalogueTree, defaultsOf, GENERAL_WIDGET_SIZE, newWidgetProps } from '../common/widgets';
import type {
  CatalogueEntry,
  CatalogueFolder,
  DatasourceProps,
  ViewProps,
  WidgetDeclaration,
  WidgetEntity,
  WidgetKind,
} from './types';

export { loadKindComponent, loadedKindComponent, preloadWidgetKinds } from './kindCode';

/** The data-source tab's editors; a declaration's own datasourceProps uiSchema overrides these. */
export const DATASOURCE_UI: UiSchema = {
  'ui:order': ['datasourceType', 'dataConfig', 'dataMapping', '*'],
  datasourceType: { 'ui:widget': 'dict', 'ui:options': { dict: 'DATA_SOURCE_TYPE' } },
  dataConfig: { 'ui:field': 'dataConfig' },
  dataMapping: { 'ui:field': 'dataMapping' },
};

function toKind(d: WidgetDeclaration): WidgetKind {
  // the code itself loads on first use (kindCode.ts); its folder must have it
  if (!hasKindCode(d.widgetName)) throw new Error(`部件 ${d.widgetName} 没有组件：widgets/${d.widgetName}/index.ts 应默认导出它`);
  return {
    widgetName: d.widgetName,
    widgetViewName: d.widgetViewName,
    widgetFormName: d.widgetFormName ?? 'SchemaPanel',
    component: lazyKindComponent(d.widgetName),
    viewSchema: d.viewProps,
    datasourceSchema: d.datasourceProps,
    uiSchema: {
      viewProps: d.uiSchema?.viewProps ?? {},
      datasourceProps: { ...DATASOURCE_UI, ...d.uiSchema?.datasourceProps },
    },
    catalogue: { folderOrder: 0, order: 0, maxUse: 0, interactions: false, designers: ['screen', 'form'], ...d.catalogue },
    versionProps: { upgrade: false, docUrl: '', ...d.versionProps },
    defaults: {
      viewProps: defaultsOf(d.viewProps) as ViewProps,
      datasourceProps: defaultsOf(d.datasourceProps) as DatasourceProps,
    },
    colors: d.colors,
  };
}

export const widgetRegistry: Readonly<Record<string, WidgetKind>> = Object.fromEntries(
  Object.values(widgetDeclarations).map((d) => [d.widgetName, toKind(d)]),
);

export const widgetNames: readonly string[] = Object.values(widgetRegistry)
  .sort((a, b) => a.catalogue.folderOrder - b.catalogue.folderOrder || a.catalogue.order - b.catalogue.order)
  .map((k) => k.widgetName);

export function getWidgetKind(widgetName: string): WidgetKind | undefined {
  // own keys only: a name such as '__proto__' or 'constructor' (from a file or the server) is no kind
  return Object.hasOwn(widgetRegistry, widgetName) ? widgetRegistry[widgetName] : undefined;
}

/** Spec "general widget default size" (common/widgets.ts). */
export const GENERAL_DEFAULT_SIZE = GENERAL_WIDGET_SIZE;

export interface CreateWidgetOptions {
  pageId: string;
  id?: string;
  top?: number;
  left?: number;
}

/** A new widget entity with the kind's defaults (the designer then saves it to the server). */
export function createWidget(widgetName: string, opts: CreateWidgetOptions): WidgetEntity {
  const kind = getWidgetKind(widgetName);
  if (!kind) throw new Error(`未知部件：${widgetName}`);
  const declaration = widgetDeclarations[widgetName];
  return {
    id: opts.id ?? newId(),
    pageId: opts.pageId,
    widgetName,
    widgetTitle: kind.catalogue.widgetTitle,
    icon: kind.catalogue.icon,
    widgetProps: newWidgetProps(declaration, opts),
    isHead: false,
    isTail: false,
  };
}

function newId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `w-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Flat catalogue (spec §3 entry shape): folders M, then their components C. */
export function widgetCatalogue(): CatalogueEntry[] {
  return catalogueOf(Object.values(widgetDeclarations));
}

/** The catalogue's folders and components; with `designer`, only the kinds offered in that designer. */
export function widgetCatalogueTree(designer?: 'screen' | 'form'): CatalogueFolder[] {
  return catalogueTree(Object.values(widgetDeclarations), designer);
}
