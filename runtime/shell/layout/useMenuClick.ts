// What a click on a menu item does: internal pages navigate; links open in a new tab,
// embed (iframe layout) or replace the page; newTab entries open in a new tab.
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { browser } from '../../core/browser';
import { safeFrameSrc } from '../../core/urls';
import { useConfirmLeave } from '../../ui/leave';
import type { NavNode } from '../menu';

export function targetOf(node: NavNode): string {
  const q = node.entry.query ? `?${new URLSearchParams(node.entry.query).toString()}` : '';
  return node.path + q;
}

export function useMenuClick(onNavigate?: () => void) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // leaving a view with unsaved edits asks first (ui/leave.ts)
  const leave = useConfirmLeave();
  return useCallback(
    (node: NavNode) => {
      const e = node.entry;
      if (e.link && e.layout !== 'iframe') {
        const href = safeFrameSrc(e.link); // a stored link never runs code (javascript:, data:…)
        if (!href) return;
        if (e.newTab) window.open(href, '_blank', 'noopener');
        else leave(() => browser.assign(href));
        return;
      }
      if (e.newTab) {
        window.open(targetOf(node), '_blank', 'noopener');
        return;
      }
      const go = () => {
        navigate(targetOf(node));
        onNavigate?.();
      };
      if (node.path === pathname) go();
      else leave(go);
    },
    [navigate, onNavigate, leave, pathname],
  );
}

export function findNode(nodes: NavNode[], key: string): NavNode | undefined {
  for (const n of nodes) {
    if (n.key === key) return n;
    const inner = n.children && findNode(n.children, key);
    if (inner) return inner;
  }
  return undefined;
}
