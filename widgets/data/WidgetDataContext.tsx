// API-backed widgets get their rows through an injected fetcher, so the widgets stay
// free of HTTP code; the designers and the preview provide it once published APIs are wired.
import { createContext, useContext } from 'react';
import type { DataRow } from '../types';
import type { RefreshSignal } from './refreshSignal';

export interface ApiDataRequest {
  datasource: string;
  reqParams: Record<string, unknown>;
}

export type FetchApiData = (req: ApiDataRequest) => Promise<DataRow[]>;

/** Keep the value stable (useMemo): every widget reads it, so a new object re-renders them all. */
export interface WidgetDataServices {
  fetchApiData?: FetchApiData;
  /** The host's refresh clock (preview refreshSeconds): API widgets fetch again when it ticks. */
  refresh?: RefreshSignal;
}

export const WidgetDataContext = createContext<WidgetDataServices>({});

export function useWidgetDataServices(): WidgetDataServices {
  return useContext(WidgetDataContext);
}
