// Shell state: the menu tree, layout settings and visited tabs. Settings and tabs persist in localStorage.
import { setViewHooks } from '../core/leaveGuard';
import { createStore } from '../core/store';
import type { MenuEntry } from './menu';

export const menuStore = createStore<{ menus: MenuEntry[]; loaded: boolean }>({ menus: [], loaded: false });

export const DEFAULT_COLOR = '#1677ff';
/** Default blue plus the 9 preset theme colours. */
export const THEME_COLORS = [DEFAULT_COLOR, '#f5222d', '#fa541c', '#fa8c16', '#faad14', '#52c41a', '#13c2c2', '#2f54eb', '#722ed1', '#eb2f96'];

export interface LayoutSettings {
  sidebarCollapsed: boolean;
  topNav: boolean;
  themeColor: string;
  tagsView: boolean;
  showHelp: boolean;
  showMessage: boolean;
}

export const SETTINGS_KEY = 'dsc.layout';
const defaults: LayoutSettings = { sidebarCollapsed: false, topNav: false, themeColor: DEFAULT_COLOR, tagsView: true, showHelp: false, showMessage: false };

function load<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw ? { ...fallback, ...JSON.parse(raw) } : fallback;
  } catch {
    return fallback;
  }
}

export const settingsStore = createStore<LayoutSettings>(load(SETTINGS_KEY, defaults));
settingsStore.subscribe(() => localStorage.setItem(SETTINGS_KEY, JSON.stringify(settingsStore.get())));

export function updateSettings(patch: Partial<LayoutSettings>): void {
  settingsStore.set((s) => ({ ...s, ...patch }));
}

/** Mobile by user agent: the sidebar starts closed there (usePhoneShell also takes a window as narrow as a phone). */
export const isMobile = typeof navigator !== 'undefined' && /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile/i.test(navigator.userAgent);

export interface VisitedView {
  /** pathname + search: the tab's address */
  fullPath: string;
  pathname: string;
  title: string;
  cache: boolean;
  affix?: boolean;
  /** an editor view (layout `editor`): the console address it was opened from, where its 返回 goes */
  from?: string;
}

export const TAGS_KEY = 'dsc.visitedViews';
const HOME_VIEW: VisitedView = { fullPath: '/index', pathname: '/index', title: '首页', cache: true, affix: true };

function loadViews(): VisitedView[] {
  try {
    const list = JSON.parse(localStorage.getItem(TAGS_KEY) ?? '[]') as VisitedView[];
    return [HOME_VIEW, ...list.filter((v) => v && v.pathname && v.pathname !== HOME_VIEW.pathname)];
  } catch {
    return [HOME_VIEW];
  }
}

export const tagsStore = createStore<{ views: VisitedView[] }>({ views: loadViews() });
tagsStore.subscribe(() => localStorage.setItem(TAGS_KEY, JSON.stringify(tagsStore.get().views.filter((v) => !v.affix))));

export function addView(view: VisitedView): void {
  tagsStore.set((s) => {
    const i = s.views.findIndex((v) => v.pathname === view.pathname);
    if (i < 0) return { views: [...s.views, view] };
    const cur = s.views[i];
    const from = view.from ?? cur.from;
    if (cur.fullPath === view.fullPath && cur.title === view.title && cur.from === from) return s;
    const views = [...s.views];
    views[i] = { ...cur, fullPath: view.fullPath, title: view.title, cache: view.cache, from };
    return { views };
  });
}

export function removeViews(pred: (v: VisitedView) => boolean): void {
  tagsStore.set((s) => ({ views: s.views.filter((v) => v.affix || !pred(v)) }));
}

/** Bumped per pathname to remount a cached page (the tab menu's 刷新页面). Not persisted. */
export const refreshStore = createStore<Record<string, number>>({});

export function refreshView(pathname: string): void {
  refreshStore.set((s) => ({ ...s, [pathname]: (s[pathname] ?? 0) + 1 }));
}

// the leave question (runtime/ui/leave.ts) names, closes and reloads the shell's tabs through these
setViewHooks({
  title: (path) => tagsStore.get().views.find((v) => v.pathname === path)?.title,
  close: (path) => removeViews((v) => v.pathname === path),
  reload: refreshView,
  origin: (path) => tagsStore.get().views.find((v) => v.pathname === path)?.from,
});

export function resetShellState(): void {
  menuStore.set({ menus: [], loaded: false });
}
