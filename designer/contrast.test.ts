// Readable defaults (issue 20 §4): every widget kind's default text colours reach WCAG AA (4.5:1) on the default
// canvas of each designer the kind is offered in (catalogue.designers, both when absent). Computed from the
// declarations alone: each kind says in `colors` which colour properties are text and what they lie on, and
// every colour property of its panel must be accounted for there, so a new kind or a new colour is covered.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AA_TEXT, contrastRatio, parseColor, type Rgba } from '../widgets/contrast';
import { SCREEN_THEMES, themeColour } from '../widgets/charts/themes';
import { canvasDefaults, DEFAULT_CANVAS_BACKGROUND } from './panel/canvasPanel';
import { defaultsOf } from '../common/widgets';
import { themedTextColours } from '../widgets/themedText';
import type { ViewProps, WidgetKind } from '../widgets/types';

type Designer = 'screen' | 'form';
const DESIGNERS: Designer[] = ['screen', 'form'];

interface Declaration {
  widgetName: string;
  catalogue: { designers?: Designer[] };
  viewProps: { properties: Record<string, { default?: unknown; items?: { default?: unknown } }> };
  uiSchema?: { viewProps?: Record<string, { 'ui:widget'?: string; items?: { 'ui:widget'?: string } }> };
  colors?: { text: Array<{ color: string; on?: string[] }>; decor?: string[] };
}

// each kind's declaration in its folder, widgets/<kind>/<kind>.widget.json
const dir = path.resolve(import.meta.dirname, '..', 'widgets');
const declarations: Declaration[] = readdirSync(dir)
  .filter((k) => existsSync(path.join(dir, k, `${k}.widget.json`)))
  .map((k) => JSON.parse(readFileSync(path.join(dir, k, `${k}.widget.json`), 'utf8')));

/** The background a new page of each designer shows (spec: empty at creation, the canvas falls back to the dark default). */
const canvasOf = (_designer: Designer) => canvasDefaults.backgroundColor || DEFAULT_CANVAS_BACKGROUND;

/** What is wrong with a kind's default colours: unparsable, unaccounted for, or below AA on a designer's canvas. */
function colourFaults(d: Declaration, canvas: (designer: Designer) => string): string[] {
  const faults: string[] = [];
  const props = d.viewProps.properties;
  const ui = d.uiSchema?.viewProps ?? {};
  const colourProps = Object.keys(props).filter((k) => ui[k]?.['ui:widget'] === 'color' || ui[k]?.items?.['ui:widget'] === 'color');
  const text = d.colors?.text ?? [];
  const named = new Set([...text.flatMap((t) => [t.color, ...(t.on ?? [])]), ...(d.colors?.decor ?? [])]);
  for (const k of colourProps) if (!named.has(k)) faults.push(`${d.widgetName}: 颜色属性 ${k} 未在 colors 中说明是文字、底色还是装饰`);
  for (const k of named) if (!Object.hasOwn(props, k)) faults.push(`${d.widgetName}: colors 中的 ${k} 不是视图属性`);
  const colourOf = (k: string): Rgba | null => {
    const v = props[k]?.default;
    const c = typeof v === 'string' ? parseColor(v) : null;
    if (!c) faults.push(`${d.widgetName}: ${k} 的默认值 ${JSON.stringify(v)} 不是颜色`);
    return c;
  };
  for (const designer of d.catalogue.designers ?? DESIGNERS) {
    const base = parseColor(canvas(designer));
    if (!base || base[3] !== 1) {
      faults.push(`${designer} 默认画布颜色 ${canvas(designer)} 不是不透明的颜色`);
      continue;
    }
    for (const t of text) {
      const fg = colourOf(t.color);
      const layers = (t.on ?? []).map(colourOf);
      if (!fg || layers.some((l) => !l)) continue;
      const ratio = contrastRatio(fg, [base, ...(layers as Rgba[])]);
      if (ratio < AA_TEXT) faults.push(`${d.widgetName} 在${designer === 'form' ? '表单' : '大屏'}默认画布上：${t.color} ${String(props[t.color].default)}${t.on?.length ? `（底色 ${t.on.join(' / ')}）` : ''} 对比度 ${ratio.toFixed(2)}:1 < ${AA_TEXT}:1`);
    }
  }
  return faults;
}

