// Story helpers: a widget with its two property panels wired to live state.
import { Card, Tabs } from 'antd';
import { useState, type ReactNode } from 'react';
import { SchemaPanel, canvasDefaults, canvasSchema, canvasUiSchema, type CanvasProps, type PanelServices } from '../../designer/panel';
import { createWidget, getWidgetKind, SCREEN_FONT, WidgetView, type WidgetEntity } from '../../widgets';

export function PanelCard({ children, width = 380 }: { children: ReactNode; width?: number }) {
  return (
    <Card size="small" style={{ width, flex: 'none' }} styles={{ body: { paddingTop: 0 } }}>
      {children}
    </Card>
  );
}

export function WidgetPanelPlayground({ widgetName, services, tab = 'view' }: { widgetName: string; services?: PanelServices; tab?: 'view' | 'datasource' }) {
  const kind = getWidgetKind(widgetName)!;
  const [widget, setWidget] = useState<WidgetEntity>(() => createWidget(widgetName, { pageId: 'story', id: `story-${widgetName}` }));
  const [active, setActive] = useState<string>(tab);
  const p = widget.widgetProps;
  const patch = (next: Partial<WidgetEntity['widgetProps']>) => setWidget((w) => ({ ...w, widgetProps: { ...w.widgetProps, ...next } }));
  return (
    <div style={{ display: 'flex', gap: 24, alignItems: 'flex-start' }}>
      <PanelCard>
        <Tabs
          activeKey={active}
          onChange={setActive}
          items={[
            { key: 'view', label: '视图样式', children: <SchemaPanel schema={kind.viewSchema} uiSchema={kind.uiSchema.viewProps} value={p.viewProps} onChange={(viewProps) => patch({ viewProps })} services={services} /> },
            {
              key: 'datasource',
              label: '数据源',
              children: <SchemaPanel schema={kind.datasourceSchema} uiSchema={kind.uiSchema.datasourceProps} value={p.datasourceProps} onChange={(datasourceProps) => patch({ datasourceProps })} services={services} />,
            },
          ]}
        />
      </PanelCard>
      <div style={{ position: 'relative', width: p.viewProps.width, height: p.viewProps.height, flex: 'none', outline: '1px dashed rgba(255,255,255,.25)', fontFamily: SCREEN_FONT }}>
        <WidgetView widgetName={widgetName} viewProps={p.viewProps} datasourceProps={p.datasourceProps} />
      </div>
    </div>
  );
}

export function CanvasPanelPlayground() {
  const [canvas, setCanvas] = useState<CanvasProps>(canvasDefaults);
  return (
    <div style={{ display: 'flex', gap: 24, alignItems: 'flex-start' }}>
      <PanelCard>
        <Tabs items={[{ key: 'canvas', label: '画布属性', children: <SchemaPanel schema={canvasSchema} uiSchema={canvasUiSchema} value={canvas} onChange={setCanvas} /> }]} />
      </PanelCard>
      <pre style={{ color: '#A8E3FF', margin: 0 }}>{JSON.stringify(canvas, null, 2)}</pre>
    </div>
  );
}
