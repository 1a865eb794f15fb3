// The liquid fill draws its ball and the level as a percentage (echarts-liquidfill registered on our echarts, no
// ECharts complaint), from the mapped value over the full value.
import { render } from '@testing-library/react';
import { createWidget, preloadWidgetKinds } from '../registry';
import { WidgetView } from '../WidgetView';
import { liquidFillOption, liquidLevel } from './LiquidFill';

// the kind's code loads on first use (widgets/kindCode.ts): loaded before the tests render it
beforeAll(() => preloadWidgetKinds(['liquidFill']), 60_000);

function draw(datasource?: Record<string, unknown>, view?: Record<string, unknown>) {
  const w = createWidget('liquidFill', { pageId: 'p' });
  const viewProps = { ...w.widgetProps.viewProps, chartOption: { animation: false }, ...view };
  const r = render(<WidgetView widgetName="liquidFill" viewProps={viewProps} datasourceProps={{ ...w.widgetProps.datasourceProps, ...datasource }} />);
  const svg = r.container.querySelector('[data-widget="liquidFill"] svg');
  return { ...r, svg, texts: [...(svg?.querySelectorAll('text') ?? [])].map((t) => t.textContent ?? '') };
}

describe('liquidFill', () => {
  it('draws the sample level, 68%, with no ECharts complaint', () => {
    const error = vi.spyOn(console, 'error');
    const warn = vi.spyOn(console, 'warn');
    try {
      const { svg, texts, unmount } = draw();
      expect(svg).not.toBeNull();
      expect(texts).toContain('68%');
      expect(svg!.querySelectorAll('path').length).toBeGreaterThan(2);
      unmount();
      expect(error).not.toHaveBeenCalled();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      error.mockRestore();
      warn.mockRestore();
    }
  });

  it('fills to the mapped value over the full value, within 0…100%', () => {
    const mapping = [{ id: '1', prop: 'value', label: '完成率', field: 'r' }];
    const rows = (value: unknown) => ({ rows: [{ value }], mapping });
    expect(liquidLevel(rows(0.42), 1)).toBeCloseTo(0.42);
    expect(liquidLevel(rows('75'), 100)).toBeCloseTo(0.75);
    expect(liquidLevel(rows(150), 100)).toBe(1);
    expect(liquidLevel(rows(-3), 100)).toBe(0);
    expect(liquidLevel({ rows: [], mapping }, 100)).toBe(0);
    const { texts, unmount } = draw({ dataMapping: mapping, dataConfig: { data: [{ r: 0.425 }] } }, { valueMax: 1 });
    expect(texts).toContain('42.5%');
    unmount();
  });

  it('moves its waves only with motion, two waves or one', () => {
    const w = createWidget('liquidFill', { pageId: 'p' }).widgetProps.viewProps as never;
    const data = { rows: [{ value: 50 }], mapping: [] };
    const still = liquidFillOption(w, data, false).series[0];
    expect(still.waveAnimation).toBe(false);
    expect(still.data).toHaveLength(2);
    expect(liquidFillOption({ ...(w as object), waveCount: 1 } as never, data, true).series[0]).toMatchObject({ waveAnimation: true, data: [{ value: 0.5 }] });
  });
});
