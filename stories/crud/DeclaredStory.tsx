// A declaration rendered by the CRUD renderer over a made-up in-memory answer per call (no network): the stories
// of the general forms a declaration may use (tree table, tree field, remote options, one-time results…).
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { CrudServicesContext, CrudView, type CrudServices, type DictItem, type PageDeclaration } from '../../runtime/crud';
import { builtInDict } from '../../designer/panel/dicts';

/** What a call answers: `path` relative to /api, the query or body as sent. */
export type Reply = (method: 'GET' | 'POST', path: string, sent: { params?: Record<string, unknown>; body?: unknown }) => unknown;

export function declaredServices(reply: Reply): CrudServices {
  return {
    async request(method, path, opts) {
      const out = reply(method, path, opts ?? {});
      if (out instanceof Error) throw out;
      return out as never;
    },
    async upload() {
      return true as never;
    },
    useDict: (t) => (t ? (builtInDict(t) as DictItem[]) : []),
    hasPermission: () => true,
  };
}

export function DeclaredStory({ page, reply, width }: { page: PageDeclaration; reply: Reply; width?: number }) {
  return (
    <ConfigProvider locale={zhCN}>
      <div style={{ background: '#fff', padding: 16, width }}>
        <CrudServicesContext.Provider value={declaredServices(reply)}>
          <CrudView page={page} />
        </CrudServicesContext.Provider>
      </div>
    </ConfigProvider>
  );
}
