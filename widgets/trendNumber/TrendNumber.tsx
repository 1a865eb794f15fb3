import type { WidgetKindProps } from '../types';
import { clickable, rowItem } from '../data/click';
import type { ViewPropsOf } from '../viewPropTypes';

const num = (x: unknown): number | null => {
  if (x == null || x === '') return null;
  const n = Number(x);
  return Number.isFinite(n) ? n : null;
};
const fmt = (n: number, decimals: number) => n.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

/** 指标趋势: the mapped `value` with its unit, and its change against `previous` (arrow and colour by direction). */
export function TrendNumber({ viewProps: v, data, onItemClick }: WidgetKindProps<ViewPropsOf<'trendNumber'>>) {
  const row = data.rows[0] ?? {};
  const value = num(row.value);
  const previous = num(row.previous);
  const diff = value != null && previous != null ? value - previous : null;
  const dir = diff == null || diff === 0 ? 'flat' : diff > 0 ? 'up' : 'down';
  let change = '';
  if (diff != null) {
    if (v.changeMode === 'absolute') change = fmt(Math.abs(diff), v.decimals);
    else change = previous === 0 ? '—' : `${(Math.abs(diff / previous!) * 100).toFixed(1)}%`;
  }
  const changeColor = dir === 'up' ? v.upColor : dir === 'down' ? v.downColor : v.labelColor;
  const arrow = dir === 'up' ? '▲' : dir === 'down' ? '▼' : '—';
  const dirWord = dir === 'up' ? '上升' : dir === 'down' ? '下降' : '持平';

  return (
    <div data-widget="trendNumber" {...clickable(onItemClick && (() => onItemClick(rowItem(data, 0))))} style={{ width: '100%', height: '100%', display: 'flex', flexDirection: 'column', justifyContent: 'center', gap: 6, overflow: 'hidden', whiteSpace: 'nowrap' }}>
      {v.title && <div style={{ color: v.titleColor, fontSize: v.titleFontSize, overflow: 'hidden', textOverflow: 'ellipsis' }}>{v.title}</div>}
      <div style={{ display: 'flex', alignItems: 'baseline', gap: 6 }}>
        <span style={{ color: v.valueColor, fontSize: v.fontSize, fontWeight: 700, lineHeight: 1.1, fontVariantNumeric: 'tabular-nums' }}>{value == null ? '--' : fmt(value, v.decimals)}</span>
        {v.unit && <span style={{ color: v.titleColor, fontSize: v.titleFontSize }}>{v.unit}</span>}
      </div>
      {diff != null && (
        <div style={{ fontSize: v.changeFontSize, display: 'flex', alignItems: 'center', gap: 6 }} aria-label={`${v.changeLabel}${dirWord}${dir === 'flat' ? '' : ` ${change}`}`}>
          <span style={{ color: v.labelColor }}>{v.changeLabel}</span>
          <span data-trend={dir} style={{ color: changeColor, fontWeight: 600 }}>
            {arrow} {dir === 'flat' ? '' : change}
          </span>
        </div>
      )}
    </div>
  );
}
