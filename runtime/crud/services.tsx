import { createContext, useContext } from 'react';
import type { PageDeclaration } from './types';

export interface DictItem { value: string | number; label: string; dictStyle?: string }

export interface CallOptions {
  /** Query-string parameters (GET and POST). */
  params?: Record<string, unknown>;
  /** Request body (POST only). */
  body?: unknown;
  /** How long the browser waits, in milliseconds (default: the request layer's 120 s). */
  timeoutMs?: number;
  /** A refusal is answered to the caller only, not shown as a message (a field that explains its value as it is typed). */
  silent?: boolean;
}

/** A call's whole answer: its data and the server's message (e.g. 连接失败：等待超时（3秒内没有应答）). */
export interface CallAnswer<T = unknown> {
  data: T;
  msg: string;
}

/**
 * Everything the renderer needs from outside. The app wires runtime/core in
 * (coreServices.ts); tests, the bench and Storybook wire in fixed adapters, so
 * the renderer itself never touches the network layer directly.
 */
export interface CrudServices {
  request<T = unknown>(method: 'GET' | 'POST', path: string, opts?: CallOptions): Promise<T>;
  /** As request, answering the message too (a connection test's reason). Without it the message is empty. */
  requestAnswer?<T = unknown>(method: 'GET' | 'POST', path: string, opts?: CallOptions): Promise<CallAnswer<T>>;
  upload<T = unknown>(path: string, form: FormData, onProgress?: (percent: number) => void): Promise<T>;
  useDict(type: string | undefined): DictItem[];
  hasPermission(perms: string[]): boolean;
  /** Custom (server-stored) page declarations; built-ins come from schemas/pages. */
  loadPage?(id: string): Promise<PageDeclaration>;
  navigate?(to: string): void;
  /** A picture (or another file) a call answers, with the session; rejects on an envelope or a failure, silently. */
  fetchBlob?(path: string, params?: Record<string, unknown>): Promise<Blob>;
  /** A file download (action=download); answers false when nothing was saved (the reason was shown). */
  download?(method: 'GET' | 'POST', path: string, params?: Record<string, unknown>): Promise<boolean>;
}

export const CrudServicesContext = createContext<CrudServices | null>(null);

export function useCrudServices(): CrudServices {
  const s = useContext(CrudServicesContext);
  if (!s) throw new Error('CrudServicesContext missing: wrap the renderer in <CrudServicesContext.Provider>');
  return s;
}
