import { fitScale } from './Preview';

describe('preview', () => {
  it('scales the canvas by the chosen fit', () => {
    const page = { width: 1920, height: 1080 };
    const view = { width: 960, height: 800 };
    expect(fitScale('whole', page, view)).toBeCloseTo(0.5);
    expect(fitScale('width', page, view)).toBeCloseTo(0.5);
    expect(fitScale('height', page, view)).toBeCloseTo(800 / 1080);
    expect(fitScale('actual', page, view)).toBe(1);
  });

  it('leaves room for the scroll bar that fitting one side causes on the other, and never overflows by a fraction', () => {
    const big = { width: 3840, height: 2160 };
    const view = { width: 1600, height: 900 };
    // fitting the width of a 16:9 canvas into a 16:9 window needs no bar
    expect(fitScale('width', big, view, 15)).toBe(Math.floor((1600 / 3840) * 10000) / 10000);
    // a tall canvas: its fitted width leaves room for the vertical bar
    const tall = { width: 1000, height: 4000 };
    expect(fitScale('width', tall, view, 15)).toBe(Math.floor(((1600 - 15) / 1000) * 10000) / 10000);
    expect(fitScale('width', tall, view, 15) * tall.width).toBeLessThanOrEqual(1600 - 15);
    // a wide canvas fitted by height at 390 px: room for the horizontal bar
    const phone = { width: 390, height: 844 };
    expect(fitScale('height', { width: 1920, height: 1080 }, phone, 15) * 1080).toBeLessThanOrEqual(844 - 15);
    for (const mode of ['whole', 'width', 'height'] as const) {
      const s = fitScale(mode, { width: 1917, height: 1079 }, { width: 1000, height: 700 });
      if (mode !== 'height') expect(s * 1917, mode).toBeLessThanOrEqual(1000);
      if (mode !== 'width') expect(s * 1079, mode).toBeLessThanOrEqual(700);
    }
  });
});
