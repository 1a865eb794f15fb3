import { useState } from 'react';
import { useSharedInterval } from '../timing/sharedInterval';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/** "YYYY-MM-DD[ HH:mm[:ss]]" as local time; null when it is not such a date. */
export function parseTarget(text: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1);
  const date = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  return date.getMonth() === Number(mo) - 1 && date.getDate() === Number(d) ? date : null;
}

/** Whole days, hours, minutes and seconds in `ms` (≥ 0). */
export function splitDuration(ms: number, withDays: boolean): Array<[number, string]> {
  const total = Math.max(Math.floor(ms / 1000), 0);
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600) + (withDays ? 0 : days * 24);
  const parts: Array<[number, string]> = [[hours, '时'], [Math.floor((total % 3600) / 60), '分'], [total % 60, '秒']];
  return withDays ? [[days, '天'], ...parts] : parts;
}

/** 倒计时: days, hours, minutes and seconds left to the target time, stepped by the shared one-second interval. */
export function Countdown({ viewProps: v }: WidgetKindProps<ViewPropsOf<'countdown'>>) {
  const target = parseTarget(v.target);
  const [now, setNow] = useState(() => Date.now());
  const left = target ? target.getTime() - now : 0;
  useSharedInterval(() => setNow(Date.now()), 1000, left > 0);

  let body;
  if (!target) body = <span style={{ color: v.labelColor, fontSize: v.titleFontSize }}>目标时间格式不正确，请按“年-月-日 时:分:秒”填写</span>;
  else if (left <= 0) body = <span style={{ color: v.digitColor, fontSize: v.fontSize, fontWeight: 700 }}>{v.finishedText}</span>;
  else
    body = (
      <div style={{ display: 'flex', alignItems: 'baseline', gap: 6 }}>
        {splitDuration(left, v.showDays).map(([n, unit]) => (
          <span key={unit} style={{ display: 'inline-flex', alignItems: 'baseline', gap: 4 }}>
            <span style={{ color: v.digitColor, background: v.digitBackground, fontSize: v.fontSize, fontWeight: 700, padding: '2px 8px', borderRadius: 4, fontVariantNumeric: 'tabular-nums', lineHeight: 1.2 }}>
              {String(n).padStart(2, '0')}
            </span>
            <span style={{ color: v.labelColor, fontSize: v.titleFontSize }}>{unit}</span>
          </span>
        ))}
      </div>
    );
  return (
    <div data-widget="countdown" style={{ width: '100%', height: '100%', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 6, whiteSpace: 'nowrap', overflow: 'hidden' }}>
      {v.title && <div style={{ color: v.labelColor, fontSize: v.titleFontSize }}>{v.title}</div>}
      {body}
    </div>
  );
}
