import type { WidgetProps } from '@rjsf/utils';
import { Select } from 'antd';
import { builtInDict } from '../dicts';
import type { PanelContext } from '../services';

/** A select over a dictionary named by ui:options.dict (labels from the dictionary, values from it too). */
export function DictWidget({ id, value, onChange, disabled, readonly, options, registry, placeholder }: WidgetProps) {
  const ctx = registry.formContext as PanelContext | undefined;
  const type = String(options.dict ?? '');
  const items = ctx?.services.dict?.(type) ?? builtInDict(type);
  return (
    <Select
      id={id}
      value={value ?? undefined}
      disabled={disabled || readonly}
      placeholder={placeholder || '请选择'}
      style={{ width: '100%' }}
      options={items.map((i) => ({ value: i.value, label: i.label }))}
      onChange={(v) => onChange(v)}
    />
  );
}
