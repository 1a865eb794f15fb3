// The designers' and previews' calls over HTTP (spec §7): /datav/screen/* for screens, /jimu/form/* for
// forms — the same shapes under two prefixes — plus the API picker and published-API calls for widgets.
import type { CanvasProps, DesignerPage } from '../../common/canvas';
import type { ScreenVariable } from '../../common/variables';
import type { DesignerServices } from '../../designer/Designer';
import { DEFAULT_THEME, type CatalogueEntry, type DataRow, type DatasetAnswer, type FetchDataset, type WidgetEntity } from '../../widgets';
import type { DatasetField, DatasetQuery } from '../../common/dataset';
import { download, get, post, request } from '../core/request';
import { discardOnUnload, discardWidgets, flushDiscarded, forgetDiscarded } from './discard';

export type DesignKind = 'screen' | 'form';
export const PREFIX: Record<DesignKind, string> = { screen: '/datav/screen', form: '/jimu/form' };

export interface ServerPage {
  id: number;
  pageName: string;
  width: number;
  height: number;
  backgroundColor: string | null;
  refreshSeconds: number | null;
  /** the screen theme's id; absent from pages saved before themes */
  theme?: string | null;
  backgroundImage?: string | null;
  /** the screen's variables (issue 23); absent from pages saved before them */
  variables?: ScreenVariable[] | null;
  revision: number;
}
export type ServerWidget = Omit<WidgetEntity, 'id' | 'pageId'> & { id: string | number; pageId: string | number };

/** A page's canvas settings, one way for what is read and what is saved (no background is ''). */
const canvasOf = (p: Pick<ServerPage, 'width' | 'height' | 'backgroundColor' | 'refreshSeconds' | 'theme' | 'backgroundImage' | 'variables'>): CanvasProps => ({
  width: p.width,
  height: p.height,
  backgroundColor: p.backgroundColor ?? '',
  refreshSeconds: p.refreshSeconds ?? null,
  theme: p.theme || DEFAULT_THEME.id,
  backgroundImage: p.backgroundImage ?? '',
  variables: p.variables ?? [],
});

export const pageOf = (p: ServerPage): DesignerPage => ({ id: String(p.id), pageName: p.pageName, ...canvasOf(p), revision: p.revision });
export const widgetOf = (w: ServerWidget): WidgetEntity => ({ ...w, id: String(w.id), pageId: String(w.pageId) });

/** Runs a published API with the signed-in session (POST /open/api/{apiName}); the rows are in data. */
export const fetchApiData = ({ datasource, reqParams }: { datasource: string; reqParams: Record<string, unknown> }) =>
  post<DataRow[]>(`/open/api/${encodeURIComponent(datasource)}`, reqParams ?? {}, { baseURL: '' });

/**
 * Dataset answers (issue 35): the queries a screen's widgets ask within one tick go to the server in one call
 * (POST /dataset/query, at most 50 a call); each widget gets its own answer or error.
 */
let pending: Array<{ q: DatasetQuery; resolve: (a: DatasetAnswer) => void; reject: (e: unknown) => void }> = [];
let flushing: ReturnType<typeof setTimeout> | null = null;
function flushDatasetQueries() {
  flushing = null;
  const all = pending;
  pending = [];
  for (let i = 0; i < all.length; i += 50) {
    const batch = all.slice(i, i + 50);
    post<DatasetAnswer[]>('/dataset/query', { queries: batch.map((b) => b.q) }, { silent: true }).then(
      (answers) => batch.forEach((b, k) => b.resolve(answers?.[k] ?? { rows: [], error: '没有应答' })),
      (err: unknown) => batch.forEach((b) => b.reject(err)),
    );
  }
}
export const fetchDataset: FetchDataset = (q) =>
  new Promise<DatasetAnswer>((resolve, reject) => {
    pending.push({ q, resolve, reject });
    flushing ??= setTimeout(flushDatasetQueries, 0);
  });

