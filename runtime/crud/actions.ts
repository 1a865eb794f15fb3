import type { ActionDecl, PageDeclaration } from './types';

const LABELS: Record<ActionDecl['action'], string> = {
  add: '新增', edit: '修改', copy: '复制', delete: '删除', test: '测试', call: '执行', route: '查看', notice: '查看', download: '导出', subList: '查看', import: '导入', history: '历史版本',
};
export const actionLabel = (a: ActionDecl) => a.label ?? LABELS[a.action];

/** Permission strings guarding an action: its own, else the page's per kind (custom pages too: the server declares theirs). */
export function actionPerms(a: ActionDecl, page: PageDeclaration): string[] | undefined {
  if (a.perms) return a.perms;
  const p = page.perms;
  // a copy is saved as a new record (no id): the server asks for the add permission, so does the button
  const byKind =
    a.action === 'add' || a.action === 'copy' ? p?.add
    : a.action === 'edit' || a.action === 'history' ? p?.edit
    : a.action === 'delete' ? p?.remove
    // a sheet export / import: the page's own (an export falls back to the list permission, as on the server)
    : a.action === 'download' ? (p?.export ?? p?.list)
    : a.action === 'import' && !a.import ? p?.import
    : undefined;
  return byKind ? [byKind] : undefined;
}

/** The page's declared calls; every page declares its own (a custom page's are written in by the server). */
export function pageApi(page: PageDeclaration): Partial<NonNullable<PageDeclaration['api']>> {
  return page.api ?? {};
}

/** A row action declared with `when` shows only on rows whose field holds one of the listed values. */
export function actionShownFor(a: ActionDecl, row: Record<string, unknown>): boolean {
  if (!a.when) return true;
  return a.when.in.some((v) => v === row[a.when!.field]);
}
