// Title, cache flag, breadcrumb trail and layout kind of the current address.
import { matchPath } from 'react-router-dom';
import type { LayoutKind, MenuEntry } from '../menu';
import { STATIC_META, useMenuRoutes } from '../routeDefs';

export interface RouteMeta {
  title: string;
  cache: boolean;
  trail: MenuEntry[];
  /** `editor`: the page takes the whole window (no sidebar, top bar or tabs) */
  layout?: LayoutKind;
}

export function useRouteMeta(pathname: string): RouteMeta | undefined {
  const defs = useMenuRoutes();
  const def = defs.find((d) => d.path === pathname) ?? defs.find((d) => matchPath(d.path, pathname));
  if (def) return { title: def.title, cache: def.cache, trail: def.trail, layout: def.layout };
  const s = STATIC_META[pathname];
  return s ? { ...s, trail: [] } : undefined;
}
