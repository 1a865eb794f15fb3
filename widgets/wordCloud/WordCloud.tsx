import { useEffect, useMemo, useState } from 'react';
import { mergeOption, type EChartsOption } from '../charts/echarts';
import { label, num } from '../charts/options';
import { useChartClick } from '../charts/ChartWidget';
import { useEChart } from '../charts/useEChart';
import { SCREEN_FONT } from '../theme';
import type { MappedData, WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';
import { loadWordCloudSeries, wordCloudLoaded } from './wordCloudSeries';

type Props = ViewPropsOf<'wordCloud'>;
type Style = Pick<Props, 'colors' | 'shape' | 'minFontSize' | 'maxFontSize' | 'rotation' | 'gridSize' | 'bold'>;

/**
 * The word cloud: one word per row (mapping props `name`, `value`), sized between the smallest and largest font
 * size by value, coloured in turn from the palette (the heaviest word the first colour). Laid out at once (no
 * layout animation), words that do not fit shrink rather than spill over the box.
 */
export function wordCloudOption(v: Style, data: MappedData) {
  const palette = v.colors.length ? v.colors : ['#3BA0FF'];
  const items = data.rows
    .map((r) => ({ name: label(r.name), value: num(r.value) }))
    .filter((w) => w.name !== '')
    .sort((a, b) => b.value - a.value);
  return {
    tooltip: { show: true, formatter: '{b}：{c}' },
    series: [
      {
        type: 'wordCloud' as const,
        shape: v.shape,
        left: 'center',
        top: 'center',
        width: '96%',
        height: '94%',
        sizeRange: [Math.min(v.minFontSize, v.maxFontSize), v.maxFontSize],
        rotationRange: [-v.rotation, v.rotation],
        rotationStep: Math.max(v.rotation, 1),
        gridSize: v.gridSize,
        drawOutOfBound: false,
        shrinkToFit: true,
        layoutAnimation: false,
        textStyle: { fontFamily: SCREEN_FONT, fontWeight: v.bold ? 'bold' : 'normal' },
        emphasis: { focus: 'self' as const, textStyle: { textShadowBlur: 8, textShadowColor: 'rgba(0,0,0,0.6)' } },
        data: items.map((w, i) => ({ ...w, textStyle: { color: palette[i % palette.length] } })),
      },
    ],
  };
}

/** 词云: the mapped words sized by weight. Needs a 2D canvas to lay the words out; says so where there is none. */
export function WordCloud(props: WidgetKindProps<Props>) {
  const [ready, setReady] = useState<boolean | null>(wordCloudLoaded() || null);
  useEffect(() => {
    if (ready !== null) return;
    let live = true;
    void loadWordCloudSeries().then((ok) => live && setReady(ok));
    return () => {
      live = false;
    };
  }, [ready]);
  if (ready) return <WordCloudChart {...props} />;
  return (
    <div data-widget="wordCloud" role={ready === false ? 'note' : undefined} style={{ width: '100%', height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center', color: '#A8B3C7', fontSize: 13, fontFamily: SCREEN_FONT, textAlign: 'center' }}>
      {ready === false ? '当前环境不支持绘制词云（需要 Canvas 2D）' : null}
    </div>
  );
}

function WordCloudChart({ viewProps: v, data, onItemClick }: WidgetKindProps<Props>) {
  const { colors, shape, minFontSize, maxFontSize, rotation, gridSize, bold, chartOption } = v;
  const option = useMemo(
    () => mergeOption(wordCloudOption({ colors, shape, minFontSize, maxFontSize, rotation, gridSize, bold }, data), chartOption) as EChartsOption,
    [data, colors, shape, minFontSize, maxFontSize, rotation, gridSize, bold, chartOption],
  );
  const { ref, redraw } = useEChart(option, v.width, v.height, useChartClick(data, onItemClick));
  // The words are placed in a task after setOption (the extension's layout runs in a timeout), so a chart drawn
  // as a picture (the designer's canvas) is drawn again once they are there.
  useEffect(() => {
    const t = setTimeout(redraw, 0);
    return () => clearTimeout(t);
  }, [option, redraw, v.width, v.height]);
  return <div ref={ref} data-widget="wordCloud" style={{ width: '100%', height: '100%' }} />;
}
