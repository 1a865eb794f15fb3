import { render } from '@testing-library/react';
import { echarts } from '../charts/echarts';
import { createWidget, preloadWidgetKinds } from '../registry';
import { WidgetView } from '../WidgetView';
import { buildFlows } from './SankeyChart';

// the kind's code loads on first use (widgets/kindCode.ts): loaded before the tests render it
beforeAll(() => preloadWidgetKinds(['sankeyChart']), 60_000);

const rows = (list: Array<[string, string, unknown]>) => ({ mapping: [], rows: list.map(([source, target, value]) => ({ source, target, value })) });

describe('sankeyChart', () => {
  it('makes a node of every name and adds up the rows of the same pair', () => {
    expect(buildFlows(rows([['甲', '乙', 2], ['乙', '丙', 1], ['甲', '乙', 3]]))).toEqual({
      nodes: ['甲', '乙', '丙'],
      links: [
        { source: '甲', target: '乙', value: 5 },
        { source: '乙', target: '丙', value: 1 },
      ],
    });
  });

  it('leaves out a row to itself, one without a positive value and one closing a loop', () => {
    const { links } = buildFlows(rows([['甲', '乙', 2], ['乙', '丙', 1], ['丙', '甲', 4], ['丁', '丁', 1], ['甲', '丙', 0], ['甲', '丙', 'x']]));
    expect(links).toEqual([
      { source: '甲', target: '乙', value: 2 },
      { source: '乙', target: '丙', value: 1 },
    ]);
  });

  it('draws data with a loop without an ECharts error', () => {
    const error = vi.spyOn(console, 'error');
    try {
      const w = createWidget('sankeyChart', { pageId: 'p' });
      const ds = { ...w.widgetProps.datasourceProps, dataConfig: { data: [{ from: 'A', to: 'B', count: 1 }, { from: 'B', to: 'A', count: 1 }] } };
      const { container, unmount } = render(<WidgetView widgetName="sankeyChart" viewProps={w.widgetProps.viewProps} datasourceProps={ds} />);
      const host = container.querySelector('[data-widget="sankeyChart"]') as HTMLElement;
      const o = echarts.getInstanceByDom(host)!.getOption() as Record<string, any>;
      expect(o.series[0].links).toHaveLength(1);
      expect([...host.querySelectorAll('text')].map((t) => t.textContent)).toEqual(expect.arrayContaining(['A', 'B']));
      unmount();
      expect(error).not.toHaveBeenCalled();
    } finally {
      error.mockRestore();
    }
  });

  it('leaves room on the right for the last column’s labels, none when labels are off', () => {
    const w = createWidget('sankeyChart', { pageId: 'p' });
    const right = (showLabel: boolean) => {
      const { container, unmount } = render(<WidgetView widgetName="sankeyChart" viewProps={{ ...w.widgetProps.viewProps, showLabel }} datasourceProps={w.widgetProps.datasourceProps} />);
      const o = echarts.getInstanceByDom(container.querySelector('[data-widget="sankeyChart"]') as HTMLElement)!.getOption() as Record<string, any>;
      unmount();
      return o.series[0].right as number;
    };
    // 跳出 / 下单: two characters of 12 px, and a gap
    expect(right(true)).toBe(8 + 24 + 10);
    expect(right(false)).toBe(8);
  });
});
