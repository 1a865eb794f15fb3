// The route guard (spec part 1 §2): whitelist, token + user → proceed, token without user →
// load session and menus then navigate again, no token → authorization query or login.
import { Spin } from 'antd';
import { Suspense, lazy, useEffect, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { browser } from '../core/browser';
import { get } from '../core/request';
import { clearSession, getToken, loadSession, logout, sessionStore, setToken } from '../core/session';
import { useStore } from '../core/store';
import { MENUS_CHANGED_EVENT } from '../core/menus';
import { extractAuthorization, type MenuEntry } from './menu';
import { menuStore } from './state';

/** Paths that skip every check. /login is public too, or nobody could sign in. */
export const WHITELIST = ['/auth-redirect', '/bind', '/register'];
/** The fill-in route of a designed form is public too: the server decides per form who may fill it in. */
export const PUBLIC_PATHS = [...WHITELIST, '/login', '/form/fill'];

export type GuardDecision = 'pass' | 'load' | 'authorize' | 'login';

export function decide(path: string, token: string | null, username: string | undefined): GuardDecision {
  if (PUBLIC_PATHS.includes(path)) return 'pass';
  if (token) return username ? 'pass' : 'load';
  return 'authorize';
}

export async function loadMenus(): Promise<MenuEntry[]> {
  const menus = await get<MenuEntry[]>('/menu/routes/get', { moduleType: 'platform' }, { quiet: true });
  return Array.isArray(menus) ? menus : [];
}

/** Window event other screens fire after changing menus (e.g. publishing a page): the shell reloads them. */
export { MENUS_CHANGED_EVENT } from '../core/menus';

function useMenuRefresh(active: boolean) {
  useEffect(() => {
    if (!active) return undefined;
    const onChange = () => {
      loadMenus().then((menus) => menuStore.set({ menus, loaded: true }), () => undefined);
    };
    window.addEventListener(MENUS_CHANGED_EVENT, onChange);
    return () => window.removeEventListener(MENUS_CHANGED_EVENT, onChange);
  }, [active]);
}

// only a user whose password an admin set ever sees it: loaded then, not with the login route
const ChangePassword = lazy(() => import('./ChangePassword').then((m) => ({ default: m.ChangePassword })));

export function FullPageSpin() {
  return (
    <div style={{ height: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Spin size="large" tip="加载中…">
        <div style={{ width: 120, height: 60 }} />
      </Spin>
    </div>
  );
}

export function Guard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const username = useStore(sessionStore, (s) => s.user?.username);
  const mustChange = useStore(sessionStore, (s) => s.user?.mustChangePassword === true);
  const menusLoaded = useStore(menuStore, (s) => s.loaded);
  const token = getToken();
  const decision = decide(location.pathname, token, username && menusLoaded ? username : undefined);
  const [failed, setFailed] = useState(false);
  useMenuRefresh(Boolean(username && menusLoaded));

  useEffect(() => {
    if (decision === 'load') {
      let alive = true;
      // quiet: on failure we log out and leave, a "session expired" box would only flash.
      Promise.all([loadSession({ quiet: true }), loadMenus()]).then(
        ([, menus]) => {
          if (!alive) return;
          menuStore.set({ menus, loaded: true });
          // navigate again so the freshly added routes match
          navigate(location.pathname + location.search + location.hash, { replace: true });
        },
        () => {
          if (!alive) return;
          setFailed(true);
          void logout();
        },
      );
      return () => {
        alive = false;
      };
    }
    if (decision === 'authorize') {
      const found = extractAuthorization(window.location.href);
      if (found) {
        setToken(found.token);
        window.history.replaceState(null, '', found.cleaned);
        browser.reload();
        return;
      }
      clearSession();
      const back = location.pathname + location.search + location.hash;
      navigate(back === '/' ? '/login' : `/login?redirect=${encodeURIComponent(back)}`, { replace: true });
    }
    return undefined;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [decision, location.pathname, location.search]);

  // an admin set the password: only the change until the user has picked their own (the server refuses the rest)
  if (decision === 'pass' && mustChange && !PUBLIC_PATHS.includes(location.pathname)) {
    return (
      <Suspense fallback={<FullPageSpin />}>
        <ChangePassword />
      </Suspense>
    );
  }
  if (decision === 'pass') return <>{children}</>;
  return failed ? null : <FullPageSpin />;
}
