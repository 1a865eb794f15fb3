import { act } from '@testing-library/react';
import { formatClock } from './format';
import { preloadWidgetKinds } from '../registry';
import { renderKind } from '../testing';

// the kinds' code loads on first use (widgets/kindCode.ts): here before the first render, as a host preloads its page
beforeAll(() => preloadWidgetKinds(['clockDate']), 60_000);

describe('clockDate', () => {
  it('formats the local time by its pattern, with the weekday', () => {
    const d = new Date(2026, 0, 5, 8, 3, 9);
    expect(formatClock(d, 'YYYY-MM-DD HH:mm:ss', true)).toBe('2026-01-05 08:03:09 星期一');
    expect(formatClock(d, 'YYYY年MM月DD日', false)).toBe('2026年01月05日');
    expect(formatClock(d, 'HH:mm', false)).toBe('08:03');
  });

  it('ticks every second', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      vi.setSystemTime(new Date(2026, 0, 5, 8, 3, 9));
      const { container } = renderKind('clockDate', { format: 'HH:mm:ss', showWeek: false });
      expect(container).toHaveTextContent('08:03:09');
      act(() => vi.advanceTimersByTime(2000));
      expect(container).toHaveTextContent('08:03:11');
    } finally {
      vi.useRealTimers();
    }
  });
});
