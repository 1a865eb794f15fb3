// Test helper: is a plain secret anywhere in the platform store? (SQLite file bytes, or every PostgreSQL
// schema's copy of the given tables when the test server runs on PG.)
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { sql, type Kysely } from 'kysely';

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

/**
 * A dump of the platform store as an attacker with a copy of it would have it: every row of every table of this
 * server's store (select * from each, as JSON), plus, on SQLite, the raw bytes of platform.db and its WAL.
 */
export async function dumpStore(server: { dataDir: string; store: 'sqlite' | 'pg'; app: { ctx: { db: Kysely<any> } } }): Promise<Buffer> {
  const db = server.app.ctx.db;
  let schema: string | undefined;
  if (server.store === 'pg') schema = (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0].s;
  const tables = (await db.introspection.getTables()).filter((t) => server.store !== 'pg' || t.schema === schema);
  const parts: Buffer[] = [];
  for (const t of tables) {
    const rows = await db.selectFrom(t.name).selectAll().execute();
    parts.push(Buffer.from(`${t.name}\n${JSON.stringify(rows)}\n`, 'utf8'));
  }
  if (server.store === 'sqlite') for (const f of ['platform.db', 'platform.db-wal']) if (existsSync(join(server.dataDir, f))) parts.push(readFileSync(join(server.dataDir, f)));
  return Buffer.concat(parts);
}

type Call<R> = (method: 'GET' | 'POST', path: string, body?: unknown, token?: string | null) => Promise<R>;

/** `request` that keeps every answer's body (as JSON text) in `bodies`, for a later check that no answer carried a secret. */
export function recordingAnswers<R extends { body: unknown }>(request: Call<R>): { call: Call<R>; bodies: string[] } {
  const bodies: string[] = [];
  const call: Call<R> = async (method, path, body, token) => {
    const r = await request(method, path, body, token);
    bodies.push(JSON.stringify(r.body));
    return r;
  };
  return { call, bodies };
}
