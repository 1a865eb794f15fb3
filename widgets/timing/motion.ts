// Whether a widget may animate: the host lets widgets move (WidgetMotionContext: the preview yes, the designer's
// canvas no) and the viewer has not asked the system for reduced motion (prefers-reduced-motion: reduce).
import { useContext, useSyncExternalStore } from 'react';
import { WidgetMotionContext } from './sharedInterval';

const QUERY = '(prefers-reduced-motion: reduce)';
const media = () => (typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(QUERY) : null);

function subscribe(onChange: () => void): () => void {
  const m = media();
  if (!m) return () => {};
  m.addEventListener('change', onChange);
  return () => m.removeEventListener('change', onChange);
}

const reducedNow = () => media()?.matches ?? false;

/** The viewer asked for reduced motion. */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, reducedNow, () => false);
}

/** Animations (rolling digits, marquee, glowing pulses) run only when this is true. */
export function useWidgetMotion(): boolean {
  const host = useContext(WidgetMotionContext);
  const reduced = usePrefersReducedMotion();
  return host && !reduced;
}
