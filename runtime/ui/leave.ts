// Leaving an editing screen (API design / configuration, designers, wiki, page manager, query support, dialogs).
// Unsaved-change tracking (spec part 2 §4): a snapshot taken on load and save; the editor registers its unsaved
// edits with useLeaveGuard (runtime/core/leaveGuard.ts, the one registry) and every way out asks 数据有变化，确定要放弃保存吗？
// first: the shell's menus, tabs, breadcrumb and user menu (useConfirmLeave), the editor's own Back (useLeave) and the
// browser's reload or close (beforeunload). It lives in the UI kit so editors in feature folders use it without
// importing the app; the shell's tabs are reached through viewHooks (runtime/core/leaveGuard.ts).
import { createElement, Fragment, useCallback, useState, type Dispatch, type SetStateAction } from 'react';
import { App, Button } from 'antd';
import type { HookAPI } from 'antd/es/modal/useModal';
import { useLocation, useNavigate } from 'react-router-dom';
import { DISCARD_CONFIRM, guardsOn, releaseGuards, useLeaveGuard, useViewPath, viewHooks, type GuardActions } from '../core/leaveGuard';

export { DISCARD_CONFIRM, dirtyPaths, useLeaveGuard, type GuardActions } from '../core/leaveGuard';

type Answer = 'cancel' | 'discard' | 'save';

/** The one question: 取消 (stay), 不保存 (throw the edits away) and, when the editor can, 保存. */
export function askDiscard(modal: Pick<HookAPI, 'confirm'>, opts: { canSave: boolean; name?: string }): Promise<Answer> {
  return new Promise((resolve) => {
    let settled = false;
    const box: { destroy(): void } = modal.confirm({
      title: opts.name ? `提示：「${opts.name}」` : '提示',
      content: DISCARD_CONFIRM,
      onCancel: () => answer('cancel'),
      // in antd's own button row (.ant-modal-confirm-btns)
      footer: () =>
        createElement(
          Fragment,
          null,
          createElement(Button, { key: 'cancel', onClick: () => answer('cancel') }, '取消'),
          createElement(Button, { key: 'discard', danger: true, onClick: () => answer('discard'), 'data-testid': 'leave-discard' }, '不保存'),
          opts.canSave ? createElement(Button, { key: 'save', type: 'primary', onClick: () => answer('save') }, '保存') : null,
        ),
    });
    function answer(a: Answer) {
      if (settled) return;
      settled = true;
      box.destroy();
      resolve(a);
    }
  });
}

let asking = false;

/**
 * Asks about each of `paths` that has unsaved edits, one question per view (naming it when it is not `current`).
 * True when every one was saved or thrown away; a thrown-away view is reloaded from its saved state unless `closing`.
 */
export async function confirmLeave(modal: Pick<HookAPI, 'confirm'>, paths: string[], current?: string, closing = false): Promise<boolean> {
  if (asking) return false;
  asking = true;
  try {
    for (const path of new Set(paths)) {
      const guards = guardsOn([path]);
      if (!guards.length) continue;
      const saves = guards.map((g) => g.actions().save).filter((s): s is NonNullable<GuardActions['save']> => !!s);
      const canSave = guards.length === 1 && saves.length === 1;
      const name = path === current ? undefined : viewHooks.title(path);
      const a = await askDiscard(modal, { canSave, name });
      if (a === 'cancel') return false;
      if (a === 'save') {
        if (!(await saves[0]().catch(() => false))) return false; // the editor said why; its edits stay
      } else {
        for (const g of guards) await g.actions().discard?.();
      }
      releaseGuards((g) => g.path === path);
      if (a === 'discard' && !closing) viewHooks.reload(path);
    }
    return true;
  } finally {
    asking = false;
  }
}

/**
 * Runs `go` at once when none of `paths` has unsaved edits (the current view by default), else after the question.
 * Every navigation and tab close of the shell goes through here.
 */
export function useConfirmLeave(): (go: () => void, paths?: string[], closing?: boolean) => void {
  const { modal } = App.useApp();
  const { pathname } = useLocation();
  return useCallback(
    (go, paths = [pathname], closing = false) => {
      if (!guardsOn(paths).length) return go();
      void confirmLeave(modal, paths, pathname, closing).then((ok) => ok && go());
    },
    [modal, pathname],
  );
}

/**
 * An editor's draft with useDirty over it; `load(v)` puts a record just read (or a fresh one) in the draft and
 * takes it as the snapshot, so it is not dirty.
 */
export function useDraft<T>(initial: T): { draft: T; setDraft: Dispatch<SetStateAction<T>>; dirty: boolean; mark: (v?: T) => void; load: (v: T) => void } {
  const [draft, setDraft] = useState<T>(initial);
  const { dirty, mark } = useDirty(draft);
  const load = (v: T) => {
    setDraft(v);
    mark(v);
  };
  return { draft, setDraft, dirty, mark, load };
}

/** `dirty` is true while `current` differs from the last snapshot; `mark` takes a new snapshot. */
export function useDirty<T>(current: T): { dirty: boolean; mark: (v?: T) => void } {
  const [saved, setSaved] = useState<string | null>(null);
  const text = JSON.stringify(current);
  const dirty = saved !== null && saved !== text;
  const mark = useCallback((v?: T) => setSaved(JSON.stringify(v === undefined ? current : v)), [current]);
  return { dirty, mark };
}

/**
 * Back: closes this screen's tab and goes to `to` (reloaded), asking first when there are unsaved changes. While
 * `dirty`, the screen's edits are also guarded against every other way out (menus, tabs, reload); `actions` says how
 * to save or discard them there. With `{ origin: true }` Back goes where the user opened the screen from (a
 * full-window editor's console page, `viewHooks.origin`), `to` when that is unknown (opened by its address).
 */
export function useLeave(to: string, dirty: boolean, actions?: GuardActions, back?: { origin?: boolean }): (opts?: { force?: boolean }) => void {
  const toOrigin = back?.origin === true;
  const navigate = useNavigate();
  const view = useViewPath();
  const { modal } = App.useApp();
  useLeaveGuard(dirty, actions);
  return useCallback(
    (opts) => {
      const target = (toOrigin && viewHooks.origin(view)) || to;
      const go = () => {
        releaseGuards((g) => g.path === view);
        viewHooks.close(view);
        // the list is a cached page: reload it so it shows what was just saved, submitted or approved
        viewHooks.reload(new URL(target, 'http://x').pathname);
        navigate(target);
      };
      if (opts?.force) return go();
      void confirmLeave(modal, [view], view, true).then((ok) => ok && go());
    },
    [modal, navigate, view, to, toOrigin],
  );
}

/** An id query parameter (`id`, `pageId`…) as a positive integer, or null. */
export function idParam(search: string, name = 'id'): number | null {
  const v = new URLSearchParams(search).get(name);
  return v && /^\d{1,10}$/.test(v) && Number(v) > 0 ? Number(v) : null;
}
