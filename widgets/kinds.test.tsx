// Every registered kind, one test each: it has its schema and its story, it draws with its defaults and with rows
// from an API through a sample mapping, with no console error or warning. A new kind folder is in this list by
// itself (widgetNames). Then the shared behaviours: mapping, the API source, timers.
import { createElement, Profiler, type ComponentType } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import { createWidget, getWidgetKind, preloadWidgetKinds, widgetNames } from './registry';
import type { DataMappingItem, DataRow, DatasourceProps, WidgetKindProps } from './types';
import { WidgetView } from './WidgetView';
import { WidgetDataContext } from './data/WidgetDataContext';
import { createRefreshSignal } from './data/refreshSignal';
import { liveIntervalCount, WidgetMotionContext } from './timing/sharedInterval';

/** The story files beside the kinds (Storybook globs the same pattern, .storybook/main.ts). */
const stories = new Set(Object.keys(import.meta.glob('./*/*.stories.tsx')));

// Each kind's code loads on first use (kindCode.ts): wait for all of it once, as a host that preloads a page does;
// then every render below is synchronous. kindCode.test.tsx covers the path where the code is not here yet.
beforeAll(() => preloadWidgetKinds(widgetNames), 120_000);

function renderKind(name: string, ds?: Partial<DatasourceProps>, view?: Record<string, unknown>) {
  const w = createWidget(name, { pageId: 'p' });
  const viewProps = { ...w.widgetProps.viewProps, ...view };
  const datasourceProps = { ...w.widgetProps.datasourceProps, ...ds };
  return render(
    <div style={{ width: viewProps.width, height: viewProps.height }}>
      <WidgetView widgetName={name} viewProps={viewProps} datasourceProps={datasourceProps} />
    </div>,
  );
}

/**
 * A sample API source for a kind: its default rows as an API answers them, each mapped field renamed (`api_<field>`)
 * and the mapping pointed at the new names, so the widget gets the same rows only if it reads them by the mapping.
 */
function sampleApi(name: string): { datasourceProps: DatasourceProps; rows: DataRow[] } {
  const d = getWidgetKind(name)!.defaults.datasourceProps;
  const mapping: DataMappingItem[] = d.dataMapping.map((m) => ({ ...m, field: `api_${m.field}` }));
  const rows = (d.dataConfig.data ?? []).map((r) => Object.fromEntries(d.dataMapping.filter((m) => m.field in r).map((m) => [`api_${m.field}`, r[m.field]])));
  return { datasourceProps: { datasourceType: 'API', dataMapping: mapping, dataConfig: { datasource: 'sample_api', reqParams: { n: 1 } } }, rows };
}

/** Wraps the kind's component (the registry entry WidgetView draws) so the test sees the data it is given. */
function seeData(name: string) {
  const kind = getWidgetKind(name)! as { component: ComponentType<WidgetKindProps> };
  const original = kind.component;
  const given: WidgetKindProps['data'][] = [];
  kind.component = (props) => {
    given.push(props.data);
    return createElement(original, props);
  };
  return { given, restore: () => void (kind.component = original) };
}

async function draw(name: string, datasourceProps: DatasourceProps, fetchApiData?: (q: unknown) => Promise<DataRow[]>) {
  const w = createWidget(name, { pageId: 'p' });
  const view = render(
    <WidgetDataContext.Provider value={{ fetchApiData }}>
      <div style={{ width: w.widgetProps.viewProps.width, height: w.widgetProps.viewProps.height }}>
        <WidgetView widgetName={name} viewProps={w.widgetProps.viewProps} datasourceProps={datasourceProps} />
      </div>
    </WidgetDataContext.Provider>,
  );
  // an API answer arrives (a resolved promise), then the widget's effects run
  await act(async () => {
    await new Promise((r) => setTimeout(r, 20));
  });
  return view;
}

