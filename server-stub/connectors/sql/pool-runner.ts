// The process one data source's pool lives in (started by pool-process.ts). User SQL never runs in the
// server's own process: a statement SQLite cannot interrupt, a value too large for the driver to parse, a
// result that exhausts memory all end this process at worst, and the server starts a new one on the next
// query. Messages: { kind: 'init', settings } once, then { kind: 'query', id, sql, params }, { kind: 'explain', id, sql, params, opts } or { kind: 'transaction', id, statements } → { id, ok, … }.
import { createDirectPool } from './drivers.js';
import type { SqlPlanOptions, SqlPool, SqlSettings } from './types.js';

type Message =
  | { kind: 'init'; settings: SqlSettings }
  | { kind: 'query'; id: number; sql: string; params: unknown[] }
  | { kind: 'explain'; id: number; sql: string; params: unknown[]; opts: SqlPlanOptions }
  | { kind: 'transaction'; id: number; statements: Array<{ sql: string; params: unknown[] }> };

let pool: SqlPool | null = null;
let broken: unknown = null;

process.on('message', (m: Message) => {
  if (m.kind === 'init') {
    try {
      pool = createDirectPool(m.settings);
    } catch (err) {
      broken = err; // told to every query
    }
    return;
  }
  if (m.kind !== 'query' && m.kind !== 'explain' && m.kind !== 'transaction') return;
  const answer = (a: object) => {
    if (process.connected) process.send!({ id: m.id, ...a });
  };
  Promise.resolve()
    .then((): Promise<unknown> => {
      if (!pool) throw broken ?? new Error('数据源未初始化');
      if (m.kind === 'transaction') return pool.transaction(m.statements);
      return m.kind === 'explain' ? pool.explain(m.sql, m.params, m.opts) : pool.query(m.sql, m.params);
    })
    .then(
      (result) => answer({ ok: true, result }),
      (err) => {
        const e = err as { message?: unknown; code?: unknown; name?: unknown; statement?: unknown };
        answer({ ok: false, message: String(e?.message ?? err), code: typeof e?.code === 'string' ? e.code : undefined, name: typeof e?.name === 'string' ? e.name : undefined, statement: typeof e?.statement === 'number' ? e.statement : undefined });
      },
    );
});

// the server went away: so does its data source's process
process.on('disconnect', () => process.exit(0));
