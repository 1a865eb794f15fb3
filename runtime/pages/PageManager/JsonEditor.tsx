import { lazy, Suspense } from 'react';
import { Input } from 'antd';
import type { MonacoEditorProps } from '../../ui/monaco/MonacoEditor';
import meta from '../../../schemas/meta/page.schema.json';

const Monaco = lazy(() => import('../../ui/monaco/MonacoEditor'));

// Where the declarations' "$schema": "../meta/page.schema.json" resolves from a model at
// inmemory://console/schemas/pages/<id>.page.json — so monaco finds the schema without fetching.
export const SCHEMA_URI = 'inmemory://console/schemas/meta/page.schema.json';
export const modelPath = (id: string) => `inmemory://console/schemas/pages/${id || 'draft'}.page.json`;

let registered = false;
const register: MonacoEditorProps['onMount'] = (_editor, monaco) => {
  if (registered) return;
  registered = true;
  const { $id: _drop, ...schema } = meta as Record<string, unknown>;
  monaco.languages.json.jsonDefaults.setDiagnosticsOptions({
    validate: true,
    enableSchemaRequest: false,
    allowComments: false,
    schemas: [{ uri: SCHEMA_URI, fileMatch: ['*.page.json'], schema }],
  });
};

/** JSON editor for page declarations: completion and error markers from the page meta-schema. */
export function JsonEditor({ value, onChange, readOnly, path, height }: { value: string; onChange(v: string): void; readOnly?: boolean; path: string; height: number | string }) {
  return (
    <Suspense fallback={<Input.TextArea value={value} onChange={(e) => onChange(e.target.value)} readOnly={readOnly} style={{ height, fontFamily: 'monospace' }} />}>
      <Monaco key={path} value={value} onChange={onChange} readOnly={readOnly} language="json" path={path} height={height} onMount={register} />
    </Suspense>
  );
}
