import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/** An octagon: the box `inset` px in from its edges with each corner cut by `cut` px. */
function chamfer(w: number, h: number, inset: number, cut: number): string {
  const [l, t, r, b] = [inset, inset, w - inset, h - inset];
  return `M${l + cut},${t} H${r - cut} L${r},${t + cut} V${b - cut} L${r - cut},${b} H${l + cut} L${l},${b - cut} V${t + cut} Z`;
}

/** 切角边框: a frame with cut corners, a thin inner line and filled corner triangles, drawn at the box's pixel size. */
export function BorderBox2({ viewProps: v }: WidgetKindProps<ViewPropsOf<'borderBox2'>>) {
  const w = Math.max(v.width, 1);
  const h = Math.max(v.height, 1);
  const bw = v.borderWidth;
  const cut = Math.min(v.cut, w / 3, h / 3);
  const t = Math.max(cut * 0.6, 4); // corner triangle leg
  return (
    <svg data-widget="borderBox2" width="100%" height="100%" viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" style={{ display: 'block' }}>
      <path d={chamfer(w, h, bw / 2, cut)} fill={v.backgroundColor || 'none'} stroke={v.borderColor} strokeWidth={bw} />
      {v.innerLine && <path d={chamfer(w, h, bw + 4, Math.max(cut - 2, 2))} fill="none" stroke={v.borderColor} strokeOpacity={0.5} strokeWidth={1} strokeDasharray="6 4" />}
      <g fill={v.accentColor}>
        <path d={`M0,${cut + t} V${cut} L${cut},0 H${cut + t} L0,${cut + t} Z`} opacity={0.9} />
        <path d={`M${w},${h - cut - t} V${h - cut} L${w - cut},${h} H${w - cut - t} L${w},${h - cut - t} Z`} opacity={0.9} />
        <rect x={w / 2 - 20} y={0} width={40} height={Math.min(3, h / 10)} />
        <rect x={w / 2 - 20} y={h - Math.min(3, h / 10)} width={40} height={Math.min(3, h / 10)} />
      </g>
    </svg>
  );
}