/** A dataset chart's current question as an Excel file (issue 35 §4: the server answers it under the viewer's rules). */
export const exportDataset = (query: DatasetQuery, name: string) => download('/dataset/export', undefined, `${name || '数据'}.xlsx`, { method: 'POST', body: { query, format: 'xlsx', name: name.slice(0, 50) } });

/** Datasets to choose from (the list's own search), and one dataset's fields. */
export const listDatasets = async (search: string) =>
  (await post<{ records: Array<{ id: number; name: string }> }>('/dataset/search', { search: search.slice(0, 20), pageNum: 1, pageSize: 50 })).records.map((r) => ({ id: r.id, name: r.name }));
export const datasetFields = async (id: number) => (await get<{ id: number; name: string; fields: DatasetField[] }>('/dataset/info/get', { id })).fields;

export const listApis = async (search: string) =>
  (await get<Array<{ apiName: string; apiComment: string; reqParams: string; respResult: string | null }>>('/gemini/api/query', { search: search.slice(0, 20) })).map((a) => ({
    apiName: a.apiName,
    apiComment: a.apiComment,
    reqParams: a.reqParams,
    respResult: a.respResult ?? undefined,
  }));

/** The image library's images for the panel's picker (the image list's own search call; newest first, up to 60). */
export const listImages = async (search: string) =>
  (await post<{ records: Array<{ fileName: string; fileUrl: string }> }>('/file/image/searchImageList', { search: search.slice(0, 20), pageNum: 1, pageSize: 60 })).records.map((r) => ({
    name: r.fileName,
    url: r.fileUrl,
  }));

export function designerServices(kind: DesignKind): DesignerServices {
  const P = PREFIX[kind];
  return {
    loadPage: async (id) => pageOf(await get<ServerPage>(`${P}/info/get`, { id })),
    loadWidgets: async (pageId) => {
      // widgets an earlier 不保存 could not delete (the page unloaded first) go before the page is read
      await flushDiscarded(P);
      return (await get<ServerWidget[]>(`${P}/widget/select`, { pageId })).map(widgetOf);
    },
    catalogue: () => get<CatalogueEntry[]>(`${P}/widget/catalogue`),
    addWidget: async ({ pageId, widgetName, top, left }) => widgetOf(await post<ServerWidget>(`${P}/widget/add`, { pageId: Number(pageId), widgetName, top, left })),
    savePage: async (p) =>
      pageOf(
        // its widget list follows (saveWidgets): the server keeps one version of both, after the widgets
        await post<ServerPage>(`${P}/info/save`, { id: Number(p.id), pageName: p.pageName, ...canvasOf(p), revision: p.revision, withWidgets: true }),
      ),
    saveWidgets: async (pageId, widgets) => {
      const saved = (await post<ServerWidget[]>(`${P}/widget/update`, { pageId: Number(pageId), widgets: widgets.map((w) => ({ ...w, pageId: Number(pageId) })) }, { timeout: 120_000 })).map(widgetOf);
      // a widget saved again (the page came back from the browser's cache after an unload) is no longer discarded
      forgetDiscarded(saved.map((w) => w.id));
      return saved;
    },
    discardWidgets: (_pageId, ids) => discardWidgets(P, ids),
    discardOnUnload: (_pageId, ids) => discardOnUnload(P, ids),
    panel: { listApis, fetchApiData, listImages, listDatasets, datasetFields, fetchDataset },
    // a screen's picture for the list, taken by the designer at each save (issue 22); forms have none
    ...(kind === 'screen'
      ? {
          saveThumbnail: async (pageId: string, picture: Blob, fileName: string) => {
            const form = new FormData();
            form.append('file', picture, fileName);
            // silent: the save succeeded; a missing picture is not worth a message
            await request.post(`${P}/thumbnail/upload`, form, { params: { id: Number(pageId) }, silent: true, timeout: 30_000 });
          },
        }
      : {}),
  };
}

/** What a preview reads: the page and its widgets. */
export async function loadForPreview(kind: DesignKind, id: string) {
  const services = designerServices(kind);
  const page = await services.loadPage(id);
  return { page, widgets: await services.loadWidgets(id) };
}
