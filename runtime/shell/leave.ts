// Leaving an editing screen (API design / configuration, designers). Unsaved-change tracking (spec part 2 §4): a snapshot taken on load and
// save, Back with changes asks 数据有变化，确定要放弃保存吗？, and closing the browser tab warns too.
import { useCallback, useEffect, useState } from 'react';
import { App } from 'antd';
import { useLocation, useNavigate } from 'react-router-dom';
import { refreshView, removeViews } from './state';

export const DISCARD_CONFIRM = '数据有变化，确定要放弃保存吗？';

/** `dirty` is true while `current` differs from the last snapshot; `mark` takes a new snapshot. */
export function useDirty<T>(current: T): { dirty: boolean; mark: (v?: T) => void } {
  const [saved, setSaved] = useState<string | null>(null);
  const text = JSON.stringify(current);
  const dirty = saved !== null && saved !== text;
  const mark = useCallback((v?: T) => setSaved(JSON.stringify(v === undefined ? current : v)), [current]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  return { dirty, mark };
}

/** Back: closes this screen's tab and goes to `to` (reloaded), asking first when there are unsaved changes. */
export function useLeave(to: string, dirty: boolean): (opts?: { force?: boolean }) => void {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { modal } = App.useApp();
  return useCallback(
    (opts) => {
      const go = () => {
        removeViews((v) => v.pathname === pathname);
        // the list is a cached page: reload it so it shows what was just saved, submitted or approved
        refreshView(to);
        navigate(to);
      };
      if (dirty && !opts?.force) modal.confirm({ title: '提示', content: DISCARD_CONFIRM, okText: '确定', cancelText: '取消', onOk: go });
      else go();
    },
    [dirty, modal, navigate, pathname, to],
  );
}

/** An id query parameter (`id`, `pageId`…) as a positive integer, or null. */
export function idParam(search: string, name = 'id'): number | null {
  const v = new URLSearchParams(search).get(name);
  return v && /^\d{1,10}$/.test(v) && Number(v) > 0 ? Number(v) : null;
}
