import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';
import { checkImageUrl } from './checkImageUrl';

/** 图片: one image by address (see checkImageUrl); a refused address shows why instead of loading anything. */
export function ImageView({ viewProps: v }: WidgetKindProps<ViewPropsOf<'imageView'>>) {
  const checked = checkImageUrl(v.url);
  const box = { width: '100%', height: '100%', boxSizing: 'border-box', borderRadius: v.borderRadius, overflow: 'hidden', opacity: v.opacity } as const;
  if ('refused' in checked) {
    return (
      <div data-widget="imageView" role="note" style={{ ...box, opacity: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 12, textAlign: 'center', color: v.noticeColor, fontSize: 14 }}>
        {checked.refused}
      </div>
    );
  }
  return (
    <div data-widget="imageView" style={box}>
      <img src={checked.src} alt={v.alt} draggable={false} style={{ width: '100%', height: '100%', objectFit: v.fitType, display: 'block' }} />
    </div>
  );
}
