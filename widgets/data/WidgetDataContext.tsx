// API-backed widgets get their rows through an injected fetcher, so the widgets stay
// free of HTTP code; the designers and the preview provide it once published APIs are wired.
import { createContext, useContext } from 'react';
import type { DataRow } from '../types';

export interface ApiDataRequest {
  datasource: string;
  reqParams: Record<string, unknown>;
}

export type FetchApiData = (req: ApiDataRequest) => Promise<DataRow[]>;

export interface WidgetDataServices {
  fetchApiData?: FetchApiData;
  /** Bumped by the host every refresh interval (preview refreshSeconds): API widgets fetch again. */
  refreshTick?: number;
}

export const WidgetDataContext = createContext<WidgetDataServices>({});

export function useWidgetDataServices(): WidgetDataServices {
  return useContext(WidgetDataContext);
}
