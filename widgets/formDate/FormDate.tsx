// 表单控件 · 日期（YYYY-MM-DD）: a form field drawn by the shared field renderer (widgets/formField).
import { useMemo } from 'react';
import { DatePicker } from '@formily/antd-v5';
import { FieldWidget } from '../formField/FieldWidget';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

export function FormDate({ viewProps: v }: WidgetKindProps<ViewPropsOf<'formDate'>>) {
  const spec = useMemo(() => ({ kind: 'formDate', control: DatePicker, props: { placeholder: v.placeholder, format: 'YYYY-MM-DD' } }), [v]);
  return <FieldWidget spec={spec} viewProps={v} widget="formDate" />;
}
