// A form field's rules in the browser: the very rules the server checks a submission with (common/fields.ts,
// one copy), run by Formily as one validator per field, so a filler sees the server's own words under the
// control before sending. A rule's own message wins when it is set.
import { messages } from '../../common/messages';
import { fieldDefOf, fieldFault, isRequired, type FieldDef, type RuleEnv } from '../../common/fields';
import { DICT_TABLE } from './options';

export { decimalsOf } from '../../common/fields';

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

const compiled = new Map<string, RegExp | null>();
/**
 * The browser compiles a field's pattern as written; one that does not compile is skipped here (the server
 * refuses to save such a form, and judges every pattern for ReDoS before it runs one).
 */
function regExp(source: string): RegExp | null {
  if (!compiled.has(source)) {
    let re: RegExp | null = null;
    try {
      re = new RegExp(source);
    } catch {
      re = null;
    }
    compiled.set(source, re);
  }
  return compiled.get(source)!;
}

const env: RuleEnv = { messages, regExp };

/** The field of a widget kind as the shared rules read it (label trimmed, else `fallbackLabel`). */
export function fieldDefFor(kind: string, p: FieldProps, fallbackLabel = ''): FieldDef | null {
  return fieldDefOf(kind, p, fallbackLabel, DICT_TABLE);
}

/** Is the field drawn required (the asterisk)? A switch never is. */
export function isFieldRequired(kind: string, p: FieldProps): boolean {
  const def = fieldDefFor(kind, p);
  return def ? isRequired(def) : false;
}

/** The first fault of a value (required included), or undefined: what the server would answer for it. */
export function validateValue(kind: string, p: FieldProps, value: unknown, fallbackLabel = ''): string | undefined {
  const def = fieldDefFor(kind, p, fallbackLabel);
  return (def && fieldFault(def, value, env)) ?? undefined;
}

/**
 * Formily validators of a field: one, the shared rules (required included, so an empty value gets the same
 * words and the same idea of empty as on the server). The asterisk is drawn by the decorator (isFieldRequired).
 */
export function formilyRules(kind: string, p: FieldProps, fallbackLabel = '') {
  const def = fieldDefFor(kind, p, fallbackLabel);
  if (!def) return [];
  return [{ validator: (v: unknown) => fieldFault(def, v, env) ?? '' }];
}

/**
 * The fault of a value under the field's logic state (common/formLogic.ts): required as the logic says, a
 * cascade's options instead of all of them. '' when it passes.
 */
export function faultUnder(kind: string, p: FieldProps, value: unknown, state: { required: boolean; options?: FieldDef['options'] }, fallbackLabel = ''): string {
  const def = fieldDefFor(kind, { ...p, required: state.required }, fallbackLabel);
  if (!def) return '';
  if (state.options) def.options = state.options;
  return fieldFault(def, value, env) ?? '';
}
