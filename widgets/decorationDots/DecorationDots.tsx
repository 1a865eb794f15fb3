import { useId } from 'react';
import { useWidgetMotion } from '../timing/motion';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/**
 * 光点阵: a grid of dots filling the box, every `litEvery`-th one glowing; lit dots twinkle in turn (SVG animation)
 * only when widgets may move and the viewer has not asked for reduced motion.
 */
export function DecorationDots({ viewProps: v }: WidgetKindProps<ViewPropsOf<'decorationDots'>>) {
  const glow = `dd-${useId().replace(/:/g, '')}`;
  const motion = useWidgetMotion() && v.twinkle;
  const w = Math.max(v.width, 1);
  const h = Math.max(v.height, 1);
  const pitch = v.dotSize + v.spacing;
  const cols = Math.max(Math.floor((w + v.spacing) / pitch), 1);
  const rows = Math.max(Math.floor((h + v.spacing) / pitch), 1);
  const ox = (w - (cols * pitch - v.spacing)) / 2;
  const oy = (h - (rows * pitch - v.spacing)) / 2;
  const r = v.dotSize / 2;
  const dots = [];
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const n = y * cols + x;
      const lit = (x + y * 2) % v.litEvery === 0;
      dots.push(
        <circle key={n} data-lit={lit || undefined} cx={ox + x * pitch + r} cy={oy + y * pitch + r} r={r} fill={lit ? v.glowColor : v.color} filter={lit ? `url(#${glow})` : undefined}>
          {lit && motion && <animate attributeName="opacity" values="1;0.25;1" dur="2s" begin={`${(n % 7) * 0.3}s`} repeatCount="indefinite" />}
        </circle>,
      );
    }
  }
  return (
    <svg data-widget="decorationDots" width="100%" height="100%" viewBox={`0 0 ${w} ${h}`} style={{ display: 'block', overflow: 'visible' }}>
      <defs>
        <filter id={glow} x="-100%" y="-100%" width="300%" height="300%">
          <feGaussianBlur stdDeviation={Math.max(r / 2, 1)} result="b" />
          <feMerge>
            <feMergeNode in="b" />
            <feMergeNode in="SourceGraphic" />
          </feMerge>
        </filter>
      </defs>
      {dots}
    </svg>
  );
}
