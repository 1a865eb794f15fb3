import { useId } from 'react';
import { useWidgetMotion } from '../timing/motion';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/**
 * 装饰线: a horizontal line in one of three looks — fading at both ends, two lines with a centre block, or a ruler of
 * dashes — with a light running along it (an SVG animation, only when widgets may move and motion is not reduced).
 */
export function DecorationLine({ viewProps: v }: WidgetKindProps<ViewPropsOf<'decorationLine'>>) {
  const id = `dl-${useId().replace(/:/g, '')}`;
  const motion = useWidgetMotion() && v.flow;
  const w = Math.max(v.width, 1);
  const h = Math.max(v.height, 1);
  const mid = h / 2;
  const t = Math.min(v.thickness, h);
  const light = w / 5;
  let body;
  if (v.lineStyle === 'double') {
    const gap = Math.max(t * 1.5, 3);
    const block = Math.min(w / 6, 60);
    body = (
      <>
        <rect x={0} y={mid - gap - t / 2} width={w} height={t / 2 + 0.5} fill={v.color} />
        <rect x={0} y={mid + gap} width={w} height={t / 2 + 0.5} fill={v.color} />
        <rect x={(w - block) / 2} y={mid - gap} width={block} height={gap * 2} fill={v.accentColor} />
        <rect x={0} y={mid - gap} width={8} height={gap * 2} fill={v.accentColor} />
        <rect x={w - 8} y={mid - gap} width={8} height={gap * 2} fill={v.accentColor} />
      </>
    );
  } else if (v.lineStyle === 'dashed') {
    const step = 10;
    body = (
      <>
        <rect x={0} y={mid - t / 2} width={w} height={t} fill={v.color} opacity={0.5} />
        {Array.from({ length: Math.floor(w / step) + 1 }, (_, i) => (
          <rect key={i} x={i * step} y={i % 5 === 0 ? mid - t * 3 : mid - t * 1.5} width={Math.max(t / 1.5, 1)} height={i % 5 === 0 ? t * 6 : t * 3} fill={i % 5 === 0 ? v.accentColor : v.color} />
        ))}
      </>
    );
  } else {
    body = <rect x={0} y={mid - t / 2} width={w} height={t} fill={`url(#${id}-fade)`} />;
  }
  return (
    <svg data-widget="decorationLine" width="100%" height="100%" viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" style={{ display: 'block', overflow: 'hidden' }}>
      <defs>
        <linearGradient id={`${id}-fade`} x1="0" x2="1" y1="0" y2="0">
          <stop offset="0%" stopColor={v.color} stopOpacity={0} />
          <stop offset="50%" stopColor={v.accentColor} />
          <stop offset="100%" stopColor={v.color} stopOpacity={0} />
        </linearGradient>
        <linearGradient id={`${id}-light`} x1="0" x2="1" y1="0" y2="0">
          <stop offset="0%" stopColor={v.accentColor} stopOpacity={0} />
          <stop offset="80%" stopColor={v.accentColor} />
          <stop offset="100%" stopColor={v.accentColor} stopOpacity={0} />
        </linearGradient>
      </defs>
      {body}
      {motion && (
        <rect data-flow y={mid - t / 2 - 0.5} width={light} height={t + 1} fill={`url(#${id}-light)`}>
          <animate attributeName="x" from={-light} to={w} dur={`${v.duration}ms`} repeatCount="indefinite" />
        </rect>
      )}
    </svg>
  );
}
