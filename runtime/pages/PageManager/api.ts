import { get, post } from '../../core/request';
import { parseDeclaration, type PageDeclaration } from '../../crud';

export interface CustomPage {
  id?: number | string;
  pageKey: string;
  title: string;
  declaration: PageDeclaration;
  published: boolean;
  roles: string[];
  /** Records the page holds (a delete takes them with it); answered by the server's list and get. */
  recordCount?: number;
  /** A page on a table whose data source changed since it was saved: it refuses to run until saved again. */
  sourceChanged?: boolean;
}

type Stored = Omit<CustomPage, 'declaration' | 'published'> & { declaration?: unknown; published?: boolean | number };
// the list answer leaves the declaration out; get() carries it
const normalise = (r: Stored): CustomPage => ({
  ...r,
  declaration: (r.declaration === undefined ? undefined : parseDeclaration(r.declaration)) as PageDeclaration,
  published: Boolean(r.published),
  roles: r.roles ?? [],
});

// The custom-page calls of the server (paths relative to /api). Silent: the page manager shows a failure itself,
// in a box that stays until dismissed, instead of the request layer's passing message.
const QUIET = { silent: true };

export const pagesApi = {
  async search(search = ''): Promise<CustomPage[]> {
    const d = await post<{ records: Stored[] }>('/lowcode/page/search', { pageNum: 1, pageSize: 100, search }, QUIET);
    return (d?.records ?? []).map(normalise);
  },
  async get(id: number | string): Promise<CustomPage> {
    return normalise(await get<Stored>('/lowcode/page/get', { id }, QUIET));
  },
  save(page: CustomPage): Promise<unknown> {
    return post('/lowcode/page/save', page, QUIET);
  },
  remove(id: number | string): Promise<unknown> {
    return get('/lowcode/page/delete', { id }, QUIET);
  },
  /** The dictionaries of 字典管理 (type and name), for the editor's dictionary pickers. */
  async dictTypes(): Promise<{ type: string; name: string }[]> {
    const d = await post<{ records: { dictType: string; dictName?: string }[] }>('/dict/admin/type/list', { pageNum: 1, pageSize: 500 }, QUIET);
    return (d?.records ?? []).map((r) => ({ type: r.dictType, name: r.dictName ?? r.dictType }));
  },
};
