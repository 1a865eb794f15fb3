// A custom page (one an admin declares in the page manager) keeps its records in the lowcode module's generic
// record store. These are its calls and permissions, in one copy: the server writes them into every custom
// declaration it saves and serves, the page manager's preview fills a draft with them, and the generic renderer
// reads them from the declaration like any page's `api` and `perms` (it names no module's path).

/** The `api` and `perms` of custom page `pageKey` (calls relative to /api). */
export function lowcodePageCalls(pageKey: string) {
  const base = `/lowcode/data/${pageKey}`;
  return {
    api: { search: `POST ${base}/search`, get: `GET ${base}/get`, save: `POST ${base}/save`, delete: `GET ${base}/delete`, export: `GET ${base}/export`, import: `POST ${base}/import` },
    perms: { list: 'lowcode:data:list', add: 'lowcode:data:edit', edit: 'lowcode:data:edit', remove: 'lowcode:data:edit', export: 'lowcode:data:list', import: 'lowcode:data:edit' },
  };
}

/** The toolbar's 导出 (CSV / Excel) and 导入 of a custom page, added to a declaration that does not declare them. */
export const lowcodeSheetActions = [
  { action: 'download', label: '导出', formats: ['xlsx', 'csv'] },
  { action: 'import', label: '导入' },
] as const;
