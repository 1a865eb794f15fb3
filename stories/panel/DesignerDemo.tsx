// A minimal designer loop for stories: the canvas stage plus the right panel.
import { useCallback, useState } from 'react';
import { CanvasStage } from '../../widgets/stage/CanvasStage';
import { patchWidgetProps } from '../../designer/canvas/widgetList';
import { RightPanel, canvasDefaults, type CanvasProps } from '../../designer/panel';
import { createWidget, type WidgetEntity } from '../../widgets';
import { PanelCard } from './PanelPlayground';

const LAYOUT: [string, number, number][] = [
  ['borderBox', 40, 40],
  ['singleLineTitle', 90, 60],
  ['carousel', 90, 140],
  ['activeRing', 420, 40],
  ['barChart', 760, 40],
  ['scrollTable', 420, 380],
];

export function DesignerDemo({ scale = 0.5, initialSelected = 'demo-1' }: { scale?: number; initialSelected?: string | null }) {
  const [canvas, setCanvas] = useState<CanvasProps>({ ...canvasDefaults, width: 1120, height: 820 });
  const [widgets, setWidgets] = useState<WidgetEntity[]>(() => LAYOUT.map(([name, left, top], i) => createWidget(name, { pageId: 'demo', id: `demo-${i}`, left, top })));
  const [selectedId, setSelectedId] = useState<string | null>(initialSelected);
  const onWidgetChange = useCallback((id: string, patch: Partial<WidgetEntity['widgetProps']>) => setWidgets((list) => patchWidgetProps(list, id, patch)), []);
  const selected = widgets.find((w) => w.id === selectedId) ?? null;
  return (
    <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
      <CanvasStage canvas={canvas} widgets={widgets} selectedId={selectedId} onSelect={setSelectedId} scale={scale} />
      <PanelCard>
        <RightPanel widget={selected} canvas={canvas} onWidgetChange={onWidgetChange} onCanvasChange={setCanvas} />
      </PanelCard>
    </div>
  );
}
