import { act } from '@testing-library/react';
import { parseTarget, splitDuration } from './Countdown';
import { preloadWidgetKinds } from '../registry';
import { renderKind } from '../testing';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['countdown']), 60_000);

describe('countdown', () => {
  it('reads the target as local time and splits what is left', () => {
    expect(parseTarget('2030-01-01 00:00:00')).toEqual(new Date(2030, 0, 1));
    expect(parseTarget('2030-02-30')).toBeNull();
    expect(parseTarget('明天')).toBeNull();
    expect(splitDuration(((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000, true)).toEqual([[2, '天'], [3, '时'], [4, '分'], [5, '秒']]);
    expect(splitDuration(((2 * 24 + 3) * 3600) * 1000, false)[0]).toEqual([51, '时']);
  });

  it('counts down each second, then shows the finished text', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      vi.setSystemTime(new Date(2029, 11, 31, 23, 59, 58));
      const { container } = renderKind('countdown');
      expect(container).toHaveTextContent('00天00时00分02秒');
      act(() => vi.advanceTimersByTime(2000));
      expect(container).toHaveTextContent('活动已开始');
    } finally {
      vi.useRealTimers();
    }
  });
});
