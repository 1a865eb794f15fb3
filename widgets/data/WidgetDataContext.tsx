// API-backed widgets get their rows through an injected fetcher, so the widgets stay
// free of HTTP code; the designers and the preview provide it once published APIs are wired.
import { createContext, useContext } from 'react';
import type { DataRow } from '../types';
import type { RefreshSignal } from './refreshSignal';
import type { DatasetQuery } from '../../common/dataset';

export interface ApiDataRequest {
  datasource: string;
  reqParams: Record<string, unknown>;
}

export type FetchApiData = (req: ApiDataRequest) => Promise<DataRow[]>;

/** One dataset answer: rows keyed by dimension and measure, and what to say on the chart (capped, an error). */
export interface DatasetAnswer {
  rows: DataRow[];
  note?: string;
  error?: string;
}
export type FetchDataset = (q: DatasetQuery) => Promise<DatasetAnswer>;

/** Keep the value stable (useMemo): every widget reads it, so a new object re-renders them all. */
export interface WidgetDataServices {
  fetchApiData?: FetchApiData;
  /** Dataset answers (issue 35): the host batches a screen's queries into one call. */
  fetchDataset?: FetchDataset;
  /** The host's refresh clock (preview refreshSeconds): API widgets fetch again when it ticks. */
  refresh?: RefreshSignal;
  /** What a dataset chart shows, downloaded as a spreadsheet (the server applies the viewer's row rules). */
  exportDataset?: (query: DatasetQuery, name: string) => Promise<unknown>;
}

export const WidgetDataContext = createContext<WidgetDataServices>({});

export function useWidgetDataServices(): WidgetDataServices {
  return useContext(WidgetDataContext);
}
