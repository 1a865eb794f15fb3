// Parameter rows of an API (spec part 2 §3 "Parameter row": id, paramName, paramType, paramValue, paramComment;
// `required` is ours; the id is the row's place in its list, 1-based) and the typing of values bound to them. Values are only ever bound (:name / #{name}),
// never spliced, so typing here is about clear answers, not about safety.
import { BizError } from '../../core/envelope.js';

export interface ParamRow {
  id?: number;
  paramName: string;
  paramType: string;
  paramValue?: string | number | boolean | null;
  paramComment?: string | null;
  required?: boolean;
  /** a secret: its value is never shown in a plan (plan.ts); names like password / token count as secrets too */
  secret?: boolean;
}

export const REQ_TYPES = ['string', 'integer', 'boolean', 'number'] as const;
export const RESP_TYPES = [...REQ_TYPES, 'date', 'object', 'array'] as const;
const TYPE_ZH: Record<string, string> = { string: '字符串', integer: '整数', boolean: '布尔值', number: '数字' };
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
export const MAX_PARAMS = 100;

/** Checks a parameter list as sent by the design / config screens; answers the cleaned rows. */
export function checkParamList(list: unknown, kind: 'request' | 'response'): ParamRow[] {
  const label = kind === 'request' ? '请求参数' : '响应参数';
  if (list == null || list === '') return [];
  const rows = typeof list === 'string' ? parseJson(list, label) : list;
  if (!Array.isArray(rows)) throw new BizError(`${label}必须是列表`);
  if (rows.length > MAX_PARAMS) throw new BizError(`${label}不能超过${MAX_PARAMS}个`);
  const types: readonly string[] = kind === 'request' ? REQ_TYPES : RESP_TYPES;
  const seen = new Set<string>();
  return rows.map((raw, i) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new BizError(`${label}第${i + 1}行格式不正确`);
    const r = raw as Record<string, unknown>;
    const name = typeof r.paramName === 'string' ? r.paramName.trim() : '';
    if (!name) throw new BizError(`${label}第${i + 1}行：请输入参数名`);
    if (!NAME.test(name)) throw new BizError(`${label}【${name.slice(0, 64)}】：参数名只能包含字母、数字和下划线，且不能以数字开头`);
    if (seen.has(name)) throw new BizError(`${label}【${name}】重复`);
    seen.add(name);
    const type = r.paramType == null || r.paramType === '' ? 'string' : String(r.paramType);
    if (!types.includes(type)) throw new BizError(`${label}【${name}】的类型不合法：${type.slice(0, 20)}`);
    const value = r.paramValue;
    if (value != null && !['string', 'number', 'boolean'].includes(typeof value)) throw new BizError(`${label}【${name}】的示例值必须是文本、数字或布尔值`);
    if (typeof value === 'string' && value.length > 1000) throw new BizError(`${label}【${name}】的示例值不能超过1000个字符`);
    const comment = r.paramComment == null ? null : String(r.paramComment);
    if (comment && comment.length > 255) throw new BizError(`${label}【${name}】的说明不能超过255个字符`);
    // a request parameter's value is its default in published calls: it must be of the declared type
    if (kind === 'request') fromText({ paramName: name, paramType: type }, value, `${label}【${name}】的参数值应为`);
    return { id: i + 1, paramName: name, paramType: type, paramValue: (value as ParamRow['paramValue']) ?? null, paramComment: comment, required: r.required === true, ...(r.secret === true ? { secret: true } : {}) };
  });
}

function parseJson(text: string, label: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new BizError(`${label}不是合法的 JSON`);
  }
}

/**
 * A value typed in the table (text) as its declared type: the test button sends what the table shows, and a
 * published call binds it for a parameter the caller left out (its default; empty means NULL).
 */
