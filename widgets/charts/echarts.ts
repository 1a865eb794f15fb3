// Only the charts and components the widgets use are bundled (echarts/core + use()).
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

import type { ChartRenderer } from './renderer';
export { ChartRendererContext, liveChartCount, trackChart, untrackChart, type ChartRenderer } from './renderer';

export function pickRenderer(preferred: ChartRenderer = 'canvas'): ChartRenderer {
  // jsdom has no 2D canvas
  return inJsdom && preferred === 'canvas' ? 'svg' : preferred;
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
