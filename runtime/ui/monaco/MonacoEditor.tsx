import { useEffect, useRef } from 'react';
import { monaco } from './setup';
import { autoFormatJson } from './autoFormat';

export interface MonacoEditorProps {
  /** null (a stored field never filled) reads as empty: monaco refuses anything but text */
  value?: string | null;
  onChange?: (v: string) => void;
  language?: string;
  height?: number | string;
  readOnly?: boolean;
  /** model URI, so JSON schema diagnostics can match it (fileMatch) */
  path?: string;
  onMount?: (editor: monaco.editor.IStandaloneCodeEditor, m: typeof monaco) => void;
}

/** A controlled monaco editor; loaded lazily through CodeEditor. */
export default function MonacoEditor({ value: given, onChange, language = 'plaintext', height = 200, readOnly, path, onMount }: MonacoEditorProps) {
  const value = given ?? '';
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const changeRef = useRef(onChange);
  changeRef.current = onChange;

  useEffect(() => {
    const uri = path ? monaco.Uri.parse(path) : undefined;
    // a model left behind under the same URI (remount) would block the schema match
    if (uri) monaco.editor.getModel(uri)?.dispose();
    const model = monaco.editor.createModel(value, language, uri);
    const editor = monaco.editor.create(host.current!, {
      model,
      readOnly,
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 12,
      scrollBeyondLastLine: false,
      tabSize: 2,
    });
    editorRef.current = editor;
    const sub = editor.onDidChangeModelContent(() => changeRef.current?.(editor.getValue()));
    const formatter = language === 'json' && !readOnly ? autoFormatJson(editor) : null;
    onMount?.(editor, monaco);
    return () => {
      sub.dispose();
      formatter?.dispose();
      editor.dispose();
      model.dispose();
    };
    // created once; value/readOnly changes are synced below
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const ed = editorRef.current;
    if (ed && value !== ed.getValue()) ed.setValue(value);
  }, [value]);
  useEffect(() => {
    editorRef.current?.updateOptions({ readOnly });
  }, [readOnly]);

  return <div ref={host} data-testid="monaco-host" style={{ height, border: '1px solid #d9d9d9', borderRadius: 6 }} />;
}
