// WCAG 2 contrast of a text colour on what lies under it (a stack of possibly translucent backgrounds over an
// opaque one). Used by the test that holds every widget kind's default colours to AA (4.5:1) on the default
// canvas of each designer it is offered in, and by the browser test that measures the drawn widgets.

export type Rgba = [number, number, number, number];

/** WCAG AA for normal text. */
export const AA_TEXT = 4.5;

/** `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb(…)`, `rgba(…)` (as declarations and getComputedStyle write them); null otherwise. */
export function parseColor(text: string): Rgba | null {
  const s = text.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(s);
  if (hex) {
    let h = hex[1];
    if (h.length <= 4) h = [...h].map((c) => c + c).join('');
    const n = (i: number) => parseInt(h.slice(i, i + 2), 16);
    return [n(0), n(2), n(4), h.length === 8 ? n(6) / 255 : 1];
  }
  const fn = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:[\s,/]+([\d.]+%?))?\s*\)$/.exec(s);
  if (fn) {
    const a = fn[4] === undefined ? 1 : fn[4].endsWith('%') ? parseFloat(fn[4]) / 100 : parseFloat(fn[4]);
    return [Number(fn[1]), Number(fn[2]), Number(fn[3]), a];
  }
  return null;
}

/** `top` painted over the opaque `under`. */
export function over(top: Rgba, under: Rgba): Rgba {
  const a = top[3];
  return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1) as Rgba;
}

/** Relative luminance (WCAG 2). */
export function luminance([r, g, b]: Rgba): number {
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/**
 * The contrast ratio of `text` on `layers` (bottom first; the first must be opaque), each composited over the
 * one below; a translucent text colour is composited over the result too.
 */
export function contrastRatio(text: Rgba, layers: readonly Rgba[]): number {
  const bg = layers.slice(1).reduce((under, top) => over(top, under), over(layers[0], [255, 255, 255, 1]));
  const fg = over(text, bg);
  const [hi, lo] = [luminance(fg), luminance(bg)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
