// The API platform's tables (spec part 2 §3 "API", "API config", "API group"), and their migrations.
//
//  gemini_api_group    the group tree (root is virtual: id 0, never stored)
//  gemini_api          one row per API: its design and its current draft configuration (what the design
//                      and config screens edit), its status, and which released version is online
//  gemini_api_version  immutable released versions (V1, V2, …): everything that runs, frozen at each pass
//  gemini_api_audit    every transition: who, when, action, comment
//  gemini_api_key      keys for calling published APIs: only a SHA-256 hash is kept
//  gemini_api_call     one row per published call (for the detail screen's 24-hour statistics)
import type { Generated } from 'kysely';
import { migration } from '../../core/tables.js';
import { idColumn } from '../../store/columns.js';

export interface ApiGroupTable {
  id: Generated<number>;
  parent_id: number;
  name: string;
  sort_no: number;
  create_time: string;
  update_time: string;
}

/** What a released version freezes (and the draft carries): everything the published API runs. */
export interface ApiRunnable {
  ds_name: string | null;
  cacheable: number;
  cache_time: number | null;
  script: string | null;
  /** JSON text: the request parameter rows */
  req_params: string | null;
  /** JSON text: the response parameter rows */
  resp_params: string | null;
  is_public: number;
}

export interface ApiTable extends ApiRunnable {
  id: Generated<number>;
  group_id: number;
  api_num: string | null;
  api_name: string;
  api_comment: string;
  api_desc: string | null;
  design_user: string;
  design_user_name: string;
  design_time: string;
  /** API_STATUS: 0 draft, 1 waiting, 2 passed, 3 rejected */
  api_status: number;
  /** ONLINE_STATUS: 0 not online, 1 online, 2 taken offline */
  online_status: number;
  /** the released version served while online */
  online_version: number | null;
  /** bumped at every online/offline change: part of every cache key, so old entries die everywhere */
  online_seq: number;
  /** the highest released version (null: 未定版) */
  latest_api_version: number | null;
  /** the last approval comment */
  approve_result: string | null;
  /** the last test's answer and SQL (the config screen's read-only tabs) */
  resp_result: string | null;
  query_sql: string | null;
  update_time: string;
}

export interface ApiVersionTable extends ApiRunnable {
  id: Generated<number>;
  api_id: number;
  version: number;
  /**
   * Which database the approver approved: a hash of the data source's id, type, host, port, database,
   * account and parameters (not its password) when the version passed. Null for versions older than it.
   */
  ds_target?: string | null;
  api_comment: string;
  approve_user: string;
  approve_result: string | null;
  create_time: string;
}

export interface ApiAuditTable {
  id: Generated<number>;
  api_id: number;
  action: string;
  version: number | null;
  user_name: string;
  comment: string | null;
  create_time: string;
}

export interface ApiKeyTable {
  id: Generated<number>;
  key_name: string;
  /** the first characters, shown in the list so a key can be recognised */
  key_prefix: string;
  key_hash: string;
  create_user: string;
  create_time: string;
  revoked: number;
  last_used_time: string | null;
}

export interface ApiCallTable {
  id: Generated<number>;
  api_id: number;
  /** epoch ms */
  at: number;
  ms: number;
  ok: number;
}

declare module '../../store/schema.js' {
  interface Database {
    gemini_api_group: ApiGroupTable;
    gemini_api: ApiTable;
    gemini_api_version: ApiVersionTable;
    gemini_api_audit: ApiAuditTable;
    gemini_api_key: ApiKeyTable;
    gemini_api_call: ApiCallTable;
  }
}

