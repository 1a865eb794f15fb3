// A minute with calls between minutes without (a lone point) is drawn: rendered by ECharts itself (its SVG renderer,
// server-side), the point's symbol is in the picture at a realistic width and a day's worth of minutes.
import { describe, expect, it } from 'vitest';
import { echarts } from '../../../widgets/charts/echarts';
import { lineOption } from './lineOption';

function symbolsDrawn(option: ReturnType<typeof lineOption>): number {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 700, height: 240 });
  // (the legend's icon is an empty circle too)
  chart.setOption({ ...(option as object), legend: { show: false } });
  const svg = chart.renderToSVGString();
  chart.dispose();
  // a line's symbols are empty circles: white inside
  return (svg.match(/fill="#fff"/g) ?? []).length;
}

describe('the monitor time charts', () => {
  const times = Array.from({ length: 240 }, (_, i) => `2026-11-28 ${String(8 + Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`);
  const lone = times.map((_, i) => (i === 137 ? 2.6 : null));

  it('draw a lone minute (calls in it, none in the minutes beside it)', () => {
    expect(symbolsDrawn(lineOption(times, [{ name: 'P95', data: lone }], 'ms'))).toBeGreaterThanOrEqual(1);
  });

  it('where ECharts left to itself would draw nothing', () => {
    const auto = lineOption(times, [{ name: 'P95', data: lone }], 'ms') as { series: Array<Record<string, unknown>> };
    for (const s of auto.series) delete s.showAllSymbol;
    expect(symbolsDrawn(auto as ReturnType<typeof lineOption>)).toBe(0);
  });
});
