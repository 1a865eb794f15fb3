// Renders one widget by name: looks the kind up, resolves its data, flags mapping faults.
import { memo, Suspense, useContext, useMemo } from 'react';
import './WidgetView.css';
import { CanvasColourContext, ScreenThemeContext } from './charts/themes';
import { themedTextColours } from './themedText';
import { useWidgetData } from './data/useWidgetData';
import { WidgetNotice } from './data/WidgetNotice';
import { getWidgetKind } from './registry';
import type { DatasourceProps, ViewProps } from './types';

export interface WidgetViewProps {
  widgetName: string;
  viewProps: ViewProps;
  datasourceProps: DatasourceProps;
}

const BOX = { position: 'relative', width: '100%', height: '100%' } as const;
/**
 * Shown while the kind's code is on its way (kindCode.ts): an empty box filling the widget's place, so nothing
 * around it moves when the widget arrives. Hosts that preload the kinds of a page never show it.
 */
function Loading({ widgetName }: { widgetName: string }) {
  return <div data-widget-loading={widgetName} aria-busy="true" style={{ width: '100%', height: '100%' }} />;
}

/**
 * New rows are on their way for changed variables (issue 23 §1): the current rows stay, a thin moving bar on the
 * widget's top edge says more are coming.
 */
function Refetching() {
  return <div data-testid="widget-refetching" role="progressbar" aria-label="加载中" className="dsc-widget-refetching" />;
}

export const WidgetView = memo(function WidgetView({ widgetName, viewProps, datasourceProps }: WidgetViewProps) {
  const kind = getWidgetKind(widgetName);
  const data = useWidgetData(datasourceProps);
  const theme = useContext(ScreenThemeContext);
  const canvasColour = useContext(CanvasColourContext);
  // text left at its default that would not read on this theme's canvas takes the theme's text colour
  const shownProps = useMemo(() => (kind ? themedTextColours(kind, viewProps, theme, canvasColour) : viewProps), [kind, viewProps, theme, canvasColour]);
  if (!kind) return <WidgetNotice problems={[]} notice={`未知部件：${widgetName}`} />;
  const Component = kind.component;
  return (
    <div style={BOX}>
      <Suspense fallback={<Loading widgetName={widgetName} />}>
        <Component viewProps={shownProps} data={data} />
      </Suspense>
      <WidgetNotice problems={data.problems} notice={data.notice} />
      {data.loading && data.bound.length > 0 && <Refetching />}
    </div>
  );
});
