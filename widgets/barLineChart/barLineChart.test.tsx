import { render } from '@testing-library/react';
import { echarts } from '../charts/echarts';
import { createWidget, preloadWidgetKinds } from '../registry';
import type { DatasourceProps } from '../types';
import { WidgetView } from '../WidgetView';

// the kind's code loads on first use (widgets/kindCode.ts): loaded before the tests render it
beforeAll(() => preloadWidgetKinds(['barLineChart']), 60_000);

/** The kind drawn with its defaults (and `ds` over its data source): the option ECharts holds. */
function option(ds?: Partial<DatasourceProps>, view?: Record<string, unknown>) {
  const w = createWidget('barLineChart', { pageId: 'p' });
  const { container, unmount } = render(
    <WidgetView widgetName="barLineChart" viewProps={{ ...w.widgetProps.viewProps, ...view }} datasourceProps={{ ...w.widgetProps.datasourceProps, ...ds }} />,
  );
  const host = container.querySelector('[data-widget="barLineChart"]') as HTMLElement;
  const o = echarts.getInstanceByDom(host)!.getOption() as {
    series: Array<{ type: string; name: string; yAxisIndex: number; data: number[] }>;
    yAxis: Array<{ name: string; show: boolean; position?: string; alignTicks: boolean; splitLine: { show?: boolean } }>;
  };
  const texts = [...host.querySelectorAll('text')].map((t) => t.textContent);
  unmount();
  return { ...o, texts };
}

describe('barLineChart', () => {
  it('draws the bar series on the left axis and the line series on an aligned right axis', () => {
    const o = option();
    expect(o.series.map((s) => [s.type, s.name, s.yAxisIndex])).toEqual([
      ['bar', '销售额', 0],
      ['line', '同比增长', 1],
    ]);
    expect(o.series[1].data).toEqual([8.2, 13.7, 9.6, 25.9, 13.8, 3.1, 6.8]);
    expect(o.yAxis).toHaveLength(2);
    expect(o.yAxis[0]).toMatchObject({ name: '万元', alignTicks: true });
    expect(o.yAxis[1]).toMatchObject({ name: '%', show: true, position: 'right', alignTicks: true, splitLine: { show: false } });
    // both axes drawn with their own scale: 1,500 on the left, 30 on the right
    expect(o.texts).toEqual(expect.arrayContaining(['万元', '%', '1,500', '30']));
  });

  it('takes every mapping prop named line… as a line on the right axis, any other as a bar', () => {
    const o = option({
      dataMapping: [
        { id: '1', prop: 'x', label: '月份', field: 'm' },
        { id: '2', prop: 'bar', label: '收入', field: 'a' },
        { id: '3', prop: 'bar2', label: '成本', field: 'b' },
        { id: '4', prop: 'line', label: '毛利率', field: 'c' },
        { id: '5', prop: 'line2', label: '净利率', field: 'd' },
      ],
      dataConfig: { data: [{ m: '1月', a: 10, b: 6, c: 40, d: 12 }] },
    });
    expect(o.series.map((s) => [s.type, s.name, s.yAxisIndex])).toEqual([
      ['bar', '收入', 0],
      ['bar', '成本', 0],
      ['line', '毛利率', 1],
      ['line', '净利率', 1],
    ]);
  });

  it('hides the right axis when nothing is a line', () => {
    const o = option({
      dataMapping: [
        { id: '1', prop: 'x', label: '月份', field: 'm' },
        { id: '2', prop: 'bar', label: '收入', field: 'a' },
      ],
      dataConfig: { data: [{ m: '1月', a: 10 }] },
    });
    expect(o.series).toHaveLength(1);
    expect(o.yAxis[1].show).toBe(false);
    expect(o.texts).not.toContain('%');
  });
});
