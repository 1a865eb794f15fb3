import { useEffect, useState } from 'react';
import { useWidgetMotion } from '../timing/motion';
import type { WidgetKindProps } from '../types';
import { clickable, rowItem } from '../data/click';
import type { ViewPropsOf } from '../viewPropTypes';

const JUSTIFY = { left: 'flex-start', center: 'center', right: 'flex-end' } as const;
const DIGITS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
/** One digit cell's height in em; the strip of ten digits moves by this per digit. */
const CELL = 1.2;

/** `value` with its decimals and, when asked, the thousands separator. */
export function formatNumber(value: number, decimals: number, separator: boolean): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: separator });
}

/**
 * 数字翻牌: the mapped `value` drawn as digit cells; each cell is a strip 0–9 moved to its digit, so a new value
 * rolls every changed digit to its place (first shown rolling up from zeros). Cells are keyed from the right, so
 * 999 → 1000 adds a cell on the left and rolls the others. Still when the host holds widgets still or the viewer
 * asked for reduced motion.
 */
export function KpiNumber({ viewProps: v, data, onItemClick }: WidgetKindProps<ViewPropsOf<'kpiNumber'>>) {
  const raw = Number(data.rows[0]?.value);
  const value = Number.isFinite(raw) ? raw : 0;
  const text = formatNumber(value, v.decimals, v.separator);
  const motion = useWidgetMotion() && v.duration > 0;
  // the first frame shows zeros in every digit place, then the digits roll to the value
  const [shown, setShown] = useState(() => (motion ? text.replace(/\d/g, '0') : text));
  useEffect(() => {
    if (!motion) {
      setShown(text);
      return;
    }
    const id = requestAnimationFrame(() => setShown(text));
    return () => cancelAnimationFrame(id);
  }, [text, motion]);
  const chars = [...(shown.length === text.length ? shown : text)];
  const label = `${v.prefix}${text}${v.suffix}${v.unit ? ` ${v.unit}` : ''}`;
  const transition = motion ? `transform ${v.duration}ms cubic-bezier(.2,.8,.2,1)` : 'none';

  return (
    <div
      data-widget="kpiNumber"
      {...clickable(onItemClick && (() => onItemClick(rowItem(data, 0))), true)}
      role="img"
      aria-label={label}
      title={label}
      style={{ width: '100%', height: '100%', display: 'flex', alignItems: 'center', justifyContent: JUSTIFY[v.textAlign] ?? 'center', overflow: 'hidden', whiteSpace: 'nowrap' }}
    >
      <div aria-hidden style={{ display: 'flex', alignItems: 'baseline', gap: 4, color: v.color, fontSize: v.fontSize, fontWeight: v.fontWeight, fontVariantNumeric: 'tabular-nums', lineHeight: 1 }}>
        {v.prefix && <span>{v.prefix}</span>}
        {chars.map((c, i) => {
          const key = chars.length - i;
          if (!/\d/.test(c)) {
            return (
              <span key={key} style={{ height: `${CELL}em`, lineHeight: `${CELL}em`, display: 'inline-block', width: '0.35em', textAlign: 'center' }}>
                {c}
              </span>
            );
          }
          return (
            <span
              key={key}
              style={{ position: 'relative', display: 'inline-block', height: `${CELL}em`, width: '0.78em', overflow: 'hidden', background: v.digitBackground, borderRadius: 4, textAlign: 'center' }}
            >
              <span style={{ display: 'block', transform: `translateY(${-Number(c) * CELL}em)`, transition }}>
                {DIGITS.map((d) => (
                  <span key={d} style={{ display: 'block', height: `${CELL}em`, lineHeight: `${CELL}em` }}>
                    {d}
                  </span>
                ))}
              </span>
            </span>
          );
        })}
        {v.suffix && <span>{v.suffix}</span>}
        {v.unit && <span style={{ fontSize: v.unitFontSize, color: v.unitColor, fontWeight: 400, marginLeft: 4 }}>{v.unit}</span>}
      </div>
    </div>
  );
}
