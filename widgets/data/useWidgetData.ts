import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { boundVariables, resolveParams } from '../../common/variables';
import type { DataRow, DatasourceProps } from '../types';
import { applyMapping, type MappingProblem } from './mapping';
import { useVariableValues } from './variables';
import { useWidgetDataServices } from './WidgetDataContext';
import { answerMapping, datasetQueryOf, type DatasetDrill } from './datasetQuery';
import { useFieldFilters } from './fieldFilters';

export interface WidgetData {
  rows: DataRow[];
  mapping: DatasourceProps['dataMapping'];
  problems: MappingProblem[];
  /** A state worth telling the user about (no API chosen, fetch failed…). */
  notice?: string;
  /** Rows are on their way: none yet, or new ones for changed variables (the current rows stay meanwhile). */
  loading: boolean;
  /** The variables this widget's data source is bound to (issue 23 §1), each once. */
  bound: string[];
}

interface ApiState {
  key: string;
  rows: DataRow[];
  notice?: string;
  loading: boolean;
}

const EMPTY: DataRow[] = [];
const NONE: string[] = [];
const NO_SIGNAL = () => () => {};
const apiOf = (key: string) => key.slice(0, Math.max(0, key.indexOf('\u0000')));
/**
 * A variable change waits this long before the widget fetches: a filter typed into or several variables set by
 * one click make one request. The first fetch of a widget does not wait.
 */
export const VARIABLE_DEBOUNCE_MS = 150;

/**
 * `extraParams` are request parameters a widget adds to its own (a drill-down's levels, issue 23 §4), over the
 * data source's constants and bound variables; compared by value.
 */
