// 表单控件 · 子表（重复的行，每行有自己的列与校验，最少 / 最多行数）: a form field drawn by the shared field
// renderer (widgets/formField); its value is the row list, checked cell by cell by the shared rules.
import { useMemo } from 'react';
import { connect } from '@formily/react';
import { subTableColumnsOf } from '../../common/fields';
import { FieldWidget } from '../formField/FieldWidget';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';
import { SubTableInput } from './SubTableInput';

// a Formily-connected control: value / onChange / disabled from the field
const Control = connect(SubTableInput);

export function FormSubTable({ viewProps: v }: WidgetKindProps<ViewPropsOf<'formSubTable'>>) {
  const spec = useMemo(
    () => ({ kind: 'formSubTable', control: Control, props: { columns: subTableColumnsOf(v as Record<string, unknown>), maxRows: v.maxRows, addText: v.addText, color: v.labelColor } }),
    [v],
  );
  return <FieldWidget spec={spec} viewProps={v} widget="formSubTable" />;
}
