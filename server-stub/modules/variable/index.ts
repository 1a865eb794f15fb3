// System variables (spec part 1 §2 "Variable list", §7 "Variables"): /api/sys/var/*
import { checkBody, requirePage } from '../../core/declarations.js';
import { freeKey } from '../../core/workspace.js';
import { assertPermission } from '../../core/auth.js';
import { declareTable, listPageModule, type TableRow, timestamps } from '../../core/tables.js';
import { now } from '../../store/columns.js';

export const variables = declareTable({
  name: 'sys_variable',
  migration: '20261122_12_variable',
  columns: {
    id: { type: 'id' },
    variableName: { type: 'varchar(100)', notNull: true },
    variableValue: { type: 'text' },
    variableDesc: { type: 'varchar(500)' },
    ...timestamps,
  },
  indexes: [{ name: 'ux_sys_variable_name', columns: ['variableName'], unique: true }],
  duplicate: (rec) => `参数名称【${rec.variableName}】已存在`,
});
declare module '../../store/schema.js' {
  interface Database {
    sys_variable: TableRow<typeof variables>;
  }
}

/** A variable whose name says it holds a secret travels without its value (the target sets it). */
const SECRET_NAME = /pass(word|wd)?|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credential/i;

const base = listPageModule(variables, { name: 'variable', prefix: '/api/sys/var', page: 'variable', notFound: '变量不存在' });

// workspace export and import (issue 37 item 3): a variable by its name, checked as the list page's save checks it
export const variableModule = {
  ...base,
  needs: [...(base.needs ?? []), 'workspace' as const],
  plugin: async (app: Parameters<typeof base.plugin>[0], opts: Parameters<typeof base.plugin>[1]) => {
    await base.plugin(app, opts);
    const { db } = app.ctx;
    const asItem = async (key: string) => {
      const r = await db.selectFrom('sys_variable').selectAll().where('variable_name', '=', key).executeTakeFirst();
      if (!r) return null;
      return { kind: 'variable' as const, key, title: key, content: { variableValue: SECRET_NAME.test(key) ? '' : (r.variable_value ?? ''), variableDesc: r.variable_desc ?? '' } };
    };
    app.workspace.register<{ key: string; rec: Record<string, unknown>; id: number | null }>({
      kind: 'variable',
      readPerm: 'sys:var:list',
      writePerm: 'sys:var:add',
      list: async () => (await db.selectFrom('sys_variable').select('variable_name').orderBy('variable_name').execute()).map((r) => ({ key: r.variable_name, title: r.variable_name })),
      read: asItem,
      existing: asItem,
      prepare: async (item, ctx, mode, key) => {
        const c = item.content as Record<string, unknown>;
        const rec = checkBody(requirePage(app.ctx.schemas.pages, 'variable'), { variableName: key, variableValue: c.variableValue ?? '', variableDesc: c.variableDesc ?? '' }, { dicts: await app.dicts.current(), applyDefaults: true });
        const stored = mode === 'replace' ? await db.selectFrom('sys_variable').select(['id', 'variable_value']).where('variable_name', '=', key).executeTakeFirst() : undefined;
        if (stored) assertPermission(ctx.req, 'sys:var:edit');
        // a secret's value did not travel: replacing keeps this deployment's
        if (stored && SECRET_NAME.test(key) && !rec.variableValue) rec.variableValue = stored.variable_value;
        return { key, rec, id: stored ? Number(stored.id) : null };
      },
      write: async (p, on) => {
        const values = { variable_name: p.key, variable_value: (p.rec.variableValue as string) ?? null, variable_desc: (p.rec.variableDesc as string) ?? null, update_time: now() };
        if (p.id) await on.updateTable('sys_variable').set(values).where('id', '=', p.id).execute();
        else await on.insertInto('sys_variable').values({ ...values, create_time: now() }).execute();
        return p.key;
      },
      copyKey: (key) => freeKey(key, 100, async (k) => !!(await db.selectFrom('sys_variable').select('id').where('variable_name', '=', k).executeTakeFirst())),
    });
  },
};
