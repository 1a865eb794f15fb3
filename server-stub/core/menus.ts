// Menu entries in the store: seeded from schemas/menus, plus entries the page manager publishes.
import type { Kysely } from 'kysely';
import type { Item } from '../../schemas/generated/menu.js';
import type { Database } from '../store/schema.js';

/** One menu entry as declared in schemas/menus (type generated from schemas/meta/menu.schema.json). */
export type MenuEntry = Item;

export const ALL_ROLES = ['sys_admin', 'default', 'dev_approve', 'biz_approve', 'designer'];
/** Published custom pages sit under this directory entry. */
export const CUSTOM_DIR_KEY = 'custom';

async function writeEntry(db: Kysely<Database>, moduleType: string, entry: MenuEntry, parentKey: string | null, order: number, roles: string[], custom: number) {
  const { children: _children, roles: _roles, ...own } = entry;
  const row = { parent_key: parentKey, module_type: moduleType, order_num: order, entry: JSON.stringify(own), custom };
  const found = await db.selectFrom('sys_menu').select('id').where('menu_key', '=', entry.key).executeTakeFirst();
  if (found) await db.updateTable('sys_menu').set(row).where('id', '=', found.id).execute();
  else await db.insertInto('sys_menu').values({ menu_key: entry.key, ...row }).execute();
  await db.deleteFrom('sys_role_menu').where('menu_key', '=', entry.key).execute();
  if (roles.length) await db.insertInto('sys_role_menu').values(roles.map((role_key) => ({ role_key, menu_key: entry.key }))).execute();
}

/** Makes the seeded entries of one module exactly what the declaration says; custom entries stay. */
export async function syncSeededMenus(db: Kysely<Database>, moduleType: string, items: MenuEntry[]) {
  const keys: string[] = [];
  const walk = async (list: MenuEntry[], parentKey: string | null, inherited: string[]) => {
    for (const [i, item] of list.entries()) {
      const roles = item.roles ?? inherited;
      keys.push(item.key);
      await writeEntry(db, moduleType, item, parentKey, i, roles, 0);
      if (item.children) await walk(item.children, item.key, roles);
    }
  };
  await walk(items, null, ALL_ROLES);
  const stale = await db.selectFrom('sys_menu').select('menu_key').where('module_type', '=', moduleType).where('custom', '=', 0).execute();
  for (const { menu_key } of stale) {
    if (!keys.includes(menu_key)) {
      await db.deleteFrom('sys_menu').where('menu_key', '=', menu_key).execute();
      await db.deleteFrom('sys_role_menu').where('menu_key', '=', menu_key).execute();
    }
  }
}

/** The declared menus, one module type each (schemas/menus). */
export type ShippedMenus = Record<string, { items: MenuEntry[] }>;

interface FlatEntry {
  moduleType: string;
  entry: MenuEntry;
  parentKey: string | null;
  order: number;
  roles: string[];
  /** what the store row would hold, to compare two shipped versions of one entry */
  sig: string;
}

function flatten(menus: ShippedMenus): Map<string, FlatEntry> {
  const out = new Map<string, FlatEntry>();
  for (const [moduleType, menu] of Object.entries(menus)) {
    const walk = (list: MenuEntry[], parentKey: string | null, inherited: string[]) => {
      for (const [order, item] of list.entries()) {
        const roles = item.roles ?? inherited;
        const { children: _children, roles: _roles, ...own } = item;
        out.set(item.key, { moduleType, entry: item, parentKey, order, roles, sig: JSON.stringify([moduleType, parentKey, order, roles, own]) });
        if (item.children) walk(item.children, item.key, roles);
      }
    };
    walk(menu.items, null, ALL_ROLES);
  }
  return out;
}

/**
 * The declared menus into the store: all of them when the store never recorded what was shipped (`before` null);
 * afterwards only the entries the declaration added, changed or dropped since, so entries and grants changed in
 * the store stay, and a restart with the same declaration writes nothing. Custom entries (page manager) stay.
 */
export async function applyShippedMenus(db: Kysely<Database>, menus: ShippedMenus, before: ShippedMenus | null) {
  if (!before) {
    for (const [moduleType, menu] of Object.entries(menus)) await syncSeededMenus(db, moduleType, menu.items);
    return;
  }
  const now = flatten(menus);
  const old = flatten(before);
  for (const [key, e] of now) {
    if (old.get(key)?.sig !== e.sig) await writeEntry(db, e.moduleType, e.entry, e.parentKey, e.order, e.roles, 0);
  }
  for (const key of old.keys()) {
    if (!now.has(key)) await db.deleteFrom('sys_menu').where('menu_key', '=', key).where('custom', '=', 0).execute();
    if (!now.has(key)) await db.deleteFrom('sys_role_menu').where('menu_key', '=', key).where('menu_key', 'not in', db.selectFrom('sys_menu').select('menu_key')).execute();
  }
}

