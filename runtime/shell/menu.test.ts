import { describe, expect, it } from 'vitest';
import platform from '../../schemas/menus/platform.json';
import { decide } from './Guard';
import { safeRedirect } from './Login';
import {
  buildRoutes, collectPerms, directoryRedirects, extractAuthorization, navTree, openKeysFor, topNavCount, type MenuEntry,
} from './menu';

const menus = platform.items as MenuEntry[];

describe('menu → routes', () => {
  const routes = buildRoutes(menus);
  const byPath = Object.fromEntries(routes.map((r) => [r.path, r]));

  it('routes pages (C/V) with their component, not directories, buttons or new-tab links', () => {
    expect(byPath['/data/datasource']).toMatchObject({ component: 'page:datasource', layout: 'default', cache: true });
    expect(byPath['/ai/chat-form'].component).toBe('view:ChatForm');
    expect(byPath['/data']).toBeUndefined();
    expect(byPath['/system/help']).toBeUndefined();
    expect(routes.some((r) => r.entry.type === 'F')).toBe(false);
    expect(byPath['/data/model'].trail.map((e) => e.name)).toEqual(['数据管理', '模型管理']);
  });

  it('joins relative child paths to the parent, keeps layouts, iframe links and cache flags', () => {
    const tree: MenuEntry[] = [
      {
        key: 'a', name: 'A', type: 'M', path: '/a',
        children: [
          { key: 'b', name: 'B', type: 'C', path: 'b', component: 'view:X', cache: false },
          { key: 'c', name: 'C', type: 'C', path: 'c', link: 'https://example.com', layout: 'iframe' },
          { key: 'd', name: 'D', type: 'V', path: 'd/:id', component: 'page:d', layout: 'full', hidden: true },
          { key: 'e', name: 'E', type: 'C', path: 'e', link: 'https://example.com', newTab: true },
        ],
      },
    ];
    const r = buildRoutes(tree);
    expect(r.map((x) => [x.path, x.layout, x.cache])).toEqual([
      ['/a/b', 'default', false],
      ['/a/c', 'iframe', true],
      ['/a/d/:id', 'full', true],
    ]);
    expect(directoryRedirects(tree, r)).toEqual({ '/a': '/a/b' });
    // V pages and hidden entries are routed but not in the navigation
    expect(navTree(tree)[0].children!.map((n) => n.key)).toEqual(['/a/b', '/a/c', '/a/e']);
  });

  it('collects permission strings and finds the open directories of a page', () => {
    expect(collectPerms(menus)).toEqual(expect.arrayContaining(['gemini:datasource:add', 'gemini:datasource:list', 'remote:etl:list']));
    const nav = navTree(menus);
    expect(nav.map((n) => n.entry.name)).toEqual(['首页', '数据管理', 'API管理', '可视化', '运维管理', '智能应用', '系统管理']);
    expect(openKeysFor(nav, '/ops/etl')).toEqual(['/ops']);
  });

  it('top navigation fits 100 px items, at most 20, keeping a slot for 更多', () => {
    expect(topNavCount(1000, 5)).toBe(5);
    expect(topNavCount(450, 5)).toBe(3); // 4 fit, one becomes 更多
    expect(topNavCount(5000, 30)).toBe(19);
    expect(topNavCount(50, 3)).toBe(1);
  });
});

describe('guard', () => {
  it('decides per the spec', () => {
    for (const p of ['/auth-redirect', '/bind', '/register', '/login']) expect(decide(p, null, undefined)).toBe('pass');
    expect(decide('/index', 'tok', 'admin')).toBe('pass');
    expect(decide('/index', 'tok', undefined)).toBe('load');
    expect(decide('/index', null, undefined)).toBe('authorize');
  });

  it('finds authorization in the query and after the hash, and strips it', () => {
    expect(extractAuthorization('http://h/x?a=1&authorization=T1#top')).toEqual({ token: 'T1', cleaned: '/x?a=1#top' });
    expect(extractAuthorization('http://h/#/page?b=2&authorization=T2')).toEqual({ token: 'T2', cleaned: '/#/page?b=2' });
    expect(extractAuthorization('http://h/p#authorization=T3')).toEqual({ token: 'T3', cleaned: '/p' });
    expect(extractAuthorization('http://h/p?x=1')).toBeNull();
  });

  it('login follows only in-app redirects', () => {
    expect(safeRedirect('/data/model?x=1')).toBe('/data/model?x=1');
    expect(safeRedirect(null)).toBe('/');
    expect(safeRedirect('//evil.example')).toBe('/');
    expect(safeRedirect('https://evil.example')).toBe('/');
    expect(safeRedirect('/login?redirect=/x')).toBe('/');
  });
});
