// An API's script as the data source's dialect reads it (issue 40): checked at save, at submit, before a plan and
// before every run, so what an approver approved is one statement with nothing the plan cannot size.
import { BizError } from '../../core/envelope.js';
import type { DatasourceTable } from '../../core/datasources.js';
import { checkApiScript, SqlConnectorError, type DbType } from '../../connectors/sql/index.js';

const checkedScripts = new Map<string, string | null>();

/**
 * The script read with the data source's dialect (connectors/sql/script-check.ts): one statement, no function that
 * runs other queries or reads files. A refusal is a BizError naming why. The verdicts of the last 500 texts are
 * kept, so a published call pays for the reading once.
 */
export function assertApiScript(ds: Pick<DatasourceTable, 'db_type'>, script: string): void {
  const dialect = String(ds.db_type).toLowerCase() as DbType;
  const key = `${dialect}\u0000${script}`;
  let verdict = checkedScripts.get(key);
  if (verdict === undefined) {
    try {
      checkApiScript(script, dialect);
      verdict = null;
    } catch (err) {
      if (!(err instanceof SqlConnectorError)) throw err;
      verdict = err.message;
    }
    if (checkedScripts.size >= 500) checkedScripts.delete(checkedScripts.keys().next().value!);
    checkedScripts.set(key, verdict);
  }
  if (verdict !== null) throw new BizError(verdict);
}
