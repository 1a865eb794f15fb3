// The component every ECharts kind shares: the kind gives its option as a pure function of its look (the view
// props but the box) and its data; the chart is fed that option with the user's chartOption merged over it.
import { useCallback, useMemo, useRef } from 'react';
import type { ClickItem } from '../../common/interaction';
import { chartClickItem, type ChartClickParams, type ClickReader } from '../data/click';
import { mergeOption, type EChartsOption } from './echarts';
import { categoryOption, type CartesianProps, type MappedSeries } from './options';
import { useEChart } from './useEChart';
import type { MappedData, ViewProps } from '../types';

/** The view props an option is built from: all but the widget's box (moving or resizing a chart rebuilds nothing). */
export type ChartLook<V> = { [K in keyof V as K extends 'width' | 'height' | 'top' | 'left' ? never : K]: V[K] };

/** Builds a kind's option; a module-level function, so its identity is stable. */
export type OptionBuilder<V> = (look: ChartLook<V>, data: MappedData) => Record<string, unknown>;

const BOX = new Set(['width', 'height', 'top', 'left']);

/**
 * The view props without the box, as the same object for as long as every one of them is the same value
 * (Object.is): the option is rebuilt when a look prop or the data changes, never when the widget is dragged.
 */
function useLook<V extends ViewProps>(v: V): ChartLook<V> {
  const ref = useRef<Record<string, unknown> | null>(null);
  const prev = ref.current;
  const keys = Object.keys(v).filter((k) => !BOX.has(k));
  const same = prev !== null && Object.keys(prev).length === keys.length && keys.every((k) => Object.hasOwn(prev, k) && Object.is(prev[k], v[k]));
  if (!same) ref.current = Object.fromEntries(keys.map((k) => [k, v[k]]));
  return ref.current as ChartLook<V>;
}

export interface ChartWidgetProps<V> {
  /** The kind's name, marked on the root element (`data-widget`). */
  widget: string;
  viewProps: V;
  data: MappedData;
  build: OptionBuilder<V>;
  /** The preview's click handler (WidgetKindProps.onItemClick): called with the clicked item's fields. */
  onItemClick?: (item: ClickItem) => void;
  /** how the click event becomes the item (default chartClickItem: the row under the category or index) */
  readClick?: ClickReader;
}

/** One chart filling the widget's box: `build(look, data)` with the look's chartOption merged over it. */
export function ChartWidget<V extends ViewProps & { chartOption?: Record<string, unknown> }>({ widget, viewProps, data, build, onItemClick, readClick }: ChartWidgetProps<V>) {
  const look = useLook(viewProps);
  const option = useMemo(() => mergeOption(build(look, data), (look as { chartOption?: Record<string, unknown> }).chartOption) as EChartsOption, [build, look, data]);
  const { ref } = useEChart(option, viewProps.width, viewProps.height, useChartClick(data, onItemClick, readClick));
  return <div ref={ref} data-widget={widget} style={{ width: '100%', height: '100%' }} />;
}

/** How one category series is drawn (type, stacking, symbols, areas, labels…) from the kind's look. */
export type SeriesDecoration<V> = (look: ChartLook<V>, values: number[], s: MappedSeries, index: number) => Record<string, unknown>;

/**
 * The option builder of a category chart (line, area, bar kinds): categories from mapping prop `x`, a series per
 * other mapping entry, each drawn by `decorate` (see categoryOption).
 */
export function categoryChart<V extends CartesianProps>(
  decorate: SeriesDecoration<V>,
  layout?: { horizontal?: boolean; boundaryGap?: boolean },
): OptionBuilder<V> {
  return (look, data) => categoryOption(look as CartesianProps, data, (values, s, i) => decorate(look, values, s, i), layout);
}

/** The chart click handler of a kind: the clicked item's fields for its onItemClick (none without one). */
export function useChartClick(data: MappedData, onItemClick: ((item: ClickItem) => void) | undefined, read: ClickReader = chartClickItem) {
  const dataRef = useRef(data);
  dataRef.current = data;
  const on = useCallback((p: ChartClickParams) => onItemClick?.(read(p, dataRef.current)), [onItemClick, read]);
  return onItemClick ? on : undefined;
}
