// Dictionaries built into the product, from schemas/dicts (spec part 1 §7 "Dictionaries").
import { ok } from '../../core/envelope.js';
import type { ServerModule } from '../../core/module.js';

interface Entry {
  value: string | number;
  label: string;
  dictStyle?: string;
  children?: Entry[];
}

const typeName = { type: 'string', maxLength: 64, pattern: '^[A-Z][A-Z0-9_]*$', title: '字典类型' } as const;

function cut(entries: Entry[], levels: number): Entry[] {
  return entries.map(({ children, ...e }) => (children && levels > 1 ? { ...e, children: cut(children, levels - 1) } : e));
}

export const dictModule: ServerModule = {
  name: 'dict',
  prefix: '/api/dict',
  service: 'admin',
  plugin: async (app) => {
    const dicts = app.ctx.schemas.dicts as Record<string, { items: Entry[] }>;
    const itemsOf = (type: string) => dicts[type]?.items ?? [];

    // Body: the list of dictionary types. Unknown types answer an empty list.
    app.post<{ Body: string[] }>('/selectMapData', { config: { beforePasswordChange: true }, schema: { body: { type: 'array', maxItems: 100, items: typeName } } }, async (req) => {
      const out: Record<string, Entry[]> = {};
      for (const type of req.body) out[type] = itemsOf(type);
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
        for (const { dictType, treeLevel } of list) out[dictType] = treeLevel ? cut(itemsOf(dictType), treeLevel) : itemsOf(dictType);
        return ok(out);
      },
    );
  },
};
