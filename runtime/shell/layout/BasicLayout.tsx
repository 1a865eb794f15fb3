// The shell: side menu (220 px, collapsible) or top navigation, a 50 px top bar with the
// breadcrumb and user menu, visited tabs, and the page area that keeps cached pages mounted.
// A route of layout `editor` (the designers) takes the whole window: the frame is left out while it shows, and
// the page area stays where it is in the tree, so the cached views behind it stay mounted; its tab remembers the
// console address it was opened from (its 返回 goes there, runtime/ui/leave.ts).
import { Layout, theme } from 'antd';
import { Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { UNSAFE_LocationContext as LocationContext, useLocation, useNavigationType, useOutlet, type Location } from 'react-router-dom';
import { ViewPathContext } from '../../core/leaveGuard';
import { useStore } from '../../core/store';
import { addView, refreshStore, settingsStore, tagsStore } from '../state';
import { usePhoneShell } from './usePhoneShell';
import { PageBoundary, PageSpin } from './PageBoundary';
import { SideMenu } from './SideMenu';
import { TagsView } from './TagsView';
import { TopBar } from './TopBar';
import { useRouteMeta } from './useRouteMeta';

export const SIDEBAR_WIDTH = 220;
export const HEADER_HEIGHT = 50;
/** An editor's page area: the whole window (the editor lays itself out in it, runtime/datav/DesignerHost). */
const EDITOR_CONTENT = { height: '100dvh', overflow: 'hidden', background: '#fff' } as const;

/**
 * Keeps visited, cacheable pages mounted (hidden) so their state survives tab switches. A hidden page keeps the
 * address it was last shown at: useLocation inside it answers that one, not the address of the page in front, so
 * an editor reading its id from the address (?id=) does not load another record, or none, over unsaved edits while
 * another tab is shown.
 */
export function KeepAlive({ current, cacheable, children }: { current: string; cacheable: boolean; children: ReactNode }) {
  const views = useStore(tagsStore, (s) => s.views);
  const refresh = useStore(refreshStore);
  const location = useLocation();
  const navigationType = useNavigationType();
  const cache = useRef(new Map<string, { node: ReactNode; at: { location: Location; navigationType: typeof navigationType } }>());
  const open = new Set(views.map((v) => v.pathname));
  for (const key of [...cache.current.keys()]) if (!open.has(key) && key !== current) cache.current.delete(key);
  // the same object while the address stays: the pages behind one context value do not re-render for nothing
  const held = cache.current.get(current);
  const at = held && held.at.location === location ? held.at : { location, navigationType };
  if (cacheable) cache.current.set(current, { node: children, at });
  else cache.current.delete(current);
  const slot = (key: string, node: ReactNode, visible: boolean, where: typeof at) => (
    // the refresh count in the key remounts a page on 刷新页面
    <div key={`${key}#${refresh[key] ?? 0}`} data-view={key} style={{ display: visible ? 'block' : 'none' }}>
      {/* the view's own pathname, for its editors' leave guards (useLocation follows the address, not the view) */}
      <ViewPathContext.Provider value={key}>
        <LocationContext.Provider value={where}>
          <PageBoundary>
            <Suspense fallback={<PageSpin />}>{node}</Suspense>
          </PageBoundary>
        </LocationContext.Provider>
      </ViewPathContext.Provider>
    </div>
  );
  return (
    <>
      {[...cache.current.entries()].map(([key, v]) => slot(key, v.node, key === current, v.at))}
      {!cacheable && slot(current, children, true, at)}
    </>
  );
}

export function BasicLayout() {
  const outlet = useOutlet();
  const location = useLocation();
  const meta = useRouteMeta(location.pathname);
  const settings = useStore(settingsStore);
  const { token } = theme.useToken();
  const isMobile = usePhoneShell();
  // On mobile the sidebar starts closed and its state is not persisted.
  const [mobileCollapsed, setMobileCollapsed] = useState(true);
  const collapsed = isMobile ? mobileCollapsed : settings.sidebarCollapsed;

  const title = meta?.title;
  const cacheable = meta?.cache !== false;
  const editor = meta?.layout === 'editor';
  // the last console address shown (not an editor's): where an editor opened from it goes back to
  const consoleAt = useRef<string | undefined>(undefined);
  useEffect(() => {
    const here = location.pathname + location.search;
    if (!title || location.pathname.startsWith('/redirect/')) return;
    addView({ fullPath: here, pathname: location.pathname, title, cache: cacheable, from: editor ? consoleAt.current : undefined });
    document.title = `${title} - 数据服务平台`;
    if (!editor) consoleAt.current = here;
  }, [location.pathname, location.search, title, cacheable, editor]);

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {!settings.topNav && !editor && (
        <Layout.Sider
          width={SIDEBAR_WIDTH}
          collapsed={collapsed}
          collapsedWidth={isMobile ? 0 : 64}
          trigger={null}
          theme="dark"
          // on mobile the open sidebar floats over the page instead of squeezing it
          style={isMobile ? { position: 'fixed', left: 0, top: 0, height: '100vh', overflow: 'auto', zIndex: 1001 } : { position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}
          data-testid="sidebar"
          className={collapsed ? 'dsc-sider-collapsed' : 'dsc-sider-expanded'}
        >
          <div
            style={{
              height: HEADER_HEIGHT,
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              color: '#fff',
              fontWeight: 600,
              fontSize: collapsed ? 14 : 16,
              whiteSpace: 'nowrap',
              overflow: 'hidden',
            }}
          >
            {collapsed ? '数据' : '数据服务平台'}
          </div>
          <SideMenu collapsed={collapsed} onNavigate={() => isMobile && setMobileCollapsed(true)} />
        </Layout.Sider>
      )}
      {isMobile && !collapsed && !settings.topNav && !editor && (
        <div onClick={() => setMobileCollapsed(true)} style={{ position: 'fixed', inset: 0, background: 'rgba(0,0,0,.3)', zIndex: 1000 }} data-testid="sidebar-mask" />
      )}
      <Layout>
        {!editor && <TopBar collapsed={collapsed} onToggle={() => (isMobile ? setMobileCollapsed((c) => !c) : undefined)} trail={meta?.trail ?? []} title={meta?.title} />}
        {settings.tagsView && !editor && <TagsView />}
        <Layout.Content data-testid={editor ? 'editor-frame' : undefined} style={editor ? EDITOR_CONTENT : { margin: 12, padding: 16, background: token.colorBgContainer, borderRadius: token.borderRadiusLG, minHeight: 280 }}>
          <KeepAlive current={location.pathname} cacheable={meta?.cache !== false && !location.pathname.startsWith('/redirect/')}>
            {outlet}
          </KeepAlive>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
