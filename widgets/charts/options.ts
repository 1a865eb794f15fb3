// Option pieces the chart kinds share: categories + series from the data mapping, axes, legend, name/value items.
import type { MappedData } from '../types';

/** A mapped value as a number (a missing or non-numeric value counts 0). */
export const num = (v: unknown): number => Number(v) || 0;

/** A mapped value as a label ('' for none). */
export const label = (v: unknown): string => (v == null ? '' : String(v));

export interface MappedSeries {
  /** The mapping prop the values come from. */
  prop: string;
  /** The series name: the mapping's label (显示名). */
  name: string;
}

/**
 * One series per mapping entry other than the `reserved` props (the category, a radar's name and max…), in mapping
 * order and named by their label: adding a row to the mapping adds a series.
 */
export function mappedSeries(data: MappedData, reserved: readonly string[]): MappedSeries[] {
  return data.mapping.filter((m) => !reserved.includes(m.prop)).map((m) => ({ prop: m.prop, name: m.label || m.prop }));
}

/** An axis in one colour: its line and labels, the split lines faint. */
export function axisStyle(color: string) {
  return {
    axisLine: { lineStyle: { color } },
    axisTick: { lineStyle: { color } },
    axisLabel: { color },
    splitLine: { lineStyle: { color, opacity: 0.2 } },
  };
}

/** A scrolling legend in the text colour, at the top or bottom. */
export function legend(show: boolean, color: string, at: 'top' | 'bottom' = 'top') {
  return { show, type: 'scroll' as const, [at]: 0, textStyle: { color }, pageTextStyle: { color }, pageIconColor: color, pageIconInactiveColor: color };
}

export interface CartesianProps {
  colors: string[];
  axisColor: string;
  showLegend: boolean;
  showLabel: boolean;
}

/**
 * The frame of a category chart (line, area, bar kinds): categories from mapping prop `x`, one series per other
 * mapping entry, built by `series(values, name, index)`; `horizontal` puts the categories on the y axis (top first).
 */
export function categoryOption(
  v: CartesianProps,
  data: MappedData,
  series: (values: number[], s: MappedSeries, index: number) => Record<string, unknown>,
  { horizontal = false, boundaryGap = true }: { horizontal?: boolean; boundaryGap?: boolean } = {},
) {
  const categories = data.rows.map((r) => label(r.x));
  const list = mappedSeries(data, ['x']);
  const style = axisStyle(v.axisColor);
  // without the gap the first and last categories sit on the plot's ends: their labels are turned inwards, else
  // the last one (2026-03 on a line by month) is cut off by the widget's edge
  const axisLabel = !boundaryGap && !horizontal ? { ...style.axisLabel, alignMinLabel: 'left' as const, alignMaxLabel: 'right' as const } : style.axisLabel;
  const category = { type: 'category' as const, data: horizontal ? [...categories].reverse() : categories, boundaryGap, ...style, axisLabel, splitLine: { show: false } };
  const value = { type: 'value' as const, ...axisStyle(v.axisColor) };
  return {
    color: v.colors,
    legend: legend(v.showLegend, v.axisColor),
    grid: { left: 8, right: 16, top: v.showLegend ? 36 : 20, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis' as const },
    xAxis: horizontal ? value : category,
    yAxis: horizontal ? category : value,
    series: list.map((s, i) => {
      const values = data.rows.map((r) => num(r[s.prop]));
      return { name: s.name, ...series(horizontal ? values.reverse() : values, s, i) };
    }),
  };
}

/** `{ name, value }` items from mapping props `name` and `value` (pie, funnel…). */
export function nameValueItems(data: MappedData): Array<{ name: string; value: number }> {
  return data.rows.map((r) => ({ name: label(r.name), value: num(r.value) }));
}

export interface PieProps {
  colors: string[];
  labelColor: string;
  showLegend: boolean;
  showLabel: boolean;
  innerRadius: number;
  outerRadius: number;
}

/**
 * A pie of `{ name, value }` items (mapping props `name` and `value`): a ring when the inner radius is above 0, a
 * Nightingale rose with `roseType`. Labels outside the slices in the label colour, the legend at the bottom.
 */
export function pieOption(v: PieProps, data: MappedData, roseType?: 'radius' | 'area') {
  const inner = Math.min(v.innerRadius, v.outerRadius);
  return {
    color: v.colors,
    legend: legend(v.showLegend, v.labelColor, 'bottom'),
    tooltip: { trigger: 'item' as const, formatter: '{b}：{c}（{d}%）' },
    series: [
      {
        type: 'pie' as const,
        radius: [`${inner}%`, `${v.outerRadius}%`],
        center: ['50%', v.showLegend ? '45%' : '50%'],
        ...(roseType ? { roseType } : {}),
        itemStyle: inner > 0 ? { borderRadius: 4 } : {},
        label: { show: v.showLabel, color: v.labelColor, formatter: '{b}\n{d}%' },
        labelLine: { show: v.showLabel, lineStyle: { color: v.labelColor, opacity: 0.6 } },
        data: nameValueItems(data),
      },
    ],
  };
}
