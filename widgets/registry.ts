// The one widget registry shared by the screen and form designers and the preview.
import type { UiSchema } from '@rjsf/utils';
import type { ComponentType } from 'react';
import { widgetDeclarations } from './declarations';
import { catalogueOf, catalogueTree, defaultsOf, GENERAL_WIDGET_SIZE, newWidgetProps } from '../common/widgets';
import type {
  CatalogueEntry,
  CatalogueFolder,
  DatasourceProps,
  ViewProps,
  WidgetDeclaration,
  WidgetEntity,
  WidgetKind,
  WidgetKindProps,
} from './types';

/**
 * Each kind's component, by folder: widgets/<widgetName>/index.ts exports it as default (or under the
 * declaration's widgetViewName). No hand-kept list: a folder with a declaration and an index.ts is a kind.
 */
const entries = import.meta.glob<Record<string, unknown>>('./*/index.ts', { eager: true });
const COMPONENTS: Record<string, ComponentType<WidgetKindProps<any>>> = Object.fromEntries(
  Object.entries(entries).map(([file, mod]) => {
    const folder = file.split('/')[1];
    const view = widgetDeclarations[folder]?.widgetViewName;
    return [folder, (mod.default ?? (view ? mod[view] : undefined)) as ComponentType<WidgetKindProps<any>>];
  }),
);
for (const folder of Object.keys(COMPONENTS)) {
  if (!Object.hasOwn(widgetDeclarations, folder)) throw new Error(`部件文件夹 widgets/${folder} 缺少声明 ${folder}.widget.json`);
}

/** The data-source tab's editors; a declaration's own datasourceProps uiSchema overrides these. */
export const DATASOURCE_UI: UiSchema = {
  'ui:order': ['datasourceType', 'dataConfig', 'dataMapping', '*'],
  datasourceType: { 'ui:widget': 'dict', 'ui:options': { dict: 'DATA_SOURCE_TYPE' } },
  dataConfig: { 'ui:field': 'dataConfig' },
  dataMapping: { 'ui:field': 'dataMapping' },
};

function toKind(d: WidgetDeclaration): WidgetKind {
  const component = COMPONENTS[d.widgetName];
  if (!component) throw new Error(`部件 ${d.widgetName} 没有组件：widgets/${d.widgetName}/index.ts 应默认导出它`);
  return {
    widgetName: d.widgetName,
    widgetViewName: d.widgetViewName,
    widgetFormName: d.widgetFormName ?? 'SchemaPanel',
    component,
    viewSchema: d.viewProps,
    datasourceSchema: d.datasourceProps,
    uiSchema: {
      viewProps: d.uiSchema?.viewProps ?? {},
      datasourceProps: { ...DATASOURCE_UI, ...d.uiSchema?.datasourceProps },
    },
    catalogue: { folderOrder: 0, order: 0, maxUse: 0, designers: ['screen', 'form'], ...d.catalogue },
    versionProps: { upgrade: false, docUrl: '', ...d.versionProps },
    defaults: {
      viewProps: defaultsOf(d.viewProps) as ViewProps,
      datasourceProps: defaultsOf(d.datasourceProps) as DatasourceProps,
    },
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
