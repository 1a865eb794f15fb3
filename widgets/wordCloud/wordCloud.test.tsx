// The word cloud's option is built here; the words themselves are laid out by echarts-wordcloud on a 2D canvas,
// which jsdom lacks: there the widget says so (as it would in any browser without one), and the Storybook test in
// Chromium (e2e/stories.test.ts) checks that the words are drawn.
import { render, screen } from '@testing-library/react';
import { contrastRatio, parseColor, AA_TEXT } from '../contrast';
import { createWidget, getWidgetKind, preloadWidgetKinds } from '../registry';
import { WidgetView } from '../WidgetView';
import { DEFAULT_CANVAS_BACKGROUND } from '../../common/canvas';
import { wordCloudOption } from './WordCloud';
import { canLayOutWords, loadWordCloudSeries } from './wordCloudSeries';

// the kind's code loads on first use (widgets/kindCode.ts): loaded before the tests render it
beforeAll(() => preloadWidgetKinds(['wordCloud']), 60_000);

const defaults = () => createWidget('wordCloud', { pageId: 'p' }).widgetProps;

describe('wordCloud', () => {
  it('sizes the mapped words by weight, heaviest first, coloured in turn from the palette', () => {
    const v = { ...defaults().viewProps, colors: ['#111111', '#222222'] } as never;
    const option = wordCloudOption(v, {
      rows: [{ name: '报表', value: 3 }, { name: '大屏', value: '9' }, { name: '', value: 5 }, { name: '接口', value: 1 }],
      mapping: [],
    });
    const s = option.series[0];
    expect(s.type).toBe('wordCloud');
    expect(s.sizeRange).toEqual([12, 40]);
    expect(s.layoutAnimation).toBe(false);
    expect(s.data).toEqual([
      { name: '大屏', value: 9, textStyle: { color: '#111111' } },
      { name: '报表', value: 3, textStyle: { color: '#222222' } },
      { name: '接口', value: 1, textStyle: { color: '#111111' } },
    ]);
  });

  it('keeps the smallest size at most the largest, and turns words only as far as asked', () => {
    const s = wordCloudOption({ ...defaults().viewProps, minFontSize: 50, maxFontSize: 20, rotation: 45 } as never, { rows: [], mapping: [] }).series[0];
    expect(s.sizeRange).toEqual([20, 20]);
    expect(s.rotationRange).toEqual([-45, 45]);
    expect(s.rotationStep).toBe(45);
  });

  it('ships sample words mapped by name and weight', () => {
    const ds = defaults().datasourceProps;
    expect(ds.dataMapping.map((m) => m.prop)).toEqual(['name', 'value']);
    expect((ds.dataConfig.data as unknown[]).length).toBeGreaterThanOrEqual(20);
  });

  it('draws its words in colours readable on the dark screen canvas', () => {
    const colors = getWidgetKind('wordCloud')!.defaults.viewProps.colors as string[];
    for (const c of colors) expect(contrastRatio(parseColor(c)!, [parseColor(DEFAULT_CANVAS_BACKGROUND)!]), c).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it('where no 2D canvas can lay the words out (jsdom), says so on the widget instead of failing', async () => {
    expect(canLayOutWords()).toBe(false);
    await expect(loadWordCloudSeries()).resolves.toBe(false);
    const w = defaults();
    render(<WidgetView widgetName="wordCloud" viewProps={w.viewProps} datasourceProps={w.datasourceProps} />);
    expect(await screen.findByRole('note')).toHaveTextContent('当前环境不支持绘制词云（需要 Canvas 2D）');
  });
});
