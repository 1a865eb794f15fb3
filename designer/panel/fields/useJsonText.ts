import { useState } from 'react';

export const toJsonText = (value: unknown) => JSON.stringify(value ?? null, null, 2);

/**
 * Text state for a JSON editor bound to a value: valid JSON that passes `accept` is
 * applied; anything else stays in the editor with a message and is not applied.
 */
export function useJsonText<T>(value: T, apply: (next: T) => void, accept: (parsed: unknown) => string | null = () => null) {
  const [state, setState] = useState(() => ({ value, text: toJsonText(value), error: '' }));
  let current = state;
  if (state.value !== value) {
    // The value changed from outside (or we applied it): show it unless it's what the text already says.
    const shown = safeParse(state.text);
    const same = state.error === '' && shown.ok && toJsonText(shown.value) === toJsonText(value);
    current = { value, text: same ? state.text : toJsonText(value), error: '' };
    setState(current);
  }
  const onText = (text: string) => {
    const parsed = safeParse(text);
    const error = !parsed.ok ? 'JSON 格式错误' : accept(parsed.value);
    setState({ value: current.value, text, error: error ?? '' });
    if (!error && parsed.ok) apply(parsed.value as T);
  };
  return { text: current.text, error: current.error, onText };
}

function safeParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
