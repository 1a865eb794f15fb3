// Catches a page's render error or a failed chunk load so the shell around it survives.
import { Button, Result, Spin } from 'antd';
import { Component, type ReactNode } from 'react';

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
    const chunk = error.name === 'ChunkLoadError';
    return (
      <Result
        status={chunk ? 'warning' : 'error'}
        title={chunk ? '页面代码加载失败' : '页面出错了'}
        subTitle={`${error.name}: ${error.message}`}
        extra={
          <Button type="primary" onClick={() => window.location.reload()}>
            刷新页面
          </Button>
        }
      />
    );
  }
}
