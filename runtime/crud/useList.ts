import { useEffect, useRef, useState } from 'react';
import type { ListResult, Row } from './types';
import { useCrudServices } from './services';
import { parseCall } from './template';

export interface ListState {
  loading: boolean;
  error: boolean;
  records: Row[];
  total: number;
  /** the server estimated `total` (a very large table, where counting exactly is slow) */
  totalEstimated: boolean;
  /** the server's keyset hint for the page after this one (`next` or `cursor`), sent back with that page's call */
  next?: string;
}

const EMPTY: ListState = { loading: false, error: false, records: [], total: 0, totalEstimated: false };

/** Fetches one page of the list; a newer query wins over a slower older one. No call while `searchCall` is null. */
export function useList(searchCall: string | null, query: Record<string, unknown>, tick: number): ListState {
  const services = useCrudServices();
  const [state, setState] = useState<ListState>({ ...EMPTY, loading: true });
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
        const hint = Array.isArray(data) ? undefined : (data?.next ?? data?.cursor);
        const next = typeof hint === 'string' || typeof hint === 'number' ? String(hint) : undefined;
        setState({ loading: false, error: false, records, total, totalEstimated: !Array.isArray(data) && data?.totalEstimated === true, next });
      })
      .catch(() => {
        if (mine === seq.current) setState({ ...EMPTY, error: true });
      });
  }, [searchCall, key, tick, services]);
  return state;
}
