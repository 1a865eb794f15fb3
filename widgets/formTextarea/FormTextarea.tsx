// 表单控件 · 多行文本: a form field drawn by the shared field renderer (widgets/formField).
import { useMemo } from 'react';
import { Input } from '@formily/antd-v5';
import { FieldWidget } from '../formField/FieldWidget';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

export function FormTextarea({ viewProps: v }: WidgetKindProps<ViewPropsOf<'formTextarea'>>) {
  const spec = useMemo(() => ({ kind: 'formTextarea', control: Input.TextArea, props: { placeholder: v.placeholder, rows: v.rows } }), [v]);
  return <FieldWidget spec={spec} viewProps={v} widget="formTextarea" />;
}
