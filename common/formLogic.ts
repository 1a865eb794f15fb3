// A form's field logic (issue 23 item 7), one copy for browser and server: each field may declare rules over
// other fields' values (`logic` in its view props) and a cascade of its options (`cascadeFrom`, and `parent`
// on each option). evaluateLogic() turns the form's values into each field's effective state — shown,
// required, disabled, the options it offers — and is the only place that says so: the browser drives its
// Formily fields from it (widgets/formField/FieldWidget.tsx, one reaction per field), the server checks a
// submission with it (server-stub/modules/datav/fields.ts), so a hidden field is never required and a shown
// required one always is, on both sides alike.
//
// The model, declared per field, without code:
//   logic: [{ field: 'car', op: 'eq', value: 'yes', effect: 'show' }, …]
//   - show:    the field is shown only while at least one of its show rules holds (no show rule: shown)
//   - hide:    hidden while the rule holds (wins over show)
//   - require: required while the rule holds (else its own `required`)
//   - disable: disabled while the rule holds (a disabled field keeps its value but is never required)
//   A hidden field is neither required nor validated, and its value is dropped: conditions on it read it as
//   empty, so a chain (C shown by B, B shown by A) hides C too.
//   ops: eq / neq (a list value — a checkbox — matches when it holds the value), in / notIn (`values`),
//   empty / notEmpty, gt / lt (as numbers). Values compare as text, so 1 and '1', true and 'true' agree.
//   cascadeFrom: 'province' + options with `parent`: only the options whose parent is the other field's value
//   (or that have none) are offered; anything else is refused as not among the options.
import type { FieldOption } from './fields';

export const LOGIC_OPS = ['eq', 'neq', 'in', 'notIn', 'empty', 'notEmpty', 'gt', 'lt'] as const;
export type LogicOp = (typeof LOGIC_OPS)[number];
export const LOGIC_EFFECTS = ['show', 'hide', 'require', 'disable'] as const;
export type LogicEffect = (typeof LOGIC_EFFECTS)[number];

/** How the designer reads an op and an effect (the panel's words). */
export const OP_TITLES: Record<LogicOp, string> = { eq: '等于', neq: '不等于', in: '属于', notIn: '不属于', empty: '为空', notEmpty: '不为空', gt: '大于', lt: '小于' };
export const EFFECT_TITLES: Record<LogicEffect, string> = { show: '显示本字段', hide: '隐藏本字段', require: '本字段必填', disable: '禁用本字段' };
/** Ops that compare with nothing. */
export const UNARY_OPS: ReadonlySet<LogicOp> = new Set(['empty', 'notEmpty']);
/** Ops that compare with a list (`values`). */
export const LIST_OPS: ReadonlySet<LogicOp> = new Set(['in', 'notIn']);

export interface LogicRule {
  /** the other field's name */
  field: string;
  op: LogicOp;
  value?: string;
  values?: string[];
  effect: LogicEffect;
}

/** A cascading option: offered only while the cascade's field has the value `parent` (none: always). */
export interface CascadeOption extends FieldOption {
  parent?: string;
}

/** One field as the logic reads it. */
export interface LogicField {
  field: string;
  /** the field's view props: required, logic, cascadeFrom */
  props: Record<string, unknown>;
  /** a choice field's options (with their parents, for a cascade) */
  options?: CascadeOption[];
}

