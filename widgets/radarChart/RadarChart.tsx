import { useMemo } from 'react';
import { mergeOption, type EChartsOption } from '../charts/echarts';
import { label, legend, mappedSeries, num } from '../charts/options';
import { useChartClick } from '../charts/ChartWidget';
import { useEChart } from '../charts/useEChart';
import { outlineClickItem } from '../data/click';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/**
 * Each row an indicator (mapping prop `name`, its upper bound `max`); each other mapping entry one outline over them,
 * named by its label. An indicator without a bound (none mapped, or 0) is scaled by ECharts to its values.
 */
export function RadarChart({ viewProps: v, data, onItemClick }: WidgetKindProps<ViewPropsOf<'radarChart'>>) {
  const { colors, axisColor, showLegend, shape, areaOpacity, chartOption } = v;
  const option = useMemo(() => {
    const series = mappedSeries(data, ['name', 'max']);
    const indicator = data.rows.map((r) => ({ name: label(r.name), max: num(r.max) || undefined }));
    return mergeOption(
      {
        color: colors,
        legend: legend(showLegend, axisColor, 'bottom'),
        tooltip: { trigger: 'item' },
        radar: {
          shape,
          radius: '62%',
          center: ['50%', showLegend ? '46%' : '50%'],
          indicator,
          axisName: { color: axisColor },
          axisLine: { lineStyle: { color: axisColor, opacity: 0.3 } },
          splitLine: { lineStyle: { color: axisColor, opacity: 0.3 } },
          splitArea: { show: false },
        },
        series: [
          {
            type: 'radar',
            symbolSize: 4,
            areaStyle: { opacity: areaOpacity },
            // no rows is no indicator: ECharts' radar layout throws on an outline over no axes (an API still loading)
            data: indicator.length ? series.map((s) => ({ name: s.name, value: data.rows.map((r) => num(r[s.prop])) })) : [],
          },
        ],
      },
      chartOption,
    ) as EChartsOption;
  }, [data, colors, axisColor, showLegend, shape, areaOpacity, chartOption]);
  const { ref } = useEChart(option, v.width, v.height, useChartClick(data, onItemClick, outlineClickItem));
  return <div ref={ref} data-widget="radarChart" style={{ width: '100%', height: '100%' }} />;
}
