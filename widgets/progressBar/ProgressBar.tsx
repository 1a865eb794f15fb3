import type { WidgetKindProps } from '../types';
import { clickable, rowItem } from '../data/click';
import type { ViewPropsOf } from '../viewPropTypes';

/** The mapped `value` as a share of `max`, 0–1 (outside the range: clamped; no number: 0). */
export function shareOf(value: unknown, max: number): number {
  const n = Number(value);
  if (value == null || value === '' || !Number.isFinite(n) || !(max > 0)) return 0;
  return Math.min(Math.max(n / max, 0), 1);
}

/** 进度条: name and percentage above a gradient bar on its track. */
export function ProgressBar({ viewProps: v, data, onItemClick }: WidgetKindProps<ViewPropsOf<'progressBar'>>) {
  const share = shareOf(data.rows[0]?.value, v.max);
  const percent = `${(share * 100).toFixed(v.decimals)}%`;
  const radius = v.rounded ? v.barHeight / 2 : 0;
  return (
    <div data-widget="progressBar" {...clickable(onItemClick && (() => onItemClick(rowItem(data, 0))), true)} style={{ width: '100%', height: '100%', display: 'flex', flexDirection: 'column', justifyContent: 'center', gap: 8, fontSize: v.fontSize }}>
      {(v.label || v.showValue) && (
        <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8, whiteSpace: 'nowrap' }}>
          <span style={{ color: v.textColor, overflow: 'hidden', textOverflow: 'ellipsis' }}>{v.label}</span>
          {v.showValue && <span style={{ color: v.valueColor, fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>{percent}</span>}
        </div>
      )}
      <div
        role="progressbar"
        aria-label={v.label || '进度'}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Number((share * 100).toFixed(v.decimals))}
        style={{ height: v.barHeight, background: v.trackColor, borderRadius: radius, overflow: 'hidden' }}
      >
        <div style={{ width: `${share * 100}%`, height: '100%', borderRadius: radius, background: `linear-gradient(90deg, ${v.barColor}, ${v.barColorEnd})`, transition: 'width .6s ease' }} />
      </div>
    </div>
  );
}
