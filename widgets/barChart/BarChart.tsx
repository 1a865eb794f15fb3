import { ChartWidget, type OptionBuilder } from '../charts/ChartWidget';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

type Props = ViewPropsOf<'barChart'>;

/** Categories (dates) on x from mapping prop `x`, values on y from prop `y`. */
const build: OptionBuilder<Props> = (v, data) => {
  const axis = { lineStyle: { color: v.axisColor } };
  return {
    grid: { left: 8, right: 12, top: 24, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis' },
    xAxis: {
      type: 'category',
      data: data.rows.map((r) => (r.x == null ? '' : String(r.x))),
      axisLine: axis,
      axisLabel: { color: v.axisColor },
    },
    yAxis: { type: 'value', axisLine: axis, axisLabel: { color: v.axisColor }, splitLine: { lineStyle: { color: v.axisColor, opacity: 0.2 } } },
    series: [
      {
        type: 'bar',
        barWidth: v.barWidth,
        itemStyle: { color: v.barColor, borderRadius: [2, 2, 0, 0] },
        label: { show: v.showLabel, position: 'top', color: v.axisColor },
        data: data.rows.map((r) => Number(r.y) || 0),
      },
    ],
  };
};

export function BarChart({ viewProps, data, onItemClick }: WidgetKindProps<Props>) {
  return <ChartWidget widget="barChart" viewProps={viewProps} data={data} build={build} onItemClick={onItemClick} />;
}
