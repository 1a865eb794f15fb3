import type { WidgetProps } from '@rjsf/utils';
import { ColorPicker, Input, Space } from 'antd';
import type { Color } from 'antd/es/color-picker';

/** The spec's palette of 10 predefined colours: the title default, light and dark text, and the chart hues. */
export const PRESET_COLORS = ['#A8E3FF', '#FFFFFF', '#1D202D', '#1677FF', '#13C2C2', '#52C41A', '#FADB14', '#FA8C16', '#F5222D', '#722ED1'];
const PRESETS = [{ label: '预设颜色', colors: PRESET_COLORS }];

/** antd ColorPicker (with the preset palette) plus the text value, so any CSS colour (rgba, names) stays editable. */
export function ColorWidget({ id, value, onChange, disabled, readonly, schema, rawErrors }: WidgetProps) {
  const text = typeof value === 'string' ? value : '';
  const emit = (next: string) => onChange(next === '' && !schema.minLength ? '' : next);
  return (
    <Space.Compact style={{ width: '100%' }}>
      <ColorPicker
        value={text || undefined}
        disabled={disabled || readonly}
        allowClear
        presets={PRESETS}
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
