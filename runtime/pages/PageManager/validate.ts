import Ajv from 'ajv';
import { ajvFaults } from '../../../common/ajv-messages';
import meta from '../../../schemas/meta/page.schema.json';
import type { PageDeclaration } from '../../crud';
import { renamed, semanticFaults } from './visual/faults';

/** One fault: `message` names the field in Chinese; `pointer` is where it is (for code, not for people). */
export interface Fault { pointer: string; message: string }
export type Checked = { ok: true; decl: PageDeclaration } | { ok: false; faults: Fault[] };

// The same meta-schema and ajv mode the tests and the server use; verbose, so a message can say what a pattern
// expects. The messages come from the one translator the server uses too (common/ajv-messages.ts), so the
// browser and a refused save word a fault alike: 字段「columns[2].title」缺少必填属性.
const ajv = new Ajv({ strict: true, allErrors: true, verbose: true });
const validate = ajv.compile<PageDeclaration>(meta);

/** A JSON.parse failure in Chinese, by line and column (the engine's own text is English). */
function jsonSyntax(text: string, err: Error): string {
  const m = /position (\d+)/.exec(err.message);
  if (!m) return text.trim() ? '不是合法的 JSON：内容不完整或有多余的字符' : '不是合法的 JSON：内容为空';
  const before = text.slice(0, Number(m[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `不是合法的 JSON：第 ${line} 行第 ${column} 列附近有语法错误（如缺少逗号、引号或括号）`;
}

/**
 * Parses and validates declaration text; every fault names its field the way the visual editor does
 * (列「名称」的宽度…). `dicts`: the dictionary types a column or field may name (omitted: not checked).
 */
export function checkDeclaration(text: string, builtinIds: string[] = [], dicts?: string[]): Checked {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { ok: false, faults: [{ pointer: '', message: jsonSyntax(text, err as Error) }] };
  }
  if (!validate(data)) {
    return { ok: false, faults: ajvFaults(validate.errors, { root: '页面声明' }).map((f) => renamed(f, data)) };
  }
  const semantic = semanticFaults(data, dicts ?? null);
  if (semantic.length) return { ok: false, faults: semantic };
  if (builtinIds.includes(data.id)) {
    return { ok: false, faults: [{ pointer: '/id', message: `字段「id」与内置页面重名：${data.id}` }] };
  }
  return { ok: true, decl: data };
}
