// The designer's canvas: the stage at the designer's scale between rulers; templates dropped on it become
// widgets (created on the server first, at the drop point / scale, rounded); react-moveable moves and resizes
// the selection (minimum 10×10, the 2 px step or the user's grid, guides to other widgets' edges and centres and
// the canvas centre); react-selecto selects by click and by a band drawn from an empty spot (locked and hidden
// layers are left out of a band); Shift- or Ctrl-click (Cmd-click) adds a layer or takes it out again, a drag with
// the key held adds the band to the selection (a group's member stands for the whole group, which then moves and
// resizes as one, its members scaled); right click opens the layer menu. A press focuses the canvas area, so that
// Ctrl+A selects the layers (editor/keys.ts), not the page's text.
// Ctrl + wheel zooms around the pointer, space + drag pans, 适应画布 fits (useViewport).
// While dragging, only the dragged elements' styles change (a transform); the store gets one change when the drag ends.
import { useCallback, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type DragEvent, type MouseEvent, type Ref } from 'react';
import Moveable, { type OnDrag, type OnDragEnd, type OnDragStart, type OnResize } from 'react-moveable';
import Selecto from 'react-selecto';
import { useStore } from '../../runtime/core/store';
import { ChartRendererContext, WidgetMotionContext } from '../../widgets';
import { CanvasStage } from '../../widgets/stage/CanvasStage';
import { Ruler, RULER_SIZE } from './Ruler';
import { ContextMenu, type MenuState } from './ContextMenu';
import { snapDrag, snapResize } from './viewport';
import { STAGE_MARGIN, useCanvasViewport, type CanvasViewport } from './useViewport';
import type { Designer, LayoutPatch } from '../editor/store';
import { pickable, withGroups } from '../editor/arrange';
import './EditableCanvas.css';

export { SNAP } from './viewport';
export type { CanvasViewport } from './useViewport';

/** The drag-and-drop type a template carries (its widgetName). */
export const TEMPLATE_DND_TYPE = 'application/x-dsc-widget';

export interface EditableCanvasProps {
  designer: Designer;
  scale: number;
  /** Creates a widget of the kind at a canvas point (server first); errors are the host's to show. */
  onDropTemplate: (widgetName: string, left: number, top: number) => void;
  pageId: string;
  /** 网格吸附: moves and resizes land on this grid (canvas px); 0 or absent: the 2 px step. */
  grid?: number;
  /** Ctrl + wheel and 适应画布 ask for a new scale (the host owns it). */
  onScaleChange?: (scale: number) => void;
  /** 适应画布 and the like, for the host's toolbar. */
  viewport?: Ref<CanvasViewport>;
  /**
   * A phone-width screen: 适应画布 once the area is laid out, and a touch that starts off the widgets scrolls the
   * area (a tap there clears the selection) instead of drawing a selection band.
   */
  narrow?: boolean;
}

const idOf = (el: Element) => (el as HTMLElement).dataset.widgetId ?? '';
/** Shift, Ctrl or Cmd: a click adds or drops a layer, a band adds to the selection. */
const adding = (e: { shiftKey?: boolean; ctrlKey?: boolean; metaKey?: boolean } | undefined) => Boolean(e && (e.shiftKey || e.ctrlKey || e.metaKey));
const ADD_KEYS = [['shift'], ['ctrl'], ['meta']];
const px = (v: number) => `${v}px`;

// During a drag the element moves by transform on a compositing layer of its own (will-change), so a move
// needs no layout of the canvas; the drop writes left / top back and clears both.
// Moves and sizes land on the step here (snapDrag, snapResize) rather than through moveable's snap grid, which
// rebuilds thousands of grid guidelines on every pointer move (bench/designer).
function startDrag(e: OnDragStart) {
  const s = e.target.style;
  e.datas.from = [parseFloat(s.left), parseFloat(s.top)];
  s.willChange = 'transform';
}
function applyDrag(events: readonly OnDrag[], grid: number) {
  const to = snapDrag(
    events.map((e) => ({ left: e.left, top: e.top, dx: e.beforeDist[0], dy: e.beforeDist[1] })),
    grid,
  );
  events.forEach((e, i) => {
    const [left0, top0] = e.datas.from as [number, number];
    const [left, top] = to[i];
    e.datas.to = [left, top];
    e.target.style.transform = `translate(${left - left0}px, ${top - top0}px)`;
  });
}
function endDrag(e: OnDragEnd) {
  const s = e.target.style;
  s.transform = '';
  s.willChange = '';
  const to = e.datas.to as [number, number] | undefined;
  if (to) {
    s.left = `${to[0]}px`;
    s.top = `${to[1]}px`;
  }
}
function applyResize(e: OnResize, grid: number) {
  const b = snapResize({ left: e.drag.left, top: e.drag.top, width: e.width, height: e.height }, e.direction, grid);
  const s = e.target.style;
  s.width = px(b.width);
  s.height = px(b.height);
  s.left = px(b.left);
  s.top = px(b.top);
}
/** The layout an element shows now (after a drag or resize changed its style). */
function layoutOf(el: HTMLElement | SVGElement): LayoutPatch {
  const s = (el as HTMLElement).style;
  return { id: idOf(el), left: parseFloat(s.left), top: parseFloat(s.top), width: parseFloat(s.width), height: parseFloat(s.height) };
}

