// The tables the API platform, the designers and the low-code pages declare with core/tables.ts declareTable
// have the very schema their hand-written migrations gave them (issue 26 item 1): a store migrated before the
// move must not differ from a fresh one. A fresh store of each kind is migrated and its columns (name, type,
// not null, default, key) and indexes (name, unique, columns) compared with what the hand-written migrations
// made, recorded from them (commit fe95705) in declared-schema.expected.json.
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { startTestServer, testStores, type TestServer } from '../testing/server.js';

const EXPECTED = JSON.parse(readFileSync(new URL('./declared-schema.expected.json', import.meta.url), 'utf8')) as Record<'sqlite' | 'pg', Record<string, string[]>>;
const TABLES = Object.keys(EXPECTED.sqlite);

/** One line a column, then one line an index (its name, unique, the columns it covers). */
async function shape(s: TestServer, table: string): Promise<string[]> {
  const db = s.app.ctx.db;
  const out: string[] = [];
  if (s.store === 'sqlite') {
    const cols = await sql<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>`select * from pragma_table_info(${table})`.execute(db);
    for (const c of cols.rows) out.push(`${c.name} ${c.type}${c.notnull ? ' not null' : ''}${c.dflt_value !== null ? ` default ${c.dflt_value}` : ''}${c.pk ? ` pk${c.pk}` : ''}`);
    const ixs = await sql<{ name: string; unique: number; origin: string }>`select * from pragma_index_list(${table}) order by name`.execute(db);
    for (const ix of ixs.rows) {
      const on = await sql<{ name: string }>`select name from pragma_index_info(${ix.name}) order by seqno`.execute(db);
      out.push(`index ${ix.name}${ix.unique ? ' unique' : ''} ${ix.origin} (${on.rows.map((r) => r.name).join(', ')})`);
    }
    return out;
  }
  const cols = await sql<{ column_name: string; data_type: string; character_maximum_length: number | null; is_nullable: string; column_default: string | null }>`
    select column_name, data_type, character_maximum_length, is_nullable, column_default from information_schema.columns
    where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.execute(db);
  for (const c of cols.rows) {
    const length = c.character_maximum_length ? `(${c.character_maximum_length})` : '';
    out.push(`${c.column_name} ${c.data_type}${length}${c.is_nullable === 'NO' ? ' not null' : ''}${c.column_default !== null ? ` default ${c.column_default.replace(/_seq\d*/, '_seq')}` : ''}`);
  }
  const ixs = await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename = ${table} order by indexname`.execute(db);
  for (const ix of ixs.rows) out.push(`index ${ix.indexname} ${ix.indexdef.replace(/^.* USING /, '')}${/UNIQUE/.test(ix.indexdef) ? ' unique' : ''}`);
  return out;
}

describe.each(testStores)('declared tables keep the hand-written schema (%s store)', (store) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ store });
  });
  afterAll(() => s?.close());

  it('columns and indexes as the hand-written migrations made them', async () => {
    const got: Record<string, string[]> = {};
    for (const t of TABLES) got[t] = await shape(s, t);
    expect(got).toEqual(EXPECTED[store]);
  });
});
