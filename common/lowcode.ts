// A custom page (one an admin declares in the page manager) keeps its records in the lowcode module's generic
// record store. These are its calls and permissions, in one copy: the server writes them into every custom
// declaration it saves and serves, the page manager's preview fills a draft with them, and the generic renderer
// reads them from the declaration like any page's `api` and `perms` (it names no module's path).
import { pagePermissions, tablePageCalls } from './tablePage';

/**
 * The `api` and `perms` of custom page `pageKey` (calls relative to /api): its own permissions
 * (lowcode:<pageKey>:list|add|edit|remove|export|import, common/tablePage.ts); a page on a table (`source`) reads and
 * writes that table (insert through `add`), a page on a view only reads.
 */
export function lowcodePageCalls(pageKey: string, source?: { kind?: string } | null) {
  const base = `/lowcode/data/${pageKey}`;
  const perms = pagePermissions(pageKey);
  if (source) {
    const writable = source.kind !== 'view';
    return { ...tablePageCalls(pageKey, writable), perms: writable ? perms : { list: perms.list, export: perms.export } };
  }
  return {
    api: { search: `POST ${base}/search`, get: `GET ${base}/get`, save: `POST ${base}/save`, delete: `GET ${base}/delete`, export: `GET ${base}/export`, import: `POST ${base}/import` },
    perms,
  };
}

/**
 * 订阅: a new 定时任务 of kind subscription for this page under the list's current search (the job page's own
 * dialog and save, for those who may add jobs).
 */
export const subscribeAction = {
  action: 'add',
  label: '订阅',
  page: 'job',
  perms: ['system:job:add'],
  params: { jobName: '订阅：{{$page.title}}', kind: 'subscription', target: 'page:{{$page.id}}', args: '{{$list}}' },
} as const;

/** The toolbar's 导出 (CSV / Excel), 导入 and 订阅 of a custom page, added to a declaration that does not declare them. */
export const lowcodeSheetActions = [
  { action: 'download', label: '导出', formats: ['xlsx', 'csv'] },
  { action: 'import', label: '导入' },
  subscribeAction,
] as const;
