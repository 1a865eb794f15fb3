import { useMemo } from 'react';
import { mergeOption, type EChartsOption } from '../charts/echarts';
import { pieOption } from '../charts/options';
import { useEChart } from '../charts/useEChart';
import { useChartClick } from '../charts/ChartWidget';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/** A Nightingale rose of the mapped name/value rows: slice radius (or area) by value. */
export function RoseChart({ viewProps: v, data, onItemClick }: WidgetKindProps<ViewPropsOf<'roseChart'>>) {
  const { colors, labelColor, showLegend, showLabel, innerRadius, outerRadius, roseType, chartOption } = v;
  const option = useMemo(
    () => mergeOption(pieOption({ colors, labelColor, showLegend, showLabel, innerRadius, outerRadius }, data, roseType), chartOption) as EChartsOption,
    [data, colors, labelColor, showLegend, showLabel, innerRadius, outerRadius, roseType, chartOption],
  );
  const { ref } = useEChart(option, v.width, v.height, useChartClick(data, onItemClick));
  return <div ref={ref} data-widget="roseChart" style={{ width: '100%', height: '100%' }} />;
}
