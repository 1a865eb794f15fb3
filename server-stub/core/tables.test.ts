// The declared-table service on a real store (SQLite, and PostgreSQL with PG_URL): one declaration gives the
// migration, the camelCase ↔ snake_case mapping, list / get / save / delete scoped and searched as declared,
// the duplicate message, and secrets sealed in the store and scrubbed from answers. The row type is checked by tsc.
import { sql, type Kysely, type Selectable } from 'kysely';
import { Secrets } from './secrets.js';
import { declareTable, snake, type TableRow, timestamps } from './tables.js';
import { startTestServer, testStores, type TestServer } from '../testing/server.js';

const things = declareTable({
  name: 't_declared_thing',
  migration: '29990101_00_declared_thing',
  columns: {
    id: { type: 'id' },
    kind: { type: 'varchar(10)', notNull: true },
    thingName: { type: 'varchar(20)', notNull: true },
    hostName: { type: 'varchar(50)' },
    maxCount: { type: 'integer', notNull: true, default: 7 },
    pwd: { type: 'text' },
    ...timestamps,
  },
  indexes: [{ name: 'ux_t_declared_thing', columns: ['kind', 'thingName'], unique: true }],
  duplicate: (rec, kind) => `${kind}【${rec.thingName}】已存在`,
  scope: 'kind',
  secrets: { pwd: (row) => ({ table: 't_declared_thing', id: row.id ?? null, host: row.host_name, port: null, account: null }) },
  aliases: { otherName: 'thingName' },
});

// the row type is derived from the declaration: snake_case names, nullability, defaults optional on insert
type Row = TableRow<typeof things>;
const typed = (db: Kysely<{ t_declared_thing: Row }>) => {
  void db.insertInto('t_declared_thing').values({ kind: 'a', thing_name: 'x', create_time: '', update_time: '' });
  // @ts-expect-error thing_name is a string
  void db.insertInto('t_declared_thing').values({ kind: 'a', thing_name: 1, create_time: '', update_time: '' });
  // @ts-expect-error thing_name is not null
  void db.insertInto('t_declared_thing').values({ kind: 'a', create_time: '', update_time: '' });
  // @ts-expect-error no camelCase column
  void db.selectFrom('t_declared_thing').select('thingName');
  const r = {} as Selectable<Row>;
  const n: number = r.max_count;
  const h: string | null = r.host_name;
  // @ts-expect-error host_name may be null
  const h2: string = r.host_name;
  return [n, h, h2];
};
void typed;

const page = {
  search: { fields: ['thingName', 'otherName'] },
  columns: [{ field: 'thingName', sortable: true }, { field: 'maxCount' }],
};

describe.each(testStores)('declared tables (%s store)', (store) => {
  let s: TestServer;
  let secrets: Secrets;
  beforeAll(async () => {
    s = await startTestServer({ store });
    await things.migrations['29990101_00_declared_thing'].up(s.app.ctx.db);
    secrets = new Secrets({ dataDir: s.dataDir });
  });
  afterAll(() => s?.close());

  it('maps camelCase fields to snake_case columns', () => {
    expect(snake('maxWaitTime')).toBe('max_wait_time');
    expect(things.fields).toEqual({ thingName: 'thing_name', otherName: 'thing_name', hostName: 'host_name', maxCount: 'max_count', pwd: 'pwd', createTime: 'create_time', updateTime: 'update_time' });
  });

  it('saves, lists (declared search and sort only, within the scope), gets and deletes', async () => {
    const a = things.on(s.app.ctx.db, { page, scope: 'a', secrets, filters: ['maxCount'] });
    const b = things.on(s.app.ctx.db, { page, scope: 'b', secrets });
    for (const name of ['Beta', 'alpha', 'Gamma%']) await a.save(undefined, { thingName: name, hostName: 'h1' });
    await b.save(undefined, { thingName: 'alpha' });
    const all = await a.list({ orderByColumn: 'thingName', isAsc: 'asc' });
    expect(all.total).toBe(3);
    expect(all.records.map((r) => r.thingName)).toEqual(['Beta', 'Gamma%', 'alpha'].sort());
    expect(all.records[0]).toMatchObject({ otherName: all.records[0].thingName, maxCount: 7, pwd: '' });
    expect(all.records[0]).not.toHaveProperty('kind');
    // an undeclared sort column is ignored (newest first), a wildcard is searched as a character
    expect((await a.list({ orderByColumn: 'hostName', isAsc: 'asc' })).records[0].thingName).toBe('Gamma%');
    expect((await a.list({ search: '%' })).records.map((r) => r.thingName)).toEqual(['Gamma%']);
    expect((await a.list({ search: 'ALP' })).total).toBe(1);
    expect((await a.list({ maxCount: [7, 8] })).total).toBe(3);
    expect((await a.list({ maxCount: 8 })).total).toBe(0);
    await expect(a.save(undefined, { thingName: 'alpha' })).rejects.toThrow('a【alpha】已存在');
    const stored = (await a.findBy('thingName', 'alpha'))!;
    expect(await b.get(stored.id)).toBeUndefined();
    const id = await a.save(stored, { thingName: 'alpha2', maxCount: 9 });
    expect(id).toBe(stored.id);
    expect(await a.get(id)).toMatchObject({ thing_name: 'alpha2', max_count: 9, kind: 'a', create_time: stored.create_time });
    expect(await b.remove(id)).toBe(false);
    expect(await a.remove(id)).toBe(true);
    expect(await a.get(id)).toBeUndefined();
  });

  it('seals secrets for the record, answers them scrubbed, and keeps them when the mask comes back', async () => {
    const a = things.on(s.app.ctx.db, { page, scope: 'c', secrets });
    const id = await a.save(undefined, { thingName: 'sec', hostName: 'db1', pwd: 'Plain#1' });
    const raw = await sql<{ pwd: string }>`select pwd from t_declared_thing where id = ${id}`.execute(s.app.ctx.db);
    expect(raw.rows[0].pwd).toMatch(/^enc:v2:/);
    const binding = { table: 't_declared_thing', id, host: 'db1', port: null, account: null };
    expect(secrets.openStored(raw.rows[0].pwd, binding)).toBe('Plain#1');
    expect((await a.list({ search: 'sec' })).records[0].pwd).toBe('******');
    expect(things.answer((await a.get(id))!).pwd).toBe('******');
    await a.save((await a.get(id))!, { thingName: 'sec', pwd: '******' });
    expect(secrets.openStored((await a.get(id))!.pwd, binding)).toBe('Plain#1');
    // another target without the password typed again is refused, and the save undone
    await expect(a.save((await a.get(id))!, { thingName: 'sec', hostName: 'db2', pwd: '******' })).rejects.toThrow(/密码/);
    expect((await a.get(id))!.host_name).toBe('db1');
  });
});
