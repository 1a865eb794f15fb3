// The data-source table (spec §3 "Data source / model": data sources and models are one entity, one table told
// apart by `kind`), declared at the platform level because the `sql` service reads it for every module that runs
// SQL on a data source (app.sql.source / app.sql.run, core/platform.ts). The datasource module owns its routes
// and brings its migration (modules/datasource); no other module reads the table itself.
import { createHash } from 'node:crypto';
import { targetSecret, type SecretBinding, type Secrets } from './secrets.js';
import { declareTable, type StoredRow, type TableRow, timestamps } from './tables.js';
import type { SqlSettings } from '../connectors/sql/index.js';

/** The table of data sources and models (both kinds share it; ids are unique across both). */
export const DATASOURCE_TABLE = 'gemini_datasource';

/** The two lists of the one table. */
export type ConnectionKind = 'datasource' | 'model';

const NOUN: Record<string, string> = { datasource: '数据源', model: '模型' };

/** Data sources and models: one table, told apart by kind; modelName is another name of dsName. */
export const datasources = declareTable({
  name: DATASOURCE_TABLE,
  migration: '20261122_10_datasource',
  columns: {
    id: { type: 'id' },
    kind: { type: 'varchar(20)', notNull: true, default: 'datasource' },
    dsName: { type: 'varchar(100)', notNull: true },
    dbType: { type: 'varchar(20)', notNull: true },
    hostName: { type: 'varchar(255)' },
    port: { type: 'integer' },
    dbName: { type: 'varchar(255)' },
    properties: { type: 'varchar(500)' },
    username: { type: 'varchar(100)' },
    pwd: { type: 'text' },
    maxWaitTime: { type: 'integer', notNull: true, default: 120 },
    maxActive: { type: 'integer', notNull: true, default: 20 },
    queryTimeout: { type: 'integer', notNull: true, default: 300 },
    status: { type: 'integer', notNull: true, default: 1 },
    ...timestamps,
  },
  indexes: [{ name: 'ux_gemini_datasource_name', columns: ['kind', 'dsName'], unique: true }],
  duplicate: (rec, kind) => `${NOUN[String(kind)]}名称【${rec.dsName}】已存在`,
  scope: 'kind',
  secrets: { pwd: (row) => datasourceBinding(row) },
  aliases: { modelName: 'dsName' },
});
declare module '../store/schema.js' {
  interface Database {
    gemini_datasource: TableRow<typeof datasources>;
  }
}
/** A data source / model as read from the store. */
export type DatasourceTable = StoredRow<typeof datasources>;

/**
 * What a data-source password is bound to (core/secrets): this table, the record (null: not saved yet) and
 * the target the password is sent to (host, port, account).
 */
export function datasourceBinding(row: { id?: number | string | null; host_name?: string | null; port?: number | string | null; username?: string | null }): SecretBinding {
  return datasourceSecret.binding(row);
}

/** The password of a data source / model (core/secrets targetSecret, as FTP and ETL servers have theirs). */
export const datasourceSecret = targetSecret({ table: DATASOURCE_TABLE, host: 'host_name', password: 'pwd', hostParam: { name: 'hostName', maxLength: 255, title: '地址' } });

/** Connector settings of a stored row (password decrypted only here, for this row's own target, never returned). */
export function connectionSettings(row: any, secrets: Secrets, sqliteRoot: string): SqlSettings {
  return {
    dbType: row.db_type,
    hostName: row.host_name,
    port: row.port,
    dbName: row.db_name,
    properties: row.properties,
    username: row.username,
    password: datasourceSecret.openStored(secrets, row),
    maxWaitTime: row.max_wait_time,
    maxActive: row.max_active,
    queryTimeout: row.query_timeout,
    sqliteRoot,
  };
}

/**
 * Which database a data source reaches, as a hash: its id (a deleted and re-created name is another source),
 * type, host, port, database, account and parameters — not its password, which may be rotated. What an
 * approved API version remembers, so that its SQL never runs where the approver did not look.
 */
export function datasourceTarget(row: { id: unknown; db_type: string; host_name: string | null; port: number | null; db_name: string | null; username: string | null; properties: string | null }): string {
  const identity = [Number(row.id), row.db_type.toLowerCase(), (row.host_name ?? '').trim().toLowerCase(), row.port ?? null, row.db_name ?? '', row.username ?? '', row.properties ?? ''];
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex');
}
