// The read-only result pane: any answer shown as formatted JSON (query results, executed SQL, API answers).
import { Empty, Spin } from 'antd';
import { CodeEditor } from '../ui/CodeEditor';

export interface ResultPaneProps {
  value: unknown;
  loading?: boolean;
  height?: number | string;
  /** shown when there is nothing yet */
  emptyText?: string;
  /** json (default) or e.g. sql for the executed statement */
  language?: string;
}

export function formatResult(value: unknown): string {
  if (typeof value === 'string') {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2) ?? '';
}

export function ResultPane({ value, loading, height = 240, emptyText = '点击“测试”查看结果', language = 'json' }: ResultPaneProps) {
  return (
    <Spin spinning={Boolean(loading)}>
      {value === undefined ? (
        <div style={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center', border: '1px solid #d9d9d9', borderRadius: 6 }}>
          <Empty description={emptyText} />
        </div>
      ) : (
        <CodeEditor language={language} readOnly value={language === 'json' ? formatResult(value) : String(value)} height={height} />
      )}
    </Spin>
  );
}
