// The preview's tools (fit modes, 变量) out of sight until the pointer comes near their corner (issue 35 §7), so
// they never cover the screen's top-right corner, where templates put a clock. With a mouse: shown while the
// pointer is within NEAR_PX of where they sit (or in a popup they opened), hidden HIDE_MS after it leaves; on a
// touch screen (no hover) a small handle in the corner shows and hides them. The keyboard reaches them too (Tab
// shows them while one of them has the focus, PreviewTools.css).
import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Button } from 'antd';
import { ToolOutlined } from '@ant-design/icons';
import './PreviewTools.css';

/** How near (px) the pointer must come to the tools' box to show them. */
export const NEAR_PX = 48;
/** How long (ms) the tools stay after the pointer left their corner. */
export const HIDE_MS = 600;
/** A popup the tools opened (the 变量 popover): the pointer in it keeps them shown. */
export const TOOLS_POPUP_CLASS = 'preview-tools-popup';

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Whether a point is within `margin` px of a box. */
export function isNear(p: { x: number; y: number }, box: Box, margin = NEAR_PX): boolean {
  return p.x >= box.left - margin && p.x <= box.right + margin && p.y >= box.top - margin && p.y <= box.bottom + margin;
}

const NO_HOVER = '(hover: none)';
function watchHover(changed: () => void) {
  const q = window.matchMedia?.(NO_HOVER);
  q?.addEventListener('change', changed);
  return () => q?.removeEventListener('change', changed);
}
const noHover = () => window.matchMedia?.(NO_HOVER).matches ?? false;

/** True while the pointer is near `el` (or over a tools popup), and HIDE_MS more. */
function usePointerNear(el: HTMLElement | null): boolean {
  const [near, setNear] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => {
    if (!el) return undefined;
    const set = (on: boolean) => {
      clearTimeout(timer.current);
      if (on) setNear(true);
      else timer.current = setTimeout(() => setNear(false), HIDE_MS);
    };
    const onMove = (e: PointerEvent) => {
      if (e.pointerType === 'touch') return;
      const inPopup = e.target instanceof Element && e.target.closest(`.${TOOLS_POPUP_CLASS}`);
      set(Boolean(inPopup) || isNear({ x: e.clientX, y: e.clientY }, el.getBoundingClientRect()));
    };
    // the pointer left the window (the page's edge is often how one reaches the corner and goes on)
    const onOut = (e: PointerEvent) => !e.relatedTarget && set(false);
    window.addEventListener('pointermove', onMove, { passive: true });
    document.addEventListener('pointerout', onOut);
    return () => {
      clearTimeout(timer.current);
      window.removeEventListener('pointermove', onMove);
      document.removeEventListener('pointerout', onOut);
    };
  }, [el]);
  return near;
}

export function PreviewTools({ children }: { children: ReactNode }) {
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const near = usePointerNear(el);
  const touch = useSyncExternalStore(watchHover, noHover, () => false);
  // touch: the handle's state; a tap elsewhere (not in the tools or their popup) puts them away
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!open) return undefined;
    const away = (e: PointerEvent) => {
      const t = e.target instanceof Element ? e.target : null;
      if (!t?.closest(`.preview-tools, .preview-tools-handle, .${TOOLS_POPUP_CLASS}`)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);
  const shown = near || open;
  return (
    <>
      <div ref={setEl} className="preview-tools" data-testid="preview-tools" data-shown={shown} data-handle={touch}>
        {children}
      </div>
      {touch && (
        <Button
          className="preview-tools-handle"
          data-testid="preview-tools-handle"
          size="small"
          shape="circle"
          icon={<ToolOutlined />}
          aria-label={open ? '收起预览工具' : '显示预览工具'}
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
        />
      )}
    </>
  );
}
