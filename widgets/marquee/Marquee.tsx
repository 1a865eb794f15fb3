import { useEffect, useRef } from 'react';
import { useWidgetMotion } from '../timing/motion';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/**
 * 跑马灯: the mapped `text` rows in one line moving left at `speed` pixels a second. The line is drawn twice and moved
 * by half its width (a Web Animation, on the compositor), so it loops without a seam. Still, cut with an ellipsis,
 * when the host holds widgets still or the viewer asked for reduced motion.
 */
export function Marquee({ viewProps: v, data }: WidgetKindProps<ViewPropsOf<'marquee'>>) {
  const items = data.rows.map((r) => (r.text == null ? '' : String(r.text))).filter((t) => t !== '');
  const motion = useWidgetMotion() && items.length > 0;
  const track = useRef<HTMLDivElement>(null);
  const key = items.join('\u0000');

  useEffect(() => {
    const el = track.current;
    if (!motion || !el || typeof el.animate !== 'function') return;
    // one copy's width; before layout (or where there is none) an estimate from the text
    const half = el.scrollWidth / 2 || (key.length * v.fontSize + items.length * v.gap);
    const anim = el.animate([{ transform: 'translateX(0)' }, { transform: 'translateX(-50%)' }], { duration: (half / Math.max(v.speed, 1)) * 1000, iterations: Infinity });
    return () => anim.cancel();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [motion, key, v.speed, v.gap, v.fontSize, v.icon]);

  const copy = (hidden: boolean) => (
    <span aria-hidden={hidden || undefined} style={{ display: 'inline-flex', flexShrink: 0 }}>
      {items.map((t, i) => (
        <span key={i} style={{ paddingRight: v.gap }}>
          {v.icon && <span style={{ marginRight: 6 }}>{v.icon}</span>}
          {t}
        </span>
      ))}
    </span>
  );

  return (
    <div
      data-widget="marquee"
      style={{ width: '100%', height: '100%', display: 'flex', alignItems: 'center', overflow: 'hidden', whiteSpace: 'nowrap', background: v.backgroundColor, color: v.color, fontSize: v.fontSize }}
    >
      {items.length === 0 ? (
        <span style={{ padding: '0 8px' }}>暂无数据</span>
      ) : motion ? (
        <div ref={track} style={{ display: 'inline-flex', willChange: 'transform' }}>
          {copy(false)}
          {copy(true)}
        </div>
      ) : (
        <div style={{ overflow: 'hidden', textOverflow: 'ellipsis', padding: '0 8px' }}>{copy(false)}</div>
      )}
    </div>
  );
}
