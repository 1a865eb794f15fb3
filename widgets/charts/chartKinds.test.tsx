// The ECharts kinds draw their sample data with their defaults: the texts of the sample (categories, series names
// from the mapping labels, slice names, indicators) are in the drawn SVG, and ECharts complains of nothing (a chart
// type or component used but not registered in echarts.ts is a console error).
import { render } from '@testing-library/react';
import { createWidget, preloadWidgetKinds, widgetNames } from '../registry';
import { WidgetView } from '../WidgetView';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(widgetNames), 60_000);

const SAMPLES: Record<string, string[]> = {
  lineChart: ['周一', '周日', '访问量', '下单量'],
  areaChart: ['00:00', '24:00', '流入', '流出'],
  stackedBarChart: ['1月', '6月', '线上', '门店', '代理'],
  horizontalBarChart: ['杭州', '长沙'],
  pieChart: ['直接访问', '搜索引擎'],
  doughnutChart: ['正常', '离线'],
  roseChart: ['东城区', '大兴区'],
  scatterChart: [],
  radarChart: ['销售', '市场', '预算', '开销'],
  funnelChart: ['展现', '订单'],
  gaugeChart: ['完成率', '72%'],
  barLineChart: ['1月', '7月', '销售额', '同比增长', '万元', '%'],
  heatmapChart: ['0时', '21时', '周一', '周日'],
  treemapChart: ['华东', '上海', '四川'],
  sankeyChart: ['搜索引擎', '首页', '商品页', '下单', '跳出'],
};

function draw(name: string, datasource?: Record<string, unknown>) {
  const w = createWidget(name, { pageId: 'p' });
  // no animation: numbers (the gauge's) are drawn at their value at once
  const viewProps = { ...w.widgetProps.viewProps, chartOption: { animation: false } };
  const { container, unmount } = render(
    <WidgetView widgetName={name} viewProps={viewProps} datasourceProps={{ ...w.widgetProps.datasourceProps, ...datasource }} />,
  );
  const svg = container.querySelector(`[data-widget="${name}"] svg`);
  const texts = [...(svg?.querySelectorAll('text') ?? [])].map((t) => t.textContent ?? '');
  return { svg, texts, unmount };
}

describe('chart kinds draw their sample data', () => {
  for (const [name, expected] of Object.entries(SAMPLES)) {
    it(name, () => {
      const error = vi.spyOn(console, 'error');
      const warn = vi.spyOn(console, 'warn');
      try {
        const { svg, texts, unmount } = draw(name);
        expect(svg).not.toBeNull();
        for (const t of expected) expect(texts.join('|'), t).toContain(t);
        unmount();
        expect(error).not.toHaveBeenCalled();
        expect(warn).not.toHaveBeenCalled();
      } finally {
        error.mockRestore();
        warn.mockRestore();
      }
    });
  }

  it('scatter points follow the mapped x and y', () => {
    const { svg, unmount } = draw('scatterChart', {
      dataMapping: [
        { id: '1', prop: 'x', label: 'x', field: 'a' },
        { id: '2', prop: 'y', label: 'y', field: 'b' },
      ],
      dataConfig: { data: [{ a: 1, b: 2 }, { a: 3, b: 4 }, { a: 5, b: 9 }] },
    });
    expect(svg!.querySelectorAll('path').length).toBeGreaterThan(3);
    unmount();
  });

  it('a series added to the mapping is one more series, named by its label', () => {
    const w = createWidget('lineChart', { pageId: 'p' });
    const { texts, unmount } = draw('lineChart', {
      dataMapping: [...w.widgetProps.datasourceProps.dataMapping, { id: '9', prop: 's9', label: '退货量', field: 'returns' }],
      dataConfig: { data: [{ day: '周一', visits: 1, orders: 2, returns: 3 }] },
    });
    expect(texts).toEqual(expect.arrayContaining(['访问量', '下单量', '退货量']));
    unmount();
  });
});
