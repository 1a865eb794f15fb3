// One form field drawn from its view props: a Formily field (label, required mark, the kind's rules with
// their Chinese messages, errors under the control) inside the page's form when one runs (preview, fill-in);
// on the designer's canvas the same field in a form of its own, disabled, so it looks as it will.
import { useMemo, type ComponentType } from 'react';
import { createForm } from '@formily/core';
import { Field, FormProvider } from '@formily/react';
import { FormItem } from '@formily/antd-v5';
import { widgetDeclarations } from '../declarations';
import { useFormRun } from './context';
import { faultUnder, fieldDefFor, formilyRules, isFieldRequired, type FieldProps } from './rules';
import { applyState, stateNow, valuesOf } from './logic';
import type { Field as FormilyField } from '@formily/core';
import type { LogicField } from '../../common/formLogic';
import './fields.css';

export interface FieldSpec {
  /** the widget kind (formInput, …): it picks the messages and rules */
  kind: string;
  /** a Formily-connected control (value / onChange from the field) */
  control: ComponentType<any>;
  /** the control's props from the view props */
  props?: Record<string, unknown>;
}

interface ViewLike extends FieldProps {
  labelColor?: string;
  fontSize?: number;
  defaultValue?: unknown;
}

const emptyDefault = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

function TheField({ spec, v, fallbackLabel }: { spec: FieldSpec; v: ViewLike; fallbackLabel: string }) {
  const run = useFormRun();
  const name = v.field || 'field';
  // the field as the logic reads it (common/formLogic.ts): its rules, its required, a cascade's options
  const self = useMemo<LogicField>(() => ({ field: name, props: v as Record<string, unknown>, options: fieldDefFor(spec.kind, v)?.options }), [name, v, spec.kind]);
  const fields = run?.fields;
  // the server's rules (common/fields.ts), required as the logic says at the moment they run: the asterisk is
  // the decorator's (set by the reaction), not a Formily rule
  const rules = useMemo(() => {
    if (!fields) return formilyRules(spec.kind, v, fallbackLabel);
    return [
      {
        validator: (value: unknown, _rule: unknown, ctx: { form: FormilyField['form'] }) => {
          return faultUnder(spec.kind, v, value, stateNow(fields, self, valuesOf(ctx.form)), fallbackLabel);
        },
      },
    ];
  }, [fields, self, spec.kind, v, fallbackLabel]);
  // one reaction per field: its state from the whole form's values (Formily re-runs it when they change)
  const reactions = useMemo(() => (fields ? (field: FormilyField) => applyState(field, stateNow(fields, self, valuesOf(field.form))) : undefined), [fields, self]);
  return (
    <Field
      name={name}
      title={v.label}
      initialValue={emptyDefault(v.defaultValue) ? undefined : v.defaultValue}
      validator={rules as never}
      reactions={reactions as never}
      decorator={[FormItem, { layout: 'vertical', colon: false, asterisk: isFieldRequired(spec.kind, v), labelStyle: { color: v.labelColor }, style: { marginBottom: 0 } }]}
      component={[spec.control, spec.props ?? {}]}
    />
  );
}

export function FieldWidget({ spec, viewProps, widget }: { spec: FieldSpec; viewProps: ViewLike; widget: string }) {
  const run = useFormRun();
  // a cleared label falls back to the kind's title, as the server names the field in its messages
  const title = widgetDeclarations[spec.kind]?.catalogue.widgetTitle ?? '';
  const v = useMemo(() => (viewProps.label ? viewProps : { ...viewProps, label: title }), [viewProps, title]);
  // the designer's canvas: a form of this field alone, disabled. A Formily field reads its props when it is
  // created, so any edit in the panel makes a new one (cheap: one field).
  const drawn = run ? '' : JSON.stringify(v);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new form for every drawn state is the point
  const own = useMemo(() => (run ? null : createForm({ disabled: true })), [run, drawn]);
  const body = <TheField spec={spec} v={v} fallbackLabel={title} key={own ? drawn : v.field} />;
  return (
    <div data-widget={widget} className="form-field-widget" style={{ width: '100%', height: '100%', color: v.labelColor, fontSize: v.fontSize, overflow: 'visible', ['--field-color' as string]: v.labelColor ?? 'inherit', ['--field-font-size' as string]: `${v.fontSize ?? 14}px` }}>
      {own ? <FormProvider form={own}>{body}</FormProvider> : body}
    </div>
  );
}
