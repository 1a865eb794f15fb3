// Pages in a workspace export and import (issue 37 item 3, core/workspace.ts): a page by its key, its declaration
// with a page on a table naming its data source by name, its publication (the menu entry it brings) and the roles
// that see it; the dictionaries it names are its dependencies. An import checks it as a page save does (the
// declaration against the schema and the dictionaries, a table page's names against the mapped data source's
// catalogue) and writes the page with its menu entry in the import's transaction; roles this deployment does not
// have are left out of its grants.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { BizError } from '../../core/envelope.js';
import { DATASOURCE_TABLE } from '../../core/datasources.js';
import { freeKey, type WorkspaceItem, type WorkspaceRef } from '../../core/workspace.js';
import type { Database } from '../../store/schema.js';
import type { DictMap } from '../../core/dicts.js';

interface PageContent {
  declaration: Record<string, any>;
  published: boolean;
  roles: string[];
}

/** The dictionary types a declaration names (x-dict / dict anywhere in it). */
function dictsIn(v: unknown, out = new Set<string>(), depth = 0): Set<string> {
  if (depth > 40 || v === null || typeof v !== 'object') return out;
  for (const [k, x] of Object.entries(v)) {
    if ((k === 'dict' || k === 'x-dict') && typeof x === 'string' && x) out.add(x);
    else dictsIn(x, out, depth + 1);
  }
  return out;
}

interface Saves<P> {
  prepare(req: FastifyRequest, body: Record<string, unknown>, opts?: { dicts?: DictMap; roles?: string[] }): Promise<P>;
  write(on: Kysely<Database>, p: P, req: FastifyRequest): Promise<number>;
  perm: { list: string; add: string; edit: string };
}

export function registerPageWorkspace<P>(app: FastifyInstance, saves: Saves<P>) {
  const { db } = app.ctx;
  const live = () => db.selectFrom('lowcode_page').selectAll().where('deleted_time', 'is', null);

  const asItem = async (key: string): Promise<WorkspaceItem | null> => {
    const row = await live().where('page_key', '=', key).executeTakeFirst();
    if (!row) return null;
    const declaration = JSON.parse(row.declaration) as Record<string, any>;
    const dataSources: string[] = [];
    if (declaration.source?.dsId) {
      const ds = await db.selectFrom(DATASOURCE_TABLE).select('ds_name').where('id', '=', Number(declaration.source.dsId)).executeTakeFirst();
      const { dsId: _id, ...source } = declaration.source;
      declaration.source = { ...source, dsName: ds?.ds_name ?? source.dsName ?? '' };
      if (declaration.source.dsName) dataSources.push(declaration.source.dsName);
    }
    const deps: WorkspaceRef[] = [...dictsIn(declaration)].map((d) => ({ kind: 'dict', key: d }));
    const content: PageContent = { declaration, published: Number(row.published) === 1, roles: JSON.parse(row.roles) as string[] };
    return { kind: 'page', key: row.page_key, title: row.title, content, deps, dataSources };
  };

  app.workspace.register<P>({
    kind: 'page',
    readPerm: saves.perm.list,
    writePerm: saves.perm.edit,
    list: async () => (await live().orderBy('page_key').execute()).map((r) => ({ key: r.page_key, title: `${r.title}（${r.page_key}）` })),
    read: (key) => asItem(key),
    existing: (key) => asItem(key),
    prepare: async (item, ctx, mode, key) => {
      const c = item.content as Partial<PageContent>;
      if (!c?.declaration || typeof c.declaration !== 'object') throw new BizError('页面内容不完整（页面声明）');
      const declaration: Record<string, any> = { ...c.declaration, id: key };
      if (declaration.source) {
        const { dsName, ...source } = declaration.source as Record<string, unknown>;
        declaration.source = { ...source, dsId: ctx.dataSource(String(dsName ?? '')).id };
      }
      const known = new Set((await db.selectFrom('sys_role').select('role_key').execute()).map((r) => r.role_key));
      // the roles that see it: this deployment's, and those the file brings (written before the page); others left out
      const roles = (Array.isArray(c.roles) ? c.roles : []).filter((r) => typeof r === 'string' && (known.has(r) || ctx.inFile('role', r)));
      const stored = mode === 'replace' ? await live().select('id').where('page_key', '=', key).executeTakeFirst() : undefined;
      // a dictionary the file brings along counts as present (dictionaries are written first)
      const dicts = Object.fromEntries(ctx.fileItems('dict').map((d) => [d.key, { ...(d.content as object), type: d.key } as DictMap[string]]));
      return saves.prepare(ctx.req, { id: stored ? Number(stored.id) : undefined, pageKey: key, title: item.title, declaration, published: !!c.published, roles, note: '工作区导入' }, { dicts, roles: ctx.fileItems('role').map((r) => r.key) });
    },
    write: async (p, on, ctx) => {
      await saves.write(on, p, ctx.req);
      return (p as { pageKey: string }).pageKey;
    },
    // a page key: lower case letters, digits, _ and -
    copyKey: (key) => freeKey(key, 50, async (k) => !!(await db.selectFrom('lowcode_page').select('id').where('page_key', '=', k).executeTakeFirst())),
  });
}
