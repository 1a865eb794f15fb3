// The designer's view of its canvas: the scale limits, the scale that shows the whole canvas (适应画布), the
// scroll that keeps the point under the pointer still while Ctrl + wheel zooms, and where moves and resizes land
// (the 2 px step, or the user's grid when 网格吸附 is on). Pure functions: the canvas and the tests share them.
// None of this is the document: zooming and panning are no undo steps; a snapped move is an ordinary move.

/** The designer's scale range (the 缩放 field: 10 % – 100 %). */
export const MIN_SCALE = 0.1;
export const MAX_SCALE = 1;
/** Moves and sizes land on this step when the grid is off (react-moveable's own snap grid is too dear, bench/designer). */
export const SNAP = 2;

export const clampScale = (s: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, s));

export interface Size {
  width: number;
  height: number;
}

/**
 * The largest scale (whole per cent, never rounded up) at which a canvas fits the visible area, less `reserve`
 * px across and down (the ruler and the margin after the stage), within the designer's range.
 */
export function fitScale(canvas: Size, visible: Size, reserve: number): number {
  const s = Math.min((visible.width - reserve) / canvas.width, (visible.height - reserve) / canvas.height);
  if (!Number.isFinite(s) || s <= 0) return MIN_SCALE;
  return clampScale(Math.floor(s * 100 + 1e-9) / 100);
}

/** The next scale for one wheel event (deltaY < 0 zooms in), two decimals, within the range. */
export function wheelScale(scale: number, deltaY: number): number {
  const d = Math.max(-100, Math.min(100, deltaY));
  return clampScale(Math.round(scale * Math.exp(-d * 0.0015) * 100) / 100);
}

/**
 * The scroll offset along one axis that keeps the canvas point under the pointer where it is when the scale
 * changes: `pointer` is the pointer's offset in the visible area, `origin` the stage's offset in the scrolled
 * content (the ruler), both in px.
 */
export function zoomScroll(scroll: number, pointer: number, origin: number, scale: number, next: number): number {
  const canvasPoint = (scroll + pointer - origin) / scale;
  return Math.max(0, canvasPoint * next + origin - pointer);
}

export const onStep = (v: number, step: number) => Math.round(v / step) * step;

export interface DragBox {
  /** where moveable puts the box now (after its guide snapping) */
  left: number;
  top: number;
  /** the distance moved so far */
  dx: number;
  dy: number;
}

/**
 * Where dragged boxes land. Without a grid the distance moved goes on the 2 px step (a group keeps its members'
 * offsets). With a grid, the group's top-left corner (the one box's, when alone) goes on the grid and every box
 * moves with it, so their offsets stay too.
 */
export function snapDrag(boxes: readonly DragBox[], grid: number): Array<[number, number]> {
  if (!grid) return boxes.map((b) => [Math.round(b.left - b.dx + onStep(b.dx, SNAP)), Math.round(b.top - b.dy + onStep(b.dy, SNAP))]);
  const minLeft = Math.min(...boxes.map((b) => b.left));
  const minTop = Math.min(...boxes.map((b) => b.top));
  const cx = onStep(minLeft, grid) - minLeft;
  const cy = onStep(minTop, grid) - minTop;
  return boxes.map((b) => [Math.round(b.left + cx), Math.round(b.top + cy)]);
}

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export const MIN_SIZE = 10;

/**
 * A resized box. Without a grid every side goes on the 2 px step. With a grid only the edges being dragged
 * (`direction`: −1 the left / top edge, 1 the right / bottom one, 0 neither) go on the grid; the others stay
 * where they were, so resizing one side never moves the opposite one.
 */
export function snapResize(box: Box, direction: readonly number[], grid: number): Box {
  if (!grid)
    return {
      left: onStep(box.left, SNAP),
      top: onStep(box.top, SNAP),
      width: onStep(Math.max(MIN_SIZE, box.width), SNAP),
      height: onStep(Math.max(MIN_SIZE, box.height), SNAP),
    };
  const axis = (start: number, size: number, dir: number): [number, number] => {
    const end = start + size;
    if (dir > 0) {
      const e = onStep(end, grid);
      return [Math.round(start), Math.round(Math.max(MIN_SIZE, e - start))];
    }
    if (dir < 0) {
      const s = Math.min(onStep(start, grid), end - MIN_SIZE);
      return [Math.round(s), Math.round(end - s)];
    }
    return [Math.round(start), Math.round(Math.max(MIN_SIZE, size))];
  };
  const [left, width] = axis(box.left, box.width, direction[0] ?? 0);
  const [top, height] = axis(box.top, box.height, direction[1] ?? 0);
  return { left, top, width, height };
}
