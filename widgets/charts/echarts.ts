// Only the charts and components the widgets use are bundled (echarts/core + use()).
import { createContext } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, FunnelChart, GaugeChart, HeatmapChart, LineChart, PieChart, RadarChart, SankeyChart, ScatterChart, TreemapChart } from 'echarts/charts';
import { GridComponent, LegendComponent, RadarComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers';

echarts.use([
  PieChart,
  BarChart,
  LineChart,
  ScatterChart,
  RadarChart,
  FunnelChart,
  GaugeChart,
  HeatmapChart,
  TreemapChart,
  SankeyChart,
  GridComponent,
  LegendComponent,
  RadarComponent,
  TooltipComponent,
  VisualMapComponent,
  CanvasRenderer,
  SVGRenderer,
]);

export { echarts };
export type ECharts = ReturnType<typeof echarts.init>;
export type EChartsOption = Parameters<ECharts['setOption']>[0];

const inJsdom = typeof navigator !== 'undefined' && /jsdom/i.test(navigator.userAgent);

// jsdom has no canvas: charts there use the SVG renderer and an estimated text width
// (zrender otherwise measures text on a canvas), so tests render real charts quietly.
if (inJsdom) {
  echarts.setPlatformAPI({
    measureText: (text: string, font?: string) => {
      const size = Number(/(\d+(?:\.\d+)?)px/.exec(font ?? '')?.[1] ?? 12);
      return { width: [...text].reduce((w, ch) => w + (ch.charCodeAt(0) > 255 ? size : size * 0.6), 0) };
    },
  });
}

export type ChartRenderer = 'canvas' | 'svg' | 'image';

/**
 * The renderer a host wants for the charts below it. Canvas by default (the preview: fastest for large data).
 * The designer's editable canvas asks for 'image': each chart drawn as one SVG picture (no tooltips, no
 * animation). A 2D canvas is always a compositing layer of its own, and a live SVG chart is hundreds of paint
 * chunks; with hundreds of charts on a canvas every frame of a drag paid for layerizing them all (bench/designer).
 */
export const ChartRendererContext = createContext<ChartRenderer>('canvas');

export function pickRenderer(preferred: ChartRenderer = 'canvas'): ChartRenderer {
  // jsdom has no 2D canvas
  return inJsdom && preferred === 'canvas' ? 'svg' : preferred;
}

// Every instance created by the widgets, so tests (and leak hunts) can count live ones.
const live = new Set<ECharts>();
export function trackChart(chart: ECharts): void {
  live.add(chart);
}
export function untrackChart(chart: ECharts): void {
  live.delete(chart);
}
export function liveChartCount(): number {
  return live.size;
}

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep-merges a user's chartOption over the widget's own option (arrays replace). */
export function mergeOption<T extends Plain>(base: T, override: Plain | undefined): T {
  if (!override) return base;
  const out: Plain = { ...base };
  for (const [k, v] of Object.entries(override)) out[k] = isPlain(v) && isPlain(out[k]) ? mergeOption(out[k] as Plain, v) : v;
  return out as T;
}
