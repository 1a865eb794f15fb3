// The designer's keys (issue 9 §4): Ctrl+Z undo, Ctrl+Shift+Z / Ctrl+Y redo, arrows move 1 px (Shift: 10),
// Ctrl+C / Ctrl+V copy and paste, Delete removes, Ctrl+S saves, Ctrl+G groups, Ctrl+Shift+G ungroups, Ctrl+A (Cmd+A)
// selects every layer neither locked nor hidden (instead of the page's text). Only while this designer is on
// screen (a cached designer in a hidden tab stays quiet) and never while the user types in a field or an editor;
// Ctrl+A only while the focus is in the designer (the canvas, its panels' buttons) or nowhere.
import { useEffect, useRef, type RefObject } from 'react';
import type { Designer } from './store';

/** The key goes to a field or an editor: the designer leaves it alone. */
export const typing = (t: EventTarget | null) => {
  const el = t as HTMLElement | null;
  return Boolean(el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || el.closest('.monaco-editor')));
};
/** The focus is inside `root`, or on no element in particular (the page's body). */
const focusIn = (root: HTMLElement) => {
  const active = document.activeElement;
  return !active || active === document.body || root.contains(active);
};
/** A dialog is open over the designer: its keys are the dialog's. */
export const dialogOpen = () => Boolean(document.querySelector('.ant-modal-wrap:not([style*="display: none"])'));

export function useDesignerKeys(root: RefObject<HTMLElement>, designer: Designer, pageId: string, on: { onSave: () => void; onCopied: (n: number) => void }) {
  const callbacks = useRef(on);
  callbacks.current = on;
  useEffect(() => {
    const handler = (e: KeyboardEvent) => {
      const el = root.current;
      if (!el || el.offsetParent === null || typing(e.target) || dialogOpen()) return;
      const mod = e.ctrlKey || e.metaKey;
      const k = e.key.toLowerCase();
      let done = true;
      if (mod && k === 'z' && !e.shiftKey) designer.undo();
      else if (mod && ((k === 'z' && e.shiftKey) || k === 'y')) designer.redo();
      else if (mod && k === 'c') {
        const n = designer.copy();
        if (n) callbacks.current.onCopied(n);
      } else if (mod && k === 'v') designer.paste(pageId);
      else if (mod && k === 's') callbacks.current.onSave();
      else if (mod && k === 'a' && !e.shiftKey && !e.altKey && focusIn(el)) designer.selectAll();
      else if (mod && k === 'g') {
        if (e.shiftKey) designer.ungroup();
        else designer.group();
      }
      else if (!mod && (k === 'delete' || k === 'backspace')) designer.remove(designer.store.get().selected);
      else if (!mod && k.startsWith('arrow')) {
        const step = e.shiftKey ? 10 : 1;
        designer.nudge(k === 'arrowleft' ? -step : k === 'arrowright' ? step : 0, k === 'arrowup' ? -step : k === 'arrowdown' ? step : 0);
      } else done = false;
      if (done) e.preventDefault();
    };
    document.addEventListener('keydown', handler);
    return () => document.removeEventListener('keydown', handler);
  }, [root, designer, pageId]);
}
