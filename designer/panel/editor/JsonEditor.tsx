import { Input } from 'antd';
import { lazy, Suspense } from 'react';
import type { JsonEditorProps } from './types';

export type { JsonEditorProps } from './types';

// monaco is heavy: it loads only when a JSON editor is first shown.
const MonacoJsonEditor = lazy(() => import('./MonacoJsonEditor'));

// jsdom (unit tests) cannot run monaco; a textarea with the same contract stands in.
const inJsdom = typeof navigator !== 'undefined' && /jsdom/i.test(navigator.userAgent);

export function JsonEditor(props: JsonEditorProps) {
  const height = props.height ?? 300;
  const plain = <PlainJsonEditor {...props} height={height} />;
  if (inJsdom) return plain;
  return (
    <Suspense fallback={<div style={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center', color: '#8c8c8c', border: '1px solid #d9d9d9', borderRadius: 6 }}>编辑器加载中…</div>}>
      <MonacoJsonEditor {...props} height={height} />
    </Suspense>
  );
}

function PlainJsonEditor({ value, onChange, height, readOnly, ariaLabel }: JsonEditorProps) {
  return (
    <Input.TextArea
      aria-label={ariaLabel ?? 'JSON'}
      value={value}
      readOnly={readOnly}
      spellCheck={false}
      style={{ height, fontFamily: 'monospace', fontSize: 12, tabSize: 2, resize: 'none' }}
      onChange={(e) => onChange?.(e.target.value)}
    />
  );
}