describe('every registered kind', () => {
  it('is more than the first seventeen', () => expect(widgetNames.length).toBeGreaterThanOrEqual(17));

  for (const name of widgetNames) {
    it(`${name}: has its schema and story, draws with its defaults and with API rows by a sample mapping, with no console error`, async () => {
      const kind = getWidgetKind(name)!;
      // its schema: the view and data-source property schemas of its declaration
      expect(kind.viewSchema, `widgets/${name}/${name}.widget.json viewProps`).toMatchObject({ type: 'object', properties: expect.any(Object) });
      expect(kind.datasourceSchema, `widgets/${name}/${name}.widget.json datasourceProps`).toMatchObject({ type: 'object', properties: expect.any(Object) });
      expect(stories.has(`./${name}/${name}.stories.tsx`), `widgets/${name}/${name}.stories.tsx`).toBe(true);

      const complaints: string[] = [];
      const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void complaints.push(`error: ${a.map(String).join(' ')}`));
      const warn = vi.spyOn(console, 'warn').mockImplementation((...a: unknown[]) => void complaints.push(`warn: ${a.map(String).join(' ')}`));
      const own = seeData(name);
      try {
        const mine = await draw(name, structuredClone(kind.defaults.datasourceProps));
        expect(mine.container.querySelector(`[data-widget="${name}"]`), 'drawn with its defaults').not.toBeNull();
        expect(mine.container.querySelector('[data-widget-loading]')).toBeNull();
        expect(screen.queryByTestId('widget-notice')).toBeNull();
        mine.unmount();
      } finally {
        own.restore();
      }
      const api = sampleApi(name);
      const fetchApiData = vi.fn(async () => structuredClone(api.rows));
      const fromApi = seeData(name);
      try {
        const drawn = await draw(name, api.datasourceProps, fetchApiData);
        expect(fetchApiData).toHaveBeenCalledWith({ datasource: 'sample_api', reqParams: { n: 1 } });
        expect(drawn.container.querySelector(`[data-widget="${name}"]`), 'drawn from the API').not.toBeNull();
        expect(screen.queryByTestId('widget-notice')).toBeNull();
        // the component got the API rows keyed by its props: the same rows as from its sample data
        expect(fromApi.given.at(-1)!.rows).toEqual(own.given.at(-1)!.rows);
        drawn.unmount();
      } finally {
        fromApi.restore();
        error.mockRestore();
        warn.mockRestore();
      }
      expect(complaints).toEqual([]);
    });
  }
});

describe('kinds with their defaults', () => {
  it('single-line title shows its text, colour and alignment', () => {
    const { container } = renderKind('singleLineTitle');
    const el = container.querySelector('[data-widget="singleLineTitle"]') as HTMLElement;
    expect(el).toHaveTextContent('单行标题');
    expect(el.style.color).toBe('rgb(168, 227, 255)');
    expect(el.style.fontSize).toBe('16px');
    expect(el.style.fontWeight).toBe('600');
    expect(el.style.textAlign).toBe('center');
  });

  it('carousel shows four shipped sample images', () => {
    const { container } = renderKind('carousel');
    const imgs = container.querySelectorAll('img');
    expect(imgs).toHaveLength(4);
    for (const img of imgs) expect(img.getAttribute('src')).toMatch(/slide-\d\.svg|^data:image\/svg\+xml/);
    expect(imgs[0].style.objectFit).toBe('cover');
  });

  it('scrolling table shows the four district columns', () => {
    renderKind('scrollTable');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['序号', '区县', '人口（万）', '面积（km²）', 'GDP（亿元）']);
  });

  it('charts draw SVG in jsdom', () => {
    for (const name of ['activeRing', 'barChart']) {
      const { container, unmount } = renderKind(name);
      expect(container.querySelector(`[data-widget="${name}"] svg`)).not.toBeNull();
      unmount();
    }
  });
});

