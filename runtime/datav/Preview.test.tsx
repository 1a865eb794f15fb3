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
});
