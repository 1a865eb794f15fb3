import { render } from '@testing-library/react';
import { echarts } from '../charts/echarts';
import { createWidget, preloadWidgetKinds } from '../registry';
import type { DatasourceProps } from '../types';
import { WidgetView } from '../WidgetView';

// the kind's code loads on first use (widgets/kindCode.ts): loaded before the tests render it
beforeAll(() => preloadWidgetKinds(['heatmapChart']), 60_000);

function draw(ds?: Partial<DatasourceProps>) {
  const w = createWidget('heatmapChart', { pageId: 'p' });
  const r = render(<WidgetView widgetName="heatmapChart" viewProps={w.widgetProps.viewProps} datasourceProps={{ ...w.widgetProps.datasourceProps, ...ds }} />);
  const host = r.container.querySelector('[data-widget="heatmapChart"]') as HTMLElement;
  const chart = echarts.getInstanceByDom(host)!;
  return { ...r, chart, option: chart.getOption() as Record<string, any> };
}

const small = {
  dataConfig: {
    data: [
      { hour: '0时', day: '周一', visits: 5 },
      { hour: '3时', day: '周一', visits: 40 },
      { hour: '0时', day: '周二', visits: 12 },
      { hour: '3时', day: '周二', visits: '<b>x</b>' },
    ],
  },
};

describe('heatmapChart', () => {
  it('places each row in the cell of its x and y categories, the first y on top', () => {
    const { option, unmount } = draw(small);
    expect(option.xAxis[0].data).toEqual(['0时', '3时']);
    expect(option.yAxis[0]).toMatchObject({ data: ['周一', '周二'], inverse: true });
    expect(option.series[0].data).toEqual([
      [0, 0, 5],
      [1, 0, 40],
      [0, 1, 12],
      [1, 1, 0],
    ]);
    expect(option.series[0].name).toBe('访问量');
    unmount();
  });

  it('spans the colour scale over the data, its colours the declared scale', () => {
    const { option, unmount } = draw(small);
    expect(option.visualMap[0]).toMatchObject({ min: 0, max: 40 });
    expect(option.visualMap[0].inRange.color).toEqual(['#143A66', '#1F6FB2', '#3BA0FF', '#36CBCB', '#FAD337', '#F2637B']);
    unmount();
    const flat = draw({ dataConfig: { data: [{ hour: '0时', day: '周一', visits: 7 }] } });
    expect(flat.option.visualMap[0]).toMatchObject({ min: 7, max: 8 });
    flat.unmount();
  });

  it('writes category names into the tooltip as text, not markup', () => {
    const { option, unmount } = draw({ dataConfig: { data: [{ hour: '<img src=x onerror=alert(1)>', day: '周一', visits: 3 }] } });
    const html = option.tooltip[0].formatter({ value: [0, 0, 3], marker: '' });
    expect(html).toContain('&lt;img');
    expect(html).not.toContain('<img');
    expect(html).toContain('访问量：3');
    unmount();
  });
});
