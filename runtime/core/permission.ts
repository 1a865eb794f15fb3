// Permission checks for UI conveniences (the server is the real guard).
import { createElement, Fragment, type ReactNode } from 'react';
import { sessionStore, type SessionState } from './session';
import { useStore } from './store';
import { ALL_PERMISSIONS, hasAnyPermission } from '../../common/permissions';

/** `*:*:*`: grants everything. The reading of permission strings is common/permissions.ts, the server's too. */
export const ALL_PERMISSION = ALL_PERMISSIONS;

/** Pure check against a given session state. */
export function checkPermission(state: Pick<SessionState, 'permissions' | 'permissionSwitch'>, perms: string[]): boolean {
  if (!Array.isArray(perms) || perms.length === 0) {
    throw new Error('请设置操作权限标签值，例如 perms={["system:user:add"]}');
  }
  if (!state.permissionSwitch) return true;
  return hasAnyPermission(state.permissions ?? [], perms);
}

/** True when the signed-in user holds `*:*:*` or any of `perms`. Throws if `perms` is missing or empty. */
export function hasPermission(perms: string[]): boolean {
  return checkPermission(sessionStore.get(), perms);
}

/** Re-renders when the session changes. */
export function usePermission(): (perms: string[]) => boolean {
  const state = useStore(sessionStore);
  return (perms: string[]) => checkPermission(state, perms);
}

/** Renders children only when the user has one of `perms`. */
export function Permission({ perms, children, fallback = null }: { perms: string[]; children: ReactNode; fallback?: ReactNode }) {
  const can = usePermission();
  return createElement(Fragment, null, can(perms) ? children : fallback);
}
