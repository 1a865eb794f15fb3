// The one translator from ajv errors to Chinese sentences that name the field: 字段「columns[2].title」缺少必填属性,
// 字段「dialog.width」类型应为数字, 字段「id」格式不正确（…）. Never a bare JSON pointer, never a regular expression.
// Used by the server (request bodies in core/errors.ts, page declarations in modules/lowcode) and by the browser
// (the page manager's JSON check, runtime/pages/PageManager/validate.ts). It lives in common/: no imports, no framework.

/** The parts of an ajv ErrorObject this reads (ajv's own type fits; `parentSchema` comes with `verbose: true`). */
export interface AjvErrorLike {
  keyword: string;
  instancePath: string;
  schemaPath?: string;
  params: Record<string, any>;
  parentSchema?: unknown;
  message?: string;
}

export const TYPE_ZH: Record<string, string> = {
  string: '字符串',
  number: '数字',
  integer: '整数',
  boolean: '布尔值',
  object: '对象',
  array: '数组',
  null: '空值',
};

const FORMAT_ZH: Record<string, string> = {
  date: '日期，如 2024-01-31',
  time: '时间，如 08:30:00',
  'date-time': '日期时间，如 2024-01-31T08:30:00Z',
  email: '电子邮箱地址',
  uri: '完整网址',
  'uri-reference': '网址',
  url: '网址',
  ipv4: 'IPv4 地址',
  ipv6: 'IPv6 地址',
  hostname: '主机名',
  uuid: 'UUID',
};

/** JSON pointer → the field as a person reads it: `/columns/2/title` → `columns[2].title`. */
export function fieldOf(pointer: string, child?: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  let out = '';
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  return out;
}

/** How a field is named: by the caller (e.g. with its title), else its path. */
export type Labeler = (field: string, err: AjvErrorLike, child?: string) => string;

export interface DescribeOptions {
  /** Names a field (default: its path). The request layer adds the schema's title: 组名称（name）. */
  label?: Labeler;
  /** What the whole value is called when the fault is the value itself (default 内容): 请求体, 页面声明. */
  root?: string;
}

const types = (t: unknown) =>
  String(t)
    .split(',')
    .map((x) => TYPE_ZH[x] ?? x)
    .join('或');
