// The SQL script editor (query support, API configuration): monaco in SQL mode, loaded on first use.
import { CodeEditor } from '../crud/fields/CodeEditor';

export interface SqlEditorProps {
  value?: string;
  onChange?: (sql: string) => void;
  readOnly?: boolean;
  height?: number | string;
}

export function SqlEditor({ value = '', onChange, readOnly, height = 240 }: SqlEditorProps) {
  return <CodeEditor language="sql" value={value} onChange={onChange} readOnly={readOnly} height={height} />;
}
