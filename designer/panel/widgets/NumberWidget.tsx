import type { WidgetProps } from '@rjsf/utils';
import { InputNumber } from 'antd';

/** Number input limited to ui:options.maxLength characters (spec: position and size inputs 6). */
export function NumberWidget({ id, value, onChange, onBlur, onFocus, disabled, readonly, options, schema, rawErrors, placeholder }: WidgetProps) {
  const integer = schema.type === 'integer' || (Array.isArray(schema.type) && schema.type.includes('integer'));
  return (
    <InputNumber
      id={id}
      value={typeof value === 'number' ? value : null}
      maxLength={typeof options.maxLength === 'number' ? options.maxLength : undefined}
      precision={integer ? 0 : undefined}
      step={typeof options.step === 'number' ? options.step : 1}
      disabled={disabled}
      readOnly={readonly}
      placeholder={placeholder}
      status={rawErrors?.length ? 'error' : undefined}
      style={{ width: '100%' }}
      // Empty input means "no value": the schema decides whether that is allowed.
      onChange={(v) => onChange(v == null ? undefined : Number(v))}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    />
  );
}
