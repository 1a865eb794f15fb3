// The page's field logic in the browser (common/formLogic.ts, the server's own evaluator): each field's
// Formily reaction evaluates the form's values and sets what it says on the field — shown or not (a hidden
// field's value leaves the form's values, as the server drops it), disabled, the asterisk, a cascade's options
// (a value no longer among them is cleared). The validator asks the same evaluation whether the field is
// required at the moment it runs, so the message and the server's answer cannot differ.
import type { Field, Form } from '@formily/core';
import { evaluateLogic, hasLogic, type FieldState, type LogicField } from '../../common/formLogic';
import { fieldKindOf } from '../../common/fields';
import { fieldDefFor, type FieldProps } from './rules';

/** A widget as the logic reads it (stored or drawn). */
export interface LogicWidget {
  widgetName: string;
  widgetTitle?: string;
  widgetProps: { viewProps: object };
}

/** The fields of a page as the logic reads them: every widget of a field kind with a name (as the server's fieldsOf). */
export function logicFieldsOf(widgets: readonly LogicWidget[]): LogicField[] {
  const out: LogicField[] = [];
  const seen = new Set<string>();
  for (const w of widgets) {
    if (!fieldKindOf(w.widgetName)) continue;
    const props = w.widgetProps.viewProps as Record<string, unknown>;
    const field = typeof props.field === 'string' ? props.field : '';
    if (!field || seen.has(field)) continue;
    seen.add(field);
    out.push({ field, props, options: fieldDefFor(w.widgetName, props as FieldProps)?.options });
  }
  return out;
}

/** The state of one field now: from the page's fields, or (a field run alone, as in a story) from itself. */
const withLogic = new WeakMap<readonly LogicField[], boolean>();

export function stateNow(fields: readonly LogicField[], self: LogicField, values: Record<string, unknown>): FieldState {
  // a page without any rule or cascade: each field is its own state (no field reads another's value)
  if (!withLogic.has(fields)) withLogic.set(fields, hasLogic([...fields]));
  if (!withLogic.get(fields) && !hasLogic([self])) return evaluateLogic([self], values).states[self.field];
  const list = fields.some((f) => f.field === self.field) ? fields.map((f) => (f.field === self.field ? self : f)) : [...fields, self];
  return evaluateLogic(list, values).states[self.field];
}

/** What a field's reaction does with its state. */
export function applyState(field: Field, state: FieldState) {
  field.visible = state.visible;
  field.disabled = state.disabled;
  field.setDecoratorProps({ asterisk: state.required });
  if (state.options) {
    const options = state.options.map((o) => ({ label: o.label, value: String(o.value) }));
    field.setComponentProps({ options });
    const allowed = new Set(options.map((o) => o.value));
    const v = field.value as unknown;
    if (Array.isArray(v)) {
      const kept = v.filter((x) => allowed.has(String(x)));
      if (kept.length !== v.length) field.setValue(kept);
    } else if (v !== undefined && v !== null && v !== '' && !allowed.has(String(v))) field.setValue(undefined);
  }
}

/** The form's values as plain data (Formily's are observable proxies). */
export const valuesOf = (form: Form) => form.values as Record<string, unknown>;
