// The view arithmetic of the designer's canvas: the fit scale, wheel zoom around the pointer, and where moves and
// resizes land with and without 网格吸附.
import { fitScale, MAX_SCALE, MIN_SCALE, snapDrag, snapResize, wheelScale, zoomScroll } from './viewport';

describe('fitScale', () => {
  it('is the largest whole per cent at which the canvas and the reserve fit both ways', () => {
    // 1920×1080 in 1000×700 less 60: across 940/1920 = 0.4895…, down 640/1080 = 0.5925… → 48 %
    expect(fitScale({ width: 1920, height: 1080 }, { width: 1000, height: 700 }, 60)).toBe(0.48);
    // a tall canvas is bound by the height
    expect(fitScale({ width: 1080, height: 1920 }, { width: 1000, height: 700 }, 60)).toBe(0.33);
    // the scale fits: never rounded up past the area
    const s = fitScale({ width: 1920, height: 1080 }, { width: 1021, height: 900 }, 60);
    expect(1920 * s + 60).toBeLessThanOrEqual(1021);
    expect(1920 * (s + 0.01) + 60).toBeGreaterThan(1021);
  });
  it('stays in the designer range (10 % – 100 %)', () => {
    expect(fitScale({ width: 400, height: 300 }, { width: 1600, height: 900 }, 60)).toBe(MAX_SCALE);
    expect(fitScale({ width: 38400, height: 21600 }, { width: 800, height: 600 }, 60)).toBe(MIN_SCALE);
    expect(fitScale({ width: 1920, height: 1080 }, { width: 0, height: 0 }, 60)).toBe(MIN_SCALE);
  });
});

describe('wheelScale', () => {
  it('zooms in on a wheel up, out on a wheel down, within the range', () => {
    expect(wheelScale(0.6, -100)).toBeGreaterThan(0.6);
    expect(wheelScale(0.6, 100)).toBeLessThan(0.6);
    expect(wheelScale(1, -100)).toBe(1);
    expect(wheelScale(0.1, 100)).toBe(0.1);
    // a huge delta is one notch, not a jump to the end
    expect(wheelScale(0.6, -5000)).toBe(wheelScale(0.6, -100));
  });
});

describe('zoomScroll', () => {
  it('keeps the canvas point under the pointer where it is', () => {
    const origin = 20;
    const scroll = 300;
    const pointer = 250;
    const before = (scroll + pointer - origin) / 0.5; // canvas x under the pointer
    const next = zoomScroll(scroll, pointer, origin, 0.5, 0.8);
    expect((next + pointer - origin) / 0.8).toBeCloseTo(before, 9);
  });
  it('never scrolls before the start', () => {
    expect(zoomScroll(0, 500, 20, 1, 0.2)).toBe(0);
  });
});

describe('snapDrag', () => {
  it('without a grid puts the distance on the 2 px step and keeps odd positions', () => {
    // from 101 moved by 36.6 (moveable says left 137.6): 101 + 36 = 137… rounded distance 36 → 137
    expect(snapDrag([{ left: 137.6, top: 50.2, dx: 36.6, dy: 0.2 }], 0)).toEqual([[137, 50]]);
  });
  it('with a grid puts the box on the grid', () => {
    expect(snapDrag([{ left: 137.6, top: 44.9, dx: 36.6, dy: -5.1 }], 10)).toEqual([[140, 40]]);
    expect(snapDrag([{ left: 133, top: 46, dx: 0, dy: 0 }], 25)).toEqual([[125, 50]]);
  });
  it('with a grid moves a group by its top-left corner: the offsets stay', () => {
    const out = snapDrag(
      [
        { left: 103, top: 207, dx: 3, dy: 7 },
        { left: 156, top: 199, dx: 3, dy: 7 },
      ],
      10,
    );
    // the corner (103, 199) goes to (100, 200): both move by (−3, +1)
    expect(out).toEqual([
      [100, 208],
      [153, 200],
    ]);
  });
});

describe('snapResize', () => {
  it('without a grid puts every side on the 2 px step, at least 10 × 10', () => {
    expect(snapResize({ left: 10.9, top: 3, width: 101, height: 4 }, [1, 1], 0)).toEqual({ left: 10, top: 4, width: 102, height: 10 });
  });
  it('with a grid snaps the dragged right / bottom edges and leaves the others', () => {
    // left 103 (off the grid) stays; the right edge 103 + 188 = 291 → 290
    expect(snapResize({ left: 103, top: 47, width: 188, height: 60 }, [1, 0], 10)).toEqual({ left: 103, top: 47, width: 187, height: 60 });
    expect(snapResize({ left: 100, top: 40, width: 200, height: 56 }, [0, 1], 10)).toEqual({ left: 100, top: 40, width: 200, height: 60 });
  });
  it('with a grid snaps the dragged left / top edges and keeps the opposite ones', () => {
    // right edge 300 stays; the left edge 94 → 90
    expect(snapResize({ left: 94, top: 33, width: 206, height: 67 }, [-1, -1], 10)).toEqual({ left: 90, top: 30, width: 210, height: 70 });
  });
  it('with a grid keeps the minimum size', () => {
    expect(snapResize({ left: 100, top: 100, width: 3, height: 50 }, [1, 0], 20)).toEqual({ left: 100, top: 100, width: 10, height: 50 });
    expect(snapResize({ left: 197, top: 100, width: 3, height: 50 }, [-1, 0], 20)).toEqual({ left: 190, top: 100, width: 10, height: 50 });
  });
});
