import { categoryChart, ChartWidget } from '../charts/ChartWidget';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

type Props = ViewPropsOf<'stackedBarChart'>;

/** Categories on x from mapping prop `x`; each other mapping entry a bar segment, stacked in mapping order. */
const build = categoryChart<Props>((v, values) => ({
  type: 'bar',
  stack: 'total',
  barWidth: v.barWidth,
  emphasis: { focus: 'series' },
  // inside labels take ECharts' own contrast against each segment
  label: { show: v.showLabel, position: 'inside' },
  data: values,
}));

export function StackedBarChart({ viewProps, data, onItemClick }: WidgetKindProps<Props>) {
  return <ChartWidget widget="stackedBarChart" viewProps={viewProps} data={data} build={build} onItemClick={onItemClick} />;
}
