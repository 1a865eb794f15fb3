// Renders one widget by name: looks the kind up, resolves its data, flags mapping faults.
import { memo } from 'react';
import { useWidgetData } from './data/useWidgetData';
import { WidgetNotice } from './data/WidgetNotice';
import { getWidgetKind } from './registry';
import type { DatasourceProps, ViewProps } from './types';

export interface WidgetViewProps {
  widgetName: string;
  viewProps: ViewProps;
  datasourceProps: DatasourceProps;
}

export const WidgetView = memo(function WidgetView({ widgetName, viewProps, datasourceProps }: WidgetViewProps) {
  const kind = getWidgetKind(widgetName);
  const data = useWidgetData(datasourceProps);
  if (!kind) return <WidgetNotice problems={[]} notice={`未知部件：${widgetName}`} />;
  const Component = kind.component;
  return (
    <div style={{ position: 'relative', width: '100%', height: '100%' }}>
      <Component viewProps={viewProps} data={data} />
      <WidgetNotice problems={data.problems} notice={data.notice} />
    </div>
  );
});
