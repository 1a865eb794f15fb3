// What an API script (and every SQL that is planned for approval) may be, read with the dialect's lexer
// (tokens.ts), never with a regular expression over the text (issue 40):
//  1. exactly one statement: what was planned and approved is what runs (the drivers refuse a second statement
//     too: PostgreSQL always through the extended protocol, MySQL without multipleStatements, SQLite's prepare);
//  2. none of the functions that run other queries, reach other servers or read and write the server's files, or
//     that hold the connection: their cost is not the plan's (query_to_xml('select * from big') plans at 1 row),
//     and some are evaluated by the planner itself.
import { SqlConnectorError } from './types.js';
import type { DbType } from './types.js';
import { calledFunctions, statementsOf, tokenize } from './tokens.js';

export const SCRIPT_MSG = {
  empty: 'SQL 不能为空',
  several: (n: number) => `接口 SQL 只能是一条语句（发现 ${n} 条）：请去掉分号后的语句`,
  forbidden: (name: string, at: number, why: string) => `SQL 第 ${at + 1} 个字符处调用了函数 ${name}：${why}，接口中不允许使用`,
} as const;

const RUNS_QUERIES = '它在数据库内执行另一条查询或读取整张表，执行计划估计不到其代价';
const READS_FILES = '它读写数据库服务器上的文件或调用外部程序';
const REACHES_OUT = '它连接其他数据库';
const HOLDS = '它占用连接或改变会话与服务器状态';

/** Functions refused in API scripts, lower-case, with the reason (the union of the dialects: a name means one thing). */
export const FORBIDDEN_FUNCTIONS: Readonly<Record<string, string>> = Object.freeze({
  // PostgreSQL: query / table / cursor / schema / database → XML run or read whole relations
  ...Object.fromEntries(
    ['query', 'table', 'cursor', 'schema', 'database'].flatMap((k) => [`${k}_to_xml`, `${k}_to_xmlschema`, `${k}_to_xml_and_xmlschema`].map((f) => [f, RUNS_QUERIES])),
  ),
  ts_stat: RUNS_QUERIES,
  ts_rewrite: RUNS_QUERIES,
  xpath_table: RUNS_QUERIES,
  crosstab: RUNS_QUERIES,
  crosstab2: RUNS_QUERIES,
  crosstab3: RUNS_QUERIES,
  crosstab4: RUNS_QUERIES,
  connectby: RUNS_QUERIES,
  ...Object.fromEntries(
    ['dblink', 'dblink_exec', 'dblink_open', 'dblink_fetch', 'dblink_send_query', 'dblink_get_result', 'dblink_connect', 'dblink_connect_u', 'postgres_fdw_handler'].map((f) => [f, REACHES_OUT]),
  ),
  ...Object.fromEntries(
    [
      'pg_read_file',
      'pg_read_binary_file',
      'pg_ls_dir',
      'pg_stat_file',
      'pg_ls_logdir',
      'pg_ls_waldir',
      'pg_ls_tmpdir',
      'pg_ls_archive_statusdir',
      'pg_file_write',
      'pg_file_rename',
      'pg_file_unlink',
      'pg_logdir_ls',
      'lo_import',
      'lo_export',
      'lo_get',
      'lo_put',
      'lo_open',
      'loread',
      'lowrite',
      'lo_from_bytea',
      'lo_create',
      'lo_creat',
      'lo_unlink',
      // MySQL / MariaDB: files and user-defined programs
      'load_file',
      'sys_exec',
      'sys_eval',
      'sys_get',
      'sys_set',
      // SQLite: files and extensions
      'load_extension',
      'readfile',
      'writefile',
      'edit',
      'fts3_tokenizer',
    ].map((f) => [f, READS_FILES]),
  ),
  ...Object.fromEntries(
    [
      'pg_sleep',
      'pg_sleep_for',
      'pg_sleep_until',
      'set_config',
      'pg_terminate_backend',
      'pg_cancel_backend',
      'pg_reload_conf',
      'pg_rotate_logfile',
      'pg_promote',
      'pg_advisory_lock',
      'pg_advisory_xact_lock',
      'pg_advisory_lock_shared',
      'sleep',
      'benchmark',
      'get_lock',
      'release_lock',
      'release_all_locks',
      'master_pos_wait',
      'source_pos_wait',
      'master_gtid_wait',
    ].map((f) => [f, HOLDS]),
  ),
});

/**
 * Checks an API script for the dialect: one statement, no refused function. Throws SqlConnectorError('REFUSED')
 * with a Chinese reason naming the position.
 */
export function checkApiScript(sql: string, dialect: DbType): void {
  const tokens = tokenize(sql, dialect);
  const statements = statementsOf(tokens);
  if (statements.length === 0) throw new SqlConnectorError(SCRIPT_MSG.empty, 'REFUSED');
  if (statements.length > 1) throw new SqlConnectorError(SCRIPT_MSG.several(statements.length), 'REFUSED');
  for (const f of calledFunctions(tokens)) {
    const why = FORBIDDEN_FUNCTIONS[f.name];
    if (why) throw new SqlConnectorError(SCRIPT_MSG.forbidden(f.name, f.at, why), 'REFUSED');
  }
}