function fromText(row: ParamRow, v: unknown, fault = `参数【${row.paramName}】应为`, httpStatus = 200): unknown {
  if (v == null || v === '') return null;
  switch (row.paramType) {
    case 'integer':
    case 'number': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v.trim()) : NaN;
      if (!Number.isFinite(n) || (row.paramType === 'integer' && !Number.isInteger(n))) throw new BizError(`${fault}${TYPE_ZH[row.paramType]}`, httpStatus);
      return n;
    }
    case 'boolean':
      if (v === true || v === 'true' || v === 1 || v === '1') return true;
      if (v === false || v === 'false' || v === 0 || v === '0') return false;
      throw new BizError(`${fault}布尔值`, httpStatus);
    default:
      return String(v);
  }
}

/** The value a published call binds for an optional parameter left out (undefined: NULL, or a bad stored value). */
export function defaultOf(row: ParamRow): unknown {
  try {
    return row.required ? undefined : (fromText(row, row.paramValue) ?? undefined);
  } catch {
    return undefined;
  }
}

/** The values of a test run: each row's value (or the override sent as JSON), typed. */
export function testValues(rows: ParamRow[], overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of rows) out[r.paramName] = fromText(r, Object.hasOwn(overrides, r.paramName) ? overrides[r.paramName] : r.paramValue);
  return out;
}

export const CALL_MSG = {
  notObject: '请求体必须是 JSON 对象（参数名: 值）',
  unknown: (name: string) => `未知参数：${name.slice(0, 64)}`,
  missing: (name: string) => `缺少必填参数：${name}`,
} as const;

/**
 * The values of a published call, strictly: a JSON object whose keys are the declared parameters, each of
 * its declared JSON type; unknown names are refused. A missing (or null) required one is refused naming it;
 * a missing optional one is its declared default, the row's value (NULL when the row declares none).
 * Every refusal is the caller's fault: HTTP 400.
 */
export function callValues(rows: ParamRow[], body: unknown): Record<string, unknown> {
  const input = body == null ? {} : body;
  if (typeof input !== 'object' || Array.isArray(input)) throw new BizError(CALL_MSG.notObject, 400);
  const known = new Map(rows.map((r) => [r.paramName, r]));
  for (const k of Object.keys(input)) if (!known.has(k)) throw new BizError(CALL_MSG.unknown(k), 400);
  const out: Record<string, unknown> = {};
  for (const r of rows) {
    const v = (input as Record<string, unknown>)[r.paramName];
    if (v === undefined || v === null) {
      if (r.required) throw new BizError(CALL_MSG.missing(r.paramName), 400);
      // an explicit null from the caller is NULL; a parameter left out takes the declared default
      out[r.paramName] = v === null ? null : fromText(r, r.paramValue, `参数【${r.paramName}】的默认值应为`, 400);
      continue;
    }
    const good =
      r.paramType === 'integer'
        ? typeof v === 'number' && Number.isInteger(v)
        : r.paramType === 'number'
          ? typeof v === 'number' && Number.isFinite(v)
          : r.paramType === 'boolean'
            ? typeof v === 'boolean'
            : typeof v === 'string';
    if (!good) throw new BizError(`参数【${r.paramName}】应为${TYPE_ZH[r.paramType] ?? r.paramType}`, 400);
    if (typeof v === 'string' && v.length > 10000) throw new BizError(`参数【${r.paramName}】不能超过10000个字符`, 400);
    out[r.paramName] = v;
  }
  return out;
}

/** Rows stored as JSON text → rows (a store row written by this module is always valid). */
export function rowsOf(text: string | null | undefined): ParamRow[] {
  if (!text) return [];
  try {
    const v = JSON.parse(text);
    // rows stored before rows carried an id get their place
    return Array.isArray(v) ? (v as ParamRow[]).map((r, i) => ({ id: i + 1, ...r })) : [];
  } catch {
    return [];
  }
}

/** The parameter rows as the JSON editor shows them: { name: value }. */
export function paramsObject(rows: ParamRow[]): Record<string, unknown> {
  return Object.fromEntries(rows.map((r) => [r.paramName, r.paramValue ?? null]));
}
