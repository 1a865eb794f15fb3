// The screen's variables at run time (issue 23 §1; the model: common/variables.ts). One store per preview,
// given to the widgets by VariablesContext. A widget reads only the variables its data source is bound to, so a
// change re-renders and re-fetches exactly the widgets bound to that variable; filter widgets and clicks write.
import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import { isEmptyValue, type ScreenVariable, type VariableValue, type VariableValues } from '../../common/variables';

export interface VariableStore {
  readonly declared: readonly ScreenVariable[];
  get(name: string): VariableValue;
  /** Every value (a new object after each change, the same object between changes). */
  values(): VariableValues;
  /** Sets one variable (an undeclared name is ignored: nothing can reach an API through it). */
  set(name: string, value: VariableValue): void;
  /** Sets several at once (one notification). */
  setMany(values: Readonly<Record<string, VariableValue>>): void;
  /** Back to the values the store started with. */
  reset(names?: readonly string[]): void;
  subscribe(listener: () => void): () => void;
}

const same = (a: VariableValue | undefined, b: VariableValue | undefined) =>
  (isEmptyValue(a) && isEmptyValue(b)) || (Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((x, i) => x === b[i]) : a === b);

export function createVariableStore(declared: readonly ScreenVariable[], initial: Readonly<Record<string, VariableValue>>): VariableStore {
  const names = new Set(declared.map((v) => v.name));
  const start: Record<string, VariableValue> = {};
  for (const n of names) start[n] = initial[n] ?? null;
  let current: VariableValues = { ...start };
  const listeners = new Set<() => void>();
  const apply = (changes: Readonly<Record<string, VariableValue>>) => {
    let next: Record<string, VariableValue> | null = null;
    for (const [k, v] of Object.entries(changes)) {
      if (!names.has(k) || same(current[k], v)) continue;
      next ??= { ...current };
      next[k] = isEmptyValue(v) ? null : v;
    }
    if (!next) return;
    current = next;
    for (const l of [...listeners]) l();
  };
  return {
    declared,
    get: (name) => current[name] ?? null,
    values: () => current,
    set: (name, value) => apply({ [name]: value }),
    setMany: apply,
    reset: (only) => apply(Object.fromEntries((only ?? [...names]).filter((n) => names.has(n)).map((n) => [n, start[n]]))),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** No variables: designers and hosts without a screen's variables. */
export const NO_VARIABLES: VariableStore = createVariableStore([], {});

export const VariablesContext = createContext<VariableStore>(NO_VARIABLES);

export function useVariableStore(): VariableStore {
  return useContext(VariablesContext);
}

/**
 * The current values of the named variables, as one stable string key and the values; the component
 * re-renders only when one of these changes.
 */
export function useVariableValues(names: readonly string[]): { key: string; values: VariableValues } {
  const store = useVariableStore();
  const joined = names.join('\u0000');
  const subscribe = useCallback((l: () => void) => (joined ? store.subscribe(l) : () => {}), [store, joined]);
  const key = useSyncExternalStore(subscribe, () => (joined ? JSON.stringify(joined.split('\u0000').map((n) => store.get(n))) : ''));
  const values: Record<string, VariableValue> = {};
  if (joined) for (const n of joined.split('\u0000')) values[n] = store.get(n);
  return { key, values };
}

/** One variable's value and its setter (filter widgets). */
export function useVariable(name: string | undefined): [VariableValue, (v: VariableValue) => void] {
  const store = useVariableStore();
  const subscribe = useCallback((l: () => void) => (name ? store.subscribe(l) : () => {}), [store, name]);
  const value = useSyncExternalStore(subscribe, () => (name ? store.get(name) : null));
  const set = useCallback((v: VariableValue) => name && store.set(name, v), [store, name]);
  return [value, set];
}
