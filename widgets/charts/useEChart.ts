import { useContext, useEffect, useRef } from 'react';
import { ChartRendererContext, echarts, pickRenderer, trackChart, untrackChart, type ECharts, type EChartsOption } from './echarts';

/**
 * One ECharts instance per mounted element: created on mount, fed `option`,
 * resized with its box (ResizeObserver), disposed on unmount.
 */
export function useEChart(option: EChartsOption, width: number, height: number) {
  const ref = useRef<HTMLDivElement>(null);
  const chartRef = useRef<ECharts | null>(null);
  const renderer = pickRenderer(useContext(ChartRendererContext));
  const sizeRef = useRef({ width, height });
  sizeRef.current = { width, height };

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const chart = echarts.init(el, undefined, { renderer, ...sizeRef.current });
    trackChart(chart);
    chartRef.current = chart;
    const ro = new ResizeObserver((entries) => {
      const box = entries[0]?.contentRect;
      if (box && box.width > 0 && box.height > 0) chart.resize({ width: box.width, height: box.height });
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      chart.dispose();
      untrackChart(chart);
      chartRef.current = null;
    };
  }, [renderer]);

  useEffect(() => {
    chartRef.current?.setOption(option, { notMerge: true });
  }, [option, renderer]);

  useEffect(() => {
    chartRef.current?.resize({ width, height });
  }, [width, height]);

  return { ref, chartRef };
}
