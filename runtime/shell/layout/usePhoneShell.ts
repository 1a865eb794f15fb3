// The shell's phone layout (sidebar closed, floating over the page when opened, not remembered): on a phone by its
// user agent, and in any window as narrow as one (below 768 px), so a narrow desktop window is usable too.
import { useNarrow } from '../../ui/narrow';
import { isMobile } from '../state';

export function usePhoneShell(): boolean {
  const narrow = useNarrow();
  return isMobile || narrow;
}
