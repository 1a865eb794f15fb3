import { useWidgetMotion } from '../timing/motion';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/**
 * 发光边框: a rounded frame glowing in and out (CSS shadows), bright L marks on the four corners. The glow breathes
 * (an SVG animation) only when widgets may move and the viewer has not asked for reduced motion.
 */
export function BorderBox4({ viewProps: v }: WidgetKindProps<ViewPropsOf<'borderBox4'>>) {
  const motion = useWidgetMotion() && v.pulse;
  const w = Math.max(v.width, 1);
  const h = Math.max(v.height, 1);
  const c = Math.min(v.cornerLength, w / 2, h / 2);
  const corners = [`M1.5,${c} V1.5 H${c}`, `M${w - c},1.5 H${w - 1.5} V${c}`, `M${w - 1.5},${h - c} V${h - 1.5} H${w - c}`, `M${c},${h - 1.5} H1.5 V${h - c}`];
  return (
    <div
      data-widget="borderBox4"
      style={{
        position: 'relative',
        width: '100%',
        height: '100%',
        boxSizing: 'border-box',
        borderRadius: v.radius,
        border: `1px solid ${v.borderColor}`,
        background: v.backgroundColor,
        boxShadow: v.glowSize ? `0 0 ${v.glowSize}px ${v.glowColor}, inset 0 0 ${v.glowSize}px ${v.glowColor}` : 'none',
      }}
    >
      <svg width="100%" height="100%" viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" style={{ position: 'absolute', inset: -1, width: 'calc(100% + 2px)', height: 'calc(100% + 2px)', display: 'block', overflow: 'visible' }}>
        <g fill="none" stroke={v.accentColor} strokeWidth={3} strokeLinecap="round">
          {motion && <animate attributeName="stroke-opacity" values="1;0.35;1" dur="2.4s" repeatCount="indefinite" />}
          {corners.map((d) => (
            <path key={d} d={d} />
          ))}
        </g>
      </svg>
    </div>
  );
}
