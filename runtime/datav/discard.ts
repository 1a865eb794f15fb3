// Widgets a designer created on the server (a drop calls widget/add at once) that the user then chose not to keep:
// 不保存, or leaving the page after the browser asked. They are deleted with widget/delete. Until the server has
// answered, their ids stay in localStorage, so a delete cut off by the page unloading (or by a network fault) is
// done before a designer or preview next reads widgets of that kind (flushDiscarded); a save forgets them.
import { ApiError, FIXED_HEADERS, get } from '../core/request';
import { getToken } from '../core/token';

export const DISCARD_KEY = 'dsc.discardedWidgets';
/** a delete that never got through is given up after this long */
const MAX_AGE_MS = 7 * 24 * 3600 * 1000;

/** widget id → the kind's path prefix (/datav/screen, /jimu/form) and when it was discarded */
type Pending = Record<string, { prefix: string; at: number }>;

function read(): Pending {
  try {
    const v = JSON.parse(localStorage.getItem(DISCARD_KEY) ?? '{}') as Pending;
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

function write(p: Pending): void {
  try {
    if (Object.keys(p).length) localStorage.setItem(DISCARD_KEY, JSON.stringify(p));
    else localStorage.removeItem(DISCARD_KEY);
  } catch {
    /* storage full or blocked: the delete itself still runs */
  }
}

function remember(prefix: string, ids: readonly string[]): void {
  const p = read();
  const at = Date.now();
  for (const id of ids) p[id] = { prefix, at };
  write(p);
}

/** The ids are settled (deleted, or saved again): nothing more to do for them. */
export function forgetDiscarded(ids: readonly string[]): void {
  const p = read();
  if (!ids.some((id) => id in p)) return;
  for (const id of ids) delete p[id];
  write(p);
}

export function pendingDiscards(prefix: string): string[] {
  return Object.entries(read())
    .filter(([, v]) => v.prefix === prefix)
    .map(([id]) => id);
}

/** True when the widget is gone: deleted now, or refused by the server (already deleted, no longer allowed). */
async function deleteOne(prefix: string, id: string): Promise<boolean> {
  try {
    await get(`${prefix}/widget/delete`, { id }, { quiet: true });
    return true;
  } catch (err) {
    // status 1: the server answered with a reason (组件不存在 …); trying again would not change it
    return err instanceof ApiError && err.status === 1;
  }
}

/** Deletes the widgets; never rejects (what did not get through is tried again later). */
export async function discardWidgets(prefix: string, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  remember(prefix, ids);
  const gone = await Promise.all(ids.map((id) => deleteOne(prefix, id)));
  forgetDiscarded(ids.filter((_, i) => gone[i]));
}

/** The page is unloading: the deletes go out with keepalive (they outlive the page) and stay remembered. */
export function discardOnUnload(prefix: string, ids: readonly string[]): void {
  if (!ids.length) return;
  remember(prefix, ids);
  const token = getToken();
  for (const id of ids) {
    try {
      void fetch(`/api${prefix}/widget/delete?id=${encodeURIComponent(id)}`, {
        keepalive: true,
        headers: { ...FIXED_HEADERS, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      }).catch(() => undefined);
    } catch {
      /* no fetch: the next designer load deletes them */
    }
  }
}

/** Before reading widgets of a kind: deletes what an earlier discard left undone (old entries are given up). */
export async function flushDiscarded(prefix: string): Promise<void> {
  const p = read();
  const now = Date.now();
  const stale = Object.keys(p).filter((id) => now - p[id].at > MAX_AGE_MS);
  if (stale.length) forgetDiscarded(stale);
  const ids = pendingDiscards(prefix);
  if (ids.length) await discardWidgets(prefix, ids);
}
