import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/**
 * The frame is drawn in the box's own pixel size (no stretched viewBox), so strokes and
 * corner marks keep their thickness at any size, and being vector it stays sharp at any canvas scale.
 */
export function BorderBox({ viewProps: v }: WidgetKindProps<ViewPropsOf<'borderBox'>>) {
  const w = Math.max(v.width, 1);
  const h = Math.max(v.height, 1);
  const bw = v.borderWidth;
  const half = bw / 2;
  const c = Math.min(v.cornerSize, w / 2, h / 2);
  const aw = bw + 2; // corner marks a little heavier than the frame
  const ah = aw / 2;
  const corners = [
    `M${ah},${c} V${ah} H${c}`,
    `M${w - c},${ah} H${w - ah} V${c}`,
    `M${w - ah},${h - c} V${h - ah} H${w - c}`,
    `M${c},${h - ah} H${ah} V${h - c}`,
  ];
  return (
    <svg data-widget="borderBox" width="100%" height="100%" viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" style={{ display: 'block' }}>
      <rect x={half} y={half} width={w - bw} height={h - bw} fill={v.backgroundColor || 'none'} stroke={v.borderColor} strokeWidth={bw} vectorEffect="non-scaling-stroke" />
      {corners.map((d) => (
        <path key={d} d={d} fill="none" stroke={v.accentColor} strokeWidth={aw} strokeLinecap="square" vectorEffect="non-scaling-stroke" />
      ))}
    </svg>
  );
}
