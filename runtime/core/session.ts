// The signed-in user: token in localStorage, user/roles/permissions in a store
// filled from GET /api/uams/session/find.
import { browser } from './browser';
import { t } from './messages';
import { get, post, LOGOUT_PATH } from './request';
import { createStore, useStore } from './store';
import { getToken, removeToken, setToken } from './token';

export { getToken, setToken, removeToken, TOKEN_KEY } from './token';

export interface SessionUser {
  token: string;
  id: string | number;
  username: string;
  nickName?: string;
  phoneNumber?: string;
  email?: string;
  avatar?: string;
  roles: string[];
  permissions: string[];
  /** false → permission checks are off: everyone may do everything. */
  permissionSwitch: boolean;
  /** Other sites an embedded page may hand the session token to (EMBED_TOKEN_ORIGINS). */
  embedTokenOrigins?: string[];
  /** An admin set the password: nothing but the change is allowed until the user picks their own (issue 21). */
  mustChangePassword?: boolean;
  /** Marks the server may set on a user that must not get in. */
  deleted?: boolean;
  notEffective?: boolean;
}

export interface SessionState {
  user: SessionUser | null;
  roles: string[];
  permissions: string[];
  permissionSwitch: boolean;
}

const empty: SessionState = { user: null, roles: [], permissions: [], permissionSwitch: true };

export const sessionStore = createStore<SessionState>(empty);

export function useSession(): SessionState {
  return useStore(sessionStore);
}

export function setSessionUser(user: SessionUser): void {
  sessionStore.set({
    user,
    roles: user.roles ?? [],
    permissions: user.permissions ?? [],
    permissionSwitch: user.permissionSwitch !== false,
  });
}

/** Fetches the session; rejects (and leaves the store empty) for a deleted or not yet effective user. */
/** quiet: no message and no "session expired" box (the guard logs out and leaves on failure anyway). */
export async function loadSession({ quiet = false }: { quiet?: boolean } = {}): Promise<SessionUser> {
  const user = await get<SessionUser>('/uams/session/find', undefined, quiet ? { quiet: true } : undefined);
  if (!user || !user.username) throw new Error(t('notEffective'));
  // spec part 1 §4: a session marked deleted is rejected as "not yet effective"
  if (user.deleted) throw new Error(t('notEffective'));
  if (user.notEffective) throw new Error(t('notEffective'));
  setSessionUser(user);
  return user;
}

/** Forgets the session locally (no server call). */
export function clearSession(): void {
  removeToken();
  sessionStore.set(empty);
}

/**
 * Logs out on the server. On success the request layer already sends the browser to the URL the
 * server returned; on failure we go to the login page with a redirect back to the current address.
 * Resolves to the URL the browser is sent to.
 */
export async function logout(): Promise<string> {
  const hadToken = Boolean(getToken());
  try {
    if (!hadToken) throw new Error('no token');
    // The request layer has already removed the token and sent the browser away; the store is
    // left as is so the page does not re-route while it unloads.
    const url = await post<string>(LOGOUT_PATH, undefined, { quiet: true });
    return url || '/login';
  } catch {
    clearSession();
    const url = `/login?redirect=${encodeURIComponent(browser.currentAddress())}`;
    browser.assign(url);
    return url;
  }
}

/** Stores the token of a fresh sign-in; the guard loads the session on the next navigation. */
export function signIn(token: string): void {
  setToken(token);
  sessionStore.set(empty);
}
