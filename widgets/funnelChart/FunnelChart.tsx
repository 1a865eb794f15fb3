import { useMemo } from 'react';
import { mergeOption, type EChartsOption } from '../charts/echarts';
import { legend, nameValueItems } from '../charts/options';
import { useEChart } from '../charts/useEChart';
import { useChartClick } from '../charts/ChartWidget';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/** Stages of the mapped name/value rows, widest first; labels beside the funnel in the label colour. */
export function FunnelChart({ viewProps: v, data, onItemClick }: WidgetKindProps<ViewPropsOf<'funnelChart'>>) {
  const { colors, labelColor, showLegend, showLabel, sort, gap, chartOption } = v;
  const option = useMemo(() => {
    const items = nameValueItems(data);
    return mergeOption(
      {
        color: colors,
        legend: legend(showLegend, labelColor, 'bottom'),
        tooltip: { trigger: 'item', formatter: '{b}：{c}' },
        series: [
          {
            type: 'funnel',
            left: '8%',
            top: 12,
            bottom: showLegend ? 36 : 12,
            width: showLabel ? '62%' : '84%',
            min: 0,
            max: Math.max(0, ...items.map((i) => i.value)),
            minSize: '0%',
            maxSize: '100%',
            sort,
            gap,
            itemStyle: { borderWidth: 0 },
            label: { show: showLabel, position: 'right', color: labelColor, formatter: '{b}  {c}' },
            labelLine: { show: showLabel, lineStyle: { color: labelColor, opacity: 0.6 } },
            data: items,
          },
        ],
      },
      chartOption,
    ) as EChartsOption;
  }, [data, colors, labelColor, showLegend, showLabel, sort, gap, chartOption]);
  const { ref } = useEChart(option, v.width, v.height, useChartClick(data, onItemClick));
  return <div ref={ref} data-widget="funnelChart" style={{ width: '100%', height: '100%' }} />;
}
