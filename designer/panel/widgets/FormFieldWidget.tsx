import type { WidgetProps } from '@rjsf/utils';
import { Select } from 'antd';
import { otherFields } from '../fields/FormLogicField';
import type { PanelContext } from '../services';

/** ui:widget formField: one of the form's other fields, by name ('' for none), as the host lists them. */
export function FormFieldWidget({ id, value, onChange, disabled, readonly, registry }: WidgetProps) {
  const fields = otherFields(registry.formContext as PanelContext | undefined);
  const known = fields.some((f) => f.field === value);
  return (
    <Select
      id={id}
      value={value || undefined}
      allowClear
      showSearch
      optionFilterProp="label"
      disabled={disabled || readonly}
      placeholder="不跟随"
      style={{ width: '100%' }}
      options={[...fields.map((f) => ({ value: f.field, label: `${f.label}（${f.field}）` })), ...(value && !known ? [{ value, label: `${value}（已不在表单上）` }] : [])]}
      onChange={(v) => onChange(v ?? '')}
    />
  );
}
