// Where a custom page's declaration comes from (menu component `page:<pageKey>` that is not a built-in): the
// lowcode module's page store. The declaration it answers carries the page's calls and permissions
// (common/lowcode.ts), so the CRUD renderer needs nothing else.
import { get } from '../core/request';
import type { PageDeclaration } from '../crud';

export async function loadCustomPage(pageKey: string): Promise<PageDeclaration> {
  const rec = await get<{ declaration: unknown; title?: string; pageKey?: string }>('/lowcode/page/get', { pageKey });
  // stored as an object, or as JSON text
  const decl = (typeof rec.declaration === 'string' ? JSON.parse(rec.declaration) : rec.declaration) as PageDeclaration;
  return { ...decl, id: decl.id ?? rec.pageKey ?? pageKey, title: decl.title ?? rec.title ?? pageKey };
}
