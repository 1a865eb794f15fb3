import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/** 标题边框: a frame whose top edge carries a trapezoid title tab in the middle, with accent marks on its shoulders. */
export function BorderBox3({ viewProps: v }: WidgetKindProps<ViewPropsOf<'borderBox3'>>) {
  const w = Math.max(v.width, 1);
  const h = Math.max(v.height, 1);
  const tabH = Math.min(v.titleFontSize * 2, h / 2);
  const tabW = Math.min(v.titleWidth, w - 8);
  const slope = tabH * 0.6;
  const x0 = (w - tabW) / 2;
  const x1 = x0 + tabW;
  const top = tabH / 2; // the frame's top edge runs through the tab's middle
  const frame = `M${x0 - slope / 2},${top} H1 V${h - 1} H${w - 1} V${top} H${x1 + slope / 2}`;
  const tab = `M${x0 - slope / 2},0 H${x1 + slope / 2} L${x1 - slope / 2},${tabH} H${x0 + slope / 2} Z`;
  return (
    <div data-widget="borderBox3" style={{ position: 'relative', width: '100%', height: '100%' }}>
      <svg width="100%" height="100%" viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" style={{ position: 'absolute', inset: 0, display: 'block' }}>
        <rect x={1} y={top} width={Math.max(w - 2, 0)} height={Math.max(h - top - 1, 0)} fill={v.backgroundColor || 'none'} />
        <path d={frame} fill="none" stroke={v.borderColor} strokeWidth={2} />
        <path d={tab} fill={v.titleBackground} stroke={v.accentColor} strokeWidth={1} />
        <g stroke={v.accentColor} strokeWidth={3}>
          <path d={`M${x0 - slope / 2 - 30},${top} H${x0 - slope / 2 - 6}`} />
          <path d={`M${x1 + slope / 2 + 6},${top} H${x1 + slope / 2 + 30}`} />
          <path d={`M1,${h - 1} h 24 M${w - 1},${h - 1} h -24`} />
        </g>
      </svg>
      <div
        style={{ position: 'absolute', top: 0, left: x0, width: tabW, height: tabH, display: 'flex', alignItems: 'center', justifyContent: 'center', color: v.titleColor, fontSize: v.titleFontSize, fontWeight: 600, letterSpacing: 2, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
      >
        {v.title}
      </div>
    </div>
  );
}