export function useWidgetData(ds: DatasourceProps | undefined, extraParams?: Readonly<Record<string, unknown>>, dataset?: { self?: string; drill?: DatasetDrill | null }): WidgetData {
  const { fetchApiData, refresh } = useWidgetDataServices();
  const type = ds?.datasourceType ?? 'STATIC';
  const fromDataset = useDatasetRows(type === 'DATASET' ? ds : undefined, dataset?.self, dataset?.drill);
  // only a widget reading an API listens to the refresh clock; the others are not even re-rendered by it
  const listens = type === 'API' && refresh ? refresh : undefined;
  const refreshTick = useSyncExternalStore(listens?.subscribe ?? NO_SIGNAL, () => listens?.count() ?? 0);
  const api = ds?.dataConfig?.datasource ?? '';
  const reqParams = ds?.dataConfig?.reqParams;
  const paramsJson = JSON.stringify(reqParams ?? {});
  // eslint-disable-next-line react-hooks/exhaustive-deps -- paramsJson stands for reqParams by value
  const bound = useMemo(() => (type === 'API' ? boundVariables(reqParams) : NONE), [type, paramsJson]);
  // only the bound variables: a change of any other variable does not re-render this widget
  const { key: varKey, values } = useVariableValues(bound);
  const extraJson = extraParams ? JSON.stringify(extraParams) : '';
  const params = useMemo(
    () => (extraJson ? { ...resolveParams(reqParams ?? {}, values), ...(JSON.parse(extraJson) as Record<string, unknown>) } : resolveParams(reqParams ?? {}, values)),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- varKey stands for values by value
    [paramsJson, varKey, extraJson],
  );
  const apiKey = type === 'API' ? `${api}\u0000${JSON.stringify(params)}` : '';
  const [apiState, setApiState] = useState<ApiState>({ key: '', rows: EMPTY, loading: false });
  const fetchedApi = useRef<string | null>(null);

  useEffect(() => {
    if (type !== 'API' || !api || !fetchApiData) return;
    let alive = true;
    // the same API with other variable values: the rows shown stay until the new ones arrive (marked loading);
    // a refresh keeps them too
    const sameApi = fetchedApi.current === api;
    setApiState((prev) => (prev.key === apiKey ? prev : { key: apiKey, rows: apiOf(prev.key) === api ? prev.rows : EMPTY, loading: true }));
    const run = () => {
      fetchedApi.current = api;
      fetchApiData({ datasource: api, reqParams: params }).then(
        // an answer for values that have changed since is dropped (alive is false by then)
        (rows) => alive && setApiState({ key: apiKey, rows: Array.isArray(rows) ? rows : EMPTY, loading: false }),
        (err: unknown) =>
          alive &&
          setApiState({ key: apiKey, rows: EMPTY, loading: false, notice: `接口调用失败：${err instanceof Error ? err.message : String(err)}` }),
      );
    };
    const timer = sameApi && bound.length ? setTimeout(run, VARIABLE_DEBOUNCE_MS) : null;
    if (!timer) run();
    return () => {
      alive = false;
      if (timer) clearTimeout(timer);
    };
    // apiKey captures api and the resolved params by value.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [type, apiKey, fetchApiData, refreshTick]);

  const staticRows = ds?.dataConfig?.data;
  const mappingList = ds?.dataMapping;
  return useMemo(() => {
    const mapping = mappingList ?? [];
    let rows: DataRow[] = EMPTY;
    let notice: string | undefined;
    let loading = false;
    if (type === 'STATIC') rows = Array.isArray(staticRows) ? staticRows : EMPTY;
    else if (type === 'DATASET') {
      ({ rows, notice, loading } = fromDataset);
      return { ...applyMapping(rows, fromDataset.mapping ?? mapping), notice, loading, bound };
    } else if (!api) notice = '未选择接口';
    else if (!fetchApiData) notice = '接口数据尚未接入';
    else if (apiState.key === apiKey) ({ rows, notice, loading } = apiState);
    else ({ rows, loading } = { rows: apiOf(apiState.key) === api ? apiState.rows : EMPTY, loading: true });
    const mapped = applyMapping(rows, mapping);
    return { ...mapped, notice, loading, bound };
  }, [type, staticRows, mappingList, api, fetchApiData, apiState, apiKey, bound, fromDataset]);
}

interface DatasetState {
  key: string;
  rows: DataRow[];
  notice?: string;
  loading: boolean;
  mapping?: DatasourceProps['dataMapping'];
}

/**
 * A DATASET widget's rows: its query (slots, settings, the screen's field filters less its own clicks, a drill)
 * asked through the host's batched fetcher, again on the refresh clock; the rows shown stay while new ones come.
 */
function useDatasetRows(ds: DatasourceProps | undefined, self?: string, drill?: DatasetDrill | null): DatasetState {
  const { fetchDataset, refresh } = useWidgetDataServices();
  const filters = useFieldFilters(self, Boolean(ds));
  const listens = ds && refresh ? refresh : undefined;
  const tick = useSyncExternalStore(listens?.subscribe ?? NO_SIGNAL, () => listens?.count() ?? 0);
  const query = useMemo(() => datasetQueryOf(ds, filters, drill), [ds, filters, drill]);
  const key = query ? JSON.stringify(query) : '';
  const [state, setState] = useState<DatasetState>({ key: '', rows: EMPTY, loading: false });
  useEffect(() => {
    if (!query || !fetchDataset) return;
    let alive = true;
    setState((prev) => (prev.key === key ? prev : { ...prev, key, loading: true }));
    fetchDataset(query).then(
      (a) => alive && setState({ key, rows: a.rows ?? EMPTY, loading: false, notice: a.error ?? a.note }),
      (err: unknown) => alive && setState({ key, rows: EMPTY, loading: false, notice: `数据集取数失败：${err instanceof Error ? err.message : String(err)}` }),
    );
    return () => {
      alive = false;
    };
    // key stands for query by value
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, fetchDataset, tick]);
  return useMemo(() => {
    const mapping = ds ? answerMapping(ds.dataMapping ?? [], drill, ds.dataConfig?.dataset?.fields) : undefined;
    if (!ds) return { key: '', rows: EMPTY, loading: false };
    if (!ds.dataConfig?.dataset?.datasetId) return { key: '', rows: EMPTY, loading: false, notice: '未选择数据集' };
    if (!query) return { key: '', rows: EMPTY, loading: false, notice: '请在数据映射中为各项选择数据集字段', mapping };
    if (!fetchDataset) return { key, rows: EMPTY, loading: false, notice: '数据集取数尚未接入', mapping };
    return { ...state, loading: state.key !== key || state.loading, mapping };
  }, [ds, drill, query, fetchDataset, key, state]);
}
