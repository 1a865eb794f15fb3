// Table cells end in "…" by measuring the text rather than by CSS (overflow: hidden + text-overflow): a clip per
// cell made every cell a paint chunk of its own, and a designer canvas full of scrolling tables re-layerized
// thousands of them on every frame of a drag (bench/designer).

const ELLIPSIS = '…';
const inJsdom = typeof navigator !== 'undefined' && /jsdom/i.test(navigator.userAgent);
let context: CanvasRenderingContext2D | null | undefined;
const cache = new Map<string, number>();

/** Width in CSS px of `text` in `font` (a CSS font shorthand); an estimate where there is no 2D canvas. */
export function textWidth(text: string, font: string): number {
  const key = `${font}\u0000${text}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  if (context === undefined) context = typeof document === 'undefined' || inJsdom ? null : document.createElement('canvas').getContext('2d');
  let width: number;
  if (context) {
    context.font = font;
    width = context.measureText(text).width;
  } else {
    const size = Number(/(\d+(?:\.\d+)?)px/.exec(font)?.[1] ?? 14);
    width = [...text].reduce((w, ch) => w + (ch.charCodeAt(0) > 255 ? size : size * 0.6), 0);
  }
  if (cache.size > 20_000) cache.clear(); // texts come from data: keep the cache bounded
  cache.set(key, width);
  return width;
}

/** `text` if it fits in `max` px, else its longest prefix (whole code points) followed by "…" that does. */
export function fitText(text: string, max: number, font: string): string {
  if (textWidth(text, font) <= max) return text;
  const chars = [...text];
  let lo = 0;
  let hi = chars.length - 1;
  // the longest prefix length n with prefix + "…" fitting: binary search over n
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (textWidth(chars.slice(0, mid).join('') + ELLIPSIS, font) <= max) lo = mid;
    else hi = mid - 1;
  }
  return chars.slice(0, lo).join('') + ELLIPSIS;
}
