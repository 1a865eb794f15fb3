// Dictionaries in a workspace export and import (issue 37 item 3, core/workspace.ts): a type by its key, in the
// shipped files' shape (name, value type, entries), checked against schemas/meta/dict.schema.json; a shipped
// type keeps its value type. Written in the import's transaction; every instance reads them again after it.
import type { FastifyInstance } from 'fastify';
import { assertPermission } from '../../core/auth.js';
import { BizError } from '../../core/envelope.js';
import { writeDict, type Dictionary } from '../../core/dicts.js';
import { freeKey } from '../../core/workspace.js';
import { describeAjvErrors } from '../../../common/ajv-messages.js';

export function registerDictWorkspace(app: FastifyInstance) {
  const asItem = async (key: string) => {
    const d = (await app.dicts.current())[key];
    if (!d) return null;
    const { type: _t, ...content } = d as Dictionary & Record<string, unknown>;
    return { kind: 'dict' as const, key, title: d.name, content };
  };
  app.workspace.register<Dictionary>({
    kind: 'dict',
    readPerm: 'system:dict:list',
    writePerm: 'system:dict:add',
    list: async () =>
      Object.values(await app.dicts.current())
        .sort((a, b) => a.type.localeCompare(b.type))
        .map((d) => ({ key: d.type, title: `${d.name}（${d.type}）` })),
    read: asItem,
    existing: asItem,
    prepare: async (item, ctx, mode, key) => {
      const d = { ...(item.content as Record<string, unknown>), type: key } as unknown as Dictionary;
      const check = app.ctx.schemas.validators['dict.schema.json'];
      if (!check(d)) throw new BizError(`字典不合法：${describeAjvErrors(check.errors, { root: '字典' }).slice(0, 3).join('；')}`);
      const shipped = app.dicts.shipped[key];
      if (shipped && shipped.valueType !== d.valueType) throw new BizError(`内置字典「${key}」的值类型不能修改`);
      if (mode === 'replace') assertPermission(ctx.req, 'system:dict:edit');
      return d;
    },
    write: async (d, on) => {
      await writeDict(on, d);
      return d.type;
    },
    afterImport: () => app.dicts.changed(),
    copyKey: async (key) => {
      const all = await app.dicts.current();
      return freeKey(key, 64, async (k) => !!all[k]);
    },
  });
}
