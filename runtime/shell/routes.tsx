// Initial routes plus the ones built from the user's menu. Layout kinds: default (the shell),
// parent (a directory shown inside the shell), iframe (an embedded link inside the shell),
// site (top bar only) and full (the page alone).
import { Suspense, useMemo, type ComponentType } from 'react';
import { Navigate, useLocation, useParams, useRoutes, type RouteObject } from 'react-router-dom';
import { useStore } from '../core/store';
import { resolveComponent } from '../pages/registry';
import { BasicLayout } from './layout/BasicLayout';
import { SiteLayout } from './layout/SiteLayout';
import { PageBoundary, PageSpin } from './layout/PageBoundary';
import { Login } from './Login';
import { ErrorPage } from './ErrorPage';
import { buildRoutes, directoryRedirects, type RouteDef } from './menu';
import { menuStore } from './state';

/** /redirect/<path>?q → replaces the route with /<path>?q (used to re-render a page). */
function RedirectTo() {
  const params = useParams();
  const { search } = useLocation();
  return <Navigate to={`/${params['*'] ?? ''}${search}`} replace />;
}

function IframePage({ src, title }: { src: string; title: string }) {
  return <iframe src={src} title={title} style={{ width: '100%', height: 'calc(100vh - 140px)', border: 0 }} />;
}

function element(def: RouteDef) {
  if (def.layout === 'iframe' && def.link) return <IframePage src={def.link} title={def.title} />;
  const Comp = resolveComponent(def.component) as ComponentType;
  return <Comp />;
}

const Home = resolveComponent('view:Home') as ComponentType;
const Profile = resolveComponent('view:Profile') as ComponentType;

/** Static meta for the initial routes inside the shell. */
export const STATIC_META: Record<string, { title: string; cache: boolean }> = {
  '/index': { title: '首页', cache: true },
  '/user/profile': { title: '个人中心', cache: false },
};

export function useMenuRoutes(): RouteDef[] {
  const menus = useStore(menuStore, (s) => s.menus);
  return useMemo(() => buildRoutes(menus), [menus]);
}

export function AppRoutes() {
  const menus = useStore(menuStore, (s) => s.menus);
  const defs = useMenuRoutes();
  const tree = useMemo<RouteObject[]>(() => {
    const inShell = defs.filter((d) => d.path !== '/index' && ['default', 'parent', 'iframe'].includes(d.layout));
    const site = defs.filter((d) => d.layout === 'site');
    const full = defs.filter((d) => d.layout === 'full');
    const dirs = Object.entries(directoryRedirects(menus, defs)).filter(([p]) => !defs.some((d) => d.path === p));
    const wrap = (node: JSX.Element) => (
      <PageBoundary>
        <Suspense fallback={<PageSpin />}>{node}</Suspense>
      </PageBoundary>
    );
    return [
      { path: '/login', element: <Login /> },
      { path: '/404', element: <ErrorPage code={404} /> },
      { path: '/401', element: <ErrorPage code={401} /> },
      { path: '/', element: <Navigate to="/index" replace />, id: 'NaviHome' },
      ...dirs.map(([from, to]) => ({ path: from, element: <Navigate to={to} replace /> })),
      {
        element: <BasicLayout />,
        children: [
          { path: '/index', element: <Home />, id: 'ViewHome' },
          { path: '/user/profile', element: <Profile /> },
          // inside the shell, so passing through it keeps the cached pages
          { path: '/redirect/*', element: <RedirectTo /> },
          ...inShell.map((d) => ({ path: d.path, element: element(d) })),
        ],
      },
      { element: <SiteLayout />, children: site.map((d) => ({ path: d.path, element: element(d) })) },
      ...full.map((d) => ({ path: d.path, element: wrap(element(d)) })),
      { path: '*', element: <ErrorPage code={404} /> },
    ];
  }, [defs, menus]);
  return useRoutes(tree);
}
