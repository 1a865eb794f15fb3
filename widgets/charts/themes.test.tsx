// Screen themes: a chart's option takes the theme's palette, text and axis colours where it has the default
// theme's; a colour the designer changed wins; the canvas background follows the theme unless it has its own.
import { render } from '@testing-library/react';
import { createWidget, getWidgetKind, preloadWidgetKinds, widgetNames, type WidgetEntity } from '..';
import type { CanvasProps } from '../../common/canvas';
import canvasPanel from '../../schemas/widgets/canvas.panel.json';
import { CanvasStage } from '../stage/CanvasStage';
import { categoryOption, pieOption } from './options';
import { DEFAULT_THEME, SCREEN_THEMES, screenTheme, themeColour, themeOption } from './themes';

// every kind's code loads on first use (widgets/kindCode.ts): loaded before the tests render them
beforeAll(() => preloadWidgetKinds(widgetNames), 120_000);

const OWN_COLOURS = new Set(['heatmapChart', 'chinaMap', 'flyLineMap', 'liquidFill', 'wordCloud']);

const bright = screenTheme('bright');
const data = {
  mapping: [
    { id: '1', prop: 'x', label: '日期', field: 'day' },
    { id: '2', prop: 'a', label: '访问量', field: 'a' },
  ],
  rows: [{ x: '周一', a: 3 }],
};

describe('screen themes', () => {
  it('offers at least six themes, two of them light, each the panel’s choice by id and title', () => {
    expect(SCREEN_THEMES.length).toBeGreaterThanOrEqual(6);
    expect(SCREEN_THEMES.filter((t) => t.tone === 'light').length).toBeGreaterThanOrEqual(2);
    expect(SCREEN_THEMES[0]).toBe(DEFAULT_THEME);
    const choice = canvasPanel.schema.properties.theme;
    expect(choice.oneOf).toEqual(SCREEN_THEMES.map((t) => ({ const: t.id, title: t.title })));
    expect(choice.default).toBe(DEFAULT_THEME.id);
    for (const t of SCREEN_THEMES) expect(t.palette).toHaveLength(DEFAULT_THEME.palette.length);
    // a page saved before themes, or naming a theme no longer offered, has the default
    expect(screenTheme(undefined)).toBe(DEFAULT_THEME);
    expect(screenTheme('gone')).toBe(DEFAULT_THEME);
  });

  it('gives a chart’s option the theme’s palette and axis colours', () => {
    const o = themeOption(categoryOption({ colors: [...DEFAULT_THEME.palette], axisColor: DEFAULT_THEME.axis, showLegend: true, showLabel: false }, data, (values) => ({ type: 'bar', data: values })), bright);
    expect(o.color).toEqual(bright.palette);
    expect(o.xAxis).toMatchObject({ axisLine: { lineStyle: { color: bright.axis } }, axisLabel: { color: bright.axis } });
    expect(o.yAxis).toMatchObject({ splitLine: { lineStyle: { color: bright.axis } } });
    expect(o.legend).toMatchObject({ textStyle: { color: bright.axis } });
    // names and values are not colours
    expect(o.xAxis).toMatchObject({ data: ['周一'] });
    const pie = themeOption(pieOption({ colors: [...DEFAULT_THEME.palette], labelColor: DEFAULT_THEME.text, showLegend: true, showLabel: true, innerRadius: 0, outerRadius: 60 }, { mapping: [], rows: [] }), screenTheme('violet'));
    expect(pie.series[0].label.color).toBe(screenTheme('violet').text);
    // lower-case spelling of a default colour is the same colour
    expect(themeColour('#a8b3cf', bright)).toBe(bright.axis);
  });

  it('keeps a colour the designer changed, and leaves the option alone under the default theme', () => {
    const o = themeOption(categoryOption({ colors: ['#FF0000', DEFAULT_THEME.palette[1]], axisColor: '#123456', showLegend: true, showLabel: false }, data, (values) => ({ type: 'line', data: values })), bright);
    expect(o.color).toEqual(['#FF0000', bright.palette[1]]);
    expect(o.xAxis).toMatchObject({ axisLabel: { color: '#123456' } });
    const same = { color: DEFAULT_THEME.palette };
    expect(themeOption(same, DEFAULT_THEME)).toBe(same);
  });

  it('every ECharts kind’s default colours are the default theme’s, so each follows a theme', () => {
    const known = new Set([...DEFAULT_THEME.palette, DEFAULT_THEME.axis, DEFAULT_THEME.text, DEFAULT_THEME.strong, DEFAULT_THEME.track].map((c) => c.toUpperCase()));
    const faults: string[] = [];
    const charts: string[] = [];
    for (const name of widgetNames) {
      const kind = getWidgetKind(name)!;
      // the ECharts kinds: those taking an ECharts option to merge (图表配置（高级）)
      if (!('chartOption' in (kind.viewSchema.properties ?? {}))) continue;
      charts.push(name);
      // kinds whose colours are their own fills (a colour scale, a map's land, a liquid) and the text on them: they
      // keep their colours under every theme, so that text stays readable on them (designer/contrast.test.ts);
      // their axes, legends and labels elsewhere follow. Making them follow a theme too is still to do.
      if (OWN_COLOURS.has(name)) continue;
      for (const [prop, ui] of Object.entries(kind.uiSchema.viewProps ?? {})) {
        const u = ui as { 'ui:widget'?: string; items?: { 'ui:widget'?: string } };
        if (u['ui:widget'] !== 'color' && u.items?.['ui:widget'] !== 'color') continue;
        const v = kind.defaults.viewProps[prop];
        for (const c of Array.isArray(v) ? v : [v]) if (!known.has(String(c).toUpperCase())) faults.push(`${name}.${prop} ${String(c)}`);
      }
    }
    expect(charts).toEqual(expect.arrayContaining(['lineChart', 'barChart', 'pieChart', 'gaugeChart', 'radarChart']));
    expect(faults).toEqual([]);
  });
});

