// The screen's filters by dataset field (issue 35 §3): a filter widget bound to a dataset field, or a click on a
// dataset chart, sets a field's values; every dataset chart whose dataset has a field of that name filters by it
// (datasetQuery.ts). No variable to declare. One store per preview, given by FieldFiltersContext; without one (the
// designer's canvas, thumbnails) nothing filters.
import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import type { FieldFilters } from './datasetQuery';

export interface FieldFilterStore {
  values(): FieldFilters;
  /** Sets a field's filter; null, '' or [] clears it. `source` is the widget that set it (it does not filter itself). */
  set(field: string, value: unknown, source?: string): void;
  /** The widget that set a field's filter, if any. */
  sourceOf(field: string): string | undefined;
  clear(): void;
  subscribe(listener: () => void): () => void;
}

const empty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

export function createFieldFilterStore(): FieldFilterStore {
  let current: Record<string, unknown> = {};
  const sources = new Map<string, string>();
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const l of [...listeners]) l();
  };
  return {
    values: () => current,
    set(field, value, source) {
      if (!field) return;
      if (empty(value) && !(field in current)) return;
      if (JSON.stringify(current[field]) === JSON.stringify(value)) return;
      const next = { ...current };
      if (empty(value)) {
        delete next[field];
        sources.delete(field);
      } else {
        next[field] = value;
        if (source) sources.set(field, source);
        else sources.delete(field);
      }
      current = next;
      notify();
    },
    sourceOf: (field) => sources.get(field),
    clear() {
      if (!Object.keys(current).length) return;
      current = {};
      sources.clear();
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const FieldFiltersContext = createContext<FieldFilterStore | null>(null);

/** The widget being drawn (WidgetView's own id): what a filter widget sets, it is not filtered by itself. */
export const WidgetSelfContext = createContext<string | undefined>(undefined);

export function useFieldFilterStore(): FieldFilterStore | null {
  return useContext(FieldFiltersContext);
}

const NONE: FieldFilters = {};
const noSubscribe = () => () => {};

/**
 * The screen's field filters less those `self` set (a chart is not filtered by its own click). Only a widget that
 * reads a dataset listens (`enabled`): a field filter re-renders the dataset widgets, not the whole screen.
 */
export function useFieldFilters(self?: string, enabled = true): FieldFilters {
  const store = useFieldFilterStore();
  const listens = enabled ? store : null;
  const subscribe = useCallback((l: () => void) => (listens ? listens.subscribe(l) : noSubscribe()), [listens]);
  const key = useSyncExternalStore(subscribe, () => {
    if (!listens || !store) return '{}';
    const v = store.values();
    return JSON.stringify(Object.fromEntries(Object.entries(v).filter(([f]) => !self || store.sourceOf(f) !== self)));
  });
  return key === '{}' ? NONE : (JSON.parse(key) as FieldFilters);
}
