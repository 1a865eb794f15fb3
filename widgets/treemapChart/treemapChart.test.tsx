import { render } from '@testing-library/react';
import { DEFAULT_CANVAS_BACKGROUND } from '../../common/canvas';
import { echarts } from '../charts/echarts';
import { AA_TEXT, contrastRatio, parseColor, type Rgba } from '../contrast';
import { createWidget, getWidgetKind, preloadWidgetKinds } from '../registry';
import { WidgetView } from '../WidgetView';
import { buildTree, PARENT_TINT } from './TreemapChart';

// the kind's code loads on first use (widgets/kindCode.ts): loaded before the tests render it
beforeAll(() => preloadWidgetKinds(['treemapChart']), 60_000);

const rows = (list: Array<[string, number, string?]>) => ({ mapping: [], rows: list.map(([name, value, parent]) => ({ name, value, parent })) });

describe('treemapChart', () => {
  it('nests rows under the row their parent names, making a parent that is named but absent', () => {
    expect(buildTree(rows([['华东', 0], ['上海', 4, '华东'], ['广东', 5, '华南'], ['江苏', 3, '华东'], ['其他', 1]]))).toEqual([
      { name: '华东', value: 0, children: [{ name: '上海', value: 4 }, { name: '江苏', value: 3 }] },
      { name: '华南', children: [{ name: '广东', value: 5 }] },
      { name: '其他', value: 1 },
    ]);
  });

  it('puts a row whose parent would close a loop at the top', () => {
    const tree = buildTree(rows([['甲', 1, '乙'], ['乙', 1, '甲'], ['丙', 1, '丙']]));
    expect(tree.map((n) => n.name)).toEqual(['乙', '丙']);
    expect(tree[0].children).toEqual([{ name: '甲', value: 1 }]);
  });

  it('draws the sample: region blocks holding their provinces, with no ECharts complaint', () => {
    const error = vi.spyOn(console, 'error');
    try {
      const w = createWidget('treemapChart', { pageId: 'p' });
      const { container, unmount } = render(<WidgetView widgetName="treemapChart" viewProps={w.widgetProps.viewProps} datasourceProps={w.widgetProps.datasourceProps} />);
      const o = echarts.getInstanceByDom(container.querySelector('[data-widget="treemapChart"]') as HTMLElement)!.getOption() as Record<string, any>;
      const top = o.series[0].data as Array<{ name: string; children: Array<{ name: string }> }>;
      expect(top.map((n) => n.name)).toEqual(['华东', '华南', '华北', '华中', '西南']);
      expect(top[0].children.map((n) => n.name)).toEqual(['上海', '江苏', '浙江', '山东']);
      unmount();
      expect(error).not.toHaveBeenCalled();
    } finally {
      error.mockRestore();
    }
  });

  it('keeps its labels readable (AA) on every default block colour over the default screen canvas', () => {
    const kind = getWidgetKind('treemapChart')!;
    const v = kind.defaults.viewProps as unknown as { colors: string[]; labelColor: string; blockOpacity: number };
    const canvas = parseColor(DEFAULT_CANVAS_BACKGROUND)!;
    const text = parseColor(v.labelColor)!;
    for (const c of v.colors) {
      const [r, g, b] = parseColor(c)!;
      // the most opaque block, on its parent's tint
      const layers: Rgba[] = [canvas, [r, g, b, PARENT_TINT], [r, g, b, v.blockOpacity]];
      expect(contrastRatio(text, layers), c).toBeGreaterThanOrEqual(AA_TEXT);
    }
  });
});
