// The API platform's tables (spec part 2 §3 "API", "API config", "API group"), and their migrations.
//
//  gemini_api_group    the group tree (root is virtual: id 0, never stored)
//  gemini_api          one row per API: its design and its current draft configuration (what the design
//                      and config screens edit), its status, and which released version is online
//  gemini_api_version  immutable released versions (V1, V2, …): everything that runs, frozen at each pass
//  gemini_api_audit    every transition: who, when, action, comment
//  gemini_api_key      keys for calling published APIs: only a SHA-256 hash is kept
//  gemini_api_call     one row per published call (for the detail screen's 24-hour statistics)
import { declareTable, migration, type RowOf, type TableRow, timestamps } from '../../core/tables.js';

/** The group tree (parent 0: the virtual root). */
export const apiGroups = declareTable({
  name: 'gemini_api_group',
  columns: {
    id: { type: 'id' },
    parentId: { type: 'integer', notNull: true, default: 0 },
    name: { type: 'varchar(50)', notNull: true },
    sortNo: { type: 'integer', notNull: true, default: 0 },
    ...timestamps,
  },
});
export type ApiGroupTable = TableRow<typeof apiGroups>;

/** What a released version freezes (and the draft carries): everything the published API runs. */
const runnable = {
  dsName: { type: 'varchar(100)' },
  cacheable: { type: 'integer', notNull: true, default: 0 },
  cacheTime: { type: 'integer' },
  script: { type: 'text' },
  /** JSON text: the request parameter rows */
  reqParams: { type: 'text' },
  /** JSON text: the response parameter rows */
  respParams: { type: 'text' },
  isPublic: { type: 'integer', notNull: true, default: 0 },
} as const;
export type ApiRunnable = RowOf<typeof runnable>;

/** One row per API: its design and its current draft configuration, its status, the version online. */
export const apis = declareTable({
  name: 'gemini_api',
  columns: {
    id: { type: 'id' },
    groupId: { type: 'integer', notNull: true },
    apiNum: { type: 'varchar(20)' },
    apiName: { type: 'varchar(100)', notNull: true },
    apiComment: { type: 'varchar(100)', notNull: true },
    apiDesc: { type: 'varchar(255)' },
    designUser: { type: 'varchar(64)', notNull: true },
    designUserName: { type: 'varchar(64)', notNull: true },
    designTime: { type: 'time', notNull: true },
    /** API_STATUS: 0 draft, 1 waiting, 2 passed, 3 rejected */
    apiStatus: { type: 'integer', notNull: true, default: 0 },
    /** ONLINE_STATUS: 0 not online, 1 online, 2 taken offline */
    onlineStatus: { type: 'integer', notNull: true, default: 0 },
    /** the released version served while online */
    onlineVersion: { type: 'integer' },
    /** bumped at every online/offline change: part of every cache key, so old entries die everywhere */
    onlineSeq: { type: 'integer', notNull: true, default: 0 },
    /** the highest released version (null: 未定版) */
    latestApiVersion: { type: 'integer' },
    /** the last approval comment */
    approveResult: { type: 'varchar(255)' },
    /** the last test's answer and SQL (the config screen's read-only tabs) */
    respResult: { type: 'text' },
    querySql: { type: 'text' },
    updateTime: { type: 'time', notNull: true },
    ...runnable,
  },
  indexes: [{ name: 'ux_gemini_api_name', columns: ['apiName'], unique: true }],
});
/** Paging and caps (issue 25 §4, migration 20261201_20_api_paging): carried by the draft and frozen in a version. */
export interface ApiPaging {
  /** 1: a list API answering { records, total } for pageNum / pageSize */
  pageable?: number | null;
  /** the largest pageSize a caller may ask for (null: PAGE_SIZE_MAX_DEFAULT) */
  page_size_max?: number | null;
  /** the most rows one call answers (null: API_MAX_ROWS) */
  max_rows?: number | null;
}
export type ApiTable = TableRow<typeof apis> & ApiPaging;

