import { useMemo } from 'react';
import { mergeOption, type EChartsOption } from '../charts/echarts';
import { num } from '../charts/options';
import { useChartClick } from '../charts/ChartWidget';
import { useEChart } from '../charts/useEChart';
import { useWidgetMotion } from '../timing/motion';
import { SCREEN_FONT } from '../theme';
import type { MappedData, WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';
import './liquidFillSeries';

type Props = ViewPropsOf<'liquidFill'>;
type Style = Pick<
  Props,
  'valueMax' | 'shape' | 'waveColor' | 'waveColor2' | 'backgroundColor' | 'borderColor' | 'labelColor' | 'insideLabelColor' | 'fontSize' | 'waveCount' | 'amplitude'
>;

/** The level, 0…1: the first row's mapped `value` over the full value (a value above it fills the ball). */
export function liquidLevel(data: MappedData, valueMax: number): number {
  const level = num(data.rows[0]?.value) / (valueMax > 0 ? valueMax : 1);
  return Math.min(1, Math.max(0, level));
}

/** The ball: one or two waves at the level, the percentage in the middle; the waves move only when `motion`. */
export function liquidFillOption(v: Style, data: MappedData, motion: boolean) {
  const level = liquidLevel(data, v.valueMax);
  const waves = v.waveCount > 1 ? [level, level] : [level];
  return {
    series: [
      {
        type: 'liquidFill' as const,
        shape: v.shape,
        radius: '80%',
        data: waves.map((value, i) => ({ value, itemStyle: { color: i === 0 ? v.waveColor : v.waveColor2 } })),
        amplitude: `${v.amplitude}%`,
        waveAnimation: motion,
        animation: motion,
        backgroundStyle: { color: v.backgroundColor },
        itemStyle: { opacity: 0.95, shadowBlur: 0 },
        outline: { show: true, borderDistance: 4, itemStyle: { color: 'none', borderColor: v.borderColor, borderWidth: 3, shadowBlur: 12, shadowColor: v.borderColor } },
        label: {
          show: true,
          color: v.labelColor,
          insideColor: v.insideLabelColor,
          fontSize: v.fontSize,
          fontWeight: 'bold',
          fontFamily: SCREEN_FONT,
          formatter: () => `${Math.round(level * 1000) / 10}%`,
        },
      },
    ],
  };
}

/** 水球图: a ball filled to the mapped value over the full value, with waves. */
export function LiquidFill({ viewProps: v, data, onItemClick }: WidgetKindProps<Props>) {
  const motion = useWidgetMotion();
  const { valueMax, shape, waveColor, waveColor2, backgroundColor, borderColor, labelColor, insideLabelColor, fontSize, waveCount, amplitude, chartOption } = v;
  const option = useMemo(
    () =>
      mergeOption(
        liquidFillOption({ valueMax, shape, waveColor, waveColor2, backgroundColor, borderColor, labelColor, insideLabelColor, fontSize, waveCount, amplitude }, data, motion),
        chartOption,
      ) as EChartsOption,
    [data, motion, valueMax, shape, waveColor, waveColor2, backgroundColor, borderColor, labelColor, insideLabelColor, fontSize, waveCount, amplitude, chartOption],
  );
  const { ref } = useEChart(option, v.width, v.height, useChartClick(data, onItemClick));
  return <div ref={ref} data-widget="liquidFill" style={{ width: '100%', height: '100%' }} />;
}
