// A custom page (one an admin declares in the page manager) keeps its records in the lowcode module's generic
// record store. These are its calls and permissions, in one copy: the server writes them into every custom
// declaration it saves and serves, the page manager's preview fills a draft with them, and the generic renderer
// reads them from the declaration like any page's `api` and `perms` (it names no module's path).

/** The `api` and `perms` of custom page `pageKey` (calls relative to /api). */
export function lowcodePageCalls(pageKey: string) {
  const base = `/lowcode/data/${pageKey}`;
  return {
    api: { search: `POST ${base}/search`, get: `GET ${base}/get`, save: `POST ${base}/save`, delete: `GET ${base}/delete` },
    perms: { list: 'lowcode:data:list', add: 'lowcode:data:edit', edit: 'lowcode:data:edit', remove: 'lowcode:data:edit' },
  };
}
