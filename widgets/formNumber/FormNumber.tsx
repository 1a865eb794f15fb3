// 表单控件 · 数字: a form field drawn by the shared field renderer (widgets/formField).
import { useMemo } from 'react';
import { NumberPicker } from '@formily/antd-v5';
import { FieldWidget } from '../formField/FieldWidget';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

export function FormNumber({ viewProps: v }: WidgetKindProps<ViewPropsOf<'formNumber'>>) {
  const spec = useMemo(() => ({ kind: 'formNumber', control: NumberPicker, props: { placeholder: v.placeholder, precision: v.precision || undefined } }), [v]);
  return <FieldWidget spec={spec} viewProps={v} widget="formNumber" />;
}
