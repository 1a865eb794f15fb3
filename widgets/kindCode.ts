// Each kind's code, loaded on first use: widgets/<widgetName>/index.ts is a chunk of its own (import.meta.glob
// without `eager`), so a page downloads only the kinds it shows, and the echarts code (widgets/charts/echarts.ts)
// and a kind's extensions or map data only when a kind that imports them is shown.
// The declarations (declarations.ts) stay in the main bundle: the catalogue, the panels and createWidget need them.
import { createElement, lazy, useState, type ComponentType } from 'react';
import { widgetDeclarations } from './declarations';
import type { WidgetKindProps } from './types';

export type KindComponent = ComponentType<WidgetKindProps<any>>;
type KindModule = Record<string, unknown>;

/** How long a kind's code may take to arrive before the widget says it did not (as the shell's page chunks). */
const LOAD_TIMEOUT = 120_000;

/**
 * widgets/<folder>/index.ts, by folder. No hand-kept list: a folder with a declaration and an index.ts is a kind.
 * Vite turns each entry into `() => import('./<folder>/index.ts')`: one chunk per kind, shared code in shared chunks.
 */
const loaders: Record<string, () => Promise<KindModule>> = Object.fromEntries(
  Object.entries(import.meta.glob<KindModule>('./*/index.ts')).map(([file, load]) => [file.split('/')[1], load]),
);
for (const folder of Object.keys(loaders)) {
  if (!Object.hasOwn(widgetDeclarations, folder)) throw new Error(`部件文件夹 widgets/${folder} 缺少声明 ${folder}.widget.json`);
}

/** True when widgets/<name>/index.ts exists (checked by the registry for every declaration). */
export function hasKindCode(name: string): boolean {
  return Object.hasOwn(loaders, name);
}

const loaded = new Map<string, KindComponent>();
const pending = new Map<string, Promise<KindComponent>>();

/** The kind's component if its code has arrived, else undefined. */
export function loadedKindComponent(name: string): KindComponent | undefined {
  return loaded.get(name);
}

/**
 * Loads the kind's code once (later calls share the first). Never rejects: code that does not arrive resolves to a
 * component that says so on the widget with a 重试 button, and is asked for again by the next call.
 */
export function loadKindComponent(name: string): Promise<KindComponent> {
  const ready = loaded.get(name);
  if (ready) return Promise.resolve(ready);
  let p = pending.get(name);
  if (!p) {
    p = withTimeout(loaders[name]!()).then(
      (mod) => {
        const view = widgetDeclarations[name]?.widgetViewName;
        const component = (mod.default ?? (view ? mod[view] : undefined)) as KindComponent | undefined;
        if (!component) throw new Error(`部件 ${name} 没有组件：widgets/${name}/index.ts 应默认导出它`);
        loaded.set(name, component);
        pending.delete(name);
        return component;
      },
      (err: unknown) => {
        pending.delete(name);
        return failedKind(name, err);
      },
    );
    pending.set(name, p);
  }
  return p;
}

/** Starts loading the named kinds (unknown names are skipped); resolves when all have arrived or failed. */
export async function preloadWidgetKinds(names: Iterable<string>): Promise<void> {
  await Promise.all([...new Set(names)].filter(hasKindCode).map(loadKindComponent));
}

function withTimeout<T>(p: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`超过 ${LOAD_TIMEOUT / 1000} 秒`)), LOAD_TIMEOUT);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** What a widget shows when its kind's code did not arrive: the reason, and 重试 (which draws the kind once it comes). */
function failedKind(name: string, err: unknown): KindComponent {
  const reason = err instanceof Error ? err.message : String(err);
  return function KindLoadFailed(props: WidgetKindProps<any>) {
    const [retried, setRetried] = useState<KindComponent | null>(null);
    const [busy, setBusy] = useState(false);
    // arrived meanwhile (a retry here or on another widget of the kind)
    const now = retried ?? loaded.get(name);
    if (now) return createElement(now, props);
    return createElement(
      'div',
      { role: 'alert', 'data-widget-failed': name, style: failedStyle },
      `部件代码加载失败（${reason}）`,
      createElement(
        'button',
        {
          type: 'button',
          disabled: busy,
          style: { marginLeft: 8 },
          onClick: () => {
            setBusy(true);
            void loadKindComponent(name).then((c) => {
              setBusy(false);
              if (loaded.get(name) === c) setRetried(() => c);
            });
          },
        },
        busy ? '加载中…' : '重试',
      ),
    );
  };
}

const failedStyle = { width: '100%', height: '100%', boxSizing: 'border-box', padding: 8, fontSize: 12, color: '#faad14', border: '1px dashed #faad14', overflow: 'hidden' } as const;

/**
 * The kind's component for React: a React.lazy whose first render is synchronous when the code is already here
 * (preloadWidgetKinds, or another widget of the kind drew first), so a preloaded page never shows a fallback; else
 * it suspends until the code arrives. One per kind, so the element type of a widget never changes.
 */
export function lazyKindComponent(name: string): KindComponent {
  return lazy(() => {
    const ready = loaded.get(name);
    // React.lazy takes any thenable: one that calls back at once makes the first render synchronous
    if (ready) return { then: (resolve: (m: { default: KindComponent }) => void) => resolve({ default: ready }) } as unknown as Promise<{ default: KindComponent }>;
    return loadKindComponent(name).then((c) => ({ default: c }));
  });
}
