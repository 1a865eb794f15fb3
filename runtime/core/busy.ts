// Which of a page's actions is running (its button shows loading): set while the action runs, cleared
// however it ends.
import { useCallback, useState } from 'react';

export type RunBusy<K extends string> = <T>(kind: K, action: () => Promise<T>) => Promise<T>;

export function useBusy<K extends string>(): [K | null, RunBusy<K>] {
  const [busy, setBusy] = useState<K | null>(null);
  const run = useCallback(async <T,>(kind: K, action: () => Promise<T>): Promise<T> => {
    setBusy(kind);
    try {
      return await action();
    } finally {
      setBusy(null);
    }
  }, []);
  return [busy, run];
}
