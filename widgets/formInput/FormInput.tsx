// 表单控件 · 单行文本: a form field drawn by the shared field renderer (widgets/formField).
import { useMemo } from 'react';
import { Input } from '@formily/antd-v5';
import { FieldWidget } from '../formField/FieldWidget';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

export function FormInput({ viewProps: v }: WidgetKindProps<ViewPropsOf<'formInput'>>) {
  const spec = useMemo(() => ({ kind: 'formInput', control: Input, props: { placeholder: v.placeholder } }), [v]);
  return <FieldWidget spec={spec} viewProps={v} widget="formInput" />;
}
