import { echarts } from '../charts/echarts';
import { ChartWidget, type OptionBuilder } from '../charts/ChartWidget';
import { axisStyle, label, num } from '../charts/options';
import type { MappedData } from '../types';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

type Props = ViewPropsOf<'heatmapChart'>;

/** The categories of a mapping prop in the order they first appear. */
function categories(rows: MappedData['rows'], prop: string): string[] {
  return [...new Set(rows.map((r) => label(r[prop])))];
}

/**
 * A grid of the categories of mapping props `x` (columns) and `y` (rows, the first on top), each cell coloured by
 * its `value` along the colour scale, whose range is the data's; the scale's bar below is draggable to filter.
 */
const build: OptionBuilder<Props> = (v, data) => {
  const xs = categories(data.rows, 'x');
  const ys = categories(data.rows, 'y');
  const cells = data.rows.map((r) => [xs.indexOf(label(r.x)), ys.indexOf(label(r.y)), num(r.value)] as [number, number, number]);
  const values = cells.map((c) => c[2]);
  const min = values.length ? Math.min(...values) : 0;
  const max = values.length ? Math.max(...values) : 1;
  const name = data.mapping.find((m) => m.prop === 'value')?.label || '数值';
  const category = (list: string[]) => ({ type: 'category' as const, data: list, ...axisStyle(v.axisColor), axisTick: { show: false }, splitLine: { show: false } });
  const esc = echarts.format.encodeHTML;
  return {
    grid: { left: 8, right: 16, top: 12, bottom: v.showVisualMap ? 44 : 8, containLabel: true },
    tooltip: {
      trigger: 'item',
      formatter: (p: { value: [number, number, number]; marker: string }) => `${esc(ys[p.value[1]] ?? '')} ${esc(xs[p.value[0]] ?? '')}<br/>${p.marker}${esc(name)}：${p.value[2]}`,
    },
    xAxis: category(xs),
    yAxis: { ...category(ys), inverse: true },
    visualMap: {
      show: v.showVisualMap,
      type: 'continuous',
      min,
      max: max > min ? max : min + 1,
      calculable: true,
      orient: 'horizontal',
      left: 'center',
      bottom: 0,
      itemWidth: 10,
      itemHeight: 140,
      textStyle: { color: v.axisColor },
      inRange: { color: v.colors },
    },
    series: [
      {
        type: 'heatmap',
        name,
        itemStyle: { borderWidth: v.cellGap, borderColor: v.gapColor, borderRadius: v.cellRadius },
        // inside labels take ECharts' own contrast against each cell
        label: { show: v.showLabel },
        emphasis: { itemStyle: { borderColor: v.axisColor, borderWidth: 1 } },
        data: cells,
      },
    ],
  };
};

export function HeatmapChart({ viewProps, data, onItemClick }: WidgetKindProps<Props>) {
  return <ChartWidget widget="heatmapChart" viewProps={viewProps} data={data} build={build} onItemClick={onItemClick} />;
}
