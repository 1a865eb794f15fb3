// System variables (spec part 1 §2 "Variable list", §7 "Variables"): /api/sys/var/*
import type { ServerModule } from '../../core/module.js';
import { declareTable, listPageRoutes, type TableRow } from '../../core/tables.js';

export const variables = declareTable({
  name: 'sys_variable',
  migration: '20261122_12_variable',
  columns: {
    id: { type: 'id' },
    variableName: { type: 'varchar(100)', notNull: true },
    variableValue: { type: 'text' },
    variableDesc: { type: 'varchar(500)' },
    createTime: { type: 'time', notNull: true },
    updateTime: { type: 'time', notNull: true },
  },
  indexes: [{ name: 'ux_sys_variable_name', columns: ['variableName'], unique: true }],
  duplicate: (rec) => `参数名称【${rec.variableName}】已存在`,
});
declare module '../../store/schema.js' {
  interface Database {
    sys_variable: TableRow<typeof variables>;
  }
}

export const variableModule: ServerModule = {
  name: 'variable',
  prefix: '/api/sys/var',
  service: 'platform',
  migrations: variables.migrations,
  plugin: async (app) => {
    listPageRoutes(app, variables, { page: 'variable', notFound: '变量不存在' });
  },
};
