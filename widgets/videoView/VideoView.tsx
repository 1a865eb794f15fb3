import { useContext } from 'react';
import { WidgetMotionContext } from '../timing/sharedInterval';
import type { WidgetKindProps } from '../types';
import { BUILTIN_VIDEO_PREFIX, builtinVideoUrl } from './assets';
import type { ViewPropsOf } from '../viewPropTypes';

/**
 * The address when it is the shipped sample (`builtin:videoView/<file>`), a same-origin path or an http(s) URL to an
 * .mp4 / .webm file; otherwise why not (Chinese).
 */
export function checkVideoUrl(raw: unknown): { src: string } | { refused: string } {
  const text = raw == null ? '' : String(raw).trim();
  if (!text) return { refused: '请填写视频地址' };
  if (text.startsWith(BUILTIN_VIDEO_PREFIX)) {
    const src = builtinVideoUrl(text);
    return src ? { src } : { refused: '找不到该示例视频' };
  }
  let url: URL;
  try {
    if (text.startsWith('/') && /^\/[/\\]/.test(text)) throw new Error('other host');
    url = new URL(text, text.startsWith('/') ? 'http://same.origin' : undefined);
  } catch {
    return { refused: VIDEO_ONLY };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { refused: VIDEO_ONLY };
  if (!/\.(mp4|webm)$/i.test(url.pathname)) return { refused: '仅支持 mp4 或 webm 格式的视频' };
  return { src: text.startsWith('/') ? text : url.href };
}

const VIDEO_ONLY = '仅支持本站路径（以 / 开头）或 http(s) 网址的 mp4 / webm 视频，该地址不会加载';

/** 视频: an mp4/webm video; autoplay is always muted (browsers refuse sound without a gesture, and a screen should not start loud). */
export function VideoView({ viewProps: v }: WidgetKindProps<ViewPropsOf<'videoView'>>) {
  const live = useContext(WidgetMotionContext);
  const checked = checkVideoUrl(v.url);
  const box = { width: '100%', height: '100%', boxSizing: 'border-box', borderRadius: v.borderRadius, overflow: 'hidden', background: v.background } as const;
  if ('refused' in checked) {
    return (
      <div data-widget="videoView" role="note" style={{ ...box, display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 12, textAlign: 'center', color: v.noticeColor, fontSize: 14 }}>
        {checked.refused}
      </div>
    );
  }
  const autoPlay = v.autoplay && live;
  return (
    <div data-widget="videoView" style={box}>
      <video
        src={checked.src}
        autoPlay={autoPlay}
        muted={v.muted || autoPlay}
        loop={v.loop}
        controls={v.controls && live}
        playsInline
        preload="metadata"
        style={{ width: '100%', height: '100%', objectFit: v.fitType, display: 'block', pointerEvents: live ? 'auto' : 'none' }}
      />
    </div>
  );
}
