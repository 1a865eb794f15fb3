import { ChartWidget, type OptionBuilder, type SeriesDecoration } from '../charts/ChartWidget';
import { axisStyle, categoryOption } from '../charts/options';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

type Props = ViewPropsOf<'barLineChart'>;

/** A mapping prop named `line…` (line, line2…) is a line on the right axis; every other one but `x` is a bar on the left. */
export const isLineProp = (prop: string) => prop.startsWith('line');

const decorate: SeriesDecoration<Props> = (v, values, s) =>
  isLineProp(s.prop)
    ? {
        type: 'line',
        yAxisIndex: 1,
        smooth: v.smooth,
        showSymbol: v.showSymbol,
        symbol: 'circle',
        symbolSize: 6,
        z: 3,
        lineStyle: { width: v.lineWidth },
        label: { show: v.showLabel, position: 'top', color: v.axisColor },
        data: values,
      }
    : {
        type: 'bar',
        yAxisIndex: 0,
        barWidth: v.barWidth,
        itemStyle: { borderRadius: [2, 2, 0, 0] },
        label: { show: v.showLabel, position: 'top', color: v.axisColor },
        data: values,
      };

/**
 * Categories on x from mapping prop `x`; bars on the left value axis, lines (mapping props `line…`) on a second
 * value axis on the right, its ticks aligned with the left one's so the grid lines serve both.
 */
const build: OptionBuilder<Props> = (v, data) => {
  const o = categoryOption(v, data, (values, s, i) => decorate(v, values, s, i));
  const hasLine = data.mapping.some((m) => isLineProp(m.prop));
  const named = Boolean(v.barAxisName || (hasLine && v.lineAxisName));
  const axis = (name: string) => ({ type: 'value' as const, name, nameTextStyle: { color: v.axisColor }, alignTicks: true, ...axisStyle(v.axisColor) });
  return {
    ...o,
    grid: { ...o.grid, top: (v.showLegend ? 36 : 20) + (named ? 16 : 0) },
    yAxis: [axis(v.barAxisName), { ...axis(v.lineAxisName), show: hasLine, position: 'right', splitLine: { show: false } }],
  };
};

export function BarLineChart({ viewProps, data, onItemClick }: WidgetKindProps<Props>) {
  return <ChartWidget widget="barLineChart" viewProps={viewProps} data={data} build={build} onItemClick={onItemClick} />;
}
