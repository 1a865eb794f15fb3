// The fly-line map draws the map, one line per route between known places and a point per place, with no
// ECharts complaint; a place it cannot find is named on the widget, not guessed.
import { render, screen } from '@testing-library/react';
import { createWidget, preloadWidgetKinds } from '../registry';
import { WidgetView } from '../WidgetView';
import { CITY_COORDS, placeCoords } from '../maps/cities';
import { flyLineOption, flyLineRoutes } from './FlyLineMap';

// the kind's code loads on first use (widgets/kindCode.ts): loaded before the tests render it
beforeAll(() => preloadWidgetKinds(['flyLineMap']), 60_000);

const mapping = [
  { id: '1', prop: 'from', label: '起点', field: 'a' },
  { id: '2', prop: 'to', label: '终点', field: 'b' },
  { id: '3', prop: 'value', label: '数值', field: 'n' },
];

function draw(datasource?: Record<string, unknown>) {
  const w = createWidget('flyLineMap', { pageId: 'p' });
  const viewProps = { ...w.widgetProps.viewProps, chartOption: { animation: false } };
  const r = render(<WidgetView widgetName="flyLineMap" viewProps={viewProps} datasourceProps={{ ...w.widgetProps.datasourceProps, ...datasource }} />);
  const svg = r.container.querySelector('[data-widget="flyLineMap"] svg');
  return { ...r, svg, texts: [...(svg?.querySelectorAll('text') ?? [])].map((t) => t.textContent ?? '') };
}

describe('flyLineMap', () => {
  it('places cities from the table, regions by their label point, in China', () => {
    expect(placeCoords('北京')).toEqual([116.4, 39.9]);
    expect(placeCoords('广州市')).toEqual(CITY_COORDS['广州']);
    expect(placeCoords('内蒙古自治区')).toBeDefined();
    expect(placeCoords('火星基地')).toBeUndefined();
    for (const [name, [lng, lat]] of Object.entries(CITY_COORDS)) {
      expect(lng, name).toBeGreaterThan(73);
      expect(lng, name).toBeLessThan(136);
      expect(lat, name).toBeGreaterThan(18);
      expect(lat, name).toBeLessThan(54);
    }
  });

  it('draws the sample routes: the map, a line and a moving arrow per route, the places named', () => {
    const error = vi.spyOn(console, 'error');
    const warn = vi.spyOn(console, 'warn');
    try {
      const { svg, texts, unmount } = draw();
      expect(svg).not.toBeNull();
      expect(svg!.querySelectorAll('path').length).toBeGreaterThan(34 + 12);
      for (const name of ['北京', '上海', '广州', '乌鲁木齐', '拉萨']) expect(texts).toContain(name);
      expect(screen.queryByRole('note')).toBeNull();
      unmount();
      expect(error).not.toHaveBeenCalled();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      error.mockRestore();
      warn.mockRestore();
    }
  });

  it('skips a route to an unknown place and names it on the widget', () => {
    const { texts, unmount } = draw({ dataMapping: mapping, dataConfig: { data: [{ a: '杭州', b: '广东', n: 5 }, { a: '杭州', b: '火星基地', n: 1 }] } });
    expect(texts).toEqual(expect.arrayContaining(['杭州', '广东']));
    expect(texts).not.toContain('火星基地');
    expect(screen.getByRole('note')).toHaveTextContent('未知地点（未画出）：火星基地');
    unmount();
  });

  it('builds one line per route and one point per place, the largest values the largest points', () => {
    const w = createWidget('flyLineMap', { pageId: 'p' });
    const { routes, unknown } = flyLineRoutes({ rows: [{ from: '北京', to: '上海', value: 10 }, { from: '北京', to: '成都', value: 2 }, { from: '', to: '成都', value: 1 }], mapping: [] });
    expect(unknown).toEqual(['（空）']);
    const option = flyLineOption(w.widgetProps.viewProps as never, routes);
    expect(option.series[0].data.map((d) => d.coords)).toEqual([
      [CITY_COORDS['北京'], CITY_COORDS['上海']],
      [CITY_COORDS['北京'], CITY_COORDS['成都']],
    ]);
    expect(option.series[0].effect).toMatchObject({ show: true, symbol: 'arrow' });
    const points = Object.fromEntries(option.series[1].data.map((d) => [d.name, d.symbolSize]));
    expect(Object.keys(points)).toEqual(['北京', '上海', '成都']);
    expect(points['上海']).toBeGreaterThan(points['成都']);
  });
});
