// Clicks at run time (issue 23 §3–§5; the model: common/interaction.ts). A preview provides one runtime through
// InteractionContext; without it (the designer's canvas, thumbnails, stories) no widget listens to clicks.
// The runtime writes the linked variables into the screen's variable store and remembers which values a click set,
// so the widgets bound to them show the filter as a tag; a jump goes through the host's `open`.
import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import { jumpUrl, toggleLinkage, type ClickItem, type InteractionProps } from '../../common/interaction';
import { isEmptyValue, type VariableValue } from '../../common/variables';
import type { VariableStore } from './variables';

export interface InteractionRuntime {
  readonly store: VariableStore;
  /**
   * What a click means besides drill-down (WidgetView keeps a widget's drill path): linkage, then a jump.
   * `sameItem`: the widget's previous click was this item (a second click clears the linkage).
   */
  click(props: InteractionProps, item: ClickItem, sameItem?: boolean): void;
  /** The value a click set on a variable, when it still holds it (a filter that changed it since: none). */
  linkedValue(name: string): VariableValue;
  /** Clears a variable set by a click (the tag's ×). */
  clear(name: string): void;
  subscribe(listener: () => void): () => void;
}

/** Opens an address: in this tab, or a new one. */
export type OpenUrl = (url: string, newTab: boolean) => void;

export const openInBrowser: OpenUrl = (url, newTab) => {
  if (newTab) window.open(url, '_blank', 'noopener');
  else window.location.assign(url);
};

export function createInteractionRuntime(store: VariableStore, open: OpenUrl = openInBrowser): InteractionRuntime {
  const linked = new Map<string, VariableValue>();
  const same = (a: VariableValue, b: VariableValue | undefined) => JSON.stringify(a) === JSON.stringify(b ?? null);
  return {
    store,
    click(props, item, sameItem = true) {
      if (props.linkage?.length) {
        const next = toggleLinkage(props.linkage, item, store.declared, store.values(), sameItem);
        for (const [k, v] of Object.entries(next)) {
          if (isEmptyValue(v)) linked.delete(k);
          else linked.set(k, v);
        }
        store.setMany(next);
      }
      const url = jumpUrl(props.jump, item);
      if (url) open(url, Boolean(props.jump?.newTab));
    },
    linkedValue(name) {
      const v = store.get(name);
      return linked.has(name) && !isEmptyValue(v) && same(v, linked.get(name)) ? v : null;
    },
    clear(name) {
      linked.delete(name);
      store.set(name, null);
    },
    // the tags change only with the variables (linked is written just before the store notifies)
    subscribe: (l) => store.subscribe(l),
  };
}

export const InteractionContext = createContext<InteractionRuntime | null>(null);

export function useInteraction(): InteractionRuntime | null {
  return useContext(InteractionContext);
}

/** The variables among `names` that currently hold a value a click set, with that value (one stable key). */
export function useLinkedFilters(names: readonly string[]): Array<{ name: string; value: VariableValue }> {
  const rt = useInteraction();
  const joined = names.join('\u0000');
  const subscribe = useCallback((l: () => void) => (rt && joined ? rt.subscribe(l) : () => {}), [rt, joined]);
  const key = useSyncExternalStore(subscribe, () =>
    rt && joined ? JSON.stringify(joined.split('\u0000').map((n) => [n, rt.linkedValue(n)]).filter(([, v]) => v !== null)) : '[]',
  );
  return (JSON.parse(key) as Array<[string, VariableValue]>).map(([name, value]) => ({ name, value }));
}
