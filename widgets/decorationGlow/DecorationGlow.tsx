import { useId } from 'react';
import { useWidgetMotion } from '../timing/motion';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/**
 * 光晕: a soft radial halo with a bright core line (halo), or a horizontal beam fading to both ends (beam). It breathes
 * (SVG animation) only when widgets may move and the viewer has not asked for reduced motion.
 */
export function DecorationGlow({ viewProps: v }: WidgetKindProps<ViewPropsOf<'decorationGlow'>>) {
  const id = `dg-${useId().replace(/:/g, '')}`;
  const motion = useWidgetMotion() && v.pulse;
  const w = Math.max(v.width, 1);
  const h = Math.max(v.height, 1);
  const k = Math.min(Math.max(v.intensity, 0.1), 1);
  return (
    <svg data-widget="decorationGlow" width="100%" height="100%" viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" style={{ display: 'block' }}>
      <defs>
        <radialGradient id={`${id}-halo`} cx="50%" cy="50%" r="50%">
          <stop offset="0%" stopColor={v.color} stopOpacity={k} />
          <stop offset="55%" stopColor={v.color} stopOpacity={k * 0.35} />
          <stop offset="100%" stopColor={v.color} stopOpacity={0} />
        </radialGradient>
        <linearGradient id={`${id}-core`} x1="0" x2="1" y1="0" y2="0">
          <stop offset="0%" stopColor={v.coreColor} stopOpacity={0} />
          <stop offset="50%" stopColor={v.coreColor} />
          <stop offset="100%" stopColor={v.coreColor} stopOpacity={0} />
        </linearGradient>
        <linearGradient id={`${id}-beam`} x1="0" x2="0" y1="0" y2="1">
          <stop offset="0%" stopColor={v.color} stopOpacity={0} />
          <stop offset="50%" stopColor={v.color} stopOpacity={k} />
          <stop offset="100%" stopColor={v.color} stopOpacity={0} />
        </linearGradient>
      </defs>
      <g>
        {motion && <animate attributeName="opacity" values="1;0.45;1" dur={`${v.duration}ms`} repeatCount="indefinite" />}
        {v.shape === 'beam' ? (
          <>
            <rect x={0} y={0} width={w} height={h} fill={`url(#${id}-beam)`} />
            <rect x={0} y={h / 2 - 1} width={w} height={2} fill={`url(#${id}-core)`} />
          </>
        ) : (
          <>
            <ellipse cx={w / 2} cy={h / 2} rx={w / 2} ry={h / 2} fill={`url(#${id}-halo)`} />
            <rect x={w * 0.1} y={h / 2 - 1} width={w * 0.8} height={2} fill={`url(#${id}-core)`} />
          </>
        )}
      </g>
    </svg>
  );
}
