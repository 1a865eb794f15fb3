// Bench page: the read-only preview stage with a carousel, an API-fed bar chart, an active ring and a
// scrolling table, all running: the bar chart re-fetches (fresh random rows after 20 ms) on every refresh tick,
// ticked every second by the preview's own refresh clock (useRefreshSignal).
import { useEffect, useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { CanvasStage } from '../../widgets/stage/CanvasStage';
import type { CanvasProps } from '../../common/canvas';
import { createWidget, liveChartCount, liveIntervalCount, useRefreshSignal, WidgetDataContext, type DataRow, type FetchApiData, type WidgetEntity } from '../../widgets';

const canvas: CanvasProps = { width: 1920, height: 1080, backgroundColor: '', refreshSeconds: 1 };

function benchWidgets(): WidgetEntity[] {
  const at = (name: string, id: string, left: number, top: number) => createWidget(name, { pageId: 'bench', id, left, top });
  const bar = at('barChart', 'bar', 300, 40);
  // the bar chart reads a (fake) published API; its mapping stays the default date → x, value → y
  bar.widgetProps.datasourceProps = {
    datasourceType: 'API',
    dataConfig: { datasource: 'bench', reqParams: {} },
    dataMapping: bar.widgetProps.datasourceProps.dataMapping,
  };
  return [at('carousel', 'carousel', 40, 40), bar, at('activeRing', 'ring', 660, 40), at('scrollTable', 'table', 40, 400)];
}
const widgets = benchWidgets();

const stats = { fetches: 0, answered: 0, ticks: 0 };
const fetchApiData: FetchApiData = () => {
  stats.fetches++;
  return new Promise<DataRow[]>((resolve) =>
    setTimeout(() => {
      stats.answered++;
      resolve(Array.from({ length: 7 }, (_, i) => ({ date: `2024-06-0${i + 1}`, value: Math.round(Math.random() * 200) })));
    }, 20),
  );
};

function Bench() {
  // the preview's refresh clock at refreshSeconds 1
  const refresh = useRefreshSignal(canvas.refreshSeconds);
  useEffect(() => refresh.subscribe(() => void stats.ticks++), [refresh]);
  const services = useMemo(() => ({ fetchApiData, refresh }), [refresh]);
  return (
    <WidgetDataContext.Provider value={services}>
      <CanvasStage canvas={canvas} widgets={widgets} scale={0.5} />
    </WidgetDataContext.Provider>
  );
}

Object.assign(window, {
  benchReady: () => document.querySelectorAll('[data-widget-id]').length === widgets.length && stats.answered > 0,
  benchStats: () => ({
    ...stats,
    charts: liveChartCount(),
    intervals: liveIntervalCount(),
    notices: document.querySelectorAll('[data-testid="widget-notice"]').length,
    visible: document.visibilityState,
  }),
});

createRoot(document.getElementById('root')!).render(<Bench />);
