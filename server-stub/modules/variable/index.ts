// System variables (spec part 1 §2 "Variable list", §7 "Variables"): /api/sys/var/*
import { declareTable, listPageModule, type TableRow, timestamps } from '../../core/tables.js';

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

export const variableModule = listPageModule(variables, { name: 'variable', prefix: '/api/sys/var', page: 'variable', notFound: '变量不存在' });
