// The designers' right panel: 视图样式 / 数据源 for the selected widget, canvas props otherwise.
import { Tabs } from 'antd';
import { memo, useCallback } from 'react';
import { getWidgetKind, type DatasourceProps, type SelectedTab, type ViewProps, type WidgetEntity } from '../../widgets';
import { canvasSchema, canvasUiSchema, type CanvasProps } from './canvasPanel';
import { SchemaPanel } from './SchemaPanel';
import type { PanelServices } from './services';

export interface RightPanelProps {
  widget: WidgetEntity | null;
  canvas: CanvasProps;
  onWidgetChange: (id: string, patch: Partial<WidgetEntity['widgetProps']>) => void;
  onCanvasChange: (canvas: CanvasProps) => void;
  services?: PanelServices;
}

export const RightPanel = memo(function RightPanel({ widget, canvas, onWidgetChange, onCanvasChange, services }: RightPanelProps) {
  const id = widget?.id;
  const onView = useCallback((viewProps: ViewProps) => id && onWidgetChange(id, { viewProps }), [id, onWidgetChange]);
  const onData = useCallback((datasourceProps: DatasourceProps) => id && onWidgetChange(id, { datasourceProps }), [id, onWidgetChange]);
  const onTab = useCallback((selectedTab: string) => id && onWidgetChange(id, { selectedTab: selectedTab as SelectedTab }), [id, onWidgetChange]);

  const kind = widget ? getWidgetKind(widget.widgetName) : undefined;
  if (!widget || !kind) {
    return (
      <div className="right-panel" style={{ padding: '0 12px' }}>
        <Tabs items={[{ key: 'canvas', label: '画布属性', children: <SchemaPanel schema={canvasSchema} uiSchema={canvasUiSchema} value={canvas} onChange={onCanvasChange} services={services} /> }]} />
      </div>
    );
  }
  const p = widget.widgetProps;
  return (
    <div className="right-panel" style={{ padding: '0 12px' }}>
      <Tabs
        // A new selection remounts the panels, so no draft leaks from one widget to another.
        key={widget.id}
        activeKey={p.selectedTab === 'datasource' ? 'datasource' : 'view'}
        onChange={onTab}
        items={[
          {
            key: 'view',
            label: '视图样式',
            children: <SchemaPanel schema={kind.viewSchema} uiSchema={kind.uiSchema.viewProps} value={p.viewProps} onChange={onView} services={services} />,
          },
          {
            key: 'datasource',
            label: '数据源',
            children: <SchemaPanel schema={kind.datasourceSchema} uiSchema={kind.uiSchema.datasourceProps} value={p.datasourceProps} onChange={onData} services={services} />,
          },
        ]}
      />
    </div>
  );
});
