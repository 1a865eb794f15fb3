import { useMemo } from 'react';
import { mergeOption, type EChartsOption } from '../charts/echarts';
import { num } from '../charts/options';
import { useChartClick } from '../charts/ChartWidget';
import { useEChart } from '../charts/useEChart';
import { CHINA_MAP, provinceName } from '../maps/china';
import type { MappedData, WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

type Props = ViewPropsOf<'chinaMap'>;
type Style = Pick<Props, 'areaColor' | 'borderColor' | 'lowColor' | 'highColor' | 'emphasisColor' | 'labelColor' | 'showLabel' | 'labelSize' | 'showVisualMap' | 'zoom'>;

/** The map option: regions (mapping prop `name`, 北京 or 北京市) coloured by value (`value`) from low to high colour. */
export function chinaMapOption(v: Style, data: MappedData) {
  const items = data.rows.map((r) => ({ name: provinceName(r.name), value: num(r.value) }));
  const values = items.map((i) => i.value);
  const min = values.length ? Math.min(...values) : 0;
  const max = values.length ? Math.max(...values) : 1;
  return {
    tooltip: { trigger: 'item' as const, formatter: '{b}：{c}' },
    visualMap: {
      type: 'continuous' as const,
      show: v.showVisualMap,
      min,
      max: max > min ? max : min + 1,
      left: 8,
      bottom: 8,
      itemWidth: 12,
      itemHeight: 96,
      text: ['高', '低'],
      calculable: true,
      inRange: { color: [v.lowColor, v.highColor] },
      textStyle: { color: v.labelColor },
    },
    series: [
      {
        type: 'map' as const,
        map: CHINA_MAP,
        zoom: v.zoom,
        // the islands inset sits low on the right: the map a little up so it stays inside the box; right of the
        // value range when that shows (bottom left)
        layoutCenter: [v.showVisualMap ? '56%' : '50%', '54%'],
        layoutSize: '100%',
        aspectScale: 0.8,
        roam: false,
        selectedMode: false as const,
        label: { show: v.showLabel, color: v.labelColor, fontSize: v.labelSize },
        itemStyle: { areaColor: v.areaColor, borderColor: v.borderColor, borderWidth: 1, shadowColor: v.borderColor, shadowBlur: 6 },
        emphasis: { label: { color: v.labelColor }, itemStyle: { areaColor: v.emphasisColor } },
        data: items,
      },
    ],
  };
}

/** 中国地图: the provinces coloured by the mapped values (a visual map from the low to the high colour). */
export function ChinaMap({ viewProps: v, data, onItemClick }: WidgetKindProps<Props>) {
  const { areaColor, borderColor, lowColor, highColor, emphasisColor, labelColor, showLabel, labelSize, showVisualMap, zoom, chartOption } = v;
  const option = useMemo(
    () =>
      mergeOption(
        chinaMapOption({ areaColor, borderColor, lowColor, highColor, emphasisColor, labelColor, showLabel, labelSize, showVisualMap, zoom }, data),
        chartOption,
      ) as EChartsOption,
    [data, areaColor, borderColor, lowColor, highColor, emphasisColor, labelColor, showLabel, labelSize, showVisualMap, zoom, chartOption],
  );
  const { ref } = useEChart(option, v.width, v.height, useChartClick(data, onItemClick));
  return <div ref={ref} data-widget="chinaMap" style={{ width: '100%', height: '100%' }} />;
}