export const apiMigrations = {
  '20261123_20_api_platform': migration(async (db, dialect) => {
    const time = (t: any) => t.addColumn('create_time', 'varchar(19)', (c: any) => c.notNull()).addColumn('update_time', 'varchar(19)', (c: any) => c.notNull());
    await time(
      idColumn(db.schema.createTable('gemini_api_group').ifNotExists(), dialect)
        .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('name', 'varchar(50)', (c) => c.notNull())
        .addColumn('sort_no', 'integer', (c) => c.notNull().defaultTo(0)),
    ).execute();

    const runnable = (t: any) =>
      t
        .addColumn('ds_name', 'varchar(100)')
        .addColumn('cacheable', 'integer', (c: any) => c.notNull().defaultTo(0))
        .addColumn('cache_time', 'integer')
        .addColumn('script', 'text')
        .addColumn('req_params', 'text')
        .addColumn('resp_params', 'text')
        .addColumn('is_public', 'integer', (c: any) => c.notNull().defaultTo(0));
    await runnable(
      idColumn(db.schema.createTable('gemini_api').ifNotExists(), dialect)
        .addColumn('group_id', 'integer', (c) => c.notNull())
        .addColumn('api_num', 'varchar(20)')
        .addColumn('api_name', 'varchar(100)', (c) => c.notNull())
        .addColumn('api_comment', 'varchar(100)', (c) => c.notNull())
        .addColumn('api_desc', 'varchar(255)')
        .addColumn('design_user', 'varchar(64)', (c) => c.notNull())
        .addColumn('design_user_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('design_time', 'varchar(19)', (c) => c.notNull())
        .addColumn('api_status', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('online_status', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('online_version', 'integer')
        .addColumn('online_seq', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('latest_api_version', 'integer')
        .addColumn('approve_result', 'varchar(255)')
        .addColumn('resp_result', 'text')
        .addColumn('query_sql', 'text')
        .addColumn('update_time', 'varchar(19)', (c) => c.notNull()),
    ).execute();
    await db.schema.createIndex('ux_gemini_api_name').ifNotExists().unique().on('gemini_api').column('api_name').execute();

    await runnable(
      idColumn(db.schema.createTable('gemini_api_version').ifNotExists(), dialect)
        .addColumn('api_id', 'integer', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('api_comment', 'varchar(100)', (c) => c.notNull())
        .addColumn('approve_user', 'varchar(64)', (c) => c.notNull())
        .addColumn('approve_result', 'varchar(255)')
        .addColumn('create_time', 'varchar(19)', (c) => c.notNull()),
    ).execute();
    await db.schema.createIndex('ux_gemini_api_version').ifNotExists().unique().on('gemini_api_version').columns(['api_id', 'version']).execute();

    await idColumn(db.schema.createTable('gemini_api_audit').ifNotExists(), dialect)
      .addColumn('api_id', 'integer', (c) => c.notNull())
      .addColumn('action', 'varchar(20)', (c) => c.notNull())
      .addColumn('version', 'integer')
      .addColumn('user_name', 'varchar(64)', (c) => c.notNull())
      .addColumn('comment', 'varchar(255)')
      .addColumn('create_time', 'varchar(19)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('ix_gemini_api_audit_api').ifNotExists().on('gemini_api_audit').column('api_id').execute();

    await idColumn(db.schema.createTable('gemini_api_key').ifNotExists(), dialect)
      .addColumn('key_name', 'varchar(50)', (c) => c.notNull())
      .addColumn('key_prefix', 'varchar(16)', (c) => c.notNull())
      .addColumn('key_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('create_user', 'varchar(64)', (c) => c.notNull())
      .addColumn('create_time', 'varchar(19)', (c) => c.notNull())
      .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_used_time', 'varchar(19)')
      .execute();
    await db.schema.createIndex('ux_gemini_api_key_hash').ifNotExists().unique().on('gemini_api_key').column('key_hash').execute();

    await idColumn(db.schema.createTable('gemini_api_call').ifNotExists(), dialect)
      .addColumn('api_id', 'integer', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('ms', 'integer', (c) => c.notNull())
      .addColumn('ok', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('ix_gemini_api_call_api_at').ifNotExists().on('gemini_api_call').columns(['api_id', 'at']).execute();
  }),
  // an approved version names the database it was approved against, not only the data source's name
  '20261126_10_api_version_ds_target': migration(async (db) => {
    await db.schema.alterTable('gemini_api_version').addColumn('ds_target', 'varchar(64)').execute();
  }),
};
