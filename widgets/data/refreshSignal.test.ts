import { act, renderHook } from '@testing-library/react';
import { useRefreshSignal } from './refreshSignal';

describe('the preview refresh clock', () => {
  it('refreshes every refreshSeconds while the tab is visible, pauses while hidden, and stops on unmount', () => {
    vi.useFakeTimers();
    let state: DocumentVisibilityState = 'visible';
    const spy = vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => state);
    try {
      const { result, unmount } = renderHook(() => useRefreshSignal(2));
      const signal = result.current;
      const heard = vi.fn();
      signal.subscribe(heard);
      expect(signal.count()).toBe(0);
      act(() => void vi.advanceTimersByTime(4000));
      expect(signal.count()).toBe(2);
      expect(heard).toHaveBeenCalledTimes(2);
      state = 'hidden';
      act(() => void vi.advanceTimersByTime(10_000));
      expect(signal.count()).toBe(2);
      state = 'visible';
      act(() => void vi.advanceTimersByTime(2000));
      expect(signal.count()).toBe(3);
      expect(result.current).toBe(signal);
      unmount();
      expect(vi.getTimerCount()).toBe(0);
      const none = renderHook(() => useRefreshSignal(null));
      act(() => void vi.advanceTimersByTime(10_000));
      expect(none.result.current.count()).toBe(0);
    } finally {
      spy.mockRestore();
      vi.useRealTimers();
    }
  });
});
