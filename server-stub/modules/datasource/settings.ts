import type { Secrets } from '../../core/secrets.js';
import type { SqlSettings } from '../../connectors/sql/index.js';

export const MMSG = { pickSource: '请选择数据源' };

/** Connector settings of a stored row (password decrypted only here, never returned). */
export function connectionSettings(row: any, secrets: Secrets, sqliteRoot: string): SqlSettings {
  return {
    dbType: row.db_type,
    hostName: row.host_name,
    port: row.port,
    dbName: row.db_name,
    properties: row.properties,
    username: row.username,
    password: secrets.tryDecrypt(row.pwd) ?? '',
    maxWaitTime: row.max_wait_time,
    maxActive: row.max_active,
    queryTimeout: row.query_timeout,
    sqliteRoot,
  };
}