describe('mapped data', () => {
  it('single-line title takes its text from a mapped field', () => {
    renderKind('singleLineTitle', { dataMapping: [{ id: '1', prop: 'text', label: '标题', field: 'name' }], dataConfig: { data: [{ name: '实时客流' }] } });
    expect(screen.getByText('实时客流')).toBeInTheDocument();
  });

  it('scrolling table maps its own fields to columns', () => {
    renderKind('scrollTable', {
      dataMapping: [
        { id: 'a', prop: 'n', label: '站点', field: 'station' },
        { id: 'b', prop: 'c', label: '客流', field: 'count' },
      ],
      dataConfig: { data: [{ station: '西直门', count: 1200 }] },
    });
    expect(screen.getByText('站点')).toBeInTheDocument();
    expect(screen.getByText('西直门')).toBeInTheDocument();
    expect(screen.getByText('1200')).toBeInTheDocument();
  });

  it('scrolling table cuts a long cell to its column with the whole text as its title, with no clip per cell', () => {
    const long = '北京市朝阳区望京街道第一社区卫生服务中心东院区';
    renderKind('scrollTable', {
      dataMapping: [
        { id: 'a', prop: 'n', label: '站点', field: 'station' },
        { id: 'b', prop: 'c', label: '客流', field: 'count' },
      ],
      dataConfig: { data: [{ station: long, count: 1200 }] },
    });
    const cut = screen.getByTitle(long);
    expect(cut.textContent).toMatch(/^北京市.*…$/);
    expect(cut.textContent!.length).toBeLessThan(long.length);
    expect(screen.getByText('1200')).not.toHaveAttribute('title');
    for (const c of screen.getAllByRole('cell')) expect(c.style.overflow).toBe('');
  });

  it('carousel maps imgUrl and imgLink', () => {
    const { container } = renderKind('carousel', { dataConfig: { data: [{ url: '/a.png', link: 'https://intra/x' }] } });
    expect(container.querySelector('img')!.getAttribute('src')).toBe('/a.png');
    expect(container.querySelector('a')!.getAttribute('href')).toBe('https://intra/x');
    // a link that could run code stays a plain image
    for (const link of ['javascript:alert(1)', ' JaVaScRiPt:alert(1)', 'data:text/html,x', '//evil.example/']) {
      const bad = renderKind('carousel', { dataConfig: { data: [{ url: '/a.png', link }] } });
      expect(bad.container.querySelector('a'), link).toBeNull();
      expect(bad.container.querySelector('img')).not.toBeNull();
    }
  });

  it('charts use mapped rows', () => {
    const { container } = renderKind('barChart', {
      dataMapping: [
        { id: '1', prop: 'x', label: 'x', field: 'day' },
        { id: '2', prop: 'y', label: 'y', field: 'n' },
      ],
      dataConfig: { data: [{ day: '周一', n: 5 }, { day: '周二', n: 9 }] },
    });
    expect(container.textContent).toContain('周一');
    expect(container.textContent).toContain('周二');
    const ring = renderKind('activeRing', { dataConfig: { data: [{ name: '甲区', value: 1 }, { name: '乙区', value: 2 }] } });
    expect(ring.container.querySelector('[data-widget="activeRing"] svg')).not.toBeNull();
  });

  it('flags a mapping whose field is missing in the data, naming the field', () => {
    renderKind('carousel', { dataConfig: { data: [{ url: '/a.png' }] } });
    expect(screen.getByTestId('widget-notice')).toHaveTextContent('字段「link」在数据中不存在');
  });

  it('flags a mapping with no field set', () => {
    renderKind('barChart', {
      dataMapping: [
        { id: '1', prop: 'x', label: 'X 轴（日期）', field: '' },
        { id: '2', prop: 'y', label: 'Y 轴（数值）', field: 'value' },
      ],
    });
    expect(screen.getByTestId('widget-notice')).toHaveTextContent('「X 轴（日期）」未设置字段');
  });
});

describe('API data source', () => {
  const apiDs = { datasourceType: 'API' as const, dataConfig: { datasource: 'district_stats', reqParams: { year: 2024 } } };

  it('says so when no fetcher is injected, without inventing data', () => {
    renderKind('scrollTable', apiDs);
    expect(screen.getByTestId('widget-notice')).toHaveTextContent('接口数据尚未接入');
    expect(screen.getByText('暂无数据')).toBeInTheDocument();
  });

  it('uses the injected fetchApiData with the API name and request params', async () => {
    const fetchApiData = vi.fn(async () => [{ district: '顺义区', population: 1, area: 2, gdp: 3 }]);
    const w = createWidget('scrollTable', { pageId: 'p' });
    render(
      <WidgetDataContext.Provider value={{ fetchApiData }}>
        <WidgetView widgetName="scrollTable" viewProps={w.widgetProps.viewProps} datasourceProps={{ ...w.widgetProps.datasourceProps, ...apiDs }} />
      </WidgetDataContext.Provider>,
    );
    expect(await screen.findByText('顺义区')).toBeInTheDocument();
    expect(fetchApiData).toHaveBeenCalledWith({ datasource: 'district_stats', reqParams: { year: 2024 } });
  });

  it('shows a failing call on the widget', async () => {
    const fetchApiData = vi.fn(async () => {
      throw new Error('超时');
    });
    const w = createWidget('barChart', { pageId: 'p' });
    render(
      <WidgetDataContext.Provider value={{ fetchApiData }}>
        <WidgetView widgetName="barChart" viewProps={w.widgetProps.viewProps} datasourceProps={{ ...w.widgetProps.datasourceProps, ...apiDs }} />
      </WidgetDataContext.Provider>,
    );
    expect(await screen.findByText(/接口调用失败：超时/)).toBeInTheDocument();
  });
  it('fetches again on each refresh tick; a widget with static data is not even re-rendered by it', async () => {
    const fetchApiData = vi.fn(async () => [{ district: '顺义区', population: 1, area: 2, gdp: 3 }]);
    const refresh = createRefreshSignal();
    const table = createWidget('scrollTable', { pageId: 'p' });
    const title = createWidget('singleLineTitle', { pageId: 'p' });
    let titleRenders = 0;
    render(
      <WidgetDataContext.Provider value={{ fetchApiData, refresh }}>
        <WidgetView widgetName="scrollTable" viewProps={table.widgetProps.viewProps} datasourceProps={{ ...table.widgetProps.datasourceProps, ...apiDs }} />
        <Profiler id="static" onRender={() => void titleRenders++}>
          <WidgetView widgetName="singleLineTitle" viewProps={title.widgetProps.viewProps} datasourceProps={title.widgetProps.datasourceProps} />
        </Profiler>
      </WidgetDataContext.Provider>,
    );
    expect(await screen.findByText('顺义区')).toBeInTheDocument();
    expect(fetchApiData).toHaveBeenCalledTimes(1);
    const before = titleRenders;
    act(() => refresh.tick());
    act(() => refresh.tick());
    await waitFor(() => expect(fetchApiData).toHaveBeenCalledTimes(3));
    expect(titleRenders).toBe(before);
  });
});

