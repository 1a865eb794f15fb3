import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { DataRow, DatasourceProps } from '../types';
import { applyMapping, type MappingProblem } from './mapping';
import { useWidgetDataServices } from './WidgetDataContext';

export interface WidgetData {
  rows: DataRow[];
  mapping: DatasourceProps['dataMapping'];
  problems: MappingProblem[];
  /** A state worth telling the user about (no API chosen, fetch failed…). */
  notice?: string;
  loading: boolean;
}

interface ApiState {
  key: string;
  rows: DataRow[];
  notice?: string;
  loading: boolean;
}

const EMPTY: DataRow[] = [];
const NO_SIGNAL = () => () => {};

export function useWidgetData(ds: DatasourceProps | undefined): WidgetData {
  const { fetchApiData, refresh } = useWidgetDataServices();
  const type = ds?.datasourceType ?? 'STATIC';
  // only a widget reading an API listens to the refresh clock; the others are not even re-rendered by it
  const listens = type === 'API' && refresh ? refresh : undefined;
  const refreshTick = useSyncExternalStore(listens?.subscribe ?? NO_SIGNAL, () => listens?.count() ?? 0);
  const api = ds?.dataConfig?.datasource ?? '';
  const reqParams = ds?.dataConfig?.reqParams;
  const apiKey = type === 'API' ? `${api}\u0000${JSON.stringify(reqParams ?? {})}` : '';
  const [apiState, setApiState] = useState<ApiState>({ key: '', rows: EMPTY, loading: false });

  useEffect(() => {
    if (type !== 'API' || !api || !fetchApiData) return;
    let alive = true;
    // a refresh keeps showing the current rows until the new ones arrive
    setApiState((prev) => (prev.key === apiKey ? prev : { key: apiKey, rows: EMPTY, loading: true }));
    fetchApiData({ datasource: api, reqParams: reqParams ?? {} }).then(
      (rows) => alive && setApiState({ key: apiKey, rows: Array.isArray(rows) ? rows : EMPTY, loading: false }),
      (err: unknown) =>
        alive &&
        setApiState({ key: apiKey, rows: EMPTY, loading: false, notice: `接口调用失败：${err instanceof Error ? err.message : String(err)}` }),
    );
    return () => {
      alive = false;
    };
    // apiKey captures api and reqParams by value.
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
    else if (!api) notice = '未选择接口';
    else if (!fetchApiData) notice = '接口数据尚未接入';
    else if (apiState.key === apiKey) ({ rows, notice, loading } = apiState);
    else loading = true;
    const mapped = applyMapping(rows, mapping);
    return { ...mapped, notice, loading };
  }, [type, staticRows, mappingList, api, fetchApiData, apiState, apiKey]);
}
