import { act, render, screen } from '@testing-library/react';
import { useMemo } from 'react';
import type { ApiDataRequest } from './WidgetDataContext';
import { WidgetDataContext } from './WidgetDataContext';
import { createVariableStore, VariablesContext } from './variables';
import { useWidgetData, VARIABLE_DEBOUNCE_MS } from './useWidgetData';
import type { DatasourceProps } from '../types';

const ds = (reqParams: Record<string, unknown>): DatasourceProps => ({
  datasourceType: 'API',
  dataMapping: [{ id: '1', prop: 'v', label: '值', field: 'v' }],
  dataConfig: { datasource: 'sales', reqParams },
});

const renders: Record<string, number> = {};
function Probe({ id, source }: { id: string; source: DatasourceProps }) {
  const data = useWidgetData(source);
  renders[id] = (renders[id] ?? 0) + 1;
  return (
    <div data-testid={id} data-loading={String(data.loading)}>
      {data.rows.map((r) => String(r.v)).join(',')}
    </div>
  );
}

describe('widgets bound to screen variables (issue 23 §1)', () => {
  it('fetches again exactly the bound widgets, once each after the debounce, drops stale answers, keeps rows meanwhile', async () => {
    vi.useFakeTimers();
    const calls: ApiDataRequest[] = [];
    const pending: Array<{ req: ApiDataRequest; resolve: (rows: unknown[]) => void }> = [];
    const fetchApiData = (req: ApiDataRequest) =>
      new Promise<never[]>((resolve) => {
        calls.push(req);
        pending.push({ req, resolve: resolve as (rows: unknown[]) => void });
      });
    const store = createVariableStore(
      [
        { name: 'region', type: 'string' },
        { name: 'other', type: 'string' },
      ],
      { region: 'east' },
    );
    const sources = { a: ds({ region: '{{region}}' }), b: ds({ region: '{{region}}', top: 5 }), c: ds({ fixed: 1 }) };
    function Host() {
      const services = useMemo(() => ({ fetchApiData }), []);
      return (
        <WidgetDataContext.Provider value={services}>
          <VariablesContext.Provider value={store}>
            <Probe id="a" source={sources.a} />
            <Probe id="b" source={sources.b} />
            <Probe id="c" source={sources.c} />
          </VariablesContext.Provider>
        </WidgetDataContext.Provider>
      );
    }
    render(<Host />);
    expect(calls.map((c) => c.reqParams)).toEqual([{ region: 'east' }, { region: 'east', top: 5 }, { fixed: 1 }]);
    await act(async () => pending.splice(0).forEach((p) => p.resolve([{ v: `${p.req.reqParams.region ?? 'c'}-1` }])));
    expect(screen.getByTestId('a').textContent).toBe('east-1');
    const cRenders = renders.c;

    // a variable nobody is bound to: no fetch, no re-render
    act(() => store.set('other', 'x'));
    act(() => void vi.advanceTimersByTime(VARIABLE_DEBOUNCE_MS * 2));
    expect(calls).toHaveLength(3);
    expect(renders.c).toBe(cRenders);

    // typing: three changes within the debounce make one fetch per bound widget, with the last value
    act(() => store.set('region', 'w'));
    act(() => store.set('region', 'we'));
    act(() => store.set('region', 'west'));
    expect(screen.getByTestId('a').dataset.loading).toBe('true');
    expect(screen.getByTestId('a').textContent).toBe('east-1'); // the rows stay while the new ones come
    act(() => void vi.advanceTimersByTime(VARIABLE_DEBOUNCE_MS));
    expect(calls.slice(3).map((c) => c.reqParams)).toEqual([{ region: 'west' }, { region: 'west', top: 5 }]);
    expect(renders.c).toBe(cRenders);

    // a change while those are out: their answers are dropped, only the newest shows
    const stale = pending.splice(0);
    act(() => store.set('region', 'north'));
    act(() => void vi.advanceTimersByTime(VARIABLE_DEBOUNCE_MS));
    await act(async () => stale.forEach((p) => p.resolve([{ v: 'stale' }])));
    expect(screen.getByTestId('a').textContent).toBe('east-1');
    await act(async () => pending.splice(0).forEach((p) => p.resolve([{ v: `${p.req.reqParams.region}-2` }])));
    expect(screen.getByTestId('a').textContent).toBe('north-2');
    expect(screen.getByTestId('a').dataset.loading).toBe('false');

    // cleared: the parameter is left out
    act(() => store.set('region', null));
    act(() => void vi.advanceTimersByTime(VARIABLE_DEBOUNCE_MS));
    expect(calls.at(-2)!.reqParams).toEqual({});
    expect(calls.at(-1)!.reqParams).toEqual({ top: 5 });
    vi.useRealTimers();
  });

  it('ignores a value for a variable the screen does not declare', () => {
    const store = createVariableStore([{ name: 'a', type: 'string' }], {});
    store.set('evil', 'x');
    expect(store.values()).toEqual({ a: null });
  });
});
