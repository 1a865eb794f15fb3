// The dataset tables (issue 35): groups (a tree, like the API groups) and datasets, whose definition (where the rows
// come from, names read from the catalogue), fields and row rules are JSON text. `version` moves on every save: the
// cached answers of the dataset carry it in their key, so a save retires them on every instance at once.
import { declareTable, migration, type TableRow, timestamps } from '../../core/tables.js';

export const datasetGroups = declareTable({
  name: 'dataset_group',
  migration: '20261204_20_dataset_group',
  columns: {
    id: { type: 'id' },
    parentId: { type: 'integer', notNull: true, default: 0 },
    name: { type: 'varchar(50)', notNull: true },
    orderNum: { type: 'integer', notNull: true, default: 0 },
    ...timestamps,
  },
});

export const datasets = declareTable({
  name: 'dataset',
  migration: '20261204_21_dataset',
  columns: {
    id: { type: 'id' },
    groupId: { type: 'integer', notNull: true, default: 0 },
    name: { type: 'varchar(100)', notNull: true },
    kind: { type: 'varchar(10)', notNull: true },
    dsId: { type: 'integer' },
    definition: { type: 'text', notNull: true },
    fields: { type: 'text', notNull: true },
    rowRules: { type: 'text', notNull: true, default: '[]' },
    cacheTtl: { type: 'integer', notNull: true, default: 60 },
    version: { type: 'integer', notNull: true, default: 1 },
    createUser: { type: 'varchar(100)' },
    ...timestamps,
  },
  indexes: [{ name: 'ux_dataset_name', columns: ['name'], unique: true }],
  duplicate: (rec) => `数据集【${rec.name}】已存在`,
});

declare module '../../store/schema.js' {
  interface Database {
    dataset_group: TableRow<typeof datasetGroups>;
    dataset: TableRow<typeof datasets> & { deleted_time: string | null };
  }
}

/** A deleted dataset waits in the recycle bin (issue 37): marked, out of every list and query until restored. */
export const datasetDeletedMigration = {
  '20261206_12_dataset_deleted': migration(async (db) => {
    await db.schema.alterTable('dataset').addColumn('deleted_time', 'varchar(19)').execute();
  }),
};
