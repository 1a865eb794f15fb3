import { useState } from 'react';
import { useSharedInterval } from '../timing/sharedInterval';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';
import { resolveImageUrl } from './assets';
import { safeHref } from '../../runtime/core/urls';

export function Carousel({ viewProps: v, data }: WidgetKindProps<ViewPropsOf<'carousel'>>) {
  const slides = data.rows.filter((r) => r.imgUrl != null && r.imgUrl !== '');
  const count = slides.length;
  const [index, setIndex] = useState(0);

  useSharedInterval(() => setIndex((i) => (i + 1) % count), Math.max(v.interval, 1000), count > 1);

  const current = count ? index % count : 0;
  return (
    <div data-widget="carousel" style={{ position: 'relative', width: '100%', height: '100%', overflow: 'hidden' }}>
      {count === 0 && <div style={emptyStyle}>暂无图片</div>}
      {slides.map((s, i) => {
        const img = (
          <img
            src={resolveImageUrl(s.imgUrl)}
            alt={`轮播图 ${i + 1}`}
            draggable={false}
            style={{ width: '100%', height: '100%', objectFit: v.fitType, display: 'block' }}
          />
        );
        // a slide's link comes from data (static rows or an API): only http(s) or an in-app path becomes a link
        const link = safeHref(s.imgLink == null ? '' : String(s.imgLink), { allowMailto: false }) ?? '';
        return (
          <div key={i} aria-hidden={i !== current} style={{ position: 'absolute', inset: 0, opacity: i === current ? 1 : 0, transition: 'opacity .6s' }}>
            {link ? (
              <a href={link} target={v.openInNewTab ? '_blank' : undefined} rel="noreferrer" tabIndex={i === current ? 0 : -1}>
                {img}
              </a>
            ) : (
              img
            )}
          </div>
        );
      })}
      {v.showDots && count > 1 && (
        <div style={{ position: 'absolute', bottom: 6, left: 0, right: 0, display: 'flex', justifyContent: 'center', gap: 6 }}>
          {slides.map((_, i) => (
            <button
              key={i}
              type="button"
              aria-label={`第 ${i + 1} 张`}
              onClick={() => setIndex(i)}
              style={{ width: i === current ? 14 : 6, height: 6, padding: 0, border: 0, borderRadius: 3, cursor: 'pointer', background: i === current ? '#fff' : 'rgba(255,255,255,.5)', transition: 'width .3s' }}
            />
          ))}
        </div>
      )}
    </div>
  );
}

const emptyStyle = { display: 'flex', alignItems: 'center', justifyContent: 'center', height: '100%', color: '#8c9bb5', fontSize: 12 } as const;