/** Adds or updates a custom entry (the page manager's publish), visible to `roles`; a republished entry keeps its place. */
export async function upsertMenuEntry(db: Kysely<Database>, entry: MenuEntry, roles: string[], moduleType = 'platform') {
  const dir = await db.selectFrom('sys_menu').select('id').where('menu_key', '=', CUSTOM_DIR_KEY).executeTakeFirst();
  if (!dir) {
    await writeEntry(db, moduleType, { key: CUSTOM_DIR_KEY, name: '自定义页面', type: 'M', path: '/custom', icon: 'AppstoreOutlined' }, null, 900, ALL_ROLES, 1);
  }
  // published again: where an admin placed it in 菜单管理 (its parent and order) stays
  const placed = await db.selectFrom('sys_menu').select(['parent_key', 'order_num']).where('menu_key', '=', entry.key).executeTakeFirst();
  const count = placed ? [] : await db.selectFrom('sys_menu').select('id').where('parent_key', '=', CUSTOM_DIR_KEY).execute();
  await writeEntry(db, moduleType, { ...entry, path: entry.path ?? `/custom/${entry.key}` }, placed ? placed.parent_key : CUSTOM_DIR_KEY, placed ? placed.order_num : count.length, roles, 1);
  // its buttons (type F: the page's permissions, as 角色管理 shows them), exactly the ones given
  const kids = entry.children ?? [];
  const stale = await db.selectFrom('sys_menu').select('menu_key').where('parent_key', '=', entry.key).execute();
  for (const r of stale) if (!kids.some((k) => k.key === r.menu_key)) await removeMenuEntry(db, r.menu_key);
  for (const [i, kid] of kids.entries()) await writeEntry(db, moduleType, kid, entry.key, i, roles, 1);
}

export async function removeMenuEntry(db: Kysely<Database>, key: string) {
  const kids = await db.selectFrom('sys_menu').select('menu_key').where('parent_key', '=', key).execute();
  await db.deleteFrom('sys_menu').where('menu_key', '=', key).execute();
  await db.deleteFrom('sys_role_menu').where('menu_key', '=', key).execute();
  for (const k of kids) if (k.menu_key !== key) await removeMenuEntry(db, k.menu_key);
}

/** A menu entry with every entry under it and their role grants, as the store holds them (for the recycle bin). */
export interface MenuSnapshot {
  rows: Array<{ menu_key: string; parent_key: string | null; module_type: string; order_num: number; entry: string; custom: number }>;
  grants: Array<{ role_key: string; menu_key: string }>;
}

export async function menuSnapshot(db: Kysely<Database>, key: string): Promise<MenuSnapshot> {
  const rows: MenuSnapshot['rows'] = [];
  const walk = async (k: string, depth: number) => {
    const r = await db.selectFrom('sys_menu').select(['menu_key', 'parent_key', 'module_type', 'order_num', 'entry', 'custom']).where('menu_key', '=', k).executeTakeFirst();
    if (!r || depth > 10) return;
    rows.push(r);
    for (const kid of await db.selectFrom('sys_menu').select('menu_key').where('parent_key', '=', k).execute()) if (kid.menu_key !== k) await walk(kid.menu_key, depth + 1);
  };
  await walk(key, 0);
  const grants = rows.length ? await db.selectFrom('sys_role_menu').select(['role_key', 'menu_key']).where('menu_key', 'in', rows.map((r) => r.menu_key)).execute() : [];
  return { rows, grants };
}

/**
 * Puts a snapshot's entries back where they were, with their grants (of roles that still exist). An entry whose parent
 * is gone goes to the top level: answered as `movedToTop` (its name), so the restore can say so.
 */
export async function restoreMenuSnapshot(db: Kysely<Database>, snap: MenuSnapshot): Promise<{ movedToTop: string | null }> {
  let movedToTop: string | null = null;
  const keys = new Set(snap.rows.map((r) => r.menu_key));
  for (const r of snap.rows) {
    let parent = r.parent_key;
    if (parent && !keys.has(parent) && !(await db.selectFrom('sys_menu').select('id').where('menu_key', '=', parent).executeTakeFirst())) {
      parent = null;
      movedToTop = (JSON.parse(r.entry) as { name?: string }).name ?? r.menu_key;
    }
    await db.deleteFrom('sys_menu').where('menu_key', '=', r.menu_key).execute();
    await db.insertInto('sys_menu').values({ ...r, parent_key: parent }).execute();
  }
  const roles = new Set((await db.selectFrom('sys_role').select('role_key').execute()).map((x) => x.role_key));
  const grants = snap.grants.filter((g) => roles.has(g.role_key));
  if (keys.size) await db.deleteFrom('sys_role_menu').where('menu_key', 'in', [...keys]).execute();
  if (grants.length) await db.insertInto('sys_role_menu').values(grants).execute();
  return { movedToTop };
}

export interface MenuNode extends Omit<MenuEntry, 'children' | 'roles'> {
  id: number;
  parentId: number | null;
  children?: MenuNode[];
}

