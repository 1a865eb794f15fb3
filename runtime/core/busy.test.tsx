// useBusy: the running action's name while it runs, null again however it ends (a refused save must not leave
// its button spinning).
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useBusy } from './busy';

describe('useBusy', () => {
  it('names the action while it runs and clears it when it resolves, passing its value through', async () => {
    const { result } = renderHook(() => useBusy<'save' | 'test'>());
    let finish!: (v: number) => void;
    let running!: Promise<number>;
    act(() => {
      running = result.current[1]('save', () => new Promise<number>((r) => (finish = r)));
    });
    expect(result.current[0]).toBe('save');
    await act(async () => {
      finish(7);
      expect(await running).toBe(7);
    });
    expect(result.current[0]).toBeNull();
  });

  it('clears it when the action fails, and the failure reaches the caller', async () => {
    const { result } = renderHook(() => useBusy<'save'>());
    await act(async () => {
      await expect(result.current[1]('save', () => Promise.reject(new Error('拒绝')))).rejects.toThrow('拒绝');
    });
    expect(result.current[0]).toBeNull();
  });
});
