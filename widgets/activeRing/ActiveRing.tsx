import { useEffect, useMemo, useRef } from 'react';
import { mergeOption, type EChartsOption } from '../charts/echarts';
import { useEChart } from '../charts/useEChart';
import { useSharedInterval } from '../timing/sharedInterval';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/** A ring (ECharts pie) whose highlighted slice moves on a timer; the centre shows it. */
export function ActiveRing({ viewProps: v, data }: WidgetKindProps<ViewPropsOf<'activeRing'>>) {
  const items = useMemo(
    () => data.rows.map((r) => ({ name: r.name == null ? '' : String(r.name), value: Number(r.value) || 0 })),
    [data.rows],
  );
  const option = useMemo(
    () =>
      mergeOption(
        {
          color: v.colors,
          tooltip: { trigger: 'item', formatter: '{b}：{c}（{d}%）' },
          // The highlight jumps rather than tweens: a tween redraws the chart every frame for
          // 300 ms per step, which on a screen with dozens of rings keeps the main thread busy.
          stateAnimation: { duration: 0 },
          series: [
            {
              type: 'pie',
              radius: [`${v.innerRadius}%`, `${v.outerRadius}%`],
              avoidLabelOverlap: false,
              label: { show: false, position: 'center', color: v.labelColor },
              labelLine: { show: false },
              emphasis: {
                scale: true,
                scaleSize: 6,
                label: { show: true, fontSize: 16, fontWeight: 'bold', formatter: '{b}\n{d}%', lineHeight: 24 },
              },
              data: items,
            },
          ],
        },
        v.chartOption,
      ) as EChartsOption,
    [items, v.colors, v.innerRadius, v.outerRadius, v.labelColor, v.chartOption],
  );
  const { ref, chartRef, redraw } = useEChart(option, v.width, v.height);

  // Highlight slice `index`; a new option (data, colours…) starts again from the first slice.
  const index = useRef(0);
  const highlight = (i: number) => {
    const chart = chartRef.current;
    if (!chart || items.length === 0) return;
    index.current = i % items.length;
    chart.dispatchAction({ type: 'downplay', seriesIndex: 0 });
    chart.dispatchAction({ type: 'highlight', seriesIndex: 0, dataIndex: index.current });
    redraw();
  };
  useEffect(() => {
    highlight(0);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [option]);
  useSharedInterval(() => highlight(index.current + 1), Math.max(v.rotateInterval, 500), items.length > 1);

  return <div ref={ref} data-widget="activeRing" style={{ width: '100%', height: '100%' }} />;
}