/** The menu tree one user sees: entries granted to one of their roles (all for sys_admin). */
export async function menuTreeFor(db: Kysely<Database>, moduleType: string, roles: string[]): Promise<MenuNode[]> {
  if (!roles.length) return [];
  const all = await db.selectFrom('sys_menu').selectAll().where('module_type', '=', moduleType).orderBy('order_num').orderBy('id').execute();
  // A directory (M) shows when something under it does, wherever an admin moves pages (菜单管理): only pages,
  // views and buttons are granted (sys_role_menu); sys_admin sees every entry.
  const granted = roles.includes('sys_admin') ? null : new Set((await db.selectFrom('sys_role_menu').select('menu_key').where('role_key', 'in', roles).execute()).map((r) => r.menu_key));
  const rows = granted ? all.filter((r) => granted.has(r.menu_key) || (JSON.parse(r.entry) as MenuEntry).type === 'M') : all;
  const byKey = new Map<string, MenuNode>();
  for (const r of rows) byKey.set(r.menu_key, { ...(JSON.parse(r.entry) as Omit<MenuEntry, "children" | "roles">), id: r.id, parentId: null });
  const roots: MenuNode[] = [];
  for (const r of rows) {
    const node = byKey.get(r.menu_key)!;
    const parent = r.parent_key ? byKey.get(r.parent_key) : undefined;
    if (r.parent_key && !parent) continue; // parent not visible: hide the child too
    if (parent) {
      node.parentId = parent.id;
      (parent.children ??= []).push(node);
    } else roots.push(node);
  }
  // A directory left empty for this user is dropped.
  const prune = (list: MenuNode[]): MenuNode[] =>
    list.filter((n) => {
      if (n.children) n.children = prune(n.children);
      return n.type !== 'M' || (n.children?.length ?? 0) > 0;
    });
  return prune(roots);
}

const isExternal = (p: string) => /^(https?:)?\/\//i.test(p);

/**
 * Whether some entry of the module, granted to anyone, routes `path` (directories included, buttons and outside
 * links not). The shell asks it for a path the user's own menu does not route: 401 then, not 404. It answers only
 * yes or no for a path the caller names, so it tells nobody which pages exist, who may see them, or what they hold.
 */
export async function routeExists(db: Kysely<Database>, moduleType: string, path: string): Promise<boolean> {
  const want = path.replace(/\/+$/, '') || '/';
  const rows = await db.selectFrom('sys_menu').select(['menu_key', 'parent_key', 'entry']).where('module_type', '=', moduleType).execute();
  const byKey = new Map(rows.map((r) => [r.menu_key, r]));
  const full = new Map<string, string>();
  const pathOf = (key: string, depth = 0): string => {
    if (full.has(key)) return full.get(key)!;
    const row = byKey.get(key);
    if (!row || depth > 32) return '';
    const own = (JSON.parse(row.entry) as MenuEntry).path ?? '';
    const parent = row.parent_key ? pathOf(row.parent_key, depth + 1) : '';
    const p = !own ? parent : own.startsWith('/') || isExternal(own) ? own : `${parent.replace(/\/$/, '')}/${own}`;
    full.set(key, p);
    return p;
  };
  return rows.some((r) => {
    const e = JSON.parse(r.entry) as MenuEntry;
    if (e.type === 'F' || (e.link && e.layout !== 'iframe')) return false;
    const p = pathOf(r.menu_key);
    return !!p && !isExternal(p) && p.replace(/\/+$/, '') === want;
  });
}

/** The `menus` platform service (core/platform.ts): the menu and permission store over this app's store. */
export interface MenusService {
  /** the tree one user sees (menuTreeFor) */
  treeFor(moduleType: string, roles: string[]): Promise<MenuNode[]>;
  /** whether some entry routes `path` for anyone (routeExists) */
  routeExists(moduleType: string, path: string): Promise<boolean>;
  /** adds or updates a published page's entry under 自定义页面, visible to `roles` */
  upsert(entry: MenuEntry, roles: string[], on?: Kysely<Database>): Promise<void>;
  /** `on`: a caller's transaction (a workspace import writes the page and its entry in one) */
  remove(key: string, on?: Kysely<Database>): Promise<void>;
  /** an entry with everything under it and its grants (what a deleted page takes to the recycle bin) */
  snapshot(key: string): Promise<MenuSnapshot>;
  /** puts a snapshot back (an entry whose parent is gone at the top level, named in movedToTop) */
  restoreSnapshot(snap: MenuSnapshot): Promise<{ movedToTop: string | null }>;
  /** every role key the shipped menus grant to by default */
  readonly allRoles: readonly string[];
}

export function menusService(db: Kysely<Database>): MenusService {
  return {
    treeFor: (moduleType, roles) => menuTreeFor(db, moduleType, roles),
    routeExists: (moduleType, path) => routeExists(db, moduleType, path),
    upsert: (entry, roles, on = db) => upsertMenuEntry(on, entry, roles),
    remove: (key, on = db) => removeMenuEntry(on, key),
    snapshot: (key) => menuSnapshot(db, key),
    restoreSnapshot: (snap) => restoreMenuSnapshot(db, snap),
    allRoles: ALL_ROLES,
  };
}
