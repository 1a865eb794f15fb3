import { categoryChart, ChartWidget } from '../charts/ChartWidget';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

type Props = ViewPropsOf<'lineChart'>;

/** Categories on x from mapping prop `x`; one line per other mapping entry, named by its label. */
const build = categoryChart<Props>(
  (v, values) => ({
    type: 'line',
    smooth: v.smooth,
    showSymbol: v.showSymbol,
    symbolSize: 6,
    lineStyle: { width: v.lineWidth },
    label: { show: v.showLabel, position: 'top', color: v.axisColor },
    data: values,
  }),
  { boundaryGap: false },
);

export function LineChart({ viewProps, data, onItemClick }: WidgetKindProps<Props>) {
  return <ChartWidget widget="lineChart" viewProps={viewProps} data={data} build={build} onItemClick={onItemClick} />;
}
