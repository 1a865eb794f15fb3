// 表单控件 · 单选: a form field drawn by the shared field renderer (widgets/formField).
import { useMemo } from 'react';
import { Radio } from '@formily/antd-v5';
import { optionsOf } from '../formField/options';
import { FieldWidget } from '../formField/FieldWidget';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

export function FormRadio({ viewProps: v }: WidgetKindProps<ViewPropsOf<'formRadio'>>) {
  const spec = useMemo(() => ({ kind: 'formRadio', control: Radio.Group, props: { options: optionsOf(v) } }), [v]);
  return <FieldWidget spec={spec} viewProps={v} widget="formRadio" />;
}
