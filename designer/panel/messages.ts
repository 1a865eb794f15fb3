// Chinese validation messages built from the schema itself (its title and limits), with
// per-field overrides in uiSchema: { "ui:options": { "messages": { "<keyword>": "..." } } }.
import type { RJSFSchema, RJSFValidationError, UiSchema } from '@rjsf/utils';

const TYPE_NAMES: Record<string, string> = {
  integer: '整数',
  number: '数字',
  string: '文本',
  boolean: '是或否',
  object: '对象',
  array: '列表',
  null: '空',
};

/** Splits rjsf's error property (".a.b[0].c" or "a.b.0.c") into path segments. */
function segments(property: string | undefined): string[] {
  return (property ?? '').replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean);
}

function walk<T>(root: T | undefined, path: string[], step: (node: T, key: string) => T | undefined): T | undefined {
  let node = root;
  for (const key of path) {
    if (node === undefined) return undefined;
    node = step(node, key);
  }
  return node;
}

function subSchema(schema: RJSFSchema, path: string[]): RJSFSchema | undefined {
  return walk<RJSFSchema>(schema, path, (node, key) => {
    if (node.properties && typeof node.properties[key] === 'object') return node.properties[key] as RJSFSchema;
    if (node.items && typeof node.items === 'object' && !Array.isArray(node.items)) return node.items as RJSFSchema;
    return undefined;
  });
}

function subUi(ui: UiSchema | undefined, path: string[]): UiSchema | undefined {
  return walk<UiSchema>(ui, path, (node, key) => (/^\d+$/.test(key) ? node.items : node[key]) as UiSchema | undefined);
}

export function messageFor(error: RJSFValidationError, schema: RJSFSchema, uiSchema?: UiSchema): string {
  const params = (error.params ?? {}) as Record<string, unknown>;
  let path = segments(error.property);
  // "required" reports the parent object; the missing child is the field.
  if (error.name === 'required' && typeof params.missingProperty === 'string') path = [...path, params.missingProperty];
  const field = subSchema(schema, path);
  const overrides = (subUi(uiSchema, path)?.['ui:options'] as { messages?: Record<string, string> } | undefined)?.messages;
  const custom = error.name ? overrides?.[error.name] : undefined;
  if (custom) return custom;
  const title = field?.title ?? path[path.length - 1] ?? '该项';
  const limit = params.limit;
  switch (error.name) {
    case 'required':
      return `请输入${title}`;
    case 'maximum':
      return `${title}不能大于 ${limit}`;
    case 'minimum':
      return `${title}不能小于 ${limit}`;
    case 'exclusiveMaximum':
      return `${title}必须小于 ${limit}`;
    case 'exclusiveMinimum':
      return `${title}必须大于 ${limit}`;
    case 'maxLength':
      return `${title}最多 ${limit} 个字符`;
    case 'minLength':
      return Number(limit) === 1 ? `请输入${title}` : `${title}至少 ${limit} 个字符`;
    case 'maxItems':
      return `${title}最多 ${limit} 项`;
    case 'minItems':
      return `${title}至少 ${limit} 项`;
    case 'type': {
      const types = ([] as unknown[]).concat(params.type ?? []).flatMap((t) => String(t).split(','));
      return `${title}必须是${types.map((t) => TYPE_NAMES[t] ?? t).join('或')}`;
    }
    case 'enum':
    case 'const':
    case 'oneOf':
    case 'anyOf':
      return `${title}的取值不在可选范围内`;
    case 'pattern':
    case 'format':
      return `${title}格式不正确`;
    case 'additionalProperties':
      return `${title}不允许包含 ${String(params.additionalProperty)}`;
    default:
      return `${title}的值不合法`;
  }
}

/** An rjsf transformErrors bound to one schema. */
export function chineseErrors(schema: RJSFSchema) {
  return (errors: RJSFValidationError[], uiSchema?: UiSchema): RJSFValidationError[] =>
    errors.map((e) => {
      const message = messageFor(e, schema, uiSchema);
      return { ...e, message, stack: message };
    });
}
