// Every server module has a Chinese name in the SYS_MODULE dictionary (操作日志's 模块 column shows it), and a write
// whose permission names no menu entry still gets a word for what it did (issue 34 item 6).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { modules } from '../modules/index.js';
import { actionWord } from './audit.js';

const dict = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../schemas/dicts/SYS_MODULE.json'), 'utf8')) as { items: Array<{ value: string; label: string }> };

describe('module names', () => {
  it('names every module in Chinese (the ones app.ts wires itself too)', () => {
    const named = new Set(dict.items.map((i) => i.value));
    for (const name of [...modules.map((m) => m.name), 'uams', 'menu']) expect(named.has(name), `SYS_MODULE 缺少模块 ${name}`).toBe(true);
    for (const i of dict.items) expect(i.label).toMatch(/[\u4e00-\u9fa5]/);
  });
  it('words a write by its route when no menu entry names it', () => {
    expect(actionWord('/api/uams/user/password')).toBe('修改密码');
    expect(actionWord('/api/system/user/resetPwd?id=3')).toBe('重置密码');
    expect(actionWord('/api/system/online/forceLogout')).toBe('强制退出');
    expect(actionWord('/api/dataset/info/save')).toBe('保存');
    expect(actionWord('/api/whatever/frobnicate')).toBe('操作');
  });
});
