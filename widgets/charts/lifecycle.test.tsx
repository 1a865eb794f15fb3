import { render } from '@testing-library/react';
import { createWidget, preloadWidgetKinds, widgetNames } from '../registry';
import { WidgetView } from '../WidgetView';
import { liveIntervalCount } from '../timing/sharedInterval';
import { ChartRendererContext, echarts, liveChartCount } from './echarts';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(widgetNames), 60_000);

// Mount and unmount each kind with a chart or a timer many times: nothing may stay alive.
describe('widget lifecycle leaves nothing behind', () => {
  for (const name of ['activeRing', 'barChart', 'carousel', 'scrollTable']) {
    it(`${name}: 100 mount/unmount cycles`, () => {
      // Only timers started by widget code count (jsdom runs requestAnimationFrame on its own interval).
      const ours: unknown[] = [];
      const realSet = globalThis.setInterval;
      const set = vi.spyOn(globalThis, 'setInterval').mockImplementation(((fn: () => void, ms?: number) => {
        const id = realSet(fn, ms);
        const stack = new Error().stack ?? '';
        if (/[\\/]widgets[\\/]/.test(stack) && !stack.includes('requestAnimationFrame')) ours.push(id);
        return id;
      }) as typeof setInterval);
      const clear = vi.spyOn(globalThis, 'clearInterval');
      const w = createWidget(name, { pageId: 'p' });
      const viewProps = { ...w.widgetProps.viewProps, height: Math.min(w.widgetProps.viewProps.height, 160) };
      const hosts: Element[] = [];
      try {
        for (let i = 0; i < 100; i++) {
          const { container, unmount } = render(<WidgetView widgetName={name} viewProps={viewProps} datasourceProps={w.widgetProps.datasourceProps} />);
          const host = container.querySelector(`[data-widget="${name}"]`)!;
          hosts.push(host);
          unmount();
        }
        expect(liveChartCount()).toBe(0);
        expect(liveIntervalCount()).toBe(0);
        for (const host of hosts) expect(echarts.getInstanceByDom(host as HTMLElement)).toBeUndefined();
        // Charts without animation timers (bar chart) start none; the others start one per mount.
        if (name !== 'barChart') expect(ours.length).toBeGreaterThanOrEqual(100);
        const cleared = new Set<unknown>(clear.mock.calls.map((c) => c[0]));
        expect(ours.filter((id) => !cleared.has(id))).toEqual([]);
      } finally {
        set.mockRestore();
        clear.mockRestore();
      }
    });
  }
});

describe('charts follow their box', () => {
  it('resizes the ECharts instance when the ResizeObserver reports a new size', () => {
    const callbacks: ResizeObserverCallback[] = [];
    const Original = globalThis.ResizeObserver;
    globalThis.ResizeObserver = class {
      constructor(cb: ResizeObserverCallback) {
        callbacks.push(cb);
      }
      observe() {}
      unobserve() {}
      disconnect() {}
    } as unknown as typeof ResizeObserver;
    try {
      const w = createWidget('barChart', { pageId: 'p' });
      const { container, unmount } = render(<WidgetView widgetName="barChart" viewProps={w.widgetProps.viewProps} datasourceProps={w.widgetProps.datasourceProps} />);
      const host = container.querySelector('[data-widget="barChart"]') as HTMLElement;
      const chart = echarts.getInstanceByDom(host)!;
      expect([chart.getWidth(), chart.getHeight()]).toEqual([300, 300]);
      callbacks.at(-1)!([{ contentRect: { width: 480, height: 200 } } as ResizeObserverEntry], {} as ResizeObserver);
      expect([chart.getWidth(), chart.getHeight()]).toEqual([480, 200]);
      unmount();
    } finally {
      globalThis.ResizeObserver = Original;
    }
  });
});

describe("the 'image' renderer (the designer's canvas)", () => {
  const svgOf = (host: Element) => {
    const img = host.querySelector('img');
    expect(img).not.toBeNull();
    expect(host.children).toHaveLength(1);
    return decodeURIComponent(img!.getAttribute('src')!.replace(/^data:image\/svg\+xml;charset=utf-8,/, ''));
  };

  it('draws a bar chart as one picture holding its rows, redrawn when the rows change, without animation', () => {
    const w = createWidget('barChart', { pageId: 'p' });
    const data = (rows: Array<{ date: string; value: number }>) => ({
      ...w.widgetProps.datasourceProps,
      dataConfig: { data: rows },
    });
    const view = (rows: Array<{ date: string; value: number }>) => (
      <ChartRendererContext.Provider value="image">
        <WidgetView widgetName="barChart" viewProps={w.widgetProps.viewProps} datasourceProps={data(rows)} />
      </ChartRendererContext.Provider>
    );
    const { container, rerender, unmount } = render(view([{ date: '一月', value: 3 }, { date: '二月', value: 5 }]));
    const host = container.querySelector('[data-widget="barChart"]')!;
    const first = svgOf(host);
    expect(first).toMatch(/^<svg/);
    expect(first).toContain('一月');
    expect(first).not.toMatch(/@keyframes|animation/);
    expect(liveChartCount()).toBe(1);
    rerender(view([{ date: '三月', value: 4 }]));
    expect(svgOf(host)).toContain('三月');
    expect(svgOf(host)).not.toContain('一月');
    unmount();
    expect(liveChartCount()).toBe(0);
    expect(host.children).toHaveLength(0);
  });

  it('an active ring redraws its picture when the highlight moves', () => {
    vi.useFakeTimers();
    try {
      const w = createWidget('activeRing', { pageId: 'p' });
      const { container, unmount } = render(
        <ChartRendererContext.Provider value="image">
          <WidgetView widgetName="activeRing" viewProps={w.widgetProps.viewProps} datasourceProps={w.widgetProps.datasourceProps} />
        </ChartRendererContext.Provider>,
      );
      const host = container.querySelector('[data-widget="activeRing"]')!;
      const before = svgOf(host);
      vi.advanceTimersByTime(Number(w.widgetProps.viewProps.rotateInterval) + 10);
      expect(svgOf(host)).not.toBe(before);
      unmount();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a chart fed new data', () => {
  it('merges when only the data changed and replaces the option when anything else did', () => {
    const w = createWidget('barChart', { pageId: 'p' });
    const view = (rows: Array<{ date: string; value: number }>, barColor = '#3BA0FF') => (
      <WidgetView widgetName="barChart" viewProps={{ ...w.widgetProps.viewProps, barColor }} datasourceProps={{ ...w.widgetProps.datasourceProps, dataConfig: { data: rows } }} />
    );
    const { container, rerender, unmount } = render(view([{ date: '一月', value: 3 }]));
    const chart = echarts.getInstanceByDom(container.querySelector('[data-widget="barChart"]') as HTMLElement)!;
    const setOption = vi.spyOn(chart, 'setOption');
    rerender(view([{ date: '一月', value: 4 }, { date: '二月', value: 6 }]));
    expect(setOption).toHaveBeenLastCalledWith(expect.anything(), { notMerge: false });
    expect((chart.getOption().series as Array<{ data: number[] }>)[0].data).toEqual([4, 6]);
    rerender(view([{ date: '一月', value: 4 }], '#ff0000'));
    expect(setOption).toHaveBeenLastCalledWith(expect.anything(), { notMerge: true });
    expect((chart.getOption().series as Array<{ data: number[] }>)[0].data).toEqual([4]);
    unmount();
  });
});
