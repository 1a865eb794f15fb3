// Bench page (issue 23 "Measure"): a screen of ?n widgets (30, or 1) under one variable store, as the preview
// runs it; ?bound of them (10, or 1) read an API whose request parameters bind {{region}}, the others read an
// API with constant parameters. A 按钮组筛选 writes region. The API is this page's own function answering after
// DELAY ms (a server's time), so the fetches of one change run in parallel as they would against the server.
import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { createRoot } from 'react-dom/client';
import { CanvasStage } from '../../widgets/stage/CanvasStage';
import { createVariableStore, createWidget, VariablesContext, WidgetDataContext, preloadWidgetKinds, type WidgetEntity, type DatasourceProps } from '../../widgets';
import type { ApiDataRequest } from '../../widgets/data/WidgetDataContext';

const query = new URLSearchParams(location.search);
const n = Math.max(1, Number(query.get('n') ?? 30));
const bound = Math.min(n, Math.max(1, Number(query.get('bound') ?? 10)));
const DELAY = 40;
const KINDS = ['pagedTable', 'rankingBoard'];
const FILTER = 'filter';

const tableMapping = [
  { id: '1', prop: 'store', label: '门店', field: 'store' },
  { id: '2', prop: 'region', label: '区域', field: 'region' },
  { id: '3', prop: 'sales', label: '销售额', field: 'sales' },
];
const rankMapping = [
  { id: '1', prop: 'name', label: '名称', field: 'store' },
  { id: '2', prop: 'value', label: '数值', field: 'sales' },
];

function widgets(): WidgetEntity[] {
  const filter = createWidget('filterButtons', { pageId: 'bench', id: FILTER, top: 10, left: 10 });
  filter.widgetProps.viewProps = { ...filter.widgetProps.viewProps, variable: 'region', allOption: false };
  filter.widgetProps.datasourceProps = { datasourceType: 'STATIC', dataMapping: [{ id: '1', prop: 'label', label: '显示文字', field: 'name' }, { id: '2', prop: 'value', label: '值', field: 'code' }], dataConfig: { data: [{ name: '东区', code: 'east' }, { name: '西区', code: 'west' }] } };
  const list = [filter];
  for (let i = 0; i < n; i++) {
    const kind = KINDS[i % KINDS.length];
    const w = createWidget(kind, { pageId: 'bench', id: `w${i}`, top: 70 + Math.floor(i / 6) * 200, left: (i % 6) * 310 });
    w.widgetProps.viewProps = { ...w.widgetProps.viewProps, width: 300, height: 190 };
    const ds: DatasourceProps = {
      datasourceType: 'API',
      dataMapping: kind === 'pagedTable' ? tableMapping : rankMapping,
      dataConfig: { datasource: `api${i}`, reqParams: i < bound ? { region: '{{region}}', n: i } : { region: 'all', n: i } },
    };
    w.widgetProps.datasourceProps = ds;
    list.push(w);
  }
  return list;
}

const calls: Array<{ datasource: string; at: number }> = [];
const fetchApiData = ({ datasource, reqParams }: ApiDataRequest) => {
  calls.push({ datasource, at: performance.now() });
  const region = String(reqParams.region ?? '');
  return new Promise<Array<Record<string, unknown>>>((resolve) =>
    setTimeout(() => resolve(Array.from({ length: 6 }, (_, k) => ({ store: `${region}${k + 1}`, region, sales: 100 + k * 7 + region.length }))), DELAY),
  );
};
const store = createVariableStore([{ name: 'region', type: 'string' }], { region: 'east' });
const services = { fetchApiData };
const canvas = { width: 1920, height: 1080, backgroundColor: '', refreshSeconds: null };

// Probe: the click on a filter button (capture) starts; every mutation inside a widget after it is recorded with
// its widget's id, and the next animation frame after it stamps that widget repainted; the end is the last stamp.
const probe = { t0: 0, touched: new Map<string, number>(), painted: 0, pending: 0, observer: null as MutationObserver | null };
document.addEventListener('click', () => (probe.t0 = performance.now()), true);
Object.assign(window, {
  benchProbe: () => ({ t0: probe.t0, painted: probe.painted, pending: probe.pending, touched: probe.touched.size }),
  benchReady: () => document.querySelectorAll('[data-widget-id]').length === n + 1 && calls.length >= n && !document.querySelector('[data-testid="widget-refetching"]'),
  benchArm: () => {
    probe.touched.clear();
    probe.t0 = 0;
    probe.painted = 0;
    calls.length = 0;
    probe.observer?.disconnect();
    probe.observer = new MutationObserver((records) => {
      const at = performance.now();
      let any = false;
      for (const r of records) {
        const id = (r.target instanceof Element ? r.target : r.target.parentElement)?.closest('[data-widget-id]')?.getAttribute('data-widget-id');
        if (id && id !== FILTER) {
          probe.touched.set(id, at);
          any = true;
        }
      }
      if (!any) return;
      probe.pending++;
      requestAnimationFrame(() => {
        probe.painted = Math.max(probe.painted, performance.now());
        probe.pending--;
      });
    });
    probe.observer.observe(document.querySelector('[data-testid="canvas-stage"]') ?? document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  },
  /** Once the bound widgets show the new region, no loading bar is left and their last change is painted: the time from the click. */
  benchResult: (region: string) => {
    const done = [...document.querySelectorAll('[data-widget-id]')].filter((el) => el.getAttribute('data-widget-id') !== FILTER && el.textContent?.includes(region)).length;
    if (done < bound || document.querySelector('[data-testid="widget-refetching"]') || probe.pending > 0 || !probe.painted) return null;
    return { ms: probe.painted - probe.t0, calls: calls.map((c) => c.datasource), touched: [...probe.touched.keys()].sort() };
  },
});

await preloadWidgetKinds([...KINDS, 'filterButtons']);
createRoot(document.getElementById('root')!).render(
  <ConfigProvider locale={zhCN}>
    <WidgetDataContext.Provider value={services}>
      <VariablesContext.Provider value={store}>
        <CanvasStage canvas={canvas} widgets={widgets()} scale={0.6} />
      </VariablesContext.Provider>
    </WidgetDataContext.Provider>
  </ConfigProvider>,
);
