// What hosts and tests need from the chart kinds without loading echarts: the renderer a host asks for and the
// count of live chart instances. echarts.ts re-exports these for the kinds.
import { createContext } from 'react';

export type ChartRenderer = 'canvas' | 'svg' | 'image';

/**
 * The renderer a host wants for the charts below it. Canvas by default (the preview: fastest for large data).
 * The designer's editable canvas asks for 'image': each chart drawn as one SVG picture (no tooltips, no
 * animation). A 2D canvas is always a compositing layer of its own, and a live SVG chart is hundreds of paint
 * chunks; with hundreds of charts on a canvas every frame of a drag paid for layerizing them all (bench/designer).
 */
export const ChartRendererContext = createContext<ChartRenderer>('canvas');

/** An instance created by the widgets (only dispose is needed here). */
interface Chart {
  dispose(): void;
}

// Every instance created by the widgets, so tests (and leak hunts) can count live ones.
const live = new Set<Chart>();
export function trackChart(chart: Chart): void {
  live.add(chart);
}
export function untrackChart(chart: Chart): void {
  live.delete(chart);
}
export function liveChartCount(): number {
  return live.size;
}
