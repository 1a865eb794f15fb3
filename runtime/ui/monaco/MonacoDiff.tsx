import { useEffect, useRef } from 'react';
import { monaco } from './setup';

/** Narrower than this (a phone) the diff is shown inline: two columns of ~200 px cannot be read. */
export const SIDE_BY_SIDE_MIN_WIDTH = 480;

export interface MonacoDiffProps {
  original: string;
  modified: string;
  language?: string;
  height?: number | string;
}

/** A read-only side-by-side diff (left: original, right: modified); loaded lazily through SqlDiff. */
export default function MonacoDiff({ original, modified, language = 'plaintext', height = 240 }: MonacoDiffProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const left = monaco.editor.createModel(original, language);
    const right = monaco.editor.createModel(modified, language);
    // the spec's editor settings: font 12, tab size 2 (a model's own option in monaco)
    for (const m of [left, right]) m.updateOptions({ tabSize: 2 });
    const editor = monaco.editor.createDiffEditor(host.current!, {
      readOnly: true,
      originalEditable: false,
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 12,
      scrollBeyondLastLine: false,
      // side by side, line by line: monaco falls back to the inline view below 900 px (its default), which a
      // diff inside a card of the approval screen often is; only a phone-sized width reads better inline
      renderSideBySide: true,
      useInlineViewWhenSpaceIsLimited: true,
      renderSideBySideInlineBreakpoint: SIDE_BY_SIDE_MIN_WIDTH,
      renderOverviewRuler: false,
      ignoreTrimWhitespace: false,
    });
    editor.setModel({ original: left, modified: right });
    return () => {
      editor.dispose();
      left.dispose();
      right.dispose();
    };
  }, [original, modified, language]);
  return <div ref={host} data-testid="monaco-diff" style={{ height, border: '1px solid #d9d9d9', borderRadius: 6 }} />;
}
