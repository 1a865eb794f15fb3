// Resolves a menu entry's `component` to a lazy React component.
//   view:<Name> → default export of runtime/pages/<Name>/index.tsx (add a folder to add a view)
//   settings:<id> → SettingsPage from runtime/crud/index.ts (schemas/settings/<id>.settings.json)
//   page:<id>   → CrudPage from runtime/crud/index.ts, rendered as <CrudPage pageId={id} loadPage={loadCustomPage} />
//                 (a built-in declaration, else a custom page from the page store: customPage.ts)
// Anything unknown renders 页面未找到 instead of crashing.
import { createElement, lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { loadChunk } from '../core/chunk';
import type { PageDeclaration } from '../crud';
import { loadCustomPage } from './customPage';

type Loader<T> = () => Promise<T>;

const views = import.meta.glob<{ default: ComponentType }>('./*/index.tsx');
const crud = import.meta.glob<{ CrudPage: ComponentType<{ pageId: string; loadPage?: (id: string) => Promise<PageDeclaration> }>; SettingsPage: ComponentType<{ settingsId: string }> }>('../crud/index.ts');

// antd's Result loads with the first not-found view, not with the app's entry
const Result = lazy(() => import('antd/es/result'));

export function NotFoundView({ name }: { name?: string }) {
  return createElement(Suspense, { fallback: null }, createElement(Result, { status: '404', title: '页面未找到', subTitle: name ? `找不到页面组件：${name}` : undefined }));
}

/** Names of the available views (folders under runtime/pages). */
export function viewNames(): string[] {
  return Object.keys(views).map((k) => k.split('/')[1]);
}

const cache = new Map<string, LazyExoticComponent<ComponentType>>();

export function resolveComponent(component: string | undefined): LazyExoticComponent<ComponentType> | ComponentType {
  if (!component) return () => createElement(NotFoundView, {});
  const hit = cache.get(component);
  if (hit) return hit;
  const [kind, name] = component.split(':');
  let made: LazyExoticComponent<ComponentType> | undefined;
  if (kind === 'view' && views[`./${name}/index.tsx`]) {
    made = lazy(() => loadChunk(views[`./${name}/index.tsx`] as Loader<{ default: ComponentType }>));
  } else if (kind === 'page' && name) {
    const load = crud['../crud/index.ts'];
    made = lazy(async (): Promise<{ default: ComponentType }> => {
      if (!load) return { default: () => createElement(NotFoundView, { name: component }) };
      const mod = await loadChunk(load);
      const Page = mod.CrudPage;
      if (!Page) return { default: () => createElement(NotFoundView, { name: component }) };
      return { default: () => createElement(Page, { pageId: name, loadPage: loadCustomPage }) };
    });
  } else if (kind === 'settings' && name) {
    const load = crud['../crud/index.ts'];
    made = lazy(async (): Promise<{ default: ComponentType }> => {
      const mod = load ? await loadChunk(load) : undefined;
      const Page = mod?.SettingsPage;
      if (!Page) return { default: () => createElement(NotFoundView, { name: component }) };
      return { default: () => createElement(Page, { settingsId: name }) };
    });
  }
  if (!made) return () => createElement(NotFoundView, { name: component });
  cache.set(component, made);
  return made;
}
