// The designers' right panel: 视图样式 / 数据源 (/ 交互 for kinds that emit clicks, on screens) for the selected widget,
// canvas props otherwise.
import { Tabs } from 'antd';
import { memo, useCallback, useMemo } from 'react';
import type { InteractionProps } from '../../common/interaction';
import { getWidgetKind, screenTheme, type DatasourceProps, type SelectedTab, type ViewProps, type WidgetEntity } from '../../widgets';
import { canvasSchema, canvasUiSchema, type CanvasProps } from './canvasPanel';
import { interactionDefaults, interactionSchemaFor, interactionUiSchema } from './interactionPanel';
import { SchemaPanel } from './SchemaPanel';
import type { PanelServices } from './services';

export interface RightPanelProps {
  widget: WidgetEntity | null;
  canvas: CanvasProps;
  onWidgetChange: (id: string, patch: Partial<WidgetEntity['widgetProps']>) => void;
  onCanvasChange: (canvas: CanvasProps) => void;
  services?: PanelServices;
  /** Whether widgets here may declare clicks (the screen designer: its preview acts on them). */
  interactions?: boolean;
}

const TAB_ITEMS = [
  { key: 'view', label: '视图样式' },
  { key: 'datasource', label: '数据源' },
];
const TAB_ITEMS_CLICKS = [...TAB_ITEMS, { key: 'interaction', label: '交互' }];

// The tab bar is its own memoized piece: antd Tabs measures its tabs on every render,
// which would force a layout of the whole canvas on each keystroke in the panel.
const TabBar = memo(function TabBar({ items, active, onChange }: { items: typeof TAB_ITEMS; active: string; onChange?: (key: string) => void }) {
  return <Tabs activeKey={active} onChange={onChange} items={items} />;
});
const CANVAS_ITEMS = [{ key: 'canvas', label: '画布属性' }];

export const RightPanel = memo(function RightPanel({ widget, canvas, onWidgetChange, onCanvasChange, services, interactions = false }: RightPanelProps) {
  const id = widget?.id;
  const onClicks = useCallback((interactionProps: InteractionProps) => id && onWidgetChange(id, { interactionProps }), [id, onWidgetChange]);
  const clicksSchema = useMemo(() => interactionSchemaFor(canvas.variables), [canvas.variables]);
  const onView = useCallback((viewProps: ViewProps) => id && onWidgetChange(id, { viewProps }), [id, onWidgetChange]);
  const onData = useCallback((datasourceProps: DatasourceProps) => id && onWidgetChange(id, { datasourceProps }), [id, onWidgetChange]);
  const onTab = useCallback((selectedTab: string) => id && onWidgetChange(id, { selectedTab: selectedTab as SelectedTab }), [id, onWidgetChange]);
  // choosing a theme shows its background: the canvas's own colour is cleared (its image stays)
  // (a page saved before themes has none: the panel's default, 深蓝科技, is no change)
  const canvasTheme = screenTheme(canvas.theme).id;
  const onCanvas = useCallback(
    (next: CanvasProps) => onCanvasChange(screenTheme(next.theme).id !== canvasTheme && next.backgroundColor ? { ...next, backgroundColor: '' } : next),
    [canvasTheme, onCanvasChange],
  );

  const kind = widget ? getWidgetKind(widget.widgetName) : undefined;
  if (!widget || !kind) {
    return (
      <div className="right-panel" style={{ padding: '0 12px' }}>
        <TabBar items={CANVAS_ITEMS} active="canvas" />
        <SchemaPanel schema={canvasSchema} uiSchema={canvasUiSchema} value={canvas} onChange={onCanvas} services={services} />
      </div>
    );
  }
  const p = widget.widgetProps;
  const clicks = interactions && kind.catalogue.interactions;
  const tab: SelectedTab = p.selectedTab === 'datasource' || (clicks && p.selectedTab === 'interaction') ? p.selectedTab : 'view';
  return (
    <div className="right-panel" style={{ padding: '0 12px' }}>
      <TabBar items={clicks ? TAB_ITEMS_CLICKS : TAB_ITEMS} active={tab} onChange={onTab} />
      {/* A new selection remounts the panel, so no draft leaks from one widget to another. */}
      {tab === 'interaction' ? (
        <SchemaPanel
          key={`${widget.id}:clicks`}
          schema={clicksSchema}
          uiSchema={interactionUiSchema}
          value={p.interactionProps ?? interactionDefaults}
          onChange={onClicks}
          services={services}
        />
      ) : tab === 'view' ? (
        <SchemaPanel key={`${widget.id}:view`} schema={kind.viewSchema} uiSchema={kind.uiSchema.viewProps} value={p.viewProps} onChange={onView} services={services} />
      ) : (
        <SchemaPanel key={`${widget.id}:ds`} schema={kind.datasourceSchema} uiSchema={kind.uiSchema.datasourceProps} value={p.datasourceProps} onChange={onData} services={services} />
      )}
    </div>
  );
});
