import { createHash } from 'node:crypto';
import type { SecretBinding, Secrets } from '../../core/secrets.js';
import type { SqlSettings } from '../../connectors/sql/index.js';

export const MMSG = { pickSource: '请选择数据源' };

/** The table of data sources and models (both kinds share it; ids are unique across both). */
export const DATASOURCE_TABLE = 'gemini_datasource';

/**
 * What a data-source password is bound to (core/secrets): this table, the record (null: not saved yet) and
 * the target the password is sent to (host, port, account).
 */
export function datasourceBinding(row: { id?: number | string | null; host_name?: string | null; port?: number | string | null; username?: string | null }): SecretBinding {
  return { table: DATASOURCE_TABLE, id: row.id ?? null, host: row.host_name, port: row.port, account: row.username };
}

/** Connector settings of a stored row (password decrypted only here, for this row's own target, never returned). */
export function connectionSettings(row: any, secrets: Secrets, sqliteRoot: string): SqlSettings {
  return {
    dbType: row.db_type,
    hostName: row.host_name,
    port: row.port,
    dbName: row.db_name,
    properties: row.properties,
    username: row.username,
    password: secrets.openStored(row.pwd, datasourceBinding(row)) ?? '',
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
