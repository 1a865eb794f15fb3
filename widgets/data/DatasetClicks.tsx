// Clicks on a dataset chart in the preview (issue 35 §3): the viewer picks what the click means from a small menu
// at the pointer — 联动 (every other dataset chart whose dataset has the clicked field filters by the value; a second
// click on the same item clears it) or 下钻 into any dimension of the dataset (free drill: the chart regroups by that
// field, filtered by what was clicked on the way; the breadcrumb goes back). A chart with configured interactions
// keeps them (WidgetView): this is what a dataset chart does without any.
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import type { ClickItem } from '../../common/interaction';
import { valueText } from '../../common/variables';
import type { DatasourceProps } from '../types';
import { datasetQueryOf, type DatasetDrill } from './datasetQuery';
import { useFieldFilterStore, useFieldFilters } from './fieldFilters';
import { useWidgetDataServices } from './WidgetDataContext';

interface Step {
  field: string;
  label: string;
  value: unknown;
}

export interface DatasetClicks {
  drill: DatasetDrill | null;
  onItemClick?: (item: ClickItem) => void;
  /** the menu at the pointer, the breadcrumb and the linkage tag, drawn over the widget */
  overlay: ReactNode;
  /** where the pointer went down (the menu opens there) */
  onPointerDown: (e: { clientX: number; clientY: number }) => void;
}

export function useDatasetClicks(ds: DatasourceProps | undefined, self: string, live: boolean, title = ''): DatasetClicks {
  const store = useFieldFilterStore();
  const { exportDataset } = useWidgetDataServices();
  const cfg = ds?.datasourceType === 'DATASET' ? ds.dataConfig?.dataset : undefined;
  const active = useFieldFilters(undefined, Boolean(cfg?.datasetId));
  const fields = useMemo(() => cfg?.fields ?? [], [cfg]);
  const firstDim = ds?.dataMapping?.find((m) => m.slot !== 'measure' && m.slot !== 'column' && m.datasetField);
  const [steps, setSteps] = useState<Step[]>([]);
  const [drillField, setDrillField] = useState<string | null>(null);
  const [menu, setMenu] = useState<{ x: number; y: number; field: string; label: string; value: unknown } | null>(null);
  const at = useRef({ x: 0, y: 0 });

  const drill = useMemo<DatasetDrill | null>(() => (drillField ? { field: drillField, filters: steps.map((s) => ({ field: s.field, op: 'eq' as const, value: s.value })) } : null), [drillField, steps]);
  const shownField = drillField ?? (firstDim && !firstDim.dateGroup ? firstDim.datasetField! : null);
  const labelOf = useCallback((name: string) => fields.find((f) => f.name === name)?.label ?? name, [fields]);

  // the menu opens where the pointer went down, drawn over the page (a widget clips what leaves its box)
  const onPointerDown = useCallback((e: { clientX: number; clientY: number }) => {
    at.current = { x: Math.min(e.clientX, window.innerWidth - 180), y: Math.min(e.clientY, window.innerHeight - 200) };
  }, []);

  const onItemClick = useMemo(() => {
    if (!live || !cfg?.datasetId || !shownField) return undefined;
    return (item: ClickItem) => {
      const value = item[shownField];
      if (value === undefined || value === null || value === '其他') return;
      setMenu({ ...at.current, field: shownField, label: labelOf(shownField), value });
    };
  }, [live, cfg, shownField, labelOf]);

  const used = new Set([...steps.map((s) => s.field), shownField]);
  const drillTo = fields.filter((f) => f.role === 'dimension' && f.type !== 'date' && !used.has(f.name));
  const linked = menu && store ? JSON.stringify(active[menu.field]) === JSON.stringify(menu.value) || store.sourceOf(menu.field) === self : false;
  const mine = store ? Object.keys(store.values()).filter((f) => store.sourceOf(f) === self) : [];

  const overlay = (
    <>
      {steps.length > 0 && (
        <nav className="dsc-widget-crumbs" aria-label="下钻路径" data-testid="drill-crumbs">
          {[{ label: '全部' }, ...steps.map((s) => ({ label: `${s.label}：${valueText(s.value as never)}` }))].map((c, i, all) =>
            i === all.length - 1 ? (
              <span key={i} aria-current="location">
                {c.label}
              </span>
            ) : (
              <span key={i}>
                <button
                  type="button"
                  onClick={() => {
                    const kept = steps.slice(0, i);
                    setSteps(kept);
                    // back to the top: the chart's own dimension again; else the field drilled into at that level
                    setDrillField(i === 0 ? null : (steps[i]?.field ?? null));
                  }}
                >
                  {c.label}
                </button>
                <span aria-hidden> › </span>
              </span>
            ),
          )}
        </nav>
      )}
      {/* a chart's own click (a filter widget shows its value in itself: no tag over its box) */}
      {live && mine.length > 0 && store && (
        <div className="dsc-widget-filters" data-testid="linked-filters">
          {mine.map((f) => (
            <span key={f} className="dsc-widget-filter">
              联动：{labelOf(f)}={valueText(store.values()[f] as never)}
              <button type="button" aria-label={`清除联动：${labelOf(f)}`} title="清除联动" onClick={() => store.set(f, null, self)}>
                ×
              </button>
            </span>
          ))}
        </div>
      )}
      {menu &&
        createPortal(
        <>
          <div className="dsc-dataset-menu-backdrop" onClick={() => setMenu(null)} />
          <div className="dsc-dataset-menu" role="menu" aria-label="点击操作" style={{ left: menu.x, top: menu.y }} data-testid="dataset-click-menu">
            <div className="dsc-dataset-menu-title">
              {menu.label}：{valueText(menu.value as never)}
            </div>
            <button
              type="button"
              role="menuitem"
              onClick={() => {
                store?.set(menu.field, linked ? null : menu.value, self);
                setMenu(null);
              }}
            >
              {linked ? '取消联动' : '联动其他图表'}
            </button>
            {drillTo.length > 0 && <div className="dsc-dataset-menu-group">下钻到</div>}
            {drillTo.map((f) => (
              <button
                key={f.name}
                type="button"
                role="menuitem"
                onClick={() => {
                  setSteps((s) => [...s, { field: menu.field, label: menu.label, value: menu.value }]);
                  setDrillField(f.name);
                  setMenu(null);
                }}
              >
                {f.label}
              </button>
            ))}
            {exportDataset && (
              <>
                <div className="dsc-dataset-menu-group">数据</div>
                <button
                  type="button"
                  role="menuitem"
                  onClick={() => {
                    // what the chart shows now: its slots, the screen's filters and the drill, under the viewer's rules
                    const q = datasetQueryOf(ds, active, drill);
                    setMenu(null);
                    if (q) void exportDataset({ ...q, page: null }, title || cfg?.datasetName || '数据');
                  }}
                >
                  导出当前数据（Excel）
                </button>
              </>
            )}
          </div>
        </>,
        document.body,
      )}
    </>
  );
  return { drill, onItemClick, overlay, onPointerDown };
}
