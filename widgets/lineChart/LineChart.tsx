import { useMemo } from 'react';
import { mergeOption, type EChartsOption } from '../charts/echarts';
import { categoryOption } from '../charts/options';
import { useEChart } from '../charts/useEChart';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/** Categories on x from mapping prop `x`; one line per other mapping entry, named by its label. */
export function LineChart({ viewProps: v, data }: WidgetKindProps<ViewPropsOf<'lineChart'>>) {
  const { colors, axisColor, showLegend, showLabel, smooth, showSymbol, lineWidth, chartOption } = v;
  const option = useMemo(
    () =>
      mergeOption(
        categoryOption(
          { colors, axisColor, showLegend, showLabel },
          data,
          (values) => ({
            type: 'line',
            smooth,
            showSymbol,
            symbolSize: 6,
            lineStyle: { width: lineWidth },
            label: { show: showLabel, position: 'top', color: axisColor },
            data: values,
          }),
          { boundaryGap: false },
        ),
        chartOption,
      ) as EChartsOption,
    [data, colors, axisColor, showLegend, showLabel, smooth, showSymbol, lineWidth, chartOption],
  );
  const { ref } = useEChart(option, v.width, v.height);
  return <div ref={ref} data-widget="lineChart" style={{ width: '100%', height: '100%' }} />;
}
