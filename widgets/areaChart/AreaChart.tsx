import { useMemo } from 'react';
import { mergeOption, type EChartsOption } from '../charts/echarts';
import { categoryOption } from '../charts/options';
import { useEChart } from '../charts/useEChart';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/** A line chart filled down to the axis, each area fading out towards it: categories from `x`, a series per other mapping entry. */
export function AreaChart({ viewProps: v, data }: WidgetKindProps<ViewPropsOf<'areaChart'>>) {
  const { colors, axisColor, showLegend, showLabel, smooth, lineWidth, areaOpacity, chartOption } = v;
  const option = useMemo(
    () =>
      mergeOption(
        categoryOption(
          { colors, axisColor, showLegend, showLabel },
          data,
          (values, _s, i) => {
            const c = colors.length ? colors[i % colors.length] : undefined;
            return {
              type: 'line',
              smooth,
              showSymbol: false,
              lineStyle: { width: lineWidth },
              areaStyle: c
                ? { opacity: areaOpacity, color: { type: 'linear', x: 0, y: 0, x2: 0, y2: 1, colorStops: [{ offset: 0, color: c }, { offset: 1, color: 'transparent' }] } }
                : { opacity: areaOpacity },
              label: { show: showLabel, position: 'top', color: axisColor },
              data: values,
            };
          },
          { boundaryGap: false },
        ),
        chartOption,
      ) as EChartsOption,
    [data, colors, axisColor, showLegend, showLabel, smooth, lineWidth, areaOpacity, chartOption],
  );
  const { ref } = useEChart(option, v.width, v.height);
  return <div ref={ref} data-widget="areaChart" style={{ width: '100%', height: '100%' }} />;
}
