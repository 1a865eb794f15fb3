import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/** 多行文本: wrapped text keeping its line breaks; a mapping for prop `text` takes the first data row's value instead. */
export function MultiLineText({ viewProps: v, data }: WidgetKindProps<ViewPropsOf<'multiLineText'>>) {
  const fromData = data.mapping.some((m) => m.prop === 'text') ? data.rows[0]?.text : undefined;
  const text = fromData == null ? v.text : String(fromData);
  return (
    <div
      data-widget="multiLineText"
      style={{
        width: '100%',
        height: '100%',
        boxSizing: 'border-box',
        color: v.color,
        fontSize: v.fontSize,
        fontWeight: v.fontWeight,
        lineHeight: v.lineHeight,
        textAlign: v.textAlign,
        textIndent: `${v.textIndent}em`,
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-word',
        overflow: v.overflow === 'scroll' ? 'auto' : 'hidden',
      }}
    >
      {text}
    </div>
  );
}
