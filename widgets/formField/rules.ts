// A form field's rules, from its view props, with the same Chinese messages the server answers
// (schemas/messages/zh-CN.json field* templates): a rule's own message wins when it is set.
import { fillMessage, messages as M } from '../../common/messages';

export const fill = fillMessage;
const own = (message: unknown, fallback: string) => (typeof message === 'string' && message.trim() ? message : fallback);

/** The view props a field kind may carry (every kind declares a subset). */
export interface FieldProps {
  field?: string;
  label?: string;
  required?: boolean;
  requiredMessage?: string;
  minLength?: number;
  maxLength?: number;
  lengthMessage?: string;
  patternPreset?: string;
  customPattern?: string;
  patternMessage?: string;
  minimum?: number | null;
  maximum?: number | null;
  precision?: number;
  rangeMessage?: string;
  minItems?: number;
  maxItems?: number;
  maxCount?: number;
}

/** The kinds whose value is chosen rather than typed (their empty message says 请选择). */
const CHOSEN = new Set(['formSelect', 'formRadio', 'formCheckbox', 'formDate', 'formDateRange', 'formImage']);

export function requiredMessage(kind: string, p: FieldProps): string {
  const label = p.label ?? '';
  return own(p.requiredMessage, fill(CHOSEN.has(kind) ? M.fieldChoose : M.fieldRequired, { label }));
}

/** The regular expression a text field is checked with, or null. */
export function patternOf(p: FieldProps): string | null {
  if (p.patternPreset === 'custom') return p.customPattern?.trim() || null;
  return p.patternPreset || null;
}

export type Check = (value: unknown) => string | undefined;
const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * The checks of one field, each answering its message or undefined. Required is Formily's own rule (for its
 * asterisk); these run on a value that is present.
 */
export function checksOf(kind: string, p: FieldProps): Check[] {
  const label = p.label ?? '';
  const checks: Check[] = [];
  if (kind === 'formInput' || kind === 'formTextarea') {
    const min = p.minLength ?? 0;
    const max = p.maxLength ?? 5000;
    checks.push((v) => {
      const n = [...String(v)].length;
      return n < min || n > max ? own(p.lengthMessage, fill(M.fieldLength, { label, min, max })) : undefined;
    });
    const source = kind === 'formInput' ? patternOf(p) : null;
    if (source) {
      let re: RegExp | null = null;
      try {
        re = new RegExp(source);
      } catch {
        re = null; // the server refuses such a pattern when the form is saved
      }
      if (re) checks.push((v) => (re!.test(String(v)) ? undefined : own(p.patternMessage, fill(M.fieldPattern, { label }))));
    }
  }
  if (kind === 'formNumber') {
    const { minimum: min, maximum: max } = p;
    checks.push((v) => {
      const n = Number(v);
      if (typeof v !== 'number' || !Number.isFinite(n)) return fill(M.fieldType, { label });
      const out = (min != null && n < min) || (max != null && n > max);
      if (out) {
        if (p.rangeMessage?.trim()) return p.rangeMessage;
        if (min != null && max != null) return fill(M.fieldRange, { label, min, max });
        return min != null ? fill(M.fieldMin, { label, min }) : fill(M.fieldMax, { label, max: max! });
      }
      const decimals = decimalsOf(n);
      return decimals > (p.precision ?? 0) ? fill(M.fieldPrecision, { label, precision: p.precision ?? 0 }) : undefined;
    });
  }
  if (kind === 'formCheckbox') {
    checks.push((v) => {
      const n = Array.isArray(v) ? v.length : 0;
      if (p.minItems && n < p.minItems) return fill(M.fieldMinItems, { label, min: p.minItems });
      if (p.maxItems && n > p.maxItems) return fill(M.fieldMaxItems, { label, max: p.maxItems });
      return undefined;
    });
  }
  if (kind === 'formDateRange') {
    checks.push((v) => {
      if (!Array.isArray(v) || !v[0] || !v[1]) return fill(M.fieldDate, { label }); // one end left empty
      return String(v[0]) > String(v[1]) ? fill(M.fieldDateOrder, { label }) : undefined;
    });
  }
  if (kind === 'formImage') {
    const max = p.maxCount ?? 1;
    checks.push((v) => (Array.isArray(v) && v.length > max ? fill(M.fieldImages, { label, max }) : undefined));
  }
  return checks;
}

/** The first fault of a value (required included), for tests and for non-Formily callers. */
export function validateValue(kind: string, p: FieldProps, value: unknown): string | undefined {
  if (isEmpty(value) || (kind === 'formSwitch' && value === undefined)) return p.required && kind !== 'formSwitch' ? requiredMessage(kind, p) : undefined;
  for (const c of checksOf(kind, p)) {
    const m = c(value);
    if (m) return m;
  }
  return undefined;
}

/** Formily validators of a field: required with its message, then the kind's checks. */
export function formilyRules(kind: string, p: FieldProps) {
  const rules: Array<Record<string, unknown>> = [];
  if (p.required && kind !== 'formSwitch') rules.push({ required: true, message: requiredMessage(kind, p) });
  for (const c of checksOf(kind, p)) rules.push({ validator: (v: unknown) => (isEmpty(v) ? '' : (c(v) ?? '')) });
  return rules;
}

/** Decimal places of a number as JavaScript writes it, exponent form included (1e-7 has 7). */
export function decimalsOf(n: number): number {
  const [mantissa, exp] = String(n).toLowerCase().split('e');
  return Math.max(0, (mantissa.split('.')[1] ?? '').length - Number(exp ?? 0));
}
