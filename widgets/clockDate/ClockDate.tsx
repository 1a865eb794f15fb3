import { useState } from 'react';
import { useSharedInterval } from '../timing/sharedInterval';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';
import { formatClock } from './format';

const JUSTIFY = { left: 'flex-start', center: 'center', right: 'flex-end' } as const;

/** 时钟日期: the local date and time in the chosen format, stepped by the shared one-second interval. */
export function ClockDate({ viewProps: v }: WidgetKindProps<ViewPropsOf<'clockDate'>>) {
  const [now, setNow] = useState(() => new Date());
  useSharedInterval(() => setNow(new Date()), 1000);
  const text = formatClock(now, v.format, v.showWeek);
  return (
    <div
      data-widget="clockDate"
      style={{ width: '100%', height: '100%', display: 'flex', alignItems: 'center', justifyContent: JUSTIFY[v.textAlign] ?? 'center', color: v.color, fontSize: v.fontSize, fontWeight: v.fontWeight, fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', overflow: 'hidden' }}
    >
      <time dateTime={now.toISOString()}>{text}</time>
    </div>
  );
}
