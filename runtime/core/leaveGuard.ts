// Unsaved work, one registry for the whole app (issue 20 §1). An editor with unsaved changes registers a guard for
// its view (the pathname of its tab) with useLeaveGuard: how to save the edits, how to throw them away (undoing what
// it already wrote to the server) and what to do when the browser unloads the page. The shell asks before every
// navigation away from a view with a guard and before closing its tab (ui/leave.ts, confirmLeave); the browser
// asks on reload or close (beforeunload) while any guard is registered.
import { createContext, useContext, useEffect, useRef, useState } from 'react';
import { createStore } from './store';

/** The spec's question (part 2 §8). */
export const DISCARD_CONFIRM = '数据有变化，确定要放弃保存吗？';

export interface GuardActions {
  /** Saves the edits; true when saved. When given, the question offers 保存. */
  save?: () => Promise<boolean>;
  /** Throws the edits away, undoing what the editor already wrote to the server. */
  discard?: () => void | Promise<void>;
  /** The browser unloads the page after asking (reload, close): the last moment to undo server-side writes (not awaited). */
  unload?: () => void;
}

export interface LeaveGuard {
  id: number;
  /** the view (tab pathname) the edits belong to */
  path: string;
  actions: () => GuardActions;
}

export const guardStore = createStore<LeaveGuard[]>([]);
let seq = 0;

/** Registers unsaved edits of the view `path`; answers the function that takes them back. */
export function registerGuard(path: string, actions: () => GuardActions): () => void {
  const id = ++seq;
  guardStore.set((l) => [...l, { id, path, actions }]);
  return () => releaseGuards((g) => g.id === id);
}

export function releaseGuards(pred: (g: LeaveGuard) => boolean): void {
  if (guardStore.get().some(pred)) guardStore.set((l) => l.filter((g) => !pred(g)));
}

/** The guards of these views, in the order the views are given (each view once). */
export function guardsOn(paths: Iterable<string>): LeaveGuard[] {
  const all = guardStore.get();
  return [...new Set(paths)].flatMap((p) => all.filter((g) => g.path === p));
}

export function dirtyPaths(): string[] {
  return [...new Set(guardStore.get().map((g) => g.path))];
}

/** beforeunload: the browser's own question while anything is unsaved. */
export function onBeforeUnload(e: BeforeUnloadEvent): void {
  if (!guardStore.get().length) return;
  e.preventDefault();
  // older browsers read returnValue
  e.returnValue = '';
}

/** pagehide: the user agreed to leave (or nothing asked); editors undo their server-side writes. */
export function onPageHide(): void {
  for (const g of guardStore.get()) {
    try {
      g.actions().unload?.();
    } catch {
      /* the page is going away: nothing to tell */
    }
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', onBeforeUnload);
  window.addEventListener('pagehide', onPageHide);
}

/** The pathname of the shell view a component is rendered in (cached views stay mounted while another one shows). */
export const ViewPathContext = createContext<string | null>(null);

export function useViewPath(): string {
  const inShell = useContext(ViewPathContext);
  // outside the shell's page area: the address the component was mounted at
  const [own] = useState(() => (typeof window !== 'undefined' ? window.location.pathname : '/'));
  return inShell ?? own;
}

/** While `dirty`, the view this component is in has unsaved edits: leaving or closing it asks first. */
export function useLeaveGuard(dirty: boolean, actions: GuardActions = {}): void {
  const path = useViewPath();
  const ref = useRef(actions);
  useEffect(() => {
    ref.current = actions;
  });
  useEffect(() => {
    if (!dirty) return;
    return registerGuard(path, () => ref.current);
  }, [dirty, path]);
}

/**
 * What the leave question needs of the shell's tabs, registered by the shell (runtime/shell/state.ts) so that
 * editors in feature folders can ask it without importing the app: a view's tab title, closing a view's tab, and
 * reloading a view (a cached list after a save), and the console address a full-window editor was opened from.
 * Without a shell (tests, stories) titles and origins are unknown and the rest does nothing.
 */
export interface ViewHooks {
  title: (path: string) => string | undefined;
  close: (path: string) => void;
  reload: (path: string) => void;
  origin: (path: string) => string | undefined;
}

export const viewHooks: ViewHooks = { title: () => undefined, close: () => undefined, reload: () => undefined, origin: () => undefined };

export function setViewHooks(hooks: ViewHooks): void {
  Object.assign(viewHooks, hooks);
}
