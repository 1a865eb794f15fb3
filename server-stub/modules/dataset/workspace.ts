// Datasets in a workspace export and import (issue 37 item 3, core/workspace.ts). In the file a dataset is named
// by its name (unique here), its data source by name, its group by the path of group names; a file dataset stays
// behind (its rows are an upload of this deployment). An import checks it as a save does (a SQL dataset only from
// those who may write SQL, every table and column against the mapped data source's catalogue) and writes it in
// the import's transaction.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { BizError } from '../../core/envelope.js';
import { hasPermission } from '../../core/permissions.js';
import { DATASOURCE_TABLE } from '../../core/datasources.js';
import { copyName, type WorkspaceItem } from '../../core/workspace.js';
import { now } from '../../store/columns.js';
import type { Database } from '../../store/schema.js';

interface DatasetContent {
  group: string[];
  kind: string;
  dataSource: string | null;
  definition: unknown;
  fields: unknown;
  rowRules: unknown;
  cacheTtl: number;
}

type Values = { group_id: number; name: string; kind: string; ds_id: number | null; definition: string; fields: string; row_rules: string; cache_ttl: number };
interface Saves<P extends { values: Values }> {
  prepare(req: FastifyRequest, b: Record<string, unknown>): Promise<P>;
  write(on: Kysely<Database>, p: P, req: FastifyRequest, note?: string | null): Promise<number>;
  perm: { list: string; add: string; sql: string };
}

/** The path of group names of each dataset group, by id. */
async function groupPaths(db: Kysely<Database>): Promise<Map<number, string[]>> {
  const rows = await db.selectFrom('dataset_group').select(['id', 'parent_id', 'name']).execute();
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const pathOf = (id: number, depth = 0): string[] => {
    const r = byId.get(id);
    return !r || depth > 32 ? [] : [...(Number(r.parent_id) ? pathOf(Number(r.parent_id), depth + 1) : []), r.name];
  };
  return new Map([...byId.keys()].map((id) => [id, pathOf(id)]));
}

/** The id of the group at `path` (made, with its parents, where missing); 0 for none. */
async function groupAt(on: Kysely<Database>, path: readonly string[]): Promise<number> {
  let parent = 0;
  for (const name of path.slice(0, 10)) {
    const hit = await on.selectFrom('dataset_group').select('id').where('parent_id', '=', parent).where('name', '=', name.slice(0, 50)).executeTakeFirst();
    parent = hit ? Number(hit.id) : Number((await on.insertInto('dataset_group').values({ parent_id: parent, name: name.slice(0, 50), order_num: 0, create_time: now(), update_time: now() }).returning('id').executeTakeFirstOrThrow()).id);
  }
  return parent;
}

export function registerDatasetWorkspace<P extends { values: Values }>(app: FastifyInstance, saves: Saves<P>) {
  const { db } = app.ctx;
  const PERM = saves.perm;
  const mayReadSql = (req: FastifyRequest) => !app.ctx.config.permissionSwitch || hasPermission(req.user?.permissions ?? [], PERM.sql);
  const live = () => db.selectFrom('dataset').selectAll().where('deleted_time', 'is', null);

  const asItem = async (row: Values & { id: number }): Promise<WorkspaceItem> => {
    const ds = row.ds_id ? await db.selectFrom(DATASOURCE_TABLE).select('ds_name').where('id', '=', row.ds_id).executeTakeFirst() : undefined;
    const content: DatasetContent = {
      group: (await groupPaths(db)).get(Number(row.group_id)) ?? [],
      kind: row.kind,
      dataSource: ds?.ds_name ?? null,
      definition: JSON.parse(row.definition),
      fields: JSON.parse(row.fields),
      rowRules: JSON.parse(row.row_rules),
      cacheTtl: Number(row.cache_ttl),
    };
    return { kind: 'dataset', key: row.name, title: row.name, content, dataSources: content.dataSource ? [content.dataSource] : [] };
  };

  app.workspace.register<{ p: P; group: string[] }>({
    kind: 'dataset',
    readPerm: PERM.list,
    // as the save route: its permission, then add or edit as the save decides (and SQL for a SQL dataset)
    writePerm: PERM.list,
    list: async (req) => {
      const rows = await live().where('kind', '<>', 'file').orderBy('name').execute();
      return rows.filter((r) => r.kind !== 'sql' || mayReadSql(req)).map((r) => ({ key: r.name, title: r.name }));
    },
    read: async (key, req) => {
      const row = await live().where('name', '=', key).executeTakeFirst();
      // a file dataset's rows do not travel; a SQL dataset's SQL only to those who may read it
      if (!row || row.kind === 'file' || (row.kind === 'sql' && !mayReadSql(req))) return null;
      return asItem({ ...row, id: Number(row.id) });
    },
    existing: async (key) => {
      const row = await live().where('name', '=', key).executeTakeFirst();
      return row ? asItem({ ...row, id: Number(row.id) }) : null;
    },
    prepare: async (item, ctx, mode, key) => {
      const c = item.content as Partial<DatasetContent>;
      if (c.kind === 'file') throw new BizError('文件数据集不能导入：请在本环境上传文件创建');
      if (typeof c.kind !== 'string' || !c.dataSource) throw new BizError('数据集内容不完整（类型、数据源）');
      const ds = ctx.dataSource(c.dataSource);
      const stored = mode === 'replace' ? await live().select('id').where('name', '=', key).executeTakeFirst() : undefined;
      // checked as a save is: the group is made in the transaction, so the check runs without one
      const p = await saves.prepare(ctx.req, { id: stored ? Number(stored.id) : undefined, name: key, kind: c.kind, dsId: ds.id, definition: c.definition, fields: c.fields, rowRules: c.rowRules ?? [], cacheTtl: c.cacheTtl, groupId: 0 });
      return { p, group: Array.isArray(c.group) ? c.group.map(String) : [] };
    },
    write: async ({ p, group }, on, ctx) => {
      p.values.group_id = await groupAt(on, group);
      await saves.write(on, p, ctx.req, '工作区导入');
      return p.values.name;
    },
    copyKey: (key) => copyName(key, async (n) => !!(await db.selectFrom('dataset').select('id').where('name', '=', n).executeTakeFirst())),
  });
}
