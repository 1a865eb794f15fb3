import { useMemo } from 'react';
import { mergeOption, type EChartsOption } from '../charts/echarts';
import { axisStyle, num } from '../charts/options';
import { useChartClick } from '../charts/ChartWidget';
import { useEChart } from '../charts/useEChart';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/** Points at (mapping prop `x`, mapping prop `y`) on two value axes. */
export function ScatterChart({ viewProps: v, data, onItemClick }: WidgetKindProps<ViewPropsOf<'scatterChart'>>) {
  const { pointColor, axisColor, symbolSize, pointOpacity, chartOption } = v;
  const option = useMemo(() => {
    const name = (prop: string) => data.mapping.find((m) => m.prop === prop)?.label ?? prop;
    const axis = { type: 'value' as const, scale: true, ...axisStyle(axisColor) };
    return mergeOption(
      {
        grid: { left: 8, right: 16, top: 20, bottom: 8, containLabel: true },
        tooltip: { trigger: 'item', formatter: (p: { value: [number, number] }) => `${name('x')}：${p.value[0]}<br/>${name('y')}：${p.value[1]}` },
        xAxis: axis,
        yAxis: axis,
        series: [
          {
            type: 'scatter',
            symbolSize,
            itemStyle: { color: pointColor, opacity: pointOpacity },
            data: data.rows.map((r) => [num(r.x), num(r.y)]),
          },
        ],
      },
      chartOption,
    ) as EChartsOption;
  }, [data, pointColor, axisColor, symbolSize, pointOpacity, chartOption]);
  const { ref } = useEChart(option, v.width, v.height, useChartClick(data, onItemClick));
  return <div ref={ref} data-widget="scatterChart" style={{ width: '100%', height: '100%' }} />;
}
