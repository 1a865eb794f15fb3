import { useEffect, useRef } from 'react';
import { monaco } from './monacoSetup';
import type { JsonEditorProps } from './types';
import { autoFormatJson } from '../../../runtime/ui/monaco/autoFormat';

/** monaco in JSON mode with the spec's editor settings: font 12, tab size 2, auto-format after 500 ms. */
export default function MonacoJsonEditor({ value, onChange, height = 300, readOnly, ariaLabel }: JsonEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    const editor = monaco.editor.create(host.current!, {
      value,
      language: 'json',
      fontSize: 12,
      tabSize: 2,
      insertSpaces: true,
      detectIndentation: false,
      readOnly,
      minimap: { enabled: false },
      automaticLayout: true,
      scrollBeyondLastLine: false,
      lineNumbersMinChars: 3,
      ariaLabel: ariaLabel ?? 'JSON',
    });
    editorRef.current = editor;
    const sub = editor.onDidChangeModelContent(() => onChangeRef.current?.(editor.getValue()));
    const formatter = readOnly ? null : autoFormatJson(editor);
    return () => {
      sub.dispose();
      formatter?.dispose();
      editor.getModel()?.dispose();
      editor.dispose();
      editorRef.current = null;
    };
    // Created once; value and readOnly are synced below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const editor = editorRef.current;
    // Only push outside changes, so typing never resets the cursor.
    if (editor && editor.getValue() !== value) editor.setValue(value);
  }, [value]);

  useEffect(() => {
    editorRef.current?.updateOptions({ readOnly });
  }, [readOnly]);

  return <div ref={host} data-testid="monaco-json" style={{ height, border: '1px solid #d9d9d9', borderRadius: 6, overflow: 'hidden' }} />;
}
