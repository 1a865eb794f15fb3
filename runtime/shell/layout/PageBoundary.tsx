// Catches a page's render error or a failed chunk load so the shell around it survives. The error view
// loads only when needed; when even that cannot load (the network is gone), a plain one stands in.
import { Spin } from 'antd';
import { Component, lazy, Suspense, type ReactNode } from 'react';
import type { PageErrorProps } from './PageError';

function PlainPageError({ error }: PageErrorProps) {
  return (
    <div role="alert" style={{ padding: 48, textAlign: 'center' }}>
      <h3>{error.name === 'ChunkLoadError' ? '页面代码加载失败' : '页面出错了'}</h3>
      <p>{`${error.name}: ${error.message}`}</p>
      <button type="button" onClick={() => window.location.reload()}>
        刷新页面
      </button>
    </div>
  );
}

const LazyPageError = lazy(() => import('./PageError').then((m) => ({ default: m.PageError })).catch(() => ({ default: PlainPageError })));

export function PageSpin() {
  return (
    <div style={{ padding: 80, textAlign: 'center' }}>
      <Spin />
    </div>
  );
}

export class PageBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <Suspense fallback={null}>
        <LazyPageError error={error} />
      </Suspense>
    );
  }
}
