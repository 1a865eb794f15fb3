// Monaco in Chinese. monaco-editor's ESM build (what Vite bundles) calls localize('key', 'English text') and
// ignores the language packs it ships: those (dev/vs/nls.messages.zh-cn.js) are an array indexed by the numbers the
// AMD build was compiled with, where the same calls read localize(123, 'English text'). This plugin pairs the two
// by the English text (dev/vs/editor/editor.main.js holds every numbered call) and teaches esm/vs/nls.js to look
// the text up: the context menu, the find widget, hovers and the command palette then speak Chinese. Nothing is
// fetched: the table is built from the installed package when the app is built.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

const NLS_JS = /[\\/]monaco-editor[\\/]esm[\\/]vs[\\/]nls\.js(\?.*)?$/;
/** A numbered call of the AMD build with its English text: localize(12, "…") or (0, nls.localize)(12, '…'). */
const NUMBERED = /\blocalize2?\)?\(\s*(\d+)\s*,\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)/g;

/** The string a JavaScript literal of the bundle stands for (quotes of all three kinds, escapes). */
function literal(text: string): string {
  const body = text.slice(1, -1);
  if (text[0] === '"') return JSON.parse(text) as string;
  // single quotes or a template without substitutions: same escapes as a double-quoted string once quotes swap
  return JSON.parse(`"${body.replace(/\\'/g, "'").replace(/\\`/g, '`').replace(/"/g, '\\"')}"`) as string;
}

/** English text → Chinese, from the package's AMD bundle and its zh-cn language pack. */
export function monacoZhTable(monacoDir: string): Record<string, string> {
  const bundle = readFileSync(path.join(monacoDir, 'dev/vs/editor/editor.main.js'), 'utf8');
  const pack = readFileSync(path.join(monacoDir, 'dev/vs/nls.messages.zh-cn.js'), 'utf8');
  const holder: { _VSCODE_NLS_MESSAGES?: (string | null)[] } = {};
  // the pack is `define([], function () { globalThis._VSCODE_NLS_MESSAGES = [...] })`: run it against a stand-in
  new Function('globalThis', 'define', pack)(holder, (_deps: unknown, factory: () => void) => factory());
  const zh = holder._VSCODE_NLS_MESSAGES ?? [];
  const table: Record<string, string> = {};
  for (const m of bundle.matchAll(NUMBERED)) {
    const chinese = zh[Number(m[1])];
    if (typeof chinese !== 'string') continue;
    let english: string;
    try {
      english = literal(m[2]);
    } catch {
      continue;
    }
    // the same English text says the same thing in Chinese; the first wording found is kept
    if (!(english in table)) table[english] = chinese;
  }
  return table;
}

/** esm/vs/nls.js with the table and the look-ups in localize and localize2; null when its code is not as expected. */
export function patchNls(code: string, table: Record<string, string>): string | null {
  const plain = '    return _format(message, args);\n}';
  const second = 'message = originalMessage;\n    }';
  if (code.split(plain).length !== 2 || code.split(second).length !== 2) return null;
  return (
    `const ZH_CN = new Map(Object.entries(${JSON.stringify(table)}));\n` +
    code.replace(plain, '    return _format(ZH_CN.get(message) ?? message, args);\n}').replace(second, 'message = ZH_CN.get(originalMessage) ?? originalMessage;\n    }')
  );
}

export function monacoZhCn(): Plugin {
  let table: Record<string, string> | undefined;
  return {
    name: 'dsc:monaco-zh-cn',
    enforce: 'pre',
    transform(code, id) {
      if (!NLS_JS.test(id)) return null;
      const monacoDir = path.resolve(path.dirname(id.replace(/\?.*$/, '')), '../..');
      if (!existsSync(path.join(monacoDir, 'dev/vs/nls.messages.zh-cn.js'))) {
        this.warn('monaco-editor ships no dev/vs/nls.messages.zh-cn.js: the editor stays in English');
        return null;
      }
      table ??= monacoZhTable(monacoDir);
      const patched = patchNls(code, table);
      if (!patched) {
        this.warn('monaco-editor/esm/vs/nls.js is not as expected: the editor stays in English');
        return null;
      }
      return { code: patched, map: null };
    },
  };
}
