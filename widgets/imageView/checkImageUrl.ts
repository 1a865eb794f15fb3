import { resolveImageUrl } from '../carousel/assets';

/**
 * The address rules the carousel's images follow: a sample shipped with the widgets (`builtin:carousel/<file>`),
 * an image of the platform's image library or another same-origin path (`/…`, not `//host`), or an absolute
 * http(s) URL. Anything else (javascript:, data:, file:, relative text) is refused with a Chinese reason.
 */
export function checkImageUrl(raw: unknown): { src: string } | { refused: string } {
  const text = raw == null ? '' : String(raw).trim();
  if (!text) return { refused: '请填写图片地址' };
  if (text.startsWith('builtin:')) {
    const src = resolveImageUrl(text);
    return src && src !== text ? { src } : { refused: '找不到该示例图片' };
  }
  if (text.startsWith('/')) {
    return /^\/[/\\]/.test(text) ? { refused: IMAGE_ONLY } : { src: text };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { refused: IMAGE_ONLY };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { refused: IMAGE_ONLY };
  return { src: url.href };
}

const IMAGE_ONLY = '仅支持图片库中的图片、本站路径（以 / 开头）或 http(s) 网址，该地址不会加载';
