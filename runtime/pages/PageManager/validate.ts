import Ajv, { type ErrorObject } from 'ajv';
import meta from '../../../schemas/meta/page.schema.json';
import type { PageDeclaration } from '../../crud/types';

export interface Fault { pointer: string; message: string }
export type Checked = { ok: true; decl: PageDeclaration } | { ok: false; faults: Fault[] };

// The same meta-schema and ajv mode the tests and the server use.
const ajv = new Ajv({ strict: true, allErrors: true });
const validate = ajv.compile<PageDeclaration>(meta);

function describe(e: ErrorObject): string {
  switch (e.keyword) {
    case 'required': return `缺少必填属性 ${(e.params as { missingProperty: string }).missingProperty}`;
    case 'additionalProperties': return `不允许的属性 ${(e.params as { additionalProperty: string }).additionalProperty}`;
    case 'enum': return `取值须为 ${((e.params as { allowedValues: unknown[] }).allowedValues).map((v) => JSON.stringify(v)).join('、')} 之一`;
    case 'type': return `类型须为 ${(e.params as { type: string }).type}`;
    case 'pattern': return `格式不符 ${(e.params as { pattern: string }).pattern}`;
    case 'minItems': return `至少需要 ${(e.params as { limit: number }).limit} 项`;
    case 'const': return `取值须为 ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
    default: return e.message ?? e.keyword;
  }
}

/** Parses and validates declaration text; every fault carries its JSON pointer. */
export function checkDeclaration(text: string, builtinIds: string[] = []): Checked {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { ok: false, faults: [{ pointer: '', message: `JSON 语法错误：${(err as Error).message}` }] };
  }
  if (!validate(data)) {
    const faults = (validate.errors ?? []).map((e) => ({ pointer: e.instancePath || '/', message: describe(e) }));
    return { ok: false, faults };
  }
  if (builtinIds.includes(data.id)) {
    return { ok: false, faults: [{ pointer: '/id', message: `与内置页面重名：${data.id}` }] };
  }
  return { ok: true, decl: data };
}
