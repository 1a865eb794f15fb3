// Initial routes plus the ones built from the user's menu. Layout kinds: default (the shell),
// parent (a directory shown inside the shell), iframe (an embedded link inside the shell),
// site (top bar only), full (the page alone) and editor (the page alone in the whole window, under the shell's
// route so that its cached views, tabs and leave guards live on: BasicLayout drops its frame for it).
// The login page is the only one in the entry chunk: the layouts (menus, tabs, drawers, dropdowns) and
// the error pages load on first use, so signing in does not download the signed-in shell.
import { lazy, Suspense, useMemo, type ComponentType, type ReactNode } from 'react';
import { Navigate, useLocation, useParams, useRoutes, type RouteObject } from 'react-router-dom';
import { useStore } from '../core/store';
import { resolveComponent } from '../pages/registry';
import { loadChunk } from '../core/chunk';
import { PageBoundary, PageSpin } from './layout/PageBoundary';
import { FullPageSpin } from './Guard';
import { Login } from './Login';
import { directoryRedirects, type RouteDef } from './menu';
import { useMenuRoutes } from './routeDefs';
import { menuStore } from './state';

/** /redirect/<path>?q → replaces the route with /<path>?q (used to re-render a page). */
function RedirectTo() {
  const params = useParams();
  const { search } = useLocation();
  return <Navigate to={`/${params['*'] ?? ''}${search}`} replace />;
}

const BasicLayout = lazy(() => loadChunk(() => import('./layout/BasicLayout')).then((m) => ({ default: m.BasicLayout })));
const SiteLayout = lazy(() => loadChunk(() => import('./layout/SiteLayout')).then((m) => ({ default: m.SiteLayout })));
const AppFrame = lazy(() => loadChunk(() => import('./AppFrame')).then((m) => ({ default: m.AppFrame })));
const ErrorPage = lazy(() => loadChunk(() => import('./ErrorPage')).then((m) => ({ default: m.ErrorPage })));

/** A lazily loaded layout or page outside the shell: a failed chunk shows the error instead of a blank page. */
function Loaded({ children }: { children: ReactNode }) {
  return (
    <PageBoundary>
      <Suspense fallback={<FullPageSpin />}>{children}</Suspense>
    </PageBoundary>
  );
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
const FormFill = resolveComponent('view:FormFill') as ComponentType;


export function AppRoutes() {
  const menus = useStore(menuStore, (s) => s.menus);
  const defs = useMenuRoutes();
  const tree = useMemo<RouteObject[]>(() => {
    const inShell = defs.filter((d) => d.path !== '/index' && ['default', 'parent', 'iframe', 'editor'].includes(d.layout));
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
      {
        element: (
          <Loaded>
            <AppFrame />
          </Loaded>
        ),
        children: [
      { path: '/form/fill', element: <Loaded><FormFill /></Loaded>, id: 'ViewFormFill' },
      { path: '/404', element: <Loaded><ErrorPage code={404} /></Loaded> },
      { path: '/401', element: <Loaded><ErrorPage code={401} /></Loaded> },
      { path: '/', element: <Navigate to="/index" replace />, id: 'NaviHome' },
      ...dirs.map(([from, to]) => ({ path: from, element: <Navigate to={to} replace /> })),
      {
        element: (
          <Loaded>
            <BasicLayout />
          </Loaded>
        ),
        children: [
          { path: '/index', element: <Home />, id: 'ViewHome' },
          { path: '/user/profile', element: <Profile /> },
          // inside the shell, so passing through it keeps the cached pages
          { path: '/redirect/*', element: <RedirectTo /> },
          ...inShell.map((d) => ({ path: d.path, element: element(d) })),
        ],
      },
      { element: <Loaded><SiteLayout /></Loaded>, children: site.map((d) => ({ path: d.path, element: element(d) })) },
      ...full.map((d) => ({ path: d.path, element: wrap(element(d)) })),
      // 404 only for a path nobody's menu routes; one that exists for others is 401 无权限访问
      { path: '*', element: <Loaded><ErrorPage code={404} probe /></Loaded> },
        ],
      },
    ];
  }, [defs, menus]);
  return useRoutes(tree);
}
