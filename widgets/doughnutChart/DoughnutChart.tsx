import { useMemo } from 'react';
import { mergeOption, type EChartsOption } from '../charts/echarts';
import { pieOption } from '../charts/options';
import { useEChart } from '../charts/useEChart';
import { useChartClick } from '../charts/ChartWidget';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/** A ring of the mapped name/value rows: a pie with an inner radius. */
export function DoughnutChart({ viewProps: v, data, onItemClick }: WidgetKindProps<ViewPropsOf<'doughnutChart'>>) {
  const { colors, labelColor, showLegend, showLabel, innerRadius, outerRadius, chartOption } = v;
  const option = useMemo(
    () => mergeOption(pieOption({ colors, labelColor, showLegend, showLabel, innerRadius, outerRadius }, data), chartOption) as EChartsOption,
    [data, colors, labelColor, showLegend, showLabel, innerRadius, outerRadius, chartOption],
  );
  const { ref } = useEChart(option, v.width, v.height, useChartClick(data, onItemClick));
  return <div ref={ref} data-widget="doughnutChart" style={{ width: '100%', height: '100%' }} />;
}