const shown = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
const listOf = (values: unknown[]) => (values.length > 12 ? `${values.slice(0, 12).map(shown).join('、')} 等` : values.map(shown).join('、'));
const schemaText = (s: unknown, key: 'description' | 'title') => {
  const v = s && typeof s === 'object' ? (s as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' && v.trim() ? v.trim().replace(/[。.]$/, '') : '';
};

/** One Chinese sentence for one ajv error. */
export function describeAjvError(err: AjvErrorLike, opts: DescribeOptions = {}): string {
  const p = err.params ?? {};
  const label = opts.label ?? ((f: string) => f);
  const path = fieldOf(err.instancePath);
  const whole = opts.root ?? '内容';
  const field = (child?: string) => {
    const f = child === undefined ? path : fieldOf(err.instancePath, child);
    return `字段「${label(f, err, child)}」`;
  };
  const at = path ? field() : whole;
  switch (err.keyword) {
    case 'required':
      return `${field(String(p.missingProperty))}缺少必填属性`;
    case 'dependencies':
    case 'dependentRequired':
      return `${field(String(p.property))}需要同时提供「${label(fieldOf(err.instancePath, String(p.missing)), err, String(p.missing))}」`;
    case 'additionalProperties':
      return `${field(String(p.additionalProperty))}不是允许的属性`;
    case 'unevaluatedProperties':
      return `${field(String(p.unevaluatedProperty))}不是允许的属性`;
    case 'propertyNames':
      return `${field(String(p.propertyName))}的名称不合法`;
    case 'type':
      return `${at}类型应为${types(p.type)}`;
    case 'enum':
      return `${at}取值不在允许范围内（可选：${listOf((p.allowedValues as unknown[]) ?? [])}）`;
    case 'const':
      return `${at}取值应为 ${shown(p.allowedValue)}`;
    case 'pattern': {
      const want = schemaText(err.parentSchema, 'description');
      return `${at}格式不正确${want ? `，应为：${want}` : ''}`;
    }
    case 'format': {
      const want = FORMAT_ZH[String(p.format)];
      return `${at}格式不正确${want ? `，应为${want}` : ''}`;
    }
    case 'minLength':
      return p.limit === 1 ? `${at}不能为空` : `${at}长度不能少于 ${p.limit} 个字符`;
    case 'maxLength':
      return `${at}长度不能超过 ${p.limit} 个字符`;
    case 'minimum':
      return `${at}不能小于 ${p.limit}`;
    case 'maximum':
      return `${at}不能大于 ${p.limit}`;
    case 'exclusiveMinimum':
      return `${at}须大于 ${p.limit}`;
    case 'exclusiveMaximum':
      return `${at}须小于 ${p.limit}`;
    case 'multipleOf':
      return `${at}须是 ${p.multipleOf} 的倍数`;
    case 'minItems':
      return `${at}至少需要 ${p.limit} 项`;
    case 'maxItems':
      return `${at}最多 ${p.limit} 项`;
    case 'uniqueItems':
      return `${at}不能有重复项（第 ${Number(p.j) + 1} 项与第 ${Number(p.i) + 1} 项相同）`;
    case 'minProperties':
      return `${at}至少需要 ${p.limit} 个属性`;
    case 'maxProperties':
      return `${at}最多 ${p.limit} 个属性`;
    case 'contains':
      return `${at}缺少符合要求的项`;
    case 'anyOf':
    case 'oneOf':
      return p.passingSchemas ? `${at}同时符合多种写法，只能符合一种` : `${at}不符合任何一种允许的写法`;
    case 'not':
      return `${at}的取值不被允许`;
    default:
      return `${at}不合法`;
  }
}

/**
 * Every error of an `allErrors` run, one sentence each, without repeats. The branches of a failed anyOf / oneOf
 * are folded into it: a choice of types reads 类型应为字符串或数字, any other choice 不符合任何一种允许的写法.
 */
export function describeAjvErrors(errors: readonly AjvErrorLike[] | null | undefined, opts: DescribeOptions = {}): string[] {
  return ajvFaults(errors, opts).map((f) => f.message);
}

/** The JSON pointer an error is about: the missing or unknown property itself, else the value that failed. */
export function pointerOf(err: AjvErrorLike): string {
  const p = err.params ?? {};
  const child = p.missingProperty ?? p.additionalProperty ?? p.unevaluatedProperty ?? p.propertyName;
  const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  return child !== undefined && ['required', 'additionalProperties', 'unevaluatedProperties', 'propertyNames'].includes(err.keyword) ? `${err.instancePath}/${esc(String(child))}` : err.instancePath;
}

/** As describeAjvErrors, each sentence with the JSON pointer it is about (for an editor to point at). */
export function ajvFaults(errors: readonly AjvErrorLike[] | null | undefined, opts: DescribeOptions = {}): { pointer: string; message: string }[] {
  const list = [...(errors ?? [])].filter((e) => e.keyword !== 'if');
  const choices = list.filter((e) => (e.keyword === 'anyOf' || e.keyword === 'oneOf') && e.schemaPath && !e.params?.passingSchemas);
  const folded = new Set<AjvErrorLike>();
  const out: { pointer: string; message: string }[] = [];
  const sentences = new Map<AjvErrorLike, string>();
  for (const c of choices) {
    const branches = list.filter((e) => e !== c && e.schemaPath?.startsWith(`${c.schemaPath}/`));
    branches.forEach((b) => folded.add(b));
    if (branches.length && branches.every((b) => b.keyword === 'type' && b.instancePath === c.instancePath)) {
      const all = [...new Set(branches.flatMap((b) => String(b.params.type).split(',')))].join(',');
      sentences.set(c, describeAjvError({ ...c, keyword: 'type', params: { type: all } }, opts));
    }
  }
  for (const e of list) {
    if (folded.has(e)) continue;
    const message = sentences.get(e) ?? describeAjvError(e, opts);
    if (!out.some((f) => f.message === message)) out.push({ pointer: pointerOf(e), message });
  }
  return out;
}

/** A fault found beside the schema (a pattern, an expression, a field not declared), at a JSON pointer. */
export function describeAt(pointer: string, text: string): string {
  const f = fieldOf(pointer);
  return f ? `字段「${f}」${text}` : text;
}
