// Test helper: is a plain secret anywhere in the platform store? (SQLite file bytes, or every PostgreSQL
// schema's copy of the given tables when the test server runs on PG.)
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

export async function storeContains(server: { dataDir: string; store: 'sqlite' | 'pg' }, needle: string, tables: Array<[string, string]>): Promise<boolean> {
  if (server.store === 'sqlite') {
    for (const f of ['platform.db', 'platform.db-wal']) {
      const p = join(server.dataDir, f);
      if (existsSync(p) && readFileSync(p).includes(Buffer.from(needle))) return true;
    }
    return false;
  }
  const client = new pg.Client({ connectionString: process.env.PG_URL });
  await client.connect();
  try {
    for (const [table, column] of tables) {
      const schemas = await client.query<{ s: string }>('select table_schema as s from information_schema.columns where table_name = $1 and column_name = $2', [table, column]);
      for (const { s } of schemas.rows) {
        const r = await client.query(`select count(*)::int as n from "${s}"."${table}" where "${column}"::text like $1`, [`%${needle}%`]);
        if (r.rows[0].n > 0) return true;
      }
    }
    return false;
  } finally {
    await client.end();
  }
}

/** Does any file under dir (store, logs, key file…) contain the plain secret? */
export function dataDirContains(dir: string, needle: string): string | null {
  const walk = (d: string): string | null => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) {
        const hit = walk(p);
        if (hit) return hit;
      } else if (st.size < 64 * 1024 * 1024 && readFileSync(p).includes(Buffer.from(needle))) return p;
    }
    return null;
  };
  return existsSync(dir) ? walk(dir) : null;
}
