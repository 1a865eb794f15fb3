import { useMemo } from 'react';
import { mergeOption, type EChartsOption } from '../charts/echarts';
import { label, num } from '../charts/options';
import { useChartClick } from '../charts/ChartWidget';
import { useEChart } from '../charts/useEChart';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/** The first row's value (mapping prop `value`) as a progress arc between min and max, its name (`name`) below. */
export function GaugeChart({ viewProps: v, data, onItemClick }: WidgetKindProps<ViewPropsOf<'gaugeChart'>>) {
  const { min, max, unit, progressColor, trackColor, valueColor, labelColor, splitNumber, lineWidth, chartOption } = v;
  const option = useMemo(() => {
    const row = data.rows[0];
    const top = max > min ? max : min + 1;
    return mergeOption(
      {
        series: [
          {
            type: 'gauge',
            min,
            max: top,
            splitNumber,
            radius: '88%',
            center: ['50%', '55%'],
            progress: { show: true, width: lineWidth, itemStyle: { color: progressColor } },
            axisLine: { lineStyle: { width: lineWidth, color: [[1, trackColor]] } },
            pointer: { show: false },
            axisTick: { show: false },
            splitLine: { distance: 4, length: 6, lineStyle: { color: labelColor, width: 1 } },
            axisLabel: { distance: lineWidth + 12, color: labelColor, fontSize: 11 },
            anchor: { show: false },
            title: { show: true, offsetCenter: [0, '32%'], color: labelColor, fontSize: 14 },
            detail: { valueAnimation: true, offsetCenter: [0, '0%'], color: valueColor, fontSize: 28, fontWeight: 'bold', formatter: `{value}${unit}` },
            data: row ? [{ name: label(row.name), value: num(row.value) }] : [],
          },
        ],
      },
      chartOption,
    ) as EChartsOption;
  }, [data, min, max, unit, progressColor, trackColor, valueColor, labelColor, splitNumber, lineWidth, chartOption]);
  const { ref } = useEChart(option, v.width, v.height, useChartClick(data, onItemClick));
  return <div ref={ref} data-widget="gaugeChart" style={{ width: '100%', height: '100%' }} />;
}
