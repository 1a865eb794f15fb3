// Bench page: the read-only preview stage with a carousel, an API-fed bar chart, an active ring and a
// scrolling table, all running: the bar chart re-fetches (fresh random rows after 20 ms) on every refresh tick,
// bumped every second like the preview's refreshSeconds timer.
import { useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { CanvasStage } from '../../designer/canvas/CanvasStage';
import type { CanvasProps } from '../../designer/panel/canvasPanel';
import { createWidget, liveChartCount, liveIntervalCount, WidgetDataContext, type DataRow, type FetchApiData, type WidgetEntity } from '../../widgets';

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
  const [refreshTick, setTick] = useState(0);
  useEffect(() => {
    const id = setInterval(() => {
      stats.ticks++;
      setTick((t) => t + 1);
    }, 1000);
    return () => clearInterval(id);
  }, []);
  const services = useMemo(() => ({ fetchApiData, refreshTick }), [refreshTick]);
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
