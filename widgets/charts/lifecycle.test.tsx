import { render } from '@testing-library/react';
import { createWidget } from '../registry';
import { WidgetView } from '../WidgetView';
import { liveIntervalCount } from '../timing/sharedInterval';
import { echarts, liveChartCount } from './echarts';

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
