import { useCallback, useContext, useEffect, useMemo, useRef } from 'react';
import { ChartRendererContext, echarts, pickRenderer, trackChart, untrackChart, type ECharts, type EChartsOption } from './echarts';
import { DEFAULT_THEME, ScreenThemeContext, themeOption, type ScreenTheme } from './themes';
import type { ChartClickParams } from '../data/click';

/**
 * One ECharts instance per mounted element: created on mount, fed `option`,
 * resized with its box (ResizeObserver), disposed on unmount.
 *
 * With the 'image' renderer the instance has no DOM of its own (ECharts' server-side mode): after every change
 * the chart is drawn as an SVG string into one <img> in the element. `redraw` is for callers that change the
 * chart behind ECharts' back (dispatchAction); it does nothing with the live renderers.
 *
 * The screen theme (`ScreenThemeContext`, themes.ts) is applied here, for every kind: the option's default-theme
 * colours become the theme's, and the instance is made with the theme's ECharts theme (a new theme, a new instance).
 */
export function useEChart(rawOption: EChartsOption, width: number, height: number, onClick?: (p: ChartClickParams) => void) {
  // a click on a series item (issue 23 §3–§5), read at the time of the click; a picture has no events
  const clickRef = useRef(onClick);
  clickRef.current = onClick;
  const ref = useRef<HTMLDivElement>(null);
  const chartRef = useRef<ECharts | null>(null);
  const drawRef = useRef<(() => void) | null>(null);
  /** The last option without its data arrays (see frameOf). */
  const frameRef = useRef<string | null>(null);
  const renderer = pickRenderer(useContext(ChartRendererContext));
  const theme = useContext(ScreenThemeContext);
  const option = useMemo(() => themeOption(rawOption, theme), [rawOption, theme]);
  const themeName = echartsThemeOf(theme);
  const sizeRef = useRef({ width, height });
  sizeRef.current = { width, height };

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const picture = renderer === 'image';
    const chart = picture
      ? echarts.init(null, themeName, { renderer: 'svg', ssr: true, ...sizeRef.current })
      : echarts.init(el, themeName, { renderer, ...sizeRef.current });
    if (picture) {
      const img = document.createElement('img');
      img.alt = '';
      img.draggable = false;
      img.style.cssText = 'display:block;width:100%;height:100%';
      el.replaceChildren(img);
      drawRef.current = () => {
        img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(chart.renderToSVGString())}`;
      };
    }
    if (!picture) {
      chart.on('click', (p: unknown) => {
        const params = p as ChartClickParams;
        if (params.componentType === 'series') clickRef.current?.(params);
      });
    }
    trackChart(chart);
    chartRef.current = chart;
    frameRef.current = null;
    const ro = new ResizeObserver((entries) => {
      const box = entries[0]?.contentRect;
      if (box && box.width > 0 && box.height > 0 && (box.width !== chart.getWidth() || box.height !== chart.getHeight())) {
        chart.resize({ width: box.width, height: box.height });
        drawRef.current?.();
      }
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      chart.dispose();
      untrackChart(chart);
      chartRef.current = null;
      drawRef.current = null;
      if (picture) el.replaceChildren();
    };
  }, [renderer, themeName]);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    // a picture does not animate (SVG strings would carry CSS animations, repainting the image)
    const next = renderer === 'image' ? { ...option, animation: false } : option;
    const frame = frameOf(next);
    // When only the data changed (an API refresh) the option is merged: ECharts keeps the chart's components and
    // views and moves the bars from their old values. Anything else replaces the whole option, so a setting taken
    // out of the option does not linger.
    chart.setOption(next, { notMerge: frame !== frameRef.current });
    frameRef.current = frame;
    drawRef.current?.();
  }, [option, renderer, themeName]);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart || (chart.getWidth() === width && chart.getHeight() === height)) return;
    chart.resize({ width, height });
    drawRef.current?.();
  }, [width, height]);

  const redraw = useCallback(() => drawRef.current?.(), []);
  return { ref, chartRef, redraw };
}

/** The option as JSON without its `data` arrays: equal frames mean only the data differs. */
function frameOf(option: EChartsOption): string {
  return JSON.stringify(option, (key, value: unknown) => (key === 'data' && Array.isArray(value) ? '[data]' : value));
}

/**
 * The ECharts theme of a screen theme, registered on first use: the colours a chart leaves unset (a palette
 * where a kind names none, legend and axis text, split lines) come from the screen theme too. The default theme
 * has none (charts keep ECharts' own defaults there, as before themes).
 */
export function echartsThemeOf(theme: ScreenTheme): string | undefined {
  if (theme === DEFAULT_THEME) return undefined;
  const name = `screen-${theme.id}`;
  if (!registered.has(name)) {
    const axis = {
      axisLine: { lineStyle: { color: theme.axis } },
      axisTick: { lineStyle: { color: theme.axis } },
      axisLabel: { color: theme.axis },
      splitLine: { lineStyle: { color: [theme.track] } },
      nameTextStyle: { color: theme.axis },
    };
    echarts.registerTheme(name, {
      color: [...theme.palette],
      backgroundColor: 'transparent',
      textStyle: { color: theme.text },
      title: { textStyle: { color: theme.strong }, subtextStyle: { color: theme.axis } },
      legend: { textStyle: { color: theme.axis } },
      categoryAxis: axis,
      valueAxis: axis,
      logAxis: axis,
      timeAxis: axis,
      radar: { axisName: { color: theme.axis } },
      visualMap: { textStyle: { color: theme.axis } },
      dataZoom: { textStyle: { color: theme.axis } },
    });
    registered.add(name);
  }
  return name;
}
const registered = new Set<string>();
