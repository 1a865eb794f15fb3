import type { WidgetProps } from '@rjsf/utils';
import { ColorPicker, Input, Space } from 'antd';
import type { Color } from 'antd/es/color-picker';

/** antd ColorPicker plus the text value, so any CSS colour (rgba, names) stays editable. */
export function ColorWidget({ id, value, onChange, disabled, readonly, schema, rawErrors }: WidgetProps) {
  const text = typeof value === 'string' ? value : '';
  const emit = (next: string) => onChange(next === '' && !schema.minLength ? '' : next);
  return (
    <Space.Compact style={{ width: '100%' }}>
      <ColorPicker
        value={text || undefined}
        disabled={disabled || readonly}
        allowClear
        onChangeComplete={(c: Color) => emit(c.cleared ? '' : c.toRgb().a < 1 ? c.toRgbString() : c.toHexString().toUpperCase())}
        onClear={() => emit('')}
      />
      <Input
        id={id}
        value={text}
        disabled={disabled}
        readOnly={readonly}
        status={rawErrors?.length ? 'error' : undefined}
        onChange={(e) => emit(e.target.value)}
      />
    </Space.Compact>
  );
}
