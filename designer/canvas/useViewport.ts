// How the canvas area is looked at, never what it holds (no undo steps): 适应画布 (the scale that shows the whole
// canvas, scrolled to its corner), Ctrl + wheel zooming around the pointer, and space + drag panning the area.
// Space pans only while the pointer is over the canvas area and no field, editor or dialog has the key, so a
// space typed in an input is a space.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { dialogOpen, typing } from '../editor/keys';
import { RULER_SIZE } from './Ruler';
import { fitScale, wheelScale, zoomScroll, type Size } from './viewport';

/** The margin the stage keeps after it, right and below (the canvas area's grid padding). */
export const STAGE_MARGIN = 40;

/** What the designer's toolbar can ask of its canvas. */
export interface CanvasViewport {
  /** 适应画布: the scale that shows the whole canvas, scrolled to its top-left corner. */
  fit(): void;
  /** The canvas point at the middle of what the area shows now (canvas px, rounded, inside the canvas). */
  visibleCenter(): { left: number; top: number };
}

export type PanMode = 'off' | 'ready' | 'panning';

interface Pending {
  scale: number;
  left: number;
  top: number;
}

const isSpace = (e: KeyboardEvent) => e.code === 'Space' || e.key === ' ';

export function useCanvasViewport(area: HTMLDivElement | null, canvas: Size, scale: number, onScale: (next: number) => void) {
  const scaleRef = useRef(scale);
  scaleRef.current = scale;
  const onScaleRef = useRef(onScale);
  onScaleRef.current = onScale;
  // the scroll to show once the area is laid out at the new scale
  const pending = useRef<Pending | null>(null);
  const [pan, setPan] = useState<PanMode>('off');
  // read by the canvas's own press handlers (Selecto), which must not start while space is held
  const panHeld = useRef(false);

  useLayoutEffect(() => {
    const p = pending.current;
    if (!area || !p || p.scale !== scale) return;
    pending.current = null;
    area.scrollLeft = p.left;
    area.scrollTop = p.top;
  }, [area, scale]);

  const goTo = useCallback(
    (p: Pending) => {
      if (!area) return;
      if (p.scale === scaleRef.current) {
        pending.current = null;
        area.scrollLeft = p.left;
        area.scrollTop = p.top;
        return;
      }
      pending.current = p;
      onScaleRef.current(p.scale);
    },
    [area],
  );

  const fit = useCallback(() => {
    if (!area) return;
    // offsetWidth counts the scroll bars: once the canvas fits they are gone
    goTo({
      scale: fitScale(canvas, { width: area.offsetWidth, height: area.offsetHeight }, RULER_SIZE + STAGE_MARGIN),
      left: 0,
      top: 0,
    });
  }, [area, canvas, goTo]);

  const visibleCenter = useCallback(() => {
    if (!area) return { left: 0, top: 0 };
    // the middle of the part of the stage in view along one axis (the area may be larger than the stage)
    const at = (scroll: number, size: number, length: number) => {
      const from = Math.max(0, (scroll - RULER_SIZE) / scaleRef.current);
      const to = Math.min(length, (scroll + size - RULER_SIZE) / scaleRef.current);
      return Math.round(Math.min(length, Math.max(0, (from + Math.max(from, to)) / 2)));
    };
    return { left: at(area.scrollLeft, area.clientWidth, canvas.width), top: at(area.scrollTop, area.clientHeight, canvas.height) };
  }, [area, canvas]);

  // Ctrl (⌘) + wheel: zoom around the pointer instead of the browser's page zoom
  useEffect(() => {
    if (!area) return;
    const onWheel = (e: WheelEvent) => {
      if (!(e.ctrlKey || e.metaKey)) return;
      e.preventDefault();
      const base = pending.current ?? {
        scale: scaleRef.current,
        left: area.scrollLeft,
        top: area.scrollTop,
      };
      const next = wheelScale(base.scale, e.deltaY);
      if (next === base.scale) return;
      const r = area.getBoundingClientRect();
      goTo({
        scale: next,
        left: zoomScroll(base.left, e.clientX - r.left, RULER_SIZE, base.scale, next),
        top: zoomScroll(base.top, e.clientY - r.top, RULER_SIZE, base.scale, next),
      });
    };
    area.addEventListener('wheel', onWheel, { passive: false });
    return () => area.removeEventListener('wheel', onWheel);
  }, [area, goTo]);

  // space + drag: pan
  useEffect(() => {
    if (!area) return;
    let over = false;
    let drag: { x: number; y: number; left: number; top: number } | null = null;
    const mode = (m: PanMode) => {
      panHeld.current = m !== 'off';
      setPan(m);
    };
    const onOver = () => {
      over = true;
    };
    const onLeave = () => {
      over = false;
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (!isSpace(e) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (!panHeld.current) {
        if (!over || area.offsetParent === null || typing(e.target) || dialogOpen()) return;
        mode('ready');
      }
      // no page scroll, no click on a focused button
      e.preventDefault();
    };
    const onKeyUp = (e: KeyboardEvent) => {
      if (!isSpace(e) || !panHeld.current) return;
      e.preventDefault();
      if (!drag) mode('off');
      else panHeld.current = false;
    };
    // capture: while space is held a press pans; the widgets, handles and rubber band never see it
    const onPress = (e: PointerEvent | MouseEvent) => {
      if (!panHeld.current) return;
      e.preventDefault();
      e.stopPropagation();
      if (e.type !== 'pointerdown' || e.button !== 0) return;
      drag = {
        x: e.clientX,
        y: e.clientY,
        left: area.scrollLeft,
        top: area.scrollTop,
      };
      mode('panning');
    };
    const onMove = (e: PointerEvent) => {
      if (!drag) return;
      area.scrollLeft = drag.left - (e.clientX - drag.x);
      area.scrollTop = drag.top - (e.clientY - drag.y);
    };
    const onUp = () => {
      if (!drag) return;
      drag = null;
      mode(panHeld.current ? 'ready' : 'off');
    };
    const onBlur = () => {
      drag = null;
      mode('off');
    };
    area.addEventListener('pointerover', onOver);
    area.addEventListener('pointerleave', onLeave);
    area.addEventListener('pointerdown', onPress, true);
    area.addEventListener('mousedown', onPress, true);
    window.addEventListener('keydown', onKeyDown);
    window.addEventListener('keyup', onKeyUp);
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
    window.addEventListener('blur', onBlur);
    return () => {
      area.removeEventListener('pointerover', onOver);
      area.removeEventListener('pointerleave', onLeave);
      area.removeEventListener('pointerdown', onPress, true);
      area.removeEventListener('mousedown', onPress, true);
      window.removeEventListener('keydown', onKeyDown);
      window.removeEventListener('keyup', onKeyUp);
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      window.removeEventListener('blur', onBlur);
      panHeld.current = false;
    };
  }, [area]);

  return { fit, visibleCenter, pan, panHeld };
}
