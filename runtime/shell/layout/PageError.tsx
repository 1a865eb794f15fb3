// What PageBoundary shows in place of a page that failed: loaded only when one fails.
import { Button, Result } from 'antd';

export interface PageErrorProps {
  error: Error;
}



export function PageError({ error }: PageErrorProps) {
  return (
    <Result
      status={error.name === 'ChunkLoadError' ? 'warning' : 'error'}
      title={error.name === 'ChunkLoadError' ? '页面代码加载失败' : '页面出错了'}
      subTitle={`${error.name}: ${error.message}`}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          刷新页面
        </Button>
      }
    />
  );
}
