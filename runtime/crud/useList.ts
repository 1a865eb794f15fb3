import { useEffect, useRef, useState } from 'react';
import type { ListResult, Row } from './types';
import { useCrudServices } from './services';
import { parseCall } from './template';

export interface ListState { loading: boolean; error: boolean; records: Row[]; total: number }

/** Fetches one page of the list; a newer query wins over a slower older one. No call while `searchCall` is null. */
export function useList(searchCall: string | null, query: Record<string, unknown>, tick: number): ListState {
  const services = useCrudServices();
  const [state, setState] = useState<ListState>({ loading: true, error: false, records: [], total: 0 });
  const seq = useRef(0);
  const key = JSON.stringify(query);
  useEffect(() => {
    if (!searchCall) return;
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true, error: false }));
    const { method, path } = parseCall(searchCall);
    const q = JSON.parse(key) as Record<string, unknown>;
    services
      .request<ListResult | Row[]>(method, path, method === 'GET' ? { params: q } : { body: q })
      .then((data) => {
        if (mine !== seq.current) return;
        // some list calls answer a bare array; treat it as one page
        const records = Array.isArray(data) ? data : (data?.records ?? []);
        const total = Array.isArray(data) ? data.length : Number(data?.total ?? records.length);
        setState({ loading: false, error: false, records, total });
      })
      .catch(() => {
        if (mine === seq.current) setState({ loading: false, error: true, records: [], total: 0 });
      });
  }, [searchCall, key, tick, services]);
  return state;
}
