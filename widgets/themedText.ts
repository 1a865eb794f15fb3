// Text that stays readable under every screen theme (issue 22 §2). Charts follow a theme through their option
// (charts/themes.ts `themeOption`); the other kinds declare in `colors.text` which colour properties are text and
// what they lie on. Under a theme other than the default, a text colour still at the kind's default that would
// fall below WCAG AA (4.5:1) on what lies under it — the canvas, then the declared backgrounds — takes the theme's
// text colour that reads there (black or white where none does). A colour the designer changed wins, and text on a kind's own opaque
// background (a table header) keeps its colour, because it still reads.
import { DEFAULT_THEME, themeColour, type ScreenTheme } from './charts/themes';
import { AA_TEXT, contrastRatio, parseColor, type Rgba } from './contrast';
import type { ViewProps, WidgetKind } from './types';

const same = (a: unknown, b: unknown) => typeof a === 'string' && typeof b === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();

export function themedTextColours(kind: Pick<WidgetKind, 'colors' | 'defaults'>, viewProps: ViewProps, theme: ScreenTheme, canvasColour: string): ViewProps {
  const text = kind.colors?.text;
  if (theme === DEFAULT_THEME || !text?.length) return viewProps;
  const canvas = parseColor(canvasColour);
  if (!canvas || canvas[3] !== 1) return viewProps;
  let out: ViewProps | null = null;
  for (const t of text) {
    const value = viewProps[t.color];
    if (!same(value, kind.defaults.viewProps[t.color])) continue;
    const fg = parseColor(String(value));
    const layers = (t.on ?? []).map((k) => parseColor(String(viewProps[k] ?? '')));
    if (!fg || layers.some((l) => !l)) continue;
    const under = [canvas, ...(layers as Rgba[])];
    const now = contrastRatio(fg, under);
    if (now >= AA_TEXT) continue;
    // the theme's own text colours first; black or white where none of them reads on a kind's own background
    // the theme's colour for the same role first (a chart's axis colour becomes the theme's axis colour)
    const candidates = [themeColour(String(value), theme), theme.strong, theme.text, theme.axis, '#000000', '#FFFFFF'].map((c) => ({ c, ratio: contrastRatio(parseColor(c) ?? fg, under) }));
    const best = candidates.find((x) => x.ratio >= AA_TEXT) ?? candidates.sort((x, y) => y.ratio - x.ratio)[0];
    if (best.ratio > now) (out ??= { ...viewProps })[t.color] = best.c;
  }
  return out ?? viewProps;
}
