// The wiki calls (spec part 1 §7 "Wiki and files"), paths relative to /api.
import { get, post, upload } from '../../core/request';

/** A tree node: a group (docType ≠ 1) or a document (docType 1). The tree never carries bodies. */
export interface WikiNode {
  id: number;
  parentId: number;
  title: string;
  docType: number;
  revision?: number;
  createUser?: string | null;
  createTime?: string;
  updateUser?: string | null;
  updateTime?: string;
}
export interface WikiDoc extends WikiNode {
  docContent: string;
}

export const isDocument = (n: Pick<WikiNode, 'docType'>) => n.docType === 1;

export const wikiApi = {
  tree: () => post<WikiNode[]>('/doc/wikigroup/select', {}),
  saveGroup: (g: { id?: number; parentId: number; title: string }) => post<number>('/doc/wikigroup/save', g),
  /** The spec deletes a group through the tree call with ?id. */
  deleteGroup: (id: number) => post<null>('/doc/wikigroup/select', {}, { params: { id } }),
  get: (id: number) => get<WikiDoc>('/doc/wikidetail/get', { id }),
  save: (d: { id?: number; parentId: number; title: string; docContent: string; revision?: number }) => post<number>('/doc/wikidetail/save', { ...d, docType: 1 }),
  remove: (id: number) => post<null>('/doc/wikidetail/delete', undefined, { params: { id } }),
  /** The body exactly as the server would store it (sanitized): what Preview shows. */
  preview: (docContent: string) => post<string>('/doc/wikidetail/preview', { docContent }),
  uploadImage: (file: File) => {
    const form = new FormData();
    form.append('fileBizType', 'wiki');
    form.append('file', file);
    return upload<{ url: string; alt: string; href: string }>('/doc/file/upload', form);
  },
};
