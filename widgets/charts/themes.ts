// Screen themes (issue 22 §2): one choice on the canvas (画布属性 → 主题) sets the canvas background and the
// palette, text and axis colours of every chart on the screen at once.
//
// How a chart follows the theme, without code in any kind: the default theme (深蓝科技) holds the colours the
// chart kinds' schemas default to. Under another theme, every colour in a chart's option equal to one of the
// default theme's colours is replaced by the chosen theme's colour for the same role (useEChart does this, see
// `themeOption`). So a colour left at its default follows the theme, and a colour the designer changed (or set in
// 图表配置（高级）to anything else) wins. Screens saved before themes have none and look as they did.
import { createContext } from 'react';

/** The colours of a theme, by role. */
export interface ScreenTheme {
  id: string;
  /** Its name in the panel. */
  title: string;
  /** Dark or light: what a host may want to know (e.g. a story's frame). */
  tone: 'dark' | 'light';
  /** The canvas background when the canvas has no colour of its own. */
  background: string;
  /** The series colours, in order (seven: the length of the kinds' default palette). */
  palette: readonly string[];
  /** Axis lines and labels, legends: secondary text. */
  axis: string;
  /** Slice, funnel and other labels: primary text. */
  text: string;
  /** A figure that must stand out (the gauge's value). */
  strong: string;
  /** An empty track under a progress (the gauge's ring). */
  track: string;
}

/** The default: the colours every chart kind declares as its defaults (and the canvas's default background). */
export const DEFAULT_THEME: ScreenTheme = {
  id: 'techBlue',
  title: '深蓝科技',
  tone: 'dark',
  background: '#1D202D',
  palette: ['#3BA0FF', '#36CBCB', '#4ECB73', '#FAD337', '#F2637B', '#975FE4', '#FF9F43'],
  axis: '#A8B3CF',
  text: '#D6E4FF',
  strong: '#FFFFFF',
  track: '#2A3550',
};

/** Every theme, the default first (the panel's order). */
export const SCREEN_THEMES: readonly ScreenTheme[] = [
  DEFAULT_THEME,
  {
    id: 'night',
    title: '暗夜',
    tone: 'dark',
    background: '#0B0E14',
    palette: ['#5B8FF9', '#5AD8A6', '#F6BD16', '#E86452', '#6DC8EC', '#945FB9', '#FF9845'],
    axis: '#9AA4B2',
    text: '#E1E6EE',
    strong: '#FFFFFF',
    track: '#232A36',
  },
  {
    id: 'jade',
    title: '青碧',
    tone: 'dark',
    background: '#05262B',
    palette: ['#00D4C0', '#2BB8F0', '#7BE495', '#F7D154', '#FF8A65', '#A594F9', '#4DD0E1'],
    axis: '#8FC9C3',
    text: '#D3F5F0',
    strong: '#FFFFFF',
    track: '#11424A',
  },
  {
    id: 'violet',
    title: '紫罗兰',
    tone: 'dark',
    background: '#1A1030',
    palette: ['#B37FEB', '#F759AB', '#5CDBD3', '#FFC53D', '#69B1FF', '#FF7A45', '#95DE64'],
    axis: '#B9A8D6',
    text: '#EDE4FF',
    strong: '#FFFFFF',
    track: '#33244F',
  },
  {
    id: 'bright',
    title: '明亮',
    tone: 'light',
    background: '#F5F7FA',
    palette: ['#1677FF', '#13A8A8', '#52C41A', '#FAAD14', '#F5222D', '#722ED1', '#FA8C16'],
    axis: '#4E5969',
    text: '#1D2129',
    strong: '#1D2129',
    track: '#E3E8EF',
  },
  {
    id: 'fresh',
    title: '清新浅色',
    tone: 'light',
    background: '#EEF7F3',
    palette: ['#1FA59C', '#3D8BFD', '#7CB342', '#F4B400', '#EF6C57', '#8E6BD8', '#00A3C4'],
    axis: '#40615A',
    text: '#1F3A34',
    strong: '#12332C',
    track: '#D2E7DF',
  },
];

/** The theme of a canvas's `theme` property: the default for none, or for an id no longer offered. */
export function screenTheme(id: string | null | undefined): ScreenTheme {
  return SCREEN_THEMES.find((t) => t.id === id) ?? DEFAULT_THEME;
}

/** The theme the charts below follow; CanvasStage provides its canvas's. */
export const ScreenThemeContext = createContext<ScreenTheme>(DEFAULT_THEME);
/** The canvas's own colour where it has one, else its theme's background (what widgets' text lies on). */
export const CanvasColourContext = createContext<string>(DEFAULT_THEME.background);

const key = (c: string) => c.trim().toUpperCase();

/** Each default-theme colour (upper case) → its role's colour in `theme`. */
function colourMap(theme: ScreenTheme): Map<string, string> {
  const map = new Map<string, string>();
  DEFAULT_THEME.palette.forEach((c, i) => map.set(key(c), theme.palette[i % theme.palette.length]));
  for (const role of ['axis', 'text', 'strong', 'track'] as const) map.set(key(DEFAULT_THEME[role]), theme[role]);
  return map;
}
const maps = new Map<string, Map<string, string>>();

/** The default-theme colour `c` as `theme` has it; any other colour unchanged. */
export function themeColour(c: string, theme: ScreenTheme): string {
  if (theme === DEFAULT_THEME) return c;
  let map = maps.get(theme.id);
  if (!map) maps.set(theme.id, (map = colourMap(theme)));
  return map.get(key(c)) ?? c;
}

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

/**
 * A chart's option under `theme`: every string in it equal to a default-theme colour becomes the theme's colour
 * for that role (series palette by position, axis, text, strong, track), anywhere in the option (axis styles,
 * legends, labels, gradients' stops, a gauge's track). `data` arrays are left alone (they hold names and values,
 * and their own per-item colours are the designer's). The default theme returns the option itself.
 */
export function themeOption<T>(option: T, theme: ScreenTheme): T {
  if (theme === DEFAULT_THEME) return option;
  const walk = (v: unknown, k?: string): unknown => {
    if (typeof v === 'string') return themeColour(v, theme);
    if (Array.isArray(v)) return k === 'data' ? v : v.map((x) => walk(x));
    if (isPlain(v)) {
      const out: Plain = {};
      for (const [kk, vv] of Object.entries(v)) out[kk] = walk(vv, kk);
      return out;
    }
    return v;
  };
  return walk(option) as T;
}
