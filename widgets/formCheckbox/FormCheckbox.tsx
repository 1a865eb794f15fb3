// 表单控件 · 多选: a form field drawn by the shared field renderer (widgets/formField).
import { useMemo } from 'react';
import { Checkbox } from '@formily/antd-v5';
import { optionsOf } from '../formField/options';
import { FieldWidget } from '../formField/FieldWidget';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

export function FormCheckbox({ viewProps: v }: WidgetKindProps<ViewPropsOf<'formCheckbox'>>) {
  const spec = useMemo(() => ({ kind: 'formCheckbox', control: Checkbox.Group, props: { options: optionsOf(v) } }), [v]);
  return <FieldWidget spec={spec} viewProps={v} widget="formCheckbox" />;
}