export interface FieldState {
  visible: boolean;
  required: boolean;
  disabled: boolean;
  /** a choice field's options now (a cascade's subset); undefined for the others */
  options?: CascadeOption[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const blank = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');

/** The well-formed rules of a field's view props (a malformed one is skipped: it cannot be read the same twice). */
export function logicRulesOf(props: Record<string, unknown>): LogicRule[] {
  const list = Array.isArray(props.logic) ? props.logic : [];
  const out: LogicRule[] = [];
  for (const r of list) {
    if (!isObject(r) || typeof r.field !== 'string' || !r.field) continue;
    if (!(LOGIC_OPS as readonly unknown[]).includes(r.op) || !(LOGIC_EFFECTS as readonly unknown[]).includes(r.effect)) continue;
    out.push({
      field: r.field,
      op: r.op as LogicOp,
      effect: r.effect as LogicEffect,
      value: text(r.value),
      values: Array.isArray(r.values) ? r.values.map(text) : [],
    });
  }
  return out;
}

/** The field a choice field's options follow, or ''. */
export function cascadeFromOf(props: Record<string, unknown>): string {
  return typeof props.cascadeFrom === 'string' ? props.cascadeFrom : '';
}

/** Does a value equal a text (a list: holds it)? */
function equals(v: unknown, want: string): boolean {
  if (Array.isArray(v)) return v.some((x) => text(x) === want);
  return !blank(v) && text(v) === want;
}

/** Does a rule's condition hold for the other field's value? */
export function conditionHolds(rule: Pick<LogicRule, 'op' | 'value' | 'values'>, v: unknown): boolean {
  const want = rule.value ?? '';
  switch (rule.op) {
    case 'empty':
      return blank(v);
    case 'notEmpty':
      return !blank(v);
    case 'eq':
      return equals(v, want);
    case 'neq':
      return !equals(v, want);
    case 'in':
      return (rule.values ?? []).some((x) => equals(v, x));
    case 'notIn':
      return !(rule.values ?? []).some((x) => equals(v, x));
    case 'gt':
    case 'lt': {
      const a = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN;
      const b = want.trim() ? Number(want) : NaN;
      if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
      return rule.op === 'gt' ? a > b : a < b;
    }
  }
}

/** The options a cascade offers for the parent's value: those without a parent, and those of its value. */
export function cascadeOptions(options: CascadeOption[], parentValue: unknown): CascadeOption[] {
  return options.filter((o) => !o.parent || equals(parentValue, o.parent));
}

function stateOf(f: LogicField, values: Record<string, unknown>): FieldState {
  const rules = logicRulesOf(f.props);
  const holds = (effect: LogicEffect) => rules.filter((r) => r.effect === effect).map((r) => conditionHolds(r, Object.hasOwn(values, r.field) ? values[r.field] : undefined));
  const shows = holds('show');
  const visible = (shows.length === 0 || shows.some(Boolean)) && !holds('hide').some(Boolean);
  const disabled = holds('disable').some(Boolean);
  const required = visible && !disabled && (f.props.required === true || holds('require').some(Boolean));
  const state: FieldState = { visible, required, disabled };
  if (f.options) {
    const from = cascadeFromOf(f.props);
    state.options = from && from !== f.field ? cascadeOptions(f.options, Object.hasOwn(values, from) ? values[from] : undefined) : f.options;
  }
  return state;
}

export interface LogicResult {
  /** each field's state, by field name */
  states: Record<string, FieldState>;
  /** the values the form keeps: those of hidden fields dropped */
  values: Record<string, unknown>;
}

/**
 * Every field's state from the form's values. A hidden field's value is dropped before the conditions that
 * read it are judged again, until nothing changes (a chain settles in as many rounds as it is long; rules that
 * go round in a circle stop after one round per field, the same on both sides).
 */
export function evaluateLogic(fields: LogicField[], values: Record<string, unknown>): LogicResult {
  let kept: Record<string, unknown> = { ...values };
  let states: Record<string, FieldState> = {};
  for (let round = 0; round <= fields.length; round++) {
    states = Object.fromEntries(fields.map((f) => [f.field, stateOf(f, kept)]));
    const next: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(values)) if (states[k]?.visible !== false) next[k] = v;
    const same = Object.keys(next).length === Object.keys(kept).length && Object.keys(next).every((k) => Object.hasOwn(kept, k));
    kept = next;
    if (same) break;
  }
  return { states, values: kept };
}

/** Does any field of the form declare logic or a cascade (else there is nothing to evaluate)? */
export function hasLogic(fields: LogicField[]): boolean {
  return fields.some((f) => logicRulesOf(f.props).length > 0 || !!cascadeFromOf(f.props));
}
