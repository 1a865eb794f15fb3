// Bench page: N widgets on the canvas, one selected single-line title, its view panel.
// ?n=300 mounts 300 widgets (the six kinds in turn); ?n=1 only the selected one.
import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { useCallback, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { CanvasStage } from '../../widgets/stage/CanvasStage';
import { patchWidgetProps } from '../../designer/canvas/widgetList';
import { RightPanel, canvasDefaults } from '../../designer/panel';
import { createWidget, widgetNames, type WidgetEntity } from '../../widgets';

const query = new URLSearchParams(location.search);
const n = Math.max(1, Number(query.get('n') ?? 1));
// ?only=<widgetName> fills the canvas with one kind (to separate render cost from timer load).
const only = query.get('only');
export const SELECTED = 'sel';

function initialWidgets(): WidgetEntity[] {
  const list = [createWidget('singleLineTitle', { pageId: 'bench', id: SELECTED, top: 20, left: 20 })];
  for (let i = 1; i < n; i++) {
    const name = only ?? widgetNames[i % widgetNames.length];
    list.push(createWidget(name, { pageId: 'bench', id: `w${i}`, top: 100 + ((i * 37) % 900), left: (i * 61) % 1600 }));
  }
  return list;
}

function Bench() {
  const [widgets, setWidgets] = useState(initialWidgets);
  const [selectedId, setSelectedId] = useState<string | null>(SELECTED);
  const onWidgetChange = useCallback((id: string, patch: Partial<WidgetEntity['widgetProps']>) => {
    probe.tChange = performance.now();
    setWidgets((l) => patchWidgetProps(l, id, patch));
  }, []);
  const onCanvasChange = useCallback(() => {}, []);
  const selected = widgets.find((w) => w.id === selectedId) ?? null;
  return (
    <div style={{ display: 'flex', gap: 12 }}>
      <CanvasStage canvas={canvasDefaults} widgets={widgets} selectedId={selectedId} onSelect={setSelectedId} scale={0.6} />
      <div style={{ width: 360, background: '#fff', flex: 'none' }}>
        <RightPanel widget={selected} canvas={canvasDefaults} onWidgetChange={onWidgetChange} onCanvasChange={onCanvasChange} />
      </div>
    </div>
  );
}

// Latency probe: keydown (capture) stamps t0; the first mutation inside the selected
// widget's view after it stamps the end.
const probe = { t0: 0, tInput: 0, tChange: 0, result: null as number | null, observer: null as MutationObserver | null };
document.addEventListener('keydown', () => (probe.t0 = performance.now()), true);
document.addEventListener('input', () => (probe.tInput = performance.now()), true);
Object.assign(window, {
  benchReady: () => document.querySelectorAll('[data-widget-id]').length === n,
  benchArm: () => {
    probe.result = null;
    probe.observer?.disconnect();
    const target = document.querySelector(`[data-widget-id="${SELECTED}"] [data-widget]`)!;
    probe.observer = new MutationObserver(() => {
      probe.result = performance.now() - probe.t0;
      probe.observer?.disconnect();
    });
    probe.observer.observe(target, { subtree: true, childList: true, characterData: true });
  },
  benchResult: () => probe.result,
  benchSplit: () => [probe.tInput - probe.t0, probe.tChange - probe.tInput, probe.result === null ? null : probe.t0 + probe.result - probe.tChange],
});

createRoot(document.getElementById('root')!).render(
  <ConfigProvider locale={zhCN}>
    <Bench />
  </ConfigProvider>,
);
