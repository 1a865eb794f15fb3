import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

const JUSTIFY = { left: 'flex-start', center: 'center', right: 'flex-end' } as const;

/** One line of text; a mapping for prop `text` takes the first data row's value instead. */
export function SingleLineTitle({ viewProps: v, data }: WidgetKindProps<ViewPropsOf<'singleLineTitle'>>) {
  const fromData = data.mapping.some((m) => m.prop === 'text') ? data.rows[0]?.text : undefined;
  const text = fromData == null ? v.text : String(fromData);
  return (
    <div
      data-widget="singleLineTitle"
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        alignItems: 'center',
        justifyContent: JUSTIFY[v.textAlign] ?? 'center',
        textAlign: v.textAlign,
        color: v.color,
        fontSize: v.fontSize,
        fontWeight: v.fontWeight,
        whiteSpace: 'nowrap',
        overflow: 'hidden',
        textOverflow: 'ellipsis',
      }}
    >
      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{text}</span>
    </div>
  );
}
