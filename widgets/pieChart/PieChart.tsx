import { useMemo } from 'react';
import { mergeOption, type EChartsOption } from '../charts/echarts';
import { pieOption } from '../charts/options';
import { useEChart } from '../charts/useEChart';
import { useChartClick } from '../charts/ChartWidget';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/** A pie of the mapped name/value rows. */
export function PieChart({ viewProps: v, data, onItemClick }: WidgetKindProps<ViewPropsOf<'pieChart'>>) {
  const { colors, labelColor, showLegend, showLabel, innerRadius, outerRadius, chartOption } = v;
  const option = useMemo(
    () => mergeOption(pieOption({ colors, labelColor, showLegend, showLabel, innerRadius, outerRadius }, data), chartOption) as EChartsOption,
    [data, colors, labelColor, showLegend, showLabel, innerRadius, outerRadius, chartOption],
  );
  const { ref } = useEChart(option, v.width, v.height, useChartClick(data, onItemClick));
  return <div ref={ref} data-widget="pieChart" style={{ width: '100%', height: '100%' }} />;
}
