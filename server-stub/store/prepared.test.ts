// Issue 36 §2: the store's statements are prepared once and reused — on SQLite one better-sqlite3 statement per SQL
// text, on PostgreSQL a named prepared statement per SQL text and connection (statements with parameters; the others,
// such as migrations holding several statements, go as they are).
import { sql } from 'kysely';
import { startTestServer, testStores, type TestServer } from '../testing/server.js';
import { statementName } from './db.js';

describe.each(testStores)('prepared statements (%s store)', (store) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ store });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('answers as before, and on PostgreSQL keeps a parameterised statement prepared under its name', async () => {
    const db = s.app.ctx.db;
    const q = (trx: typeof db) => trx.selectFrom('sys_user').select(['username']).where('username', '=', 'admin');
    expect((await q(db).executeTakeFirst())?.username).toBe('admin');
    if (store !== 'pg') return;
    const name = statementName(q(db).compile().sql);
    // one connection for the whole transaction: the statement run twice, then found among the session's prepared ones
    await db.transaction().execute(async (trx) => {
      expect((await q(trx).executeTakeFirst())?.username).toBe('admin');
      expect((await q(trx).executeTakeFirst())?.username).toBe('admin');
      const held = await sql<{ n: string }>`select count(*) as n from pg_prepared_statements where name = ${name}`.execute(trx);
      expect(Number(held.rows[0].n)).toBe(1);
    });
    // a statement without parameters is not prepared (migrations may hold several statements)
    await db.transaction().execute(async (trx) => {
      await sql`select 1 as one`.execute(trx);
      const held = await sql<{ n: string }>`select count(*) as n from pg_prepared_statements where name = ${statementName('select 1 as one')}`.execute(trx);
      expect(Number(held.rows[0].n)).toBe(0);
    });
  });
});
