// 表单控件 · 开关: a form field drawn by the shared field renderer (widgets/formField).
import { useMemo } from 'react';
import { Switch } from '@formily/antd-v5';
import { FieldWidget } from '../formField/FieldWidget';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

export function FormSwitch({ viewProps: v }: WidgetKindProps<ViewPropsOf<'formSwitch'>>) {
  const spec = useMemo(() => ({ kind: 'formSwitch', control: Switch, props: { checkedChildren: v.checkedText, unCheckedChildren: v.uncheckedText } }), [v]);
  return <FieldWidget spec={spec} viewProps={v} widget="formSwitch" />;
}