describe('a screen’s theme on its stage', () => {
  const canvas = (over: Partial<CanvasProps>): CanvasProps => ({ width: 900, height: 400, backgroundColor: '', refreshSeconds: null, ...over });
  const chart = (name: string, id: string, view: Record<string, unknown> = {}): WidgetEntity => {
    const w = createWidget(name, { pageId: 'p', id, left: 0, top: 0 });
    w.widgetProps.viewProps = { ...w.widgetProps.viewProps, ...view, chartOption: { animation: false } };
    return w;
  };
  const colours = (root: Element, id: string) => {
    const svg = root.querySelector(`[data-widget-id="${id}"] svg`)!;
    expect(svg).not.toBeNull();
    return new Set([...svg.querySelectorAll('[fill],[stroke]')].flatMap((e) => [e.getAttribute('fill'), e.getAttribute('stroke')]).filter(Boolean).map((c) => c!.toUpperCase()));
  };
  const stageOf = (root: Element) => root.querySelector('[data-testid="canvas-stage"]') as HTMLElement;

  it('draws every chart in the theme’s palette and axis colours, a changed colour winning', () => {
    const widgets = [chart('lineChart', 'line'), chart('barChart', 'bar'), chart('lineChart', 'mine', { axisColor: '#FF00AA', colors: ['#00FF00'] })];
    const { container, rerender } = render(<CanvasStage canvas={canvas({})} widgets={widgets} />);
    expect(colours(container, 'line')).toContain(DEFAULT_THEME.palette[0]);
    expect(colours(container, 'line')).toContain(DEFAULT_THEME.axis);

    rerender(<CanvasStage canvas={canvas({ theme: 'bright' })} widgets={widgets} />);
    const line = colours(container, 'line');
    expect(line).toContain(bright.palette[0]);
    expect(line).toContain(bright.axis);
    expect(line).not.toContain(DEFAULT_THEME.palette[0]);
    expect(line).not.toContain(DEFAULT_THEME.axis);
    const bar = colours(container, 'bar');
    expect(bar).toContain(bright.palette[0]);
    expect(bar).toContain(bright.axis);
    // the chart whose colours were changed keeps them
    const mine = colours(container, 'mine');
    expect(mine).toContain('#FF00AA');
    expect(mine).toContain('#00FF00');
    expect(mine).not.toContain(bright.axis);
  });

  it('the canvas background follows the theme unless the canvas has its own colour; its image lies over it', () => {
    const { container, rerender } = render(<CanvasStage canvas={canvas({})} widgets={[]} />);
    expect(stageOf(container).style.backgroundColor).toBe('rgb(29, 32, 45)');
    rerender(<CanvasStage canvas={canvas({ theme: 'fresh' })} widgets={[]} />);
    expect(stageOf(container).style.backgroundColor).toBe('rgb(238, 247, 243)');
    rerender(<CanvasStage canvas={canvas({ theme: 'fresh', backgroundColor: '#000000', backgroundImage: '/files/gemini/bg.png' })} widgets={[]} />);
    expect(stageOf(container).style.backgroundColor).toBe('rgb(0, 0, 0)');
    expect(stageOf(container).style.backgroundImage).toBe('url("/files/gemini/bg.png")');
    // an address the image rules refuse is not loaded
    rerender(<CanvasStage canvas={canvas({ theme: 'fresh', backgroundImage: 'javascript:alert(1)' })} widgets={[]} />);
    expect(stageOf(container).style.backgroundImage).toBe('');
  });
});
