// Renders one widget by name: looks the kind up, resolves its data, flags mapping faults.
import { memo, Suspense, useCallback, useContext, useId, useMemo, useRef, useState } from 'react';
import './WidgetView.css';
import { CanvasColourContext, ScreenThemeContext } from './charts/themes';
import { themedTextColours } from './themedText';
import { drillCrumbs, drillDown, drillParams, interactionOf, isInteractive, type ClickItem, type DrillLevel, type DrillPath, type InteractionProps } from '../common/interaction';
import { valueText } from '../common/variables';
import { useInteraction, useLinkedFilters, type InteractionRuntime } from './data/interaction';
import { useWidgetData } from './data/useWidgetData';
import { useDatasetClicks } from './data/DatasetClicks';
import { WidgetSelfContext } from './data/fieldFilters';
import { WidgetNotice } from './data/WidgetNotice';
import { getWidgetKind } from './registry';
import type { DatasourceProps, ViewProps } from './types';

export interface WidgetViewProps {
  widgetName: string;
  viewProps: ViewProps;
  datasourceProps: DatasourceProps;
  /** What a click does; acted on only under an InteractionContext (the preview) and for kinds that emit clicks. */
  interactionProps?: InteractionProps | null;
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

/** Where a drilled-down widget is: 全部 › 省份：浙江 › …; a crumb goes back up to its level. */
function DrillCrumbs({ levels, path, onBack }: { levels: readonly DrillLevel[]; path: DrillPath; onBack: (depth: number) => void }) {
  const crumbs = drillCrumbs(levels, path);
  return (
    <nav className="dsc-widget-crumbs" aria-label="下钻路径" data-testid="drill-crumbs">
      {crumbs.map((c, i) =>
        i === crumbs.length - 1 ? (
          <span key={i} aria-current="location">
            {c}
          </span>
        ) : (
          <span key={i}>
            <button type="button" onClick={() => onBack(i)}>
              {c}
            </button>
            <span aria-hidden> › </span>
          </span>
        ),
      )}
    </nav>
  );
}

/** The filters a click set on this widget's bound variables: 筛选：地区=华东 ×. */
function LinkedTags({ rt, bound }: { rt: InteractionRuntime; bound: readonly string[] }) {
  const on = useLinkedFilters(bound);
  if (!on.length) return null;
  return (
    <div className="dsc-widget-filters" data-testid="linked-filters">
      {on.map(({ name, value }) => {
        const title = rt.store.declared.find((v) => v.name === name)?.title || name;
        return (
          <span key={name} className="dsc-widget-filter" data-variable={name}>
            筛选：{title}={valueText(value)}
            <button type="button" aria-label={`清除筛选：${title}`} title="清除筛选" onClick={() => rt.clear(name)}>
              ×
            </button>
          </span>
        );
      })}
    </div>
  );
}

export const WidgetView = memo(function WidgetView({ widgetName, viewProps, datasourceProps, interactionProps }: WidgetViewProps) {
  const kind = getWidgetKind(widgetName);
  const theme = useContext(ScreenThemeContext);
  const canvasColour = useContext(CanvasColourContext);
  // text left at its default that would not read on this theme's canvas takes the theme's text colour
  const shownProps = useMemo(() => (kind ? themedTextColours(kind, viewProps, theme, canvasColour) : viewProps), [kind, viewProps, theme, canvasColour]);
  const rt = useInteraction();
  // clicks only in a host that acts on them, for kinds that emit them, with a declaration that does something
  const ip = useMemo(
    () => (rt && kind?.catalogue.interactions ? interactionOf(interactionProps, rt.store.declared) : null),
    [rt, kind, interactionProps],
  );
  const levels = ip?.drill?.length ? ip.drill : undefined;
  const [path, setPath] = useState<DrillPath>([]);
  const depth = levels ? Math.min(path.length, levels.length) : 0;
  const shownPath = useMemo(() => path.slice(0, depth), [path, depth]);
  const extra = useMemo(() => (levels && depth ? drillParams(levels, shownPath) : undefined), [levels, depth, shownPath]);
  // a dataset chart (issue 35 §3): its own clicks, as the viewer picks them (联动 or a free drill), unless configured
  const self = useId();
  const shownTitle = typeof (viewProps as { title?: unknown }).title === 'string' ? String((viewProps as { title?: unknown }).title) : '';
  const datasetClicks = useDatasetClicks(datasourceProps, self, Boolean(rt && kind?.catalogue.interactions && !(ip && isInteractive(ip))), shownTitle);
  const data = useWidgetData(datasourceProps, extra, { self, drill: datasetClicks.drill });
  // the last item clicked (with the level it was on): clicking it again clears its linkage
  const lastClick = useRef('');
  const pathRef = useRef(shownPath);
  pathRef.current = shownPath;
  const configuredClick = useMemo(() => {
    if (!rt || !ip || !isInteractive(ip)) return undefined;
    return (item: ClickItem) => {
      const key = JSON.stringify([pathRef.current, item]);
      const sameItem = key === lastClick.current;
      lastClick.current = key;
      if (ip.drill?.length) setPath((p) => drillDown(ip.drill, p, item) ?? p);
      rt.click(ip, item, sameItem);
    };
  }, [rt, ip]);
  const onItemClick = configuredClick ?? datasetClicks.onItemClick;
  const back = useCallback((to: number) => setPath((p) => p.slice(0, to)), []);
  if (!kind) return <WidgetNotice problems={[]} notice={`未知部件：${widgetName}`} />;
  const Component = kind.component;
  return (
    <div style={BOX} data-interactive={onItemClick ? 'true' : undefined} onPointerDownCapture={datasetClicks.onPointerDown}>
      <Suspense fallback={<Loading widgetName={widgetName} />}>
        <WidgetSelfContext.Provider value={self}>
          <Component viewProps={shownProps} data={data} onItemClick={onItemClick} />
        </WidgetSelfContext.Provider>
      </Suspense>
      <WidgetNotice problems={data.problems} notice={data.notice} />
      {data.loading && (data.bound.length > 0 || Boolean(levels)) && <Refetching />}
      {levels && depth > 0 && <DrillCrumbs levels={levels} path={shownPath} onBack={back} />}
      {rt && data.bound.length > 0 && <LinkedTags rt={rt} bound={data.bound} />}
      {datasetClicks.overlay}
    </div>
  );
});
