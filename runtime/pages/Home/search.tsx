// Home's search box: finds the user's menu entries (built-in and published pages), screens, forms and APIs by
// name. Menus come from the user's own menu (so only what they may open); the lists are asked through their
// declared search calls, and only when the user holds the list's permission. A result navigates there.
import { AutoComplete, Input, Tag } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { hasPermission } from '../../core/permission';
import { post } from '../../core/request';
import { useStore } from '../../core/store';
import { fullPath, type MenuEntry } from '../../shell/menu';
import { menuStore } from '../../shell/state';
import screenPage from '../../../schemas/pages/screen.page.json';
import formPage from '../../../schemas/pages/form.page.json';
import apiDesignPage from '../../../schemas/pages/apiDesign.page.json';

export interface Hit {
  kind: string;
  name: string;
  /** in-app address, or an outside link (opened in a new tab) */
  to: string;
  external?: boolean;
  extra?: string;
}

interface ListSource {
  kind: string;
  /** the declaration whose search call, list permission and name column (with its link) are used */
  decl: { api: { search: string }; perms: { list: string }; columns: { field?: string; link?: string }[] };
  field: string;
  extra?: string;
}

const LIST_SOURCES: ListSource[] = [
  { kind: '大屏', decl: screenPage, field: 'pageName' },
  { kind: '表单', decl: formPage, field: 'pageName' },
  { kind: 'API', decl: apiDesignPage, field: 'apiName', extra: 'apiComment' },
];
const PER_KIND = 5;
/** Option values: never typed by a person, so choosing one does not become the search text. */
const HIT = '\u0000hit:';
const MAX_LENGTH = 20;

/** Menu entries (pages the user may open) whose name holds `q`: directories, buttons and hidden pages left out. */
export function matchMenus(menus: MenuEntry[], q: string): Hit[] {
  const want = q.trim().toLowerCase();
  if (!want) return [];
  const out: Hit[] = [];
  const walk = (list: MenuEntry[], parentPath: string, trail: string[]) => {
    for (const e of list) {
      const path = fullPath(e, parentPath);
      if (e.type === 'C' && !e.hidden && e.name.toLowerCase().includes(want)) {
        const link = e.link && /^https?:\/\//i.test(e.link) ? e.link : undefined;
        if (link || path) out.push({ kind: '菜单', name: e.name, to: link ?? path, external: Boolean(link), extra: trail.join(' / ') || undefined });
      }
      if (e.children?.length) walk(e.children, path, e.type === 'M' ? [...trail, e.name] : trail);
    }
  };
  walk(menus, '', []);
  return out;
}

/** One declared list's rows whose name holds `q`, as hits (nothing when the user may not list them). */
async function searchList(src: ListSource, q: string): Promise<Hit[]> {
  if (!hasPermission([src.decl.perms.list])) return [];
  const [, path] = src.decl.api.search.split(' ');
  const link = src.decl.columns.find((c) => c.field === src.field && c.link)?.link;
  if (!path || !link) return [];
  const d = await post<{ records: Record<string, unknown>[] }>(path, { pageNum: 1, pageSize: PER_KIND, search: q }, { silent: true });
  return (d?.records ?? []).map((r) => ({
    kind: src.kind,
    name: String(r[src.field] ?? ''),
    to: link.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(String(r[k] ?? ''))),
    extra: src.extra && r[src.extra] ? String(r[src.extra]) : undefined,
  }));
}

export function HomeSearch() {
  const navigate = useNavigate();
  const menus = useStore(menuStore, (s) => s.menus);
  const [q, setQ] = useState('');
  const [hits, setHits] = useState<Hit[]>([]);
  const [searching, setSearching] = useState(false);
  const seq = useRef(0);

  useEffect(() => {
    const text = q.trim();
    const mine = ++seq.current;
    if (!text) {
      setHits([]);
      return undefined;
    }
    setHits(matchMenus(menus, text));
    const t = setTimeout(() => {
      setSearching(true);
      void Promise.all(LIST_SOURCES.map((s) => searchList(s, text).catch(() => [] as Hit[]))).then((lists) => {
        if (mine !== seq.current) return;
        setHits([...matchMenus(menus, text), ...lists.flat()]);
        setSearching(false);
      });
    }, 250);
    return () => clearTimeout(t);
  }, [q, menus]);

  const go = (h: Hit | undefined) => {
    if (!h) return;
    if (h.external) window.open(h.to, '_blank', 'noopener,noreferrer');
    else navigate(h.to);
  };
  const kinds = [...new Set(hits.map((h) => h.kind))];
  const options = kinds.map((kind) => ({
    label: kind,
    options: hits
      .map((h, i) => ({ h, i }))
      .filter(({ h }) => h.kind === kind)
      .map(({ h, i }) => ({
        value: `${HIT}${i}`,
        label: (
          <div data-testid="home-search-hit" style={{ display: 'flex', gap: 8, alignItems: 'center', minWidth: 0 }}>
            <Tag style={{ marginInlineEnd: 0 }}>{h.kind}</Tag>
            <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{h.name}</span>
            {h.extra && <span style={{ color: 'rgba(0,0,0,.45)', fontSize: 12, overflow: 'hidden', textOverflow: 'ellipsis' }}>{h.extra}</span>}
          </div>
        ),
      })),
  }));

  return (
    <AutoComplete
      value={q}
      options={options}
      onChange={(v: string) => {
        if (!v.startsWith(HIT)) setQ(v.slice(0, MAX_LENGTH));
      }}
      onSelect={(v: string) => {
        go(hits[Number(v.slice(HIT.length))]);
        setQ('');
      }}
      notFoundContent={q.trim() && !searching ? '没有找到相关的菜单、页面、大屏、表单或API' : null}
      style={{ width: '100%', maxWidth: 560 }}
      popupMatchSelectWidth
    >
      <Input.Search
        placeholder="搜索菜单、页面、大屏、表单或API"
        enterButton="搜索"
        size="large"
        allowClear
        maxLength={MAX_LENGTH}
        loading={searching}
        data-testid="home-search"
        // the button opens the first hit; Enter picks the highlighted hit of the list (the list's own key)
        onSearch={(_v, e, info) => {
          if (info?.source !== 'clear' && e?.type === 'click') go(hits[0]);
        }}
      />
    </AutoComplete>
  );
}
