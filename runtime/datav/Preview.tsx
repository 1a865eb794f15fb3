// ViewScreenPreview / ViewFormPreview (spec "Preview", issue 9 §6), opened in a new window: the canvas at its
// size and background with every widget placed; fit whole / width / height / actual size, remembered (the tools
// out of sight until the pointer comes near their corner, PreviewTools);
// refreshSeconds re-fetches API data, paused while the tab is hidden.
import { useEffect, useMemo, useState } from 'react';
import { Result, Segmented, Spin } from 'antd';
import { useLocation } from 'react-router-dom';
import { CanvasStage } from '../../widgets/stage/CanvasStage';
import { createFieldFilterStore, createInteractionRuntime, createVariableStore, FieldFiltersContext, InteractionContext, preloadWidgetKinds, useRefreshSignal, VariablesContext, WidgetDataContext, type WidgetEntity } from '../../widgets';
import { initialValues } from '../../common/variables';
import { VariableInspector } from './VariableInspector';
import { PreviewTools } from './PreviewTools';
import { FormRunProvider } from '../../widgets/formField/context';
import { getFeedback } from '../core/feedback';
import { idParam } from '../ui/leave';
import { exportDataset, fetchApiData, fetchDataset, loadForPreview, type DesignKind } from './services';
import type { DesignerPage } from '../../common/canvas';

export type FitMode = 'whole' | 'width' | 'height' | 'actual';
const FIT_KEY = 'dsc.previewFit';
const FITS: Array<{ value: FitMode; label: string }> = [
  { value: 'whole', label: '适应全屏' },
  { value: 'width', label: '适应宽度' },
  { value: 'height', label: '适应高度' },
  { value: 'actual', label: '实际大小' },
];

/**
 * The scale of a fit mode. `scrollbar` is the width the browser gives a scroll bar: fitting the width of a
 * canvas taller than the window leaves room for the vertical bar (and fitting the height, for the horizontal
 * one), so the fitted side is never cut by the bar it causes. Rounded down, so a fitted side never overflows
 * by a fraction of a pixel.
 */
export function fitScale(mode: FitMode, page: { width: number; height: number }, view: { width: number; height: number }, scrollbar = 0): number {
  if (mode === 'actual') return 1;
  const sx = view.width / page.width;
  const sy = view.height / page.height;
  let s = Math.min(sx, sy);
  if (mode === 'width') s = page.height * sx > view.height ? (view.width - scrollbar) / page.width : sx;
  else if (mode === 'height') s = page.width * sy > view.width ? (view.height - scrollbar) / page.height : sy;
  return Math.max(Math.floor(s * 10000) / 10000, 0.0001);
}

/** The width of a classic scroll bar here (0 where bars overlay the content, as on phones). */
function measureScrollbar(): number {
  const probe = document.createElement('div');
  probe.style.cssText = 'position:absolute;top:-9999px;width:100px;height:100px;overflow:scroll';
  document.body.appendChild(probe);
  const w = probe.offsetWidth - probe.clientWidth;
  probe.remove();
  return w;
}

function useViewport() {
  const [size, setSize] = useState({ width: window.innerWidth, height: window.innerHeight });
  useEffect(() => {
    const on = () => setSize({ width: window.innerWidth, height: window.innerHeight });
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return size;
}

/** A form's preview runs its fields as one Formily form: checks run, nothing is stored. */
async function previewSubmit() {
  getFeedback().message.success('预览：校验通过（预览不保存，填写请使用填写链接）');
}
async function previewUpload(): Promise<{ url: string }> {
  throw new Error('预览中不能上传图片，请使用填写链接');
}

export function Preview({ kind }: { kind: DesignKind }) {
  const { search } = useLocation();
  const id = idParam(search, 'pageId') ?? idParam(search, 'formId');
  const [data, setData] = useState<{ page: DesignerPage; widgets: WidgetEntity[] } | null>(null);
  const [failed, setFailed] = useState<string | null>(id ? null : '缺少编号');
  const [fit, setFit] = useState<FitMode>(() => (FITS.some((f) => f.value === localStorage.getItem(FIT_KEY)) ? (localStorage.getItem(FIT_KEY) as FitMode) : 'whole'));
  const view = useViewport();
  const [scrollbar] = useState(measureScrollbar);
  const refresh = useRefreshSignal(data?.page.refreshSeconds);
  const services = useMemo(() => ({ fetchApiData, fetchDataset, exportDataset, refresh }), [refresh]);
  // the screen's filters by dataset field (issue 35 §3): filter widgets and clicks on dataset charts set them
  const fieldFilters = useMemo(() => createFieldFilterStore(), []);
  // the screen's variables (issue 23 §1): defaults, replaced by URL parameters naming a declared variable
  const variables = useMemo(() => {
    const declared = data?.page.variables ?? [];
    return createVariableStore(declared, initialValues(declared, search));
    // one store per loaded page; later URL changes are the page's own (a jump opens a new preview)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data]);
  // clicks (issue 23 §3–§5): linkage into the variables above, jumps; a form's preview has none
  const interaction = useMemo(() => (kind === 'screen' ? createInteractionRuntime(variables) : null), [kind, variables]);

  useEffect(() => {
    if (!id) return;
    // the stage shows once the code of the page's kinds is here (and only theirs: widgets/kindCode.ts)
    loadForPreview(kind, String(id))
      .then(async (d) => {
        await preloadWidgetKinds(d.widgets.map((w) => w.widgetName));
        return d;
      })
      .then(setData, (e: unknown) => setFailed(e instanceof Error ? e.message : '加载失败'));
  }, [kind, id]);
  useEffect(() => {
    if (data) document.title = `${data.page.pageName} - 预览`;
  }, [data]);

  if (failed) return <Result status="404" title={failed} />;
  if (!data) return <Spin style={{ display: 'block', marginTop: '30vh' }} />;
  const { page, widgets } = data;
  const scale = fitScale(fit, page, view, scrollbar);
  return (
    <WidgetDataContext.Provider value={services}>
      <VariablesContext.Provider value={variables}>
      <FieldFiltersContext.Provider value={fieldFilters}>
      <InteractionContext.Provider value={interaction}>
      {/* Every fit mode scrolls what does not fit: the stage never shrinks (flex: none), and it is centred by
          auto margins, which become 0 where the stage is larger than the window, so no side is cut off (centring
          by justify-content would push an overflowing left or top edge out of reach). */}
      <div data-testid="preview" data-fit={fit} data-scale={scale.toFixed(4)} style={{ width: '100vw', height: '100vh', overflow: 'auto', background: '#0b0d13', display: 'flex' }}>
        <div data-testid="preview-stage" style={{ flex: 'none', margin: 'auto' }}>
          {kind === 'form' ? (
            <FormRunProvider mode="preview" submit={previewSubmit} uploadImage={previewUpload} widgets={widgets}>
              <CanvasStage canvas={page} widgets={widgets} scale={scale} />
            </FormRunProvider>
          ) : (
            <CanvasStage canvas={page} widgets={widgets} scale={scale} />
          )}
        </div>
      </div>
      <PreviewTools>
        {variables.declared.length > 0 && <VariableInspector store={variables} />}
        <Segmented
          aria-label="适配方式"
          size="small"
          value={fit}
          options={FITS}
          onChange={(v) => {
            setFit(v as FitMode);
            localStorage.setItem(FIT_KEY, String(v));
          }}
        />
      </PreviewTools>
      </InteractionContext.Provider>
      </FieldFiltersContext.Provider>
      </VariablesContext.Provider>
    </WidgetDataContext.Provider>
  );
}
