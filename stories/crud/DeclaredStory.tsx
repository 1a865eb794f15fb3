// A declaration rendered by the CRUD renderer over a made-up in-memory answer per call (no network): the stories
// of the general forms a declaration may use (tree table, tree field, remote options, one-time results…).
import { useEffect, useRef } from 'react';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { CrudServicesContext, CrudView, type CrudServices, type DictItem, type PageDeclaration } from '../../runtime/crud';
import { builtInDict } from '../../designer/panel/dicts';

/** What a call answers: `path` relative to /api, the query or body as sent. */
export type Reply = (method: 'GET' | 'POST', path: string, sent: { params?: Record<string, unknown>; body?: unknown }) => unknown;

export function declaredServices(reply: Reply, pages: Record<string, PageDeclaration> = {}): CrudServices {
  return {
    async loadPage(id) {
      if (!pages[id]) throw new Error('页面不存在');
      return pages[id];
    },
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

/** Clicks the button named `label` once it shows (the `row`-th one, default the first), e.g. to show a dialog. */
function useClickOnce(box: React.RefObject<HTMLDivElement | null>, label: string | undefined, row = 0) {
  useEffect(() => {
    if (!label) return;
    const t = setInterval(() => {
      const hits = [...(box.current?.querySelectorAll('button') ?? [])].filter((b) => b.textContent?.replace(/\s/g, '') === label);
      if (hits[row]) {
        clearInterval(t);
        hits[row].click();
      }
    }, 100);
    return () => clearInterval(t);
  }, [box, label, row]);
}

interface Props {
  page: PageDeclaration;
  reply: Reply;
  /** the frame's width in px (390: a phone) */
  width?: number;
  /** a button to click once shown, e.g. 新增 to show the dialog */
  click?: string;
  clickIndex?: number;
  /** other declarations a sub-list may open, by id */
  pages?: Record<string, PageDeclaration>;
}

export function DeclaredStory({ page, reply, width, click, clickIndex, pages }: Props) {
  const box = useRef<HTMLDivElement>(null);
  useClickOnce(box, click, clickIndex);
  return (
    <ConfigProvider locale={zhCN}>
      <div ref={box} style={{ background: '#fff', padding: 16, width }}>
        <CrudServicesContext.Provider value={declaredServices(reply, pages)}>
          <CrudView page={page} />
        </CrudServicesContext.Provider>
      </div>
    </ConfigProvider>
  );
}
