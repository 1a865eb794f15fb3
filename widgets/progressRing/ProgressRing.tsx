import { useId } from 'react';
import type { WidgetKindProps } from '../types';
import { clickable, rowItem } from '../data/click';
import type { ViewPropsOf } from '../viewPropTypes';

/** The mapped `value` as a share of `max`, 0–1 (clamped; no number: 0). */
function shareOf(value: unknown, max: number): number {
  const n = Number(value);
  if (value == null || value === '' || !Number.isFinite(n) || !(max > 0)) return 0;
  return Math.min(Math.max(n / max, 0), 1);
}

/** 进度环 (SVG): a gradient arc from twelve o'clock over its track, the percentage and name in the centre. */
export function ProgressRing({ viewProps: v, data, onItemClick }: WidgetKindProps<ViewPropsOf<'progressRing'>>) {
  const gradient = `pr-${useId().replace(/:/g, '')}`;
  const share = shareOf(data.rows[0]?.value, v.max);
  const size = Math.max(Math.min(v.width, v.height), 1);
  const stroke = Math.min(v.ringWidth, size / 4);
  const r = (size - stroke) / 2;
  const c = 2 * Math.PI * r;
  const percent = `${(share * 100).toFixed(v.decimals)}%`;
  return (
    <div
      data-widget="progressRing"
      {...clickable(onItemClick && (() => onItemClick(rowItem(data, 0))), true)}
      role="progressbar"
      aria-label={v.label || '进度'}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Number((share * 100).toFixed(v.decimals))}
      style={{ position: 'relative', width: '100%', height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center' }}
    >
      <svg width={size} height={size} viewBox={`0 0 ${size} ${size}`} style={{ position: 'absolute', display: 'block' }}>
        <defs>
          <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0%" stopColor={v.ringColor} />
            <stop offset="100%" stopColor={v.ringColorEnd} />
          </linearGradient>
        </defs>
        <circle cx={size / 2} cy={size / 2} r={r} fill="none" stroke={v.trackColor} strokeWidth={stroke} />
        <circle
          cx={size / 2}
          cy={size / 2}
          r={r}
          fill="none"
          stroke={`url(#${gradient})`}
          strokeWidth={stroke}
          strokeLinecap={share > 0 && share < 1 ? 'round' : 'butt'}
          strokeDasharray={`${share * c} ${c}`}
          transform={`rotate(-90 ${size / 2} ${size / 2})`}
          style={{ transition: 'stroke-dasharray .6s ease' }}
        />
      </svg>
      <div style={{ position: 'relative', textAlign: 'center', lineHeight: 1.2, whiteSpace: 'nowrap' }}>
        <div style={{ color: v.valueColor, fontSize: v.fontSize, fontWeight: 700, fontVariantNumeric: 'tabular-nums' }}>{percent}</div>
        {v.label && <div style={{ color: v.labelColor, fontSize: v.labelFontSize, marginTop: 4 }}>{v.label}</div>}
      </div>
    </div>
  );
}
