// The dictionaries (spec part 1 §7 "Dictionaries"): the spec's two calls answer them as the store holds them now
// (the `dicts` platform service, core/dicts.ts), and 系统管理 › 字典管理 edits them (admin.ts). The store is seeded
// from schemas/dicts on its first start and afterwards with only what the files changed (the seed below).
import { applyShippedDicts, shippedDicts, type DictEntry as Entry, type DictMap } from '../../core/dicts.js';
import { ok } from '../../core/envelope.js';
import type { ServerModule } from '../../core/module.js';
import { dictAdminRoutes } from './admin.js';
import { registerDictWorkspace } from './workspace.js';

const typeName = { type: 'string', maxLength: 64, pattern: '^[A-Z][A-Z0-9_]*$', title: '字典类型' } as const;

function cut(entries: Entry[], levels: number): Entry[] {
  return entries.map(({ children, ...e }) => (children && levels > 1 ? { ...e, children: cut(children, levels - 1) } : e));
}

export const dictModule: ServerModule = {
  name: 'dict',
  prefix: '/api/dict',
  service: 'admin',
  needs: ['dicts', 'workspace'],
  // the shipped files: all on the first start, afterwards only what they changed since; an admin's edits stay
  seed: async (db, { schemas, shipped }) => {
    const files = shippedDicts(schemas.dicts);
    const change = await shipped<DictMap>('dicts', files);
    if (change.changed) await applyShippedDicts(db, files, change.before);
  },
  plugin: async (app) => {
    registerDictWorkspace(app);
    const itemsOf = (type: string) => app.dicts.items(type);

    // Body: the list of dictionary types. Unknown types answer an empty list.
    app.post<{ Body: string[] }>('/selectMapData', { config: { beforePasswordChange: true }, schema: { body: { type: 'array', maxItems: 100, items: typeName } } }, async (req) => {
      const out: Record<string, Entry[]> = {};
      for (const type of req.body) out[type] = await itemsOf(type);
      return ok(out);
    });

    // Body: { dictType, treeLevel } or a list of them; trees are cut at treeLevel (0 or absent: whole tree).
    const one = { type: 'object', required: ['dictType'], properties: { dictType: typeName, treeLevel: { type: 'integer', minimum: 0, maximum: 10, title: '层级' } } } as const;
    app.post<{ Body: { dictType: string; treeLevel?: number } | { dictType: string; treeLevel?: number }[] }>(
      '/tree/map/batchselect',
      { config: { beforePasswordChange: true }, schema: { body: { anyOf: [one, { type: 'array', maxItems: 100, items: one }] } } },
      async (req) => {
        const list = Array.isArray(req.body) ? req.body : [req.body];
        const out: Record<string, Entry[]> = {};
        for (const { dictType, treeLevel } of list) {
          const items = await itemsOf(dictType);
          out[dictType] = treeLevel ? cut(items, treeLevel) : items;
        }
        return ok(out);
      },
    );

    dictAdminRoutes(app);
  },
};
