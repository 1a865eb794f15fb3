import type { WidgetProps } from '@rjsf/utils';
import { Select } from 'antd';
import { useState } from 'react';
import { VARIABLE_TYPES, type ScreenVariable } from '../../../common/variables';
import type { PanelContext } from '../services';

/** A declared variable as the pickers list it: its title and type beside the name. */
export function variableOption(v: ScreenVariable) {
  const type = VARIABLE_TYPES.find((t) => t.value === v.type)?.label ?? v.type;
  return { value: v.name, label: `${v.title ? `${v.title}（${v.name}）` : v.name} · ${type}` };
}

/**
 * A screen variable's name (ui:widget variable; issue 23 §2): chosen from the variables the canvas declares
 * (画布属性 → 变量, handed to the panel as services.variables), or typed when it is not declared yet. On an
 * array of names (the reset button's list) several are chosen.
 */
export function VariableWidget({ id, value, onChange, disabled, readonly, schema, registry, placeholder }: WidgetProps) {
  const declared = (registry.formContext as PanelContext | undefined)?.services.variables ?? [];
  const options = declared.map(variableOption);
  const off = disabled || readonly;
  const [search, setSearch] = useState('');
  if (schema.type === 'array') {
    return (
      <Select
        id={id}
        mode="tags"
        value={Array.isArray(value) ? value : []}
        disabled={off}
        placeholder={placeholder || '留空为全部变量'}
        style={{ width: '100%' }}
        options={options}
        tokenSeparators={[',', '，', ' ']}
        onChange={(v: string[]) => onChange(v)}
      />
    );
  }
  const text = typeof value === 'string' ? value : '';
  const extra = [
    ...(search && !declared.some((v) => v.name === search) ? [{ value: search, label: `使用输入的变量名：${search}` }] : []),
    ...(text && text !== search && !declared.some((v) => v.name === text) ? [{ value: text, label: `${text}（未声明）` }] : []),
  ];
  return (
    <Select
      id={id}
      showSearch
      allowClear
      value={text || undefined}
      disabled={off}
      placeholder={placeholder || (declared.length ? '选择画布变量，或输入变量名' : '输入变量名（在画布属性的“变量”中声明）')}
      style={{ width: '100%' }}
      options={[...options, ...extra]}
      searchValue={search}
      onSearch={setSearch}
      filterOption={(input, o) => String(o?.value ?? '').toLowerCase().includes(input.toLowerCase()) || String(o?.label ?? '').includes(input)}
      onChange={(v: string | undefined) => {
        setSearch('');
        onChange(v ?? '');
      }}
      notFoundContent={declared.length ? '无匹配的变量' : '画布尚未声明变量'}
    />
  );
}
