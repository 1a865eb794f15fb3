import { useMemo } from 'react';
import { mergeOption, type EChartsOption } from '../charts/echarts';
import { useEChart } from '../charts/useEChart';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/** Categories (dates) on x from mapping prop `x`, values on y from prop `y`. */
export function BarChart({ viewProps: v, data }: WidgetKindProps<ViewPropsOf<'barChart'>>) {
  const option = useMemo(() => {
    const axis = { lineStyle: { color: v.axisColor } };
    return mergeOption(
      {
        grid: { left: 8, right: 12, top: 24, bottom: 8, containLabel: true },
        tooltip: { trigger: 'axis' },
        xAxis: {
          type: 'category',
          data: data.rows.map((r) => (r.x == null ? '' : String(r.x))),
          axisLine: axis,
          axisLabel: { color: v.axisColor },
        },
        yAxis: { type: 'value', axisLine: axis, axisLabel: { color: v.axisColor }, splitLine: { lineStyle: { color: v.axisColor, opacity: 0.2 } } },
        series: [
          {
            type: 'bar',
            barWidth: v.barWidth,
            itemStyle: { color: v.barColor, borderRadius: [2, 2, 0, 0] },
            label: { show: v.showLabel, position: 'top', color: v.axisColor },
            data: data.rows.map((r) => Number(r.y) || 0),
          },
        ],
      },
      v.chartOption,
    ) as EChartsOption;
  }, [data.rows, v.axisColor, v.barColor, v.barWidth, v.showLabel, v.chartOption]);
  const { ref } = useEChart(option, v.width, v.height);
  return <div ref={ref} data-widget="barChart" style={{ width: '100%', height: '100%' }} />;
}
