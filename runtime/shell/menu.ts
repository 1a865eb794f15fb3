// Menu entries from GET /api/menu/routes/get and the pure functions that turn them into
// routes, side/top menu items, breadcrumbs and permission lists.
export type MenuType = 'M' | 'C' | 'V' | 'F';
/**
 * How a route is framed: `default` / `parent` inside the shell, `iframe` an embedded link inside it, `site` a slim
 * top bar, `full` the page alone, `editor` the page alone in the whole window while the shell's other views stay
 * mounted behind it (the designers: their own top bar with 返回, tabs and leave guards as in the shell).
 */
export type LayoutKind = 'full' | 'site' | 'default' | 'parent' | 'iframe' | 'editor';

export interface MenuEntry {
  id?: string | number;
  key: string;
  parentId?: string | number | null;
  name: string;
  type: MenuType;
  path?: string;
  routeName?: string;
  component?: string;
  link?: string;
  newTab?: boolean;
  layout?: LayoutKind;
  icon?: string;
  hidden?: boolean;
  cache?: boolean;
  group?: boolean;
  query?: Record<string, string>;
  perms?: string;
  children?: MenuEntry[];
}

/** One routable page built from an entry. */
export interface RouteDef {
  path: string;
  title: string;
  layout: LayoutKind;
  cache: boolean;
  component?: string;
  link?: string;
  entry: MenuEntry;
  /** Ancestors then the entry itself, for the breadcrumb. */
  trail: MenuEntry[];
}

const isExternal = (p: string) => /^(https?:)?\/\//i.test(p);

/** An entry's absolute path: absolute paths stay, relative ones join their parent's. */
export function fullPath(entry: MenuEntry, parentPath = ''): string {
  const p = entry.path ?? '';
  if (!p) return parentPath;
  if (p.startsWith('/') || isExternal(p)) return p;
  return `${parentPath.replace(/\/$/, '')}/${p}`;
}

/** Walks the tree calling fn(entry, absolute path, ancestors). */
export function walk(menus: MenuEntry[], fn: (e: MenuEntry, path: string, ancestors: MenuEntry[]) => void, parentPath = '', ancestors: MenuEntry[] = []): void {
  for (const e of menus) {
    const p = fullPath(e, parentPath);
    fn(e, p, ancestors);
    if (e.children?.length) walk(e.children, fn, p, [...ancestors, e]);
  }
}

/** Routes for every page-bearing entry. External links that open a new tab or leave the app get none. */
export function buildRoutes(menus: MenuEntry[]): RouteDef[] {
  const routes: RouteDef[] = [];
  walk(menus, (e, path, ancestors) => {
    if (e.type === 'F' || !path || isExternal(path)) return;
    const layout: LayoutKind = e.layout ?? 'default';
    if (e.link && layout !== 'iframe') return; // opened by the menu click, not routed
    if (e.type === 'M' && !e.component && layout !== 'iframe') return; // a directory: redirected to its first child below
    routes.push({ path, title: e.name, layout, cache: e.cache !== false, component: e.component, link: e.link, entry: e, trail: [...ancestors, e] });
  });
  return routes;
}

/** Directory paths → the first routable descendant, so typing a directory's path lands somewhere. */
export function directoryRedirects(menus: MenuEntry[], routes: RouteDef[]): Record<string, string> {
  const out: Record<string, string> = {};
  walk(menus, (e, path) => {
    if (e.type !== 'M' || !path || e.component) return;
    const first = routes.find((r) => r.path.startsWith(`${path}/`) && !r.entry.hidden);
    if (first) out[path] = first.path;
  });
  return out;
}

/** Permission strings carried by the tree (F buttons and menu pages). */
export function collectPerms(menus: MenuEntry[]): string[] {
  const perms = new Set<string>();
  walk(menus, (e) => {
    e.perms?.split(',').map((s) => s.trim()).filter(Boolean).forEach((p) => perms.add(p));
  });
  return [...perms];
}

/** The visible navigation tree: no buttons (F), no pages (V), no hidden entries. */
export interface NavNode {
  key: string;
  path: string;
  entry: MenuEntry;
  children?: NavNode[];
}

export function navTree(menus: MenuEntry[], parentPath = ''): NavNode[] {
  return menus
    .filter((e) => !e.hidden && (e.type === 'M' || e.type === 'C'))
    .map((e) => {
      const path = fullPath(e, parentPath);
      const children = e.type === 'M' ? navTree(e.children ?? [], path) : undefined;
      return { key: path || e.key, path, entry: e, children };
    })
    .filter((n) => n.entry.type !== 'M' || (n.children?.length ?? 0) > 0);
}

/** Keys of the directories that lead to `pathname` (for opening the side menu). */
export function openKeysFor(nodes: NavNode[], pathname: string): string[] {
  for (const n of nodes) {
    if (n.path === pathname) return [];
    if (n.children) {
      const inner = openKeysFor(n.children, pathname);
      if (inner.length || n.children.some((c) => c.path === pathname)) return [n.key, ...inner];
    }
  }
  return [];
}

/** How many top-level items the top navigation shows: 100 px each, at most 20, at least 1. */
export const TOP_NAV_ITEM_WIDTH = 100;
export const TOP_NAV_MAX = 20;
export function topNavCount(width: number, total: number): number {
  const fit = Math.max(1, Math.floor(width / TOP_NAV_ITEM_WIDTH));
  const visible = Math.min(TOP_NAV_MAX, fit, total);
  // When not all fit, one slot goes to 更多.
  return visible < total ? Math.max(1, visible - 1) : visible;
}

/**
 * Finds an `authorization` value in an address's query or after its hash
 * (e.g. "/x?authorization=T" or "/#/x?a=1&authorization=T"). Returns the token and the address
 * with it removed, or null.
 */
export function extractAuthorization(href: string): { token: string; cleaned: string } | null {
  const url = new URL(href, 'http://localhost');
  const q = url.searchParams.get('authorization');
  if (q) {
    url.searchParams.delete('authorization');
    return { token: q, cleaned: url.pathname + url.search + url.hash };
  }
  const hash = url.hash;
  const qi = hash.indexOf('?');
  const hashQuery = new URLSearchParams(qi >= 0 ? hash.slice(qi + 1) : hash.slice(1));
  const h = hashQuery.get('authorization');
  if (!h) return null;
  hashQuery.delete('authorization');
  const rest = hashQuery.toString();
  const base = qi >= 0 ? hash.slice(0, qi) : '';
  const newHash = rest ? `${base || '#'}${qi >= 0 ? '?' : ''}${rest}` : base;
  return { token: h, cleaned: url.pathname + url.search + (newHash === '#' ? '' : newHash) };
}
