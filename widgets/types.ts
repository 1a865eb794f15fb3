// Shapes shared by the registry, the widget kinds and the designers.
// The entity follows spec §3 "Widget"; names are the spec's.
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { ComponentType } from 'react';
import type * as Gen from '../schemas/generated/widget';
import type { WidgetGroup } from '../common/groups';
import type { ClickItem, InteractionProps } from '../common/interaction';
import type { Aggregation, DatasetField, DateGroup, QueryFilter, QuerySort } from '../common/dataset';

export type DatasourceType = 'STATIC' | 'API' | 'DATASET';

/** One row of the data mapping: widget prop ← data field, shown as label. */
export interface DataMappingItem {
  id: string;
  prop: string;
  label: string;
  /** the answer row's key the prop reads (for a dataset: the field, or field_agg / field_dateGroup) */
  field: string;
  /** a dataset's slot (declared by the kind): a dimension groups, a measure aggregates, a column is a row's value */
  slot?: 'dimension' | 'measure' | 'column';
  /** DATASET: the dataset field placed in this slot, its aggregation (measures) and date grouping (dates) */
  datasetField?: string;
  agg?: Aggregation;
  dateGroup?: DateGroup;
}

/** DATASET: the dataset a widget reads, what the panel knows of its fields, and the chart's own settings. */
export interface DatasetConfig {
  datasetId?: number;
  datasetName?: string;
  /** the dataset's fields when chosen (names, labels, types, roles): the slots' choices and the filters' reach */
  fields?: Array<Pick<DatasetField, 'name' | 'label' | 'type' | 'role'>>;
  top?: { n: number; rest: 'other' | 'drop' } | null;
  sort?: QuerySort[];
  filters?: QueryFilter[];
}

export type DataRow = Record<string, unknown>;

export interface DataConfig {
  /** STATIC rows; for API, the last fetched rows. */
  data?: DataRow[];
  /** API: the published API name. */
  datasource?: string;
  datasourceLabel?: string;
  reqParams?: Record<string, unknown>;
  dataset?: DatasetConfig;
}

export interface DatasourceProps {
  datasourceType: DatasourceType;
  dataMapping: DataMappingItem[];
  dataConfig: DataConfig;
}

export interface LayoutProps {
  width: number;
  height: number;
  top: number;
  left: number;
}

export type ViewProps = LayoutProps & Record<string, unknown>;

export type VersionProps = Gen.WidgetDeclaration['versionProps'];

export type SelectedTab = 'view' | 'datasource' | 'interaction';

export interface WidgetProps {
  widgetViewName: string;
  widgetFormName: string;
  selectedTab: SelectedTab;
  viewProps: ViewProps;
  versionProps: VersionProps;
  datasourceProps: DatasourceProps;
  /** Designer-only layer flags: a locked widget cannot be moved or resized, a hidden one is not drawn. */
  locked?: boolean;
  hidden?: boolean;
  /** Designer-only: the layer group this widget belongs to (common/groups.ts). */
  group?: WidgetGroup | null;
  /** What a click does in the preview: linkage, drill-down, jump (common/interaction.ts; kinds with catalogue.interactions). */
  interactionProps?: InteractionProps | null;
}

export interface WidgetEntity {
  id: string;
  /** Screen page id; a form designer stores its form id here too. */
  pageId: string;
  widgetName: string;
  widgetTitle: string;
  icon: string;
  widgetProps: WidgetProps;
  isHead: boolean;
  isTail: boolean;
}

/** Spec §3 "Widget catalogue entry", one copy for browser and server. */
export type { CatalogueEntry, CatalogueFolder } from '../common/widgets';

/** What a kind's component gets: its view props and the mapped rows. */
export interface MappedData {
  /** Rows keyed by mapping prop (only mapped props are present). */
  rows: DataRow[];
  mapping: DataMappingItem[];
  /** The rows as the data source gave them, index for index with `rows` (a click hands the clicked row's fields on). */
  source?: DataRow[];
}

export interface WidgetKindProps<V extends ViewProps = ViewProps> {
  viewProps: V;
  data: MappedData;
  /**
   * Given only in the preview, to a widget whose interaction does something (issue 23 §3–§5): the kind calls it
   * with the clicked item's fields (its row's fields, plus name / series / value where it has them) and shows a
   * pointer where it is clickable. Kinds hold no HTTP or navigation code: WidgetView does what the click means.
   */
  onItemClick?: (item: ClickItem) => void;
}

/**
 * The file widgets/<widgetName>/<widgetName>.widget.json, typed from schemas/meta/widget.schema.json by gen:types;
 * the two property schemas and the uiSchema are handed to rjsf, so they take rjsf's types.
 */
export type WidgetDeclaration = Omit<Gen.WidgetDeclaration, '$schema' | 'viewProps' | 'datasourceProps' | 'uiSchema'> & {
  viewProps: RJSFSchema;
  datasourceProps: RJSFSchema;
  uiSchema?: { viewProps?: UiSchema; datasourceProps?: UiSchema };
};

export interface WidgetKind {
  widgetName: string;
  widgetViewName: string;
  widgetFormName: string;
  /**
   * The kind's component, loaded on first use (widgets/kindCode.ts): render it inside a <Suspense> (WidgetView
   * does), or after preloadWidgetKinds([name]) when it must draw at once. Each kind narrows its own view props;
   * the registry only passes them through.
   */
  component: ComponentType<WidgetKindProps<any>>;
  viewSchema: RJSFSchema;
  datasourceSchema: RJSFSchema;
  uiSchema: { viewProps: UiSchema; datasourceProps: UiSchema };
  catalogue: Required<WidgetDeclaration['catalogue']>;
  versionProps: VersionProps;
  defaults: { viewProps: ViewProps; datasourceProps: DatasourceProps };
  /** What the kind's colour properties are for (its declaration's `colors`): text and what it lies on, decor. */
  colors?: WidgetDeclaration['colors'];
}
