import { useContext, useMemo } from 'react';
import { ChartRendererContext, mergeOption, pickRenderer, type EChartsOption } from '../charts/echarts';
import { label, num } from '../charts/options';
import { useEChart } from '../charts/useEChart';
import { placeCoords } from '../maps/cities';
import { CHINA_MAP } from '../maps/china';
import { SCREEN_FONT } from '../theme';
import { useWidgetMotion } from '../timing/motion';
import type { MappedData, WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

type Props = ViewPropsOf<'flyLineMap'>;
type Style = Pick<Props, 'areaColor' | 'borderColor' | 'lineColor' | 'pointColor' | 'labelColor' | 'showLabel' | 'labelSize' | 'curveness' | 'effectSpeed' | 'zoom'>;

interface Route {
  from: string;
  to: string;
  value: number;
  coords: [[number, number], [number, number]];
}

/** The rows' routes (mapping props `from`, `to`, `value`) whose both places are known, and the names of those that are not. */
export function flyLineRoutes(data: MappedData): { routes: Route[]; unknown: string[] } {
  const routes: Route[] = [];
  const unknown = new Set<string>();
  for (const r of data.rows) {
    const from = label(r.from).trim();
    const to = label(r.to).trim();
    const a = placeCoords(from);
    const b = placeCoords(to);
    if (!a) unknown.add(from || '（空）');
    if (!b) unknown.add(to || '（空）');
    if (a && b) routes.push({ from, to, value: num(r.value), coords: [a, b] });
  }
  return { routes, unknown: [...unknown] };
}

/**
 * The map (geo), a fly line per route, and a glowing point per place sized by its largest value. With `motion` an
 * arrow flies along each line (with a trail when `trail`: canvas only) and the points ripple; without, all stands
 * still (the designer's canvas, or a viewer who asked for reduced motion) and a point ripples only under the mouse.
 */
export function flyLineOption(v: Style, routes: Route[], { trail = true, motion = true }: { trail?: boolean; motion?: boolean } = {}) {
  const places = new Map<string, { coords: [number, number]; value: number; origin: boolean }>();
  for (const r of routes) {
    const a = places.get(r.from);
    places.set(r.from, { coords: r.coords[0], value: Math.max(a?.value ?? 0, r.value), origin: true });
    const b = places.get(r.to);
    places.set(r.to, { coords: r.coords[1], value: Math.max(b?.value ?? 0, r.value), origin: b?.origin ?? false });
  }
  const max = Math.max(1, ...routes.map((r) => r.value));
  const size = (value: number) => 6 + (10 * value) / max;
  const lines = {
    type: 'lines' as const,
    coordinateSystem: 'geo',
    zlevel: 1,
    // a trail behind the arrow is drawn only on a canvas (ECharts' SVG renderer has none and says so)
    effect: { show: motion, period: v.effectSpeed, trailLength: trail ? 0.35 : 0, symbol: 'arrow', symbolSize: 6, color: v.lineColor },
    lineStyle: { color: v.lineColor, width: 1.5, opacity: 0.75, curveness: v.curveness },
    tooltip: { formatter: '{b}' },
    data: routes.map((r) => ({ name: `${r.from} → ${r.to}：${r.value}`, coords: r.coords, value: r.value })),
  };
  const points = {
    type: 'effectScatter' as const,
    coordinateSystem: 'geo',
    zlevel: 2,
    showEffectOn: motion ? ('render' as const) : ('emphasis' as const),
    rippleEffect: { brushType: 'stroke' as const, scale: 3.5 },
    itemStyle: { color: v.pointColor, shadowColor: v.pointColor, shadowBlur: 8 },
    label: { show: v.showLabel, position: 'right' as const, formatter: '{b}', color: v.labelColor, fontSize: v.labelSize, fontFamily: SCREEN_FONT },
    tooltip: { formatter: '{b}' },
    data: [...places].map(([name, p]) => ({ name, value: [...p.coords, p.value], symbolSize: size(p.value) * (p.origin ? 1.2 : 1) })),
  };
  return {
    tooltip: { trigger: 'item' as const },
    geo: {
      map: CHINA_MAP,
      zoom: v.zoom,
      layoutCenter: ['50%', '54%'],
      layoutSize: '100%',
      aspectScale: 0.8,
      roam: false,
      silent: true,
      label: { show: false },
      itemStyle: { areaColor: v.areaColor, borderColor: v.borderColor, borderWidth: 1, shadowColor: v.borderColor, shadowBlur: 8 },
    },
    series: [lines, points] as [typeof lines, typeof points],
  };
}

/** 飞线地图: the China map with fly lines between the mapped places (cities or regions) and glowing points. */
export function FlyLineMap({ viewProps: v, data }: WidgetKindProps<Props>) {
  const { areaColor, borderColor, lineColor, pointColor, labelColor, showLabel, labelSize, curveness, effectSpeed, zoom, chartOption } = v;
  const { routes, unknown } = useMemo(() => flyLineRoutes(data), [data]);
  const trail = pickRenderer(useContext(ChartRendererContext)) === 'canvas';
  const motion = useWidgetMotion();
  const option = useMemo(
    () =>
      mergeOption(
        flyLineOption({ areaColor, borderColor, lineColor, pointColor, labelColor, showLabel, labelSize, curveness, effectSpeed, zoom }, routes, { trail, motion }),
        chartOption,
      ) as EChartsOption,
    [routes, trail, motion, areaColor, borderColor, lineColor, pointColor, labelColor, showLabel, labelSize, curveness, effectSpeed, zoom, chartOption],
  );
  const { ref } = useEChart(option, v.width, v.height);
  return (
    <div data-widget="flyLineMap" style={{ width: '100%', height: '100%', position: 'relative' }}>
      <div ref={ref} style={{ width: '100%', height: '100%' }} />
      {unknown.length > 0 && (
        <div role="note" title={unknown.join('、')} style={{ position: 'absolute', left: 8, bottom: 6, right: 8, color: labelColor, fontSize: 12, fontFamily: SCREEN_FONT, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', pointerEvents: 'none' }}>
          未知地点（未画出）：{unknown.join('、')}
        </div>
      )}
    </div>
  );
}