describe('timers', () => {
  it('carousel advances every interval and scrolling table moves rows', () => {
    vi.useFakeTimers();
    try {
      const { container } = renderKind('carousel');
      const visible = () => [...container.querySelectorAll('[aria-hidden="false"] img')].map((i) => i.getAttribute('alt'));
      expect(visible()).toEqual(['轮播图 1']);
      act(() => vi.advanceTimersByTime(5000));
      expect(visible()).toEqual(['轮播图 2']);
      renderKind('scrollTable', undefined, { height: 200 });
      const firstCell = () => screen.getAllByRole('row')[1].textContent;
      const before = firstCell();
      act(() => vi.advanceTimersByTime(2000));
      expect(firstCell()).not.toBe(before);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a host that holds widgets still (the designer)', () => {
  it('starts no timer: the carousel, the table and the ring stay where they are', () => {
    vi.useFakeTimers();
    try {
      const { container } = render(
        <WidgetMotionContext.Provider value={false}>
          {['carousel', 'scrollTable', 'activeRing'].map((name) => {
            const w = createWidget(name, { pageId: 'p' });
            return <WidgetView key={name} widgetName={name} viewProps={{ ...w.widgetProps.viewProps, height: 200 }} datasourceProps={w.widgetProps.datasourceProps} />;
          })}
        </WidgetMotionContext.Provider>,
      );
      expect(liveIntervalCount()).toBe(0);
      // what the widgets' timers would change (the ring's own drawing animation runs on zrender's clock, not
      // ours, so the ring's label may appear meanwhile: it must still name the first slice)
      const state = () => ({
        slide: container.querySelector('[data-widget="carousel"] [aria-hidden="false"] img')?.getAttribute('alt'),
        firstRow: container.querySelector('[data-widget="scrollTable"] [role="row"]:nth-child(2)')?.textContent,
      });
      const ringLabel = () => [...container.querySelectorAll('[data-widget="activeRing"] text')].map((t) => t.textContent).join(' ');
      const before = state();
      expect(before).toEqual({ slide: '轮播图 1', firstRow: expect.stringContaining('东城区') });
      act(() => vi.advanceTimersByTime(20_000));
      expect(state()).toEqual(before);
      expect(ringLabel()).toMatch(/^(|东城区.*)$/);
      expect(liveIntervalCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('shared timers', () => {
  it('widgets with the same period share one interval', () => {
    const set = vi.spyOn(globalThis, 'setInterval');
    try {
      const w = createWidget('scrollTable', { pageId: 'p' });
      const vp = { ...w.widgetProps.viewProps, height: 200 };
      const { unmount } = render(
        <>
          {Array.from({ length: 5 }, (_, i) => (
            <WidgetView key={i} widgetName="scrollTable" viewProps={vp} datasourceProps={w.widgetProps.datasourceProps} />
          ))}
        </>,
      );
      expect(set.mock.calls.filter((c) => c[1] === 2000)).toHaveLength(1);
      unmount();
    } finally {
      set.mockRestore();
    }
  });
});
