import { categoryChart, ChartWidget } from '../charts/ChartWidget';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

type Props = ViewPropsOf<'horizontalBarChart'>;

/** Bars lying down: categories on y from mapping prop `x` (the first row on top), a bar series per other mapping entry. */
const build = categoryChart<Props>(
  (v, values) => ({
    type: 'bar',
    barWidth: v.barWidth,
    itemStyle: { borderRadius: [0, 2, 2, 0] },
    label: { show: v.showLabel, position: 'right', color: v.axisColor },
    data: values,
  }),
  { horizontal: true },
);

export function HorizontalBarChart({ viewProps, data, onItemClick }: WidgetKindProps<Props>) {
  return <ChartWidget widget="horizontalBarChart" viewProps={viewProps} data={data} build={build} onItemClick={onItemClick} />;
}
