// One setInterval per period, shared by every widget using that period. Fifty scrolling
// tables then step in one task and one frame instead of fifty, which keeps a large screen's
// main thread free for the user (and the designer's panel) between ticks.
import { createContext, useContext, useEffect, useRef } from 'react';

interface Group {
  id: ReturnType<typeof setInterval>;
  subscribers: Set<() => void>;
}

const groups = new Map<number, Group>();

export function subscribeInterval(ms: number, fn: () => void): () => void {
  let group = groups.get(ms);
  if (!group) {
    const subscribers = new Set<() => void>();
    const id = setInterval(() => {
      for (const f of [...subscribers]) f();
    }, ms);
    group = { id, subscribers };
    groups.set(ms, group);
  }
  const g = group;
  g.subscribers.add(fn);
  return () => {
    g.subscribers.delete(fn);
    if (g.subscribers.size === 0 && groups.get(ms) === g) {
      clearInterval(g.id);
      groups.delete(ms);
    }
  };
}

/**
 * Whether the widgets below a host move on their own (tables scroll, carousels turn, rings rotate). The preview and
 * fill-in do; the designer's canvas holds them still: every step redrew widgets across a full canvas while the
 * user arranged it (bench/designer), and the preview is where motion is judged.
 */
export const WidgetMotionContext = createContext<boolean>(true);

/** Calls the latest `fn` every `ms` while `enabled` and the host lets widgets move; stops on unmount. */
export function useSharedInterval(fn: () => void, ms: number, enabled = true): void {
  const ref = useRef(fn);
  ref.current = fn;
  const moving = useContext(WidgetMotionContext) && enabled;
  useEffect(() => {
    if (!moving) return;
    return subscribeInterval(ms, () => ref.current());
  }, [ms, moving]);
}

/** Live shared timers (for leak tests). */
export function liveIntervalCount(): number {
  return groups.size;
}
