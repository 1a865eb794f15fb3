import { useMemo } from 'react';
import { mergeOption, type EChartsOption } from '../charts/echarts';
import { categoryOption } from '../charts/options';
import { useEChart } from '../charts/useEChart';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/** Bars lying down: categories on y from mapping prop `x` (the first row on top), a bar series per other mapping entry. */
export function HorizontalBarChart({ viewProps: v, data }: WidgetKindProps<ViewPropsOf<'horizontalBarChart'>>) {
  const { colors, axisColor, showLegend, showLabel, barWidth, chartOption } = v;
  const option = useMemo(
    () =>
      mergeOption(
        categoryOption(
          { colors, axisColor, showLegend, showLabel },
          data,
          (values) => ({
            type: 'bar',
            barWidth,
            itemStyle: { borderRadius: [0, 2, 2, 0] },
            label: { show: showLabel, position: 'right', color: axisColor },
            data: values,
          }),
          { horizontal: true },
        ),
        chartOption,
      ) as EChartsOption,
    [data, colors, axisColor, showLegend, showLabel, barWidth, chartOption],
  );
  const { ref } = useEChart(option, v.width, v.height);
  return <div ref={ref} data-widget="horizontalBarChart" style={{ width: '100%', height: '100%' }} />;
}
