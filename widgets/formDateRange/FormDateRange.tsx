// 表单控件 · 日期范围（[开始, 结束]）: a form field drawn by the shared field renderer (widgets/formField).
import { useMemo } from 'react';
import { DatePicker } from '@formily/antd-v5';
import { FieldWidget } from '../formField/FieldWidget';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

export function FormDateRange({ viewProps: v }: WidgetKindProps<ViewPropsOf<'formDateRange'>>) {
  const spec = useMemo(() => ({ kind: 'formDateRange', control: DatePicker.RangePicker, props: { placeholder: [v.startPlaceholder, v.endPlaceholder], format: 'YYYY-MM-DD', allowEmpty: [true, true] } }), [v]);
  return <FieldWidget spec={spec} viewProps={v} widget="formDateRange" />;
}
