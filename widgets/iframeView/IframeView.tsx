import { useContext } from 'react';
import { WidgetMotionContext } from '../timing/sharedInterval';
import type { WidgetKindProps } from '../types';
import type { ViewPropsOf } from '../viewPropTypes';

/** The address when it is an absolute http(s) URL; otherwise why it is refused (Chinese). */
export function checkFrameUrl(raw: string): { url: URL } | { refused: string } {
  const text = raw.trim();
  if (!text) return { refused: '请填写要内嵌的网页地址' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { refused: '网页地址无效：仅支持以 http:// 或 https:// 开头的完整网址' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { refused: '仅支持 http:// 或 https:// 开头的网页地址，其他地址不会加载' };
  return { url };
}

/**
 * 内嵌网页: an http(s) page in a sandboxed iframe (scripts only when allowed; its own origin only for another site's
 * page, since scripts plus this app's origin could lift the sandbox), no referrer. Any other address is not loaded.
 * The designer holds widgets still and also keeps the page from taking the pointer, so the widget can be dragged.
 */
export function IframeView({ viewProps: v }: WidgetKindProps<ViewPropsOf<'iframeView'>>) {
  const live = useContext(WidgetMotionContext);
  const checked = checkFrameUrl(v.url);
  const frame = { width: '100%', height: '100%', boxSizing: 'border-box', border: v.borderWidth ? `${v.borderWidth}px solid ${v.borderColor}` : 'none' } as const;
  if ('refused' in checked) {
    return (
      <div data-widget="iframeView" role="note" style={{ ...frame, display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 12, textAlign: 'center', color: v.noticeColor, fontSize: 14 }}>
        {checked.refused}
      </div>
    );
  }
  const crossOrigin = typeof window === 'undefined' || checked.url.origin !== window.location.origin;
  const sandbox = [v.allowScripts && 'allow-scripts', crossOrigin && 'allow-same-origin', 'allow-forms'].filter(Boolean).join(' ');
  return (
    <iframe
      data-widget="iframeView"
      title="内嵌网页"
      src={checked.url.href}
      sandbox={sandbox}
      referrerPolicy="no-referrer"
      loading="lazy"
      style={{ ...frame, display: 'block', background: 'transparent', pointerEvents: live ? 'auto' : 'none' }}
    />
  );
}
