import { useMemo } from 'react';
import { mergeOption, type EChartsOption } from '../charts/echarts';
import { categoryOption } from '../charts/options';
import { useEChart } from '../charts/useEChart';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/** Categories on x from mapping prop `x`; each other mapping entry a bar segment, stacked in mapping order. */
export function StackedBarChart({ viewProps: v, data }: WidgetKindProps<ViewPropsOf<'stackedBarChart'>>) {
  const { colors, axisColor, showLegend, showLabel, barWidth, chartOption } = v;
  const option = useMemo(
    () =>
      mergeOption(
        categoryOption({ colors, axisColor, showLegend, showLabel }, data, (values) => ({
          type: 'bar',
          stack: 'total',
          barWidth,
          emphasis: { focus: 'series' },
          // inside labels take ECharts' own contrast against each segment
          label: { show: showLabel, position: 'inside' },
          data: values,
        })),
        chartOption,
      ) as EChartsOption,
    [data, colors, axisColor, showLegend, showLabel, barWidth, chartOption],
  );
  const { ref } = useEChart(option, v.width, v.height);
  return <div ref={ref} data-widget="stackedBarChart" style={{ width: '100%', height: '100%' }} />;
}
