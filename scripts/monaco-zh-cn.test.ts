// The Monaco translation table is built from the installed package: its English texts map to the zh-cn pack.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { monacoZhTable, patchNls } from './monaco-zh-cn';

const dir = path.resolve(import.meta.dirname, '../node_modules/monaco-editor');

describe('monaco in Chinese', () => {
  const table = monacoZhTable(dir);
  it('pairs the English texts of the editor with the zh-cn language pack', () => {
    expect(Object.keys(table).length).toBeGreaterThan(1500);
    expect(table).toMatchObject({ Find: '查找', Cut: '剪切', Copy: '复制', 'Command Palette': '命令面板', 'Change All Occurrences': '更改所有匹配项' });
  });
  it("covers the ESM build's calls (localize('key', 'English'))", () => {
    const esm = readFileSync(path.join(dir, 'esm/vs/editor/contrib/find/browser/findWidget.js'), 'utf8');
    const texts = [...esm.matchAll(/\blocalize2?\(\s*'[^']*'\s*,\s*'((?:[^'\\]|\\.)*)'/g)].map((m) => m[1].replace(/\\'/g, "'"));
    expect(texts.length).toBeGreaterThan(5);
    expect(texts.filter((t) => !table[t])).toEqual([]);
  });
  it('teaches nls.js to look the text up, and refuses a file it does not know', () => {
    const patched = patchNls(readFileSync(path.join(dir, 'esm/vs/nls.js'), 'utf8'), { Find: '查找' });
    expect(patched).toContain('_format(ZH_CN.get(message) ?? message, args)');
    expect(patched).toContain('message = ZH_CN.get(originalMessage) ?? originalMessage;');
    expect(patchNls('export function localize() {}', {})).toBeNull();
  });
});
