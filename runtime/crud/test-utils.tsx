// Test/bench helper: the renderer with an in-memory request adapter instead of the network.
import { render } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import type { CrudServices, DictItem } from './services';
import { CrudServicesContext } from './services';
import { CrudView } from './CrudView';
import type { PageDeclaration, Row } from './types';
import ENV_TYPE from '../../schemas/dicts/ENV_TYPE.json';
import YES_OR_NO from '../../schemas/dicts/YES_OR_NO.json';
import DB_TYPE from '../../schemas/dicts/DB_TYPE.json';

export interface Recorded { method: string; path: string; params?: Record<string, unknown>; body?: unknown }

const DICTS: Record<string, DictItem[]> = { ENV_TYPE: ENV_TYPE.items, YES_OR_NO: YES_OR_NO.items, DB_TYPE: DB_TYPE.items };

/** Fake services: every call is recorded; `reply` decides the answer (default: an empty list). */
export function fakeServices(reply: (r: Recorded) => unknown = () => ({ records: [], total: 0 })) {
  const calls: Recorded[] = [];
  const services: CrudServices = {
    async request(method, path, opts = {}) {
      const r = { method, path, ...opts };
      calls.push(r);
      const out = reply(r);
      if (out instanceof Error) throw out;
      return out as never;
    },
    async upload(path, form, onProgress) {
      calls.push({ method: 'POST', path, body: form });
      onProgress?.(50);
      onProgress?.(100);
      return true as never;
    },
    useDict: (t) => (t ? (DICTS[t] ?? []) : []),
    hasPermission: () => true,
  };
  return { services, calls };
}

export function renderPage(page: PageDeclaration, services: CrudServices) {
  return render(
    <ConfigProvider locale={zhCN}>
      <CrudServicesContext.Provider value={services}>
        <CrudView page={page} />
      </CrudServicesContext.Provider>
    </ConfigProvider>,
  );
}

export const rows = (n: number, make: (i: number) => Row): Row[] => Array.from({ length: n }, (_, i) => make(i));
