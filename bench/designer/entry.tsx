// Bench page: the designer's editable canvas (react-moveable + react-selecto) holding N widgets, one
// selected single-line title ('sel') to drag. ?n=500 mounts 500 widgets (the kinds in turn); ?n=1 only 'sel'.
// ?only=<widgetName> fills the canvas with one kind (no timers), to separate drag cost from background load.
// The kinds are spread over every kind the screen designer offers (a new kind folder joins by itself), and their
// code is loaded before the canvas is drawn, as the designer does for a page (widgets/kindCode.ts).
import { App, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { createRoot } from 'react-dom/client';
import { EditableCanvas } from '../../designer/canvas/EditableCanvas';
import { createDesigner } from '../../designer/editor/store';
import { createWidget, getWidgetKind, preloadWidgetKinds, widgetNames, type WidgetEntity } from '../../widgets';

const query = new URLSearchParams(location.search);
const n = Math.max(1, Number(query.get('n') ?? 1));
const only = query.get('only');
const SELECTED = 'sel';
/** Where the dragged title sits (canvas px): amid the others, so guides and snapping have work to do. */
const SEL_AT = { top: 500, left: 300 };
/** The kinds the screen designer offers (form fields belong to the form designer). */
const screenKinds = widgetNames.filter((name) => getWidgetKind(name)!.catalogue.designers.includes('screen'));

function initialWidgets(): WidgetEntity[] {
  const list = [createWidget('singleLineTitle', { pageId: 'bench', id: SELECTED, ...SEL_AT })];
  for (let i = 1; i < n; i++) {
    const name = only ?? screenKinds[i % screenKinds.length];
    list.push(createWidget(name, { pageId: 'bench', id: `w${i}`, top: (i * 37) % 900, left: (i * 61) % 1600 }));
  }
  return list;
}

const d = createDesigner();
d.load({ canvas: { width: 1920, height: 1080, backgroundColor: '', refreshSeconds: null }, widgets: initialWidgets() });
d.select([SELECTED]);

// Frame probe: a requestAnimationFrame loop records the interval between consecutive frames' start times.
const probe = { running: false, last: 0, intervals: [] as number[] };
function tick(t: number) {
  if (!probe.running) return;
  if (probe.last) probe.intervals.push(t - probe.last);
  probe.last = t;
  requestAnimationFrame(tick);
}
const selLayout = () => d.store.get().doc.widgets.find((w) => w.id === SELECTED)!.widgetProps.viewProps;
Object.assign(window, {
  benchReady: () =>
    document.querySelectorAll('[data-widget-id]').length === n &&
    document.querySelectorAll('[data-widget-loading]').length === 0 &&
    // the handles are on the selected title
    document.querySelectorAll('.moveable-control-box .moveable-control').length > 0,
  benchStart: () => {
    probe.intervals = [];
    probe.last = 0;
    probe.running = true;
    requestAnimationFrame(tick);
  },
  benchStop: () => {
    probe.running = false;
    return probe.intervals;
  },
  benchFrame: () => new Promise<void>((r) => requestAnimationFrame(() => r())),
  /** The widgets on the canvas per kind. */
  benchKinds: () => d.store.get().doc.widgets.reduce<Record<string, number>>((n, w) => ({ ...n, [w.widgetName]: (n[w.widgetName] ?? 0) + 1 }), {}),
  benchSel: () => ({ left: selLayout().left, top: selLayout().top, selected: d.store.get().selected, undo: d.store.get().past.length }),
});

await preloadWidgetKinds(d.store.get().doc.widgets.map((w) => w.widgetName));
createRoot(document.getElementById('root')!).render(
  <ConfigProvider locale={zhCN}>
    <App>
      <div style={{ display: 'flex', height: 900 }}>
        <EditableCanvas designer={d} scale={0.6} pageId="bench" onDropTemplate={() => {}} />
      </div>
    </App>
  </ConfigProvider>,
);
