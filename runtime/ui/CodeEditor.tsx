import { lazy, Suspense } from 'react';
import { Input } from 'antd';
import type { MonacoEditorProps } from './monaco/MonacoEditor';

const Monaco = lazy(() => import('./monaco/MonacoEditor'));

/** Code field (e.g. a shell variable value). Monaco loads on first use; a textarea stands in meanwhile. */
export function CodeEditor(props: MonacoEditorProps & { disabled?: boolean }) {
  const { disabled, ...rest } = props;
  const fallback = (
    <Input.TextArea value={props.value ?? ''} onChange={(e) => props.onChange?.(e.target.value)} disabled={disabled} rows={6} style={{ fontFamily: 'monospace' }} />
  );
  return (
    <Suspense fallback={fallback}>
      <Monaco height={200} {...rest} readOnly={disabled || props.readOnly} />
    </Suspense>
  );
}
