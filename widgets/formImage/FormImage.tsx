// 表单控件 · 图片上传（本系统存储的图片地址列表）: a form field drawn by the shared field renderer (widgets/formField).
import { useMemo } from 'react';
import { ImageInput } from '../formField/ImageInput';
import { FieldWidget } from '../formField/FieldWidget';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

export function FormImage({ viewProps: v }: WidgetKindProps<ViewPropsOf<'formImage'>>) {
  const spec = useMemo(() => ({ kind: 'formImage', control: ImageInput, props: { maxCount: v.maxCount } }), [v]);
  return <FieldWidget spec={spec} viewProps={v} widget="formImage" />;
}
