import { categoryChart, ChartWidget } from '../charts/ChartWidget';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

type Props = ViewPropsOf<'areaChart'>;

/** A line chart filled down to the axis, each area fading out towards it: categories from `x`, a series per other mapping entry. */
const build = categoryChart<Props>(
  (v, values, _s, i) => {
    const c = v.colors.length ? v.colors[i % v.colors.length] : undefined;
    return {
      type: 'line',
      smooth: v.smooth,
      showSymbol: false,
      lineStyle: { width: v.lineWidth },
      areaStyle: c
        ? { opacity: v.areaOpacity, color: { type: 'linear', x: 0, y: 0, x2: 0, y2: 1, colorStops: [{ offset: 0, color: c }, { offset: 1, color: 'transparent' }] } }
        : { opacity: v.areaOpacity },
      label: { show: v.showLabel, position: 'top', color: v.axisColor },
      data: values,
    };
  },
  { boundaryGap: false },
);

export function AreaChart({ viewProps, data, onItemClick }: WidgetKindProps<Props>) {
  return <ChartWidget widget="areaChart" viewProps={viewProps} data={data} build={build} onItemClick={onItemClick} />;
}
