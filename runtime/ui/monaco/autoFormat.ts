// The spec's editor auto-format (delay 500 ms): once typing pauses, a JSON editor whose text is valid JSON
// is formatted with the editor's own formatter (cursor kept). Half-typed JSON is left exactly as typed.
// Works on any monaco editor instance (the runtime's and the designer's load monaco separately).

export const AUTO_FORMAT_MS = 500;

interface Formattable {
  onDidChangeModelContent(listener: () => void): { dispose(): void };
  getValue(): string;
  getAction(id: string): { run(): Promise<void> } | null;
}

export function autoFormatJson(editor: Formattable, delayMs = AUTO_FORMAT_MS): { dispose(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let formatting = false;
  const sub = editor.onDidChangeModelContent(() => {
    if (formatting) return; // the formatter's own edit
    clearTimeout(timer);
    timer = setTimeout(() => {
      const text = editor.getValue();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return;
      }
      if (JSON.stringify(parsed, null, 2) === text) return;
      const action = editor.getAction('editor.action.formatDocument');
      if (!action) return;
      formatting = true;
      void action.run().finally(() => {
        formatting = false;
      });
    }, delayMs);
  });
  return {
    dispose() {
      clearTimeout(timer);
      sub.dispose();
    },
  };
}
