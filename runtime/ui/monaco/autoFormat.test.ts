import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTO_FORMAT_MS, autoFormatJson } from './autoFormat';

function fakeEditor(initial: string) {
  let text = initial;
  let listener: () => void = () => undefined;
  const run = vi.fn(async () => {
    text = JSON.stringify(JSON.parse(text), null, 2);
    listener(); // the formatter's edit fires a change too
  });
  return {
    type(next: string) {
      text = next;
      listener();
    },
    run,
    editor: {
      onDidChangeModelContent: (l: () => void) => ((listener = l), { dispose: () => (listener = () => undefined) }),
      getValue: () => text,
      getAction: () => ({ run }),
    },
  };
}

describe('JSON editors format themselves once typing pauses (500 ms)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('formats valid JSON after the pause, once; leaves half-typed JSON alone', async () => {
    const f = fakeEditor('');
    const handle = autoFormatJson(f.editor);
    f.type('{"a":1,');
    await vi.advanceTimersByTimeAsync(AUTO_FORMAT_MS + 10);
    expect(f.run).not.toHaveBeenCalled();
    f.type('{"a":1,"b":[1,2]}');
    await vi.advanceTimersByTimeAsync(AUTO_FORMAT_MS - 100);
    expect(f.run).not.toHaveBeenCalled(); // still typing
    await vi.advanceTimersByTimeAsync(200);
    expect(f.run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(AUTO_FORMAT_MS * 2);
    expect(f.run).toHaveBeenCalledTimes(1); // formatted text is left as it is
    handle.dispose();
    f.type('{"c":2}');
    await vi.advanceTimersByTimeAsync(AUTO_FORMAT_MS * 2);
    expect(f.run).toHaveBeenCalledTimes(1);
  });
});
