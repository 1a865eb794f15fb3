import { fitText, textWidth } from './fitText';

const FONT = '14px sans-serif';

describe('fitText', () => {
  it('keeps text that fits and cuts what does not, ending in an ellipsis within the width', () => {
    expect(fitText('北京', 100, FONT)).toBe('北京');
    const long = '华东大区第一季度销售汇总表';
    const cut = fitText(long, 60, FONT);
    expect(cut.endsWith('…')).toBe(true);
    expect(long.startsWith(cut.slice(0, -1))).toBe(true);
    expect(textWidth(cut, FONT)).toBeLessThanOrEqual(60);
    // the longest such prefix: one more character would not fit
    expect(textWidth(long.slice(0, cut.length) + '…', FONT)).toBeGreaterThan(60);
  });

  it('never splits a surrogate pair and copes with no room at all', () => {
    const cut = fitText('😀😀😀😀😀😀😀😀', 30, FONT);
    expect([...cut].every((ch) => ch === '😀' || ch === '…')).toBe(true);
    expect(fitText('abcdef', 0, FONT)).toBe('…');
    expect(fitText('', 0, FONT)).toBe('');
  });
});
