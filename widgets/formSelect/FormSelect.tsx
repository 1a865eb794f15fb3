// 表单控件 · 下拉选择（选项或字典）: a form field drawn by the shared field renderer (widgets/formField).
import { useMemo } from 'react';
import { Select } from '@formily/antd-v5';
import { optionsOf } from '../formField/options';
import { FieldWidget } from '../formField/FieldWidget';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

export function FormSelect({ viewProps: v }: WidgetKindProps<ViewPropsOf<'formSelect'>>) {
  const spec = useMemo(() => ({ kind: 'formSelect', control: Select, props: { placeholder: v.placeholder, options: optionsOf(v), allowClear: true } }), [v]);
  return <FieldWidget spec={spec} viewProps={v} widget="formSelect" />;
}
