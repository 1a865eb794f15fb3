// The preview's refresh clock as a subscription rather than a context value: a tick reaches only the widgets that
// read an API (useWidgetData subscribes for those), so a screen's static widgets, and the host page itself, do not
// re-render every refreshSeconds.
import { useEffect, useState } from 'react';

export interface RefreshSignal {
  /** Calls onTick after every tick; answers the unsubscribe. */
  subscribe(onTick: () => void): () => void;
  /** How many times it has ticked. */
  count(): number;
}

export function createRefreshSignal(): RefreshSignal & { tick(): void } {
  const listeners = new Set<() => void>();
  let ticks = 0;
  return {
    subscribe(onTick) {
      listeners.add(onTick);
      return () => void listeners.delete(onTick);
    },
    count: () => ticks,
    tick() {
      ticks++;
      for (const f of [...listeners]) f();
    },
  };
}

/** A signal that ticks every `seconds` while the tab is visible (never when seconds is empty); stops on unmount. */
export function useRefreshSignal(seconds: number | null | undefined): RefreshSignal {
  const [signal] = useState(createRefreshSignal);
  useEffect(() => {
    if (!seconds || seconds < 1) return;
    const timer = window.setInterval(() => document.visibilityState === 'visible' && signal.tick(), seconds * 1000);
    return () => window.clearInterval(timer);
  }, [seconds, signal]);
  return signal;
}