/** Immutable released versions (V1, V2, …): everything that runs, frozen at each pass. */
export const apiVersions = declareTable({
  name: 'gemini_api_version',
  columns: {
    id: { type: 'id' },
    apiId: { type: 'integer', notNull: true },
    version: { type: 'integer', notNull: true },
    apiComment: { type: 'varchar(100)', notNull: true },
    approveUser: { type: 'varchar(64)', notNull: true },
    approveResult: { type: 'varchar(255)' },
    createTime: { type: 'time', notNull: true },
    ...runnable,
  },
  indexes: [{ name: 'ux_gemini_api_version', columns: ['apiId', 'version'], unique: true }],
});
/** A released version as declared, with the column 20261126_10_api_version_ds_target added. */
export interface ApiVersionTable extends TableRow<typeof apiVersions>, ApiPaging {
  /**
   * Which database the approver approved: a hash of the data source's id, type, host, port, database,
   * account and parameters (not its password) when the version passed. Null for versions older than it.
   */
  ds_target?: string | null;
}

/** Every transition: who, when, action, comment. */
export const apiAudits = declareTable({
  name: 'gemini_api_audit',
  columns: {
    id: { type: 'id' },
    apiId: { type: 'integer', notNull: true },
    action: { type: 'varchar(20)', notNull: true },
    version: { type: 'integer' },
    userName: { type: 'varchar(64)', notNull: true },
    comment: { type: 'varchar(255)' },
    createTime: { type: 'time', notNull: true },
  },
  indexes: [{ name: 'ix_gemini_api_audit_api', columns: ['apiId'] }],
});
/** An audit entry as declared, with the columns audit.ts's migrations (20261127_10_api_audit_request_id, 20261202_10_api_audit_plan) added. */
export interface ApiAuditTable extends TableRow<typeof apiAudits> {
  /** the call's X-Request-Id (null for entries written before it was kept) */
  request_id: string | null;
  /** audit.ts 20261202_10_api_audit_plan: the approver's reason for passing a plan above the cost threshold */
  cost_reason: string | null;
  /** … and the plan's estimate (rows returned or read by a full scan, plan.ts guardRows) */
  plan_rows: number | string | null;
}

/** Keys for calling published APIs: only a SHA-256 hash is kept. */
export const apiKeys = declareTable({
  name: 'gemini_api_key',
  columns: {
    id: { type: 'id' },
    keyName: { type: 'varchar(50)', notNull: true },
    /** the first characters, shown in the list so a key can be recognised */
    keyPrefix: { type: 'varchar(16)', notNull: true },
    keyHash: { type: 'varchar(64)', notNull: true },
    createUser: { type: 'varchar(64)', notNull: true },
    createTime: { type: 'time', notNull: true },
    revoked: { type: 'integer', notNull: true, default: 0 },
    lastUsedTime: { type: 'time' },
  },
  indexes: [{ name: 'ux_gemini_api_key_hash', columns: ['keyHash'], unique: true }],
});
export type ApiKeyTable = TableRow<typeof apiKeys>;

/** One row per published call (for the detail screen's 24-hour statistics). */
export const apiCalls = declareTable({
  name: 'gemini_api_call',
  columns: {
    id: { type: 'id' },
    apiId: { type: 'integer', notNull: true },
    /** epoch ms */
    at: { type: 'bigint', notNull: true },
    ms: { type: 'integer', notNull: true },
    ok: { type: 'integer', notNull: true },
  },
  indexes: [{ name: 'ix_gemini_api_call_api_at', columns: ['apiId', 'at'] }],
});
export type ApiCallTable = TableRow<typeof apiCalls>;

declare module '../../store/schema.js' {
  interface Database {
    gemini_api_group: TableRow<typeof apiGroups>;
    gemini_api: ApiTable;
    gemini_api_version: ApiVersionTable;
    gemini_api_audit: ApiAuditTable;
    gemini_api_key: TableRow<typeof apiKeys>;
    gemini_api_call: TableRow<typeof apiCalls>;
  }
}

export const apiMigrations = {
  // the six tables in the one migration they always had
  '20261123_20_api_platform': migration(async (db, dialect) => {
    for (const table of [apiGroups, apis, apiVersions, apiAudits, apiKeys, apiCalls]) await table.create(db, dialect);
  }),
  // an approved version names the database it was approved against, not only the data source's name
  '20261126_10_api_version_ds_target': migration(async (db) => {
    await db.schema.alterTable('gemini_api_version').addColumn('ds_target', 'varchar(64)').execute();
  }),
  // issue 25 §4: paging and the row cap, on the draft and on every version
  '20261201_20_api_paging': migration(async (db) => {
    for (const table of ['gemini_api', 'gemini_api_version']) {
      await db.schema.alterTable(table).addColumn('pageable', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable(table).addColumn('page_size_max', 'integer').execute();
      await db.schema.alterTable(table).addColumn('max_rows', 'integer').execute();
    }
  }),
};
