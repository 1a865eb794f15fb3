// The preview's tools stay out of sight until the pointer comes near them (issue 35 §7).
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HIDE_MS, isNear, PreviewTools } from './PreviewTools';

describe('preview tools', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a point is near a box within the margin, on every side', () => {
    const box = { left: 1200, top: 8, right: 1592, bottom: 32 };
    expect(isNear({ x: 1400, y: 20 }, box)).toBe(true);
    expect(isNear({ x: 1599, y: 79 }, box)).toBe(true);
    expect(isNear({ x: 1151, y: 20 }, box)).toBe(false);
    expect(isNear({ x: 1400, y: 81 }, box)).toBe(false);
    // the screen's middle is far from them
    expect(isNear({ x: 800, y: 450 }, box)).toBe(false);
    expect(isNear({ x: 1160, y: 20 }, box, 40)).toBe(true);
  });

  it('are hidden, shown while the pointer is near, hidden again a moment after it left', () => {
    render(
      <PreviewTools>
        <button>适应宽度</button>
      </PreviewTools>,
    );
    const tools = screen.getByTestId('preview-tools');
    // jsdom lays nothing out: the tools' box is the point 0, 0
    const move = (x: number, y: number) => act(() => void window.dispatchEvent(new MouseEvent('pointermove', { clientX: x, clientY: y })));
    expect(tools.dataset.shown).toBe('false');
    move(500, 400);
    expect(tools.dataset.shown).toBe('false');
    move(20, 10);
    expect(tools.dataset.shown).toBe('true');
    move(500, 400);
    expect(tools.dataset.shown).toBe('true');
    act(() => void vi.advanceTimersByTime(HIDE_MS + 10));
    expect(tools.dataset.shown).toBe('false');
    // no handle where the pointer can hover
    expect(screen.queryByTestId('preview-tools-handle')).toBeNull();
  });
});
