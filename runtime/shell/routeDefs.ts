// The routes the user's menu gives, and the meta of the initial routes inside the shell: read by the router
// (routes.tsx) and by the layout's title and breadcrumb (layout/useRouteMeta.ts), so neither imports the other.
import { useMemo } from 'react';
import { useStore } from '../core/store';
import { buildRoutes, type RouteDef } from './menu';
import { menuStore } from './state';

/** Static meta for the initial routes inside the shell. */
export const STATIC_META: Record<string, { title: string; cache: boolean }> = {
  '/index': { title: '首页', cache: true },
  '/user/profile': { title: '个人中心', cache: false },
};

export function useMenuRoutes(): RouteDef[] {
  const menus = useStore(menuStore, (s) => s.menus);
  return useMemo(() => buildRoutes(menus), [menus]);
}
