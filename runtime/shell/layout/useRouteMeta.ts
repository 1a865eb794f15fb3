// Title, cache flag and breadcrumb trail of the current address.
import { matchPath } from 'react-router-dom';
import type { MenuEntry } from '../menu';
import { STATIC_META, useMenuRoutes } from '../routeDefs';

export interface RouteMeta {
  title: string;
  cache: boolean;
  trail: MenuEntry[];
}

export function useRouteMeta(pathname: string): RouteMeta | undefined {
  const defs = useMenuRoutes();
  const def = defs.find((d) => d.path === pathname) ?? defs.find((d) => matchPath(d.path, pathname));
  if (def) return { title: def.title, cache: def.cache, trail: def.trail };
  const s = STATIC_META[pathname];
  return s ? { ...s, trail: [] } : undefined;
}
