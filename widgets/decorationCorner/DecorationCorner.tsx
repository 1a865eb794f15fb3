import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

const FLIP = { topLeft: '1 1', topRight: '-1 1', bottomLeft: '1 -1', bottomRight: '-1 -1' } as const;

/** 装饰角: an L bracket with an inner thinner bracket and diagonal stripes, drawn for the top-left corner and mirrored. */
export function DecorationCorner({ viewProps: v }: WidgetKindProps<ViewPropsOf<'decorationCorner'>>) {
  const w = Math.max(v.width, 1);
  const h = Math.max(v.height, 1);
  const t = v.thickness;
  const s = FLIP[v.corner] ?? FLIP.topLeft;
  const [sx, sy] = s.split(' ').map(Number);
  const stripe = Math.min(w, h) / 8;
  return (
    <svg data-widget="decorationCorner" width="100%" height="100%" viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" style={{ display: 'block' }}>
      <g transform={`translate(${sx < 0 ? w : 0} ${sy < 0 ? h : 0}) scale(${s})`}>
        <path d={`M${t / 2},${h} V${t / 2} H${w}`} fill="none" stroke={v.color} strokeWidth={t} />
        <path d={`M${t * 2 + 4},${h * 0.6} V${t * 2 + 4} H${w * 0.6}`} fill="none" stroke={v.accentColor} strokeWidth={Math.max(t / 2, 1)} />
        {Array.from({ length: v.stripes }, (_, i) => {
          const o = t * 3 + 10 + i * stripe * 1.2;
          return <path key={i} d={`M${o},${t} L${o + stripe},${t} L${t},${o + stripe} L${t},${o} Z`} fill={v.color} opacity={0.85 - i * 0.12} />;
        })}
      </g>
    </svg>
  );
}