describe('readable defaults (WCAG AA)', () => {
  it('computes WCAG contrast as the standard does', () => {
    expect(contrastRatio(parseColor('#000')!, [parseColor('#fff')!])).toBeCloseTo(21, 5);
    expect(contrastRatio(parseColor('#777777')!, [parseColor('#ffffff')!])).toBeCloseTo(4.48, 2);
    // a translucent layer is painted over what is under it (in sRGB values, as browsers blend)
    expect(contrastRatio(parseColor('#fff')!, [parseColor('#000')!, parseColor('rgba(255,255,255,0.5)')!])).toBeCloseTo(contrastRatio(parseColor('#fff')!, [parseColor('rgb(127.5,127.5,127.5)')!]), 5);
    expect(parseColor('rgba(11, 58, 99, 0.35)')).toEqual([11, 58, 99, 0.35]);
    expect(parseColor('#1D202D')).toEqual([29, 32, 45, 1]);
    expect(parseColor('red')).toBeNull();
  });

  it('every kind declares its colours, and each default text colour reaches 4.5:1 on its designers’ default canvas', () => {
    expect(declarations.length).toBeGreaterThan(10);
    expect(declarations.flatMap((d) => colourFaults(d, canvasOf))).toEqual([]);
    // every kind that draws text with a declared colour is checked on at least one canvas
    const checked = declarations.filter((d) => (d.colors?.text.length ?? 0) > 0).map((d) => d.widgetName);
    expect(checked).toEqual(expect.arrayContaining(['singleLineTitle', 'scrollTable', 'barChart', 'activeRing', 'formInput', 'formSubmit']));
  });

  it('the check fails a dim text colour, a colour left unexplained, and a light label on a light canvas', () => {
    const kind = (over: Partial<Declaration>): Declaration => ({
      widgetName: 'probe',
      catalogue: {},
      viewProps: { properties: { labelColor: { default: '#595959' }, fill: { default: '#123456' } } },
      uiSchema: { viewProps: { labelColor: { 'ui:widget': 'color' }, fill: { 'ui:widget': 'color' } } },
      colors: { text: [{ color: 'labelColor' }], decor: ['fill'] },
      ...over,
    });
    expect(colourFaults(kind({}), canvasOf).join('\n')).toMatch(/labelColor #595959 对比度 2\.\d\d:1/);
    expect(colourFaults(kind({ colors: { text: [{ color: 'labelColor' }] } }), canvasOf).join('\n')).toContain('颜色属性 fill 未在 colors 中说明');
    const light = kind({ viewProps: { properties: { labelColor: { default: '#D6E4FF' }, fill: { default: '#000' } } } });
    expect(colourFaults(light, canvasOf)).toEqual([]);
    expect(colourFaults(light, () => '#FFFFFF').length).toBe(2); // one per designer
  });

  // issue 22 §2: each screen theme's text and axis colours on its own background, and the charts' text under it
  describe('screen themes', () => {
    for (const theme of SCREEN_THEMES) {
      it(`${theme.title}: its text and axis colours, and every chart kind’s default text colours, reach 4.5:1 on its background`, () => {
        const bg = parseColor(theme.background)!;
        expect(bg[3]).toBe(1);
        const faults: string[] = [];
        for (const role of ['axis', 'text', 'strong'] as const) {
          const ratio = contrastRatio(parseColor(theme[role])!, [bg]);
          if (ratio < AA_TEXT) faults.push(`${theme.title} ${role} ${theme[role]} 于 ${theme.background}：${ratio.toFixed(2)}:1`);
        }
        // the ECharts kinds (those with 图表配置（高级）): their text colours as the theme turns them, on the theme's canvas
        const charts = declarations.filter((d) => 'chartOption' in d.viewProps.properties && d.catalogue.designers?.includes('screen') !== false);
        expect(charts.length).toBeGreaterThan(5);
        for (const d of charts) {
          for (const t of d.colors?.text ?? []) {
            const v = String(d.viewProps.properties[t.color]?.default);
            const layers = [bg, ...(t.on ?? []).map((k) => parseColor(themeColour(String(d.viewProps.properties[k]?.default), theme))!)];
            const ratio = contrastRatio(parseColor(themeColour(v, theme))!, layers);
            if (ratio < AA_TEXT) faults.push(`${theme.title} ${d.widgetName}.${t.color} ${themeColour(v, theme)}：${ratio.toFixed(2)}:1`);
          }
        }
        expect(faults).toEqual([]);
      });

      it(`${theme.title}: every other screen kind’s default text reads at 4.5:1 on its background, as WidgetView draws it`, () => {
        const faults: string[] = [];
        const others = declarations.filter((d) => !('chartOption' in d.viewProps.properties) && (d.catalogue.designers ?? DESIGNERS).includes('screen'));
        for (const d of others) {
          const defaults = defaultsOf(d.viewProps as never) as ViewProps;
          const shown = themedTextColours({ colors: d.colors as WidgetKind['colors'], defaults: { viewProps: defaults, datasourceProps: {} as never } }, defaults, theme, theme.background);
          for (const t of d.colors?.text ?? []) {
            const layers = [parseColor(theme.background)!, ...(t.on ?? []).map((k) => parseColor(String(shown[k]))!)];
            const ratio = contrastRatio(parseColor(String(shown[t.color]))!, layers);
            if (ratio < AA_TEXT) faults.push(`${theme.title} ${d.widgetName}.${t.color} ${String(shown[t.color])}：${ratio.toFixed(2)}:1`);
          }
        }
        expect(others.length).toBeGreaterThan(15);
        expect(faults).toEqual([]);
      });
    }
  });
});