export function EditableCanvas({ designer, scale, onDropTemplate, pageId, grid = 0, onScaleChange, viewport, narrow = false }: EditableCanvasProps) {
  const doc = useStore(designer.store, (s) => s.doc);
  const selected = useStore(designer.store, (s) => s.selected);
  const [area, setArea] = useState<HTMLDivElement | null>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const moveableRef = useRef<Moveable>(null);
  const [targets, setTargets] = useState<HTMLElement[]>([]);
  const [guides, setGuides] = useState<HTMLElement[]>([]);
  const [menu, setMenu] = useState<MenuState | null>(null);
  const { canvas, widgets } = doc;
  const noScale = useCallback(() => undefined, []);
  const view = useCanvasViewport(area, canvas, scale, onScaleChange ?? noScale);
  useImperativeHandle(viewport, () => ({ fit: view.fit, visibleCenter: view.visibleCenter }), [view.fit, view.visibleCenter]);
  // narrow: the whole canvas in view when the designer opens
  const fitted = useRef(false);
  const fitView = view.fit;
  useLayoutEffect(() => {
    if (!narrow || !area || fitted.current) return;
    fitted.current = true;
    fitView();
  }, [narrow, area, fitView]);
  // narrow: a touch that started off the widgets was left to the browser (scrolling); its tap clears the selection
  const touchOff = useRef(false);

  // the handles follow the selection; locked layers can be selected but not moved
  useLayoutEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    const locked = new Set(widgets.filter((w) => w.widgetProps.locked).map((w) => w.id));
    const chosen = new Set(selected);
    const els = [...stage.querySelectorAll<HTMLElement>('[data-widget-id]')];
    setTargets(els.filter((el) => chosen.has(idOf(el)) && !locked.has(idOf(el))));
    setGuides(els.filter((el) => !chosen.has(idOf(el))));
  }, [selected, widgets]);

  useEffect(() => {
    moveableRef.current?.updateRect();
  }, [widgets, scale]);

  const commitEls = useCallback((els: Array<HTMLElement | SVGElement>, label: string) => designer.layout(els.map(layoutOf), label), [designer]);

  const onDrop = (e: DragEvent) => {
    const name = e.dataTransfer.getData(TEMPLATE_DND_TYPE);
    const stage = stageRef.current;
    if (!name || !stage) return;
    e.preventDefault();
    const r = stage.getBoundingClientRect();
    onDropTemplate(name, Math.round((e.clientX - r.left) / scale), Math.round((e.clientY - r.top) / scale));
  };

  // a selected group (or several widgets) lies under moveable's drag area: the widget under the pointer counts
  const widgetAt = (e: { target: EventTarget | null; clientX: number; clientY: number }) =>
    (e.target as Element).closest('[data-widget-id]') ??
    document
      .elementsFromPoint(e.clientX, e.clientY)
      .map((x) => x.closest('[data-widget-id]'))
      .find((x) => x && stageRef.current?.contains(x));

  const onContextMenu = (e: MouseEvent) => {
    const el = widgetAt(e);
    if (!el || !area) return;
    e.preventDefault();
    const id = idOf(el);
    if (!selected.includes(id)) designer.selectWithGroups([id]);
    const r = area.getBoundingClientRect();
    setMenu({ id, x: e.clientX - r.left + area.scrollLeft, y: e.clientY - r.top + area.scrollTop });
  };

  const vertical = useMemo(() => [0, canvas.width / 2, canvas.width], [canvas.width]);
  const horizontal = useMemo(() => [0, canvas.height / 2, canvas.height], [canvas.height]);
  const directions = useMemo(() => ({ top: true, left: true, bottom: true, right: true, center: true, middle: true }), []);

  return (
    <div
      ref={setArea}
      className={`designer-canvas-area${view.pan === 'off' ? '' : ` designer-pan-${view.pan}`}`}
      data-testid="designer-canvas-area"
      // focusable, and focused by a press: Ctrl+A then selects the layers, not the page's text
      tabIndex={0}
      aria-label="画布"
      onPointerDown={(e) => {
        if (!(e.target as Element).closest('.designer-context-menu')) area?.focus({ preventScroll: true });
      }}
      // its own stacking context: the selected widget (9999), the handles (10001) and the context menu stack
      // only among themselves, and the whole canvas stays under every dialog, drawer, dropdown and message
      style={{ position: 'relative', isolation: 'isolate', overflow: 'auto', flex: 1, background: '#181a23' }}
      onDragOver={(e) => e.dataTransfer.types.includes(TEMPLATE_DND_TYPE) && e.preventDefault()}
      onDrop={onDrop}
      onContextMenu={onContextMenu}
      onClick={(e) => {
        if (!touchOff.current) return;
        touchOff.current = false;
        if (!(e.target as Element).closest('[data-widget-id], .designer-moveable, .designer-context-menu')) designer.select([]);
      }}
    >
      <div style={{ display: 'grid', gridTemplateColumns: `${RULER_SIZE}px auto`, width: 'max-content', padding: `0 ${STAGE_MARGIN}px ${STAGE_MARGIN}px 0` }}>
        <div style={{ background: '#2a2e3b' }} />
        <Ruler length={canvas.width} scale={scale} />
        <Ruler length={canvas.height} scale={scale} vertical />
        {/* charts as pictures, widgets still, the stage zoomed rather than transformed: see ChartRendererContext,
            WidgetMotionContext and CanvasStage's scaleBy */}
        <ChartRendererContext.Provider value="image">
          <WidgetMotionContext.Provider value={false}>
            <CanvasStage canvas={canvas} widgets={widgets} scale={scale} scaleBy="zoom" selectedIds={selected} stageRef={stageRef}>
              {grid > 0 && <div className="designer-grid" data-testid="designer-grid" style={{ backgroundSize: `${grid}px ${grid}px` }} />}
              <Moveable
                ref={moveableRef}
                className="designer-moveable"
                target={targets}
                // handles keep their screen size whatever the scale
                zoom={1 / scale}
                draggable
                resizable
                throttleDrag={0}
                throttleResize={0}
                snappable
                // gap guidelines pair every nearby widget with every other on each move: too dear on a full canvas
                snapGap={false}
                snapThreshold={5}
                isDisplaySnapDigit
                snapDirections={directions}
                elementSnapDirections={directions}
                elementGuidelines={guides}
                verticalGuidelines={vertical}
                horizontalGuidelines={horizontal}
                onDragStart={startDrag}
                onDrag={(e) => applyDrag([e], grid)}
                onDragEnd={(e) => {
                  endDrag(e);
                  if (e.isDrag) commitEls([e.target], '移动图层');
                }}
                onDragGroupStart={(e) => e.events.forEach(startDrag)}
                onDragGroup={(e) => applyDrag(e.events, grid)}
                onDragGroupEnd={(e) => {
                  e.events.forEach(endDrag);
                  if (e.isDrag) commitEls(e.targets, '移动图层');
                }}
                onResize={(e) => applyResize(e, grid)}
                onResizeEnd={(e) => e.isDrag && commitEls([e.target], '调整大小')}
                onResizeGroup={(e) => e.events.forEach((r) => applyResize(r, grid))}
                onResizeGroupEnd={(e) => e.isDrag && commitEls(e.targets, '调整大小')}
              />
            </CanvasStage>
          </WidgetMotionContext.Provider>
        </ChartRendererContext.Provider>
      </div>
      {area && (
        <Selecto
          container={area}
          dragContainer={area}
          selectableTargets={['.canvas-stage [data-widget-id]']}
          hitRate={0}
          selectByClick
          selectFromInside={false}
          toggleContinueSelect={ADD_KEYS}
          ratio={0}
          onDragStart={(e) => {
            const t = e.inputEvent.target as Element;
            touchOff.current = false;
            // narrow, a touch off the widgets and handles: the browser scrolls the area (no band on a phone)
            if (narrow && e.inputEvent.type === 'touchstart' && !t.closest('[data-widget-id]') && !moveableRef.current?.isMoveableElement(t)) {
              touchOff.current = true;
              e.stop();
              return;
            }
            // Shift / Ctrl / Cmd on a layer (selected or not, under the selection's drag area too): in or out
            const input = e.inputEvent as globalThis.MouseEvent;
            if (adding(input) && input.button !== 2 && !t.closest('.moveable-control, .designer-context-menu')) {
              const hit = widgetAt(input);
              if (hit) {
                designer.toggleSelected(idOf(hit));
                e.stop();
                return;
              }
            }
            // a press on a handle or on the current selection moves it instead of selecting
            if (view.panHeld.current || e.inputEvent.button === 2 || moveableRef.current?.isMoveableElement(t) || targets.some((x) => x === t || x.contains(t)) || t.closest('.designer-context-menu')) e.stop();
          }}
          onSelectEnd={(e) => {
            // a member stands for its group: picking one picks the group, dropping one (shift-click) drops it
            const all = designer.store.get().doc.widgets;
            const gone = new Set(adding(e.inputEvent) ? withGroups(all, e.removed.map(idOf)) : []);
            // a band takes only the layers that may be picked (a click may pick a locked one, to see it)
            const band = e.isClick ? null : new Set(all.filter(pickable).map((w) => w.id));
            const added = e.selected.map(idOf).filter((id) => !band || band.has(id) || !e.added.some((el) => idOf(el) === id));
            designer.select(withGroups(all, added).filter((id) => !gone.has(id)));
            if (e.isDragStart) {
              e.inputEvent.preventDefault();
              void moveableRef.current?.waitToChangeTarget().then(() => moveableRef.current?.dragStart(e.inputEvent));
            }
          }}
        />
      )}
      {menu && <ContextMenu designer={designer} state={menu} pageId={pageId} onClose={() => setMenu(null)} />}
    </div>
  );
}
