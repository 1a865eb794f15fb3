// Phone-sized screens, by the window's width: the pages' layout and the shell's phone layout (with a phone's user
// agent, shell/layout/usePhoneShell.ts) read it, so a desktop window as narrow as a phone gets the same layout.
import { useSyncExternalStore } from 'react';

/** Below antd's `md` breakpoint (768 px). */
export const NARROW_QUERY = '(max-width: 767.98px)';

function subscribe(onChange: () => void): () => void {
  if (typeof window === 'undefined' || !window.matchMedia) return () => undefined;
  const mq = window.matchMedia(NARROW_QUERY);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}
const read = () => typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(NARROW_QUERY).matches;

/** True while the window is narrower than 768 px; right from the first render (no wide-then-narrow flash). */
export function useNarrow(): boolean {
  return useSyncExternalStore(subscribe, read, () => false);
}
