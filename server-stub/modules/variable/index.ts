// System variables (spec part 1 §2 "Variable list", §7 "Variables"): /api/sys/var/*
import { assertPermission } from '../../core/auth.js';
import type { Generated } from 'kysely';
import { BizError, ok } from '../../core/envelope.js';
import { listQuerySchema } from '../../core/list.js';
import type { ServerModule } from '../../core/module.js';
import {
  apiToRow,
  bodySchemaOf,
  checkBody,
  deleteRow,
  getRow,
  idQuery,
  listTable,
  migration,
  requirePage,
  saveRow,
  searchFieldsOf,
  sortableFieldsOf,
  type TableSpec,
} from '../../core/declarations.js';
import { idColumn } from '../../store/columns.js';

export interface VariableTable {
  id: Generated<number>;
  variable_name: string;
  variable_value: string | null;
  variable_desc: string | null;
  create_time: string;
  update_time: string;
}
declare module '../../store/schema.js' {
  interface Database {
    sys_variable: VariableTable;
  }
}

const TABLE = 'sys_variable';
const FIELDS = { variableName: 'variable_name', variableValue: 'variable_value', variableDesc: 'variable_desc', createTime: 'create_time', updateTime: 'update_time' };

export const variableModule: ServerModule = {
  name: 'variable',
  prefix: '/api/sys/var',
  service: 'platform',
  migrations: {
    '20261122_12_variable': migration(async (db, dialect) => {
      await idColumn(db.schema.createTable(TABLE).ifNotExists(), dialect)
        .addColumn('variable_name', 'varchar(100)', (c) => c.notNull())
        .addColumn('variable_value', 'text')
        .addColumn('variable_desc', 'varchar(500)')
        .addColumn('create_time', 'varchar(19)', (c) => c.notNull())
        .addColumn('update_time', 'varchar(19)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ux_sys_variable_name').ifNotExists().unique().on(TABLE).column('variable_name').execute();
    }),
  },
  plugin: async (app) => {
    const page = requirePage(app.ctx.schemas.pages, 'variable');
    const { db } = app.ctx;
    const spec: TableSpec = { table: TABLE, fields: FIELDS, searchFields: searchFieldsOf(page), sortable: sortableFieldsOf(page) };

    app.post<{ Body: any }>('/searchList', { config: { perm: 'sys:var:list' }, schema: { body: listQuerySchema() } }, async (req) => ok(await listTable(db, spec, (req.body ?? {}) as any)));

    app.post<{ Body: any }>(
      '/save',
      { config: { perm: 'sys:var:list' }, schema: { body: bodySchemaOf(page, { id: { type: ['integer', 'null'], title: '编号' } }) } },
      async (req) => {
        const body = req.body as any;
        const id = body.id ?? undefined;
        assertPermission(req, id ? 'sys:var:edit' : 'sys:var:add');
        const stored = id ? await getRow(db, spec, id) : undefined;
        if (id && !stored) throw new BizError('变量不存在');
        const rec = checkBody(page, body, { dicts: app.ctx.schemas.dicts, applyDefaults: !stored });
        return ok(await saveRow(db, spec, stored, apiToRow(spec, rec), { duplicate: `参数名称【${rec.variableName}】已存在` }), '保存成功');
      },
    );

    app.post<{ Querystring: { id: number } }>('/delete', { config: { perm: 'sys:var:remove' }, schema: { querystring: idQuery } }, async (req) => {
      if (!(await deleteRow(db, spec, req.query.id))) throw new BizError('变量不存在');
      return ok(null, '删除成功');
    });
  },
};
