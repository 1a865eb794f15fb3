// The monitor's time charts (耗时, 调用次数, 缓存命中率与错误率): one point a minute, a gap where a minute had no calls.
// Every point carries its symbol (showAllSymbol): on a category axis ECharts otherwise draws symbols only where
// there is room, and a minute with calls between two without has no line either — it drew nothing (issue 39 item 4).
import type { EChartsOption } from '../../../widgets/charts/echarts';

export function lineOption(times: string[], series: Array<{ name: string; data: Array<number | null>; type?: 'line' | 'bar' }>, unit: string): EChartsOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 48, right: 16, top: 32, bottom: 28 },
    xAxis: { type: 'category', data: times.map((t) => t.slice(5)), axisLabel: { hideOverlap: true } },
    yAxis: { type: 'value', name: unit, minInterval: unit === '次' ? 1 : undefined },
    series: series.map((s) => ({ name: s.name, type: s.type ?? 'line', data: s.data, showSymbol: true, showAllSymbol: true, symbolSize: 4, connectNulls: false, smooth: false })),
  } as EChartsOption;
}
