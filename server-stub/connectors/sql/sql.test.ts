// SQL connectors against real servers: SQLite always; PostgreSQL when PG_URL is set; MariaDB/MySQL when MYSQL_URL is set.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { PoolRegistry, bindNamed, execute, testConnection, SqlConnectorError, MAX_ROWS } from './index.js';
import { liveProcesses, MAX_PROCESSES } from './pool-process.js';
import type { SqlSettings } from './index.js';
import { startSilentHost } from '../testing/servers.js';

const PG_URL = process.env.PG_URL;
const MYSQL_URL = process.env.MYSQL_URL;
if (!PG_URL) console.log('[skip] PostgreSQL connector tests: PG_URL is not set');
if (!MYSQL_URL) console.log('[skip] MariaDB connector tests: MYSQL_URL is not set');

const suffix = `${process.pid}_${Date.now() % 100000}`;

/**
 * A pool of maxActive 2 (s): the 3rd of three 1-second queries waits for a connection (two rounds, at most two
 * connections); with one connection and a 0.5 s wait, a waiter behind a 1.5 s query is refused (WAIT_TIMEOUT).
 */
async function poolLimits(s: SqlSettings, key: string, sleep: (seconds: number) => string, connectionId: string): Promise<void> {
  const reg = new PoolRegistry();
  const t0 = Date.now();
  const runs = await Promise.all([0, 1, 2].map(() => reg.execute(`${key}1`, s, `select ${sleep(1)} as x, ${connectionId} as conn`)));
  expect(Date.now() - t0).toBeGreaterThanOrEqual(1900); // two rounds of 1 s
  expect(new Set(runs.map((r) => r.rows[0].conn)).size).toBeLessThanOrEqual(2);
  const tight = { ...s, maxActive: 1, maxWaitTime: 0.5 };
  const results = await Promise.allSettled([reg.execute(`${key}2`, tight, `select ${sleep(1.5)}`), reg.execute(`${key}2`, tight, 'select 1')]);
  expect(results[0].status).toBe('fulfilled');
  expect(results[1].status).toBe('rejected');
  expect(((results[1] as PromiseRejectedResult).reason as SqlConnectorError).code).toBe('WAIT_TIMEOUT');
  await reg.closeAll();
}

describe('named parameters are bound, never spliced', () => {
  it('converts :name and #{name} outside literals, comments and casts', () => {
    const sql = "select :a, #{b}, ':notme', \"x:y\", $1::int -- :c\n /* :d */ where x = :a";
    const pgOut = bindNamed(sql, { a: 1, b: 'x' }, 'postgresql');
    expect(pgOut.sql).toBe("select $1, $2, ':notme', \"x:y\", $1::int -- :c\n /* :d */ where x = $1");
    expect(pgOut.values).toEqual([1, 'x']);
    const my = bindNamed('select :a, #{b}, :a', { a: 1, b: "x' or 1=1" }, 'mysql');
    expect(my.sql).toBe('select ?, ?, ?');
    expect(my.values).toEqual([1, "x' or 1=1", 1]);
  });
  it('passes arrays through and refuses a missing name', () => {
    expect(bindNamed('select ?', [1], 'sqlite')).toEqual({ sql: 'select ?', values: [1] });
    expect(() => bindNamed('select :zz', {}, 'sqlite')).toThrow(SqlConnectorError);
  });
});

describe('SQLite connector', () => {
  const root = mkdtempSync(join(tmpdir(), 'sqlite-ds-'));
  const db = new Database(join(root, 'demo.db'));
  db.exec("create table t (id integer primary key, name text); insert into t(name) values ('a'), ('b')");
  db.close();
  const s: SqlSettings = { dbType: 'sqlite', dbName: 'demo.db', sqliteRoot: root, maxWaitTime: 2 };

  it('tests true for an existing file, false for a missing one or a path outside the root', async () => {
    expect(await testConnection(s)).toBe(true);
    expect(await testConnection({ ...s, dbName: 'missing.db' })).toBe(false);
    let reason = '';
    expect(await testConnection({ ...s, dbName: '../demo.db' }, { onError: (m) => (reason = m) })).toBe(false);
    expect(reason).toContain('数据目录');
    expect(await testConnection({ ...s, dbName: '/etc/passwd' })).toBe(false);
  });

  it('executes with bound parameters (an injection attempt stays a value)', async () => {
    const reg = new PoolRegistry();
    const r = await reg.execute(1, s, 'select id, name from t where name = :n', { n: 'a' });
    expect(r.rows).toEqual([{ id: 1, name: 'a' }]);
    expect(r.columns).toEqual(['id', 'name']);
    const inj = await reg.execute(1, s, 'select * from t where name = ?', ["a' or '1'='1"]);
    expect(inj.rows).toEqual([]);
    // SQLite data sources only read (see sqlite-guard.test.ts for every way out that is refused)
    await expect(reg.execute(1, s, 'update t set name = ? where id = ?', ['c', 2])).rejects.toThrow(SqlConnectorError);
    await reg.closeAll();
    expect((await execute(s, 'select count(*) as n from t where name = ?', ['b'])).rows[0]).toEqual({ n: 1 });
  });

  // A result of 6,000 one-megabyte values used to be read whole into the server's heap (the process ended),
  // and a statement that never ends used to block every request: SQLite now runs in a worker thread.
  it('cuts a huge result by size and row count, and the server lives on', async () => {
    const reg = new PoolRegistry();
    const huge = await reg.execute(1, s, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 6000) SELECT x, printf('%.*c', 1000000, 'x') AS v FROM c");
    expect(huge.truncated).toBe(true);
    expect(huge.rows.length).toBeGreaterThan(0);
    expect(huge.rows.length).toBeLessThan(40); // 32 MB of 2 MB rows
    const many = await reg.execute(1, s, `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT ${MAX_ROWS + 1000}) SELECT x FROM c`);
    expect(many).toMatchObject({ truncated: true, rowCount: MAX_ROWS });
    expect(many.rows.at(-1)).toEqual({ x: MAX_ROWS });
    // the column names count too: each row of the answer repeats them
    const wide = await reg.execute(1, s, `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 5000) SELECT 1 AS "${'x'.repeat(90_000)}" FROM c`);
    expect(wide.truncated).toBe(true);
    expect(wide.rows.length).toBeLessThan(200);
    // one value of 300 MB (and 500 MB of blob) ends in the data source's own process, never the server's
    for (const huge of ["select printf('%.*c', 300000000, 'x') as v", 'select zeroblob(500000000) as b']) {
      const got = await reg.execute(1, s, huge).catch((e: Error) => e);
      if (got instanceof Error) expect(got.message, huge).not.toBe('');
      else expect(got, huge).toMatchObject({ rows: [], truncated: true }); // read there, and dropped by the cap
    }
    expect((await reg.execute(1, s, 'select count(*) as n from t')).rows).toEqual([{ n: 2 }]);
    await reg.closeAll();
  });

  it('runs each data source in a process of its own, at most MAX_PROCESSES at once: an idle one gives way', async () => {
    const reg = new PoolRegistry();
    for (let i = 0; i <= MAX_PROCESSES; i++) expect((await reg.execute(`many${i}`, s, 'select count(*) as n from t')).rows, `source ${i}`).toEqual([{ n: 2 }]);
    expect(liveProcesses()).toBeLessThanOrEqual(MAX_PROCESSES);
    await reg.closeAll();
    expect(liveProcesses()).toBe(0);
  }, 60_000);

  it('stops a statement at queryTimeout without blocking the process, and the next query runs', async () => {
    // (the statement runs in the data source's own process, which is stopped: no thread keeps spinning)
    const reg = new PoolRegistry();
    const quick = { ...s, queryTimeout: 1 };
    let ticks = 0;
    const tick = setInterval(() => ticks++, 50);
    const t0 = Date.now();
    await expect(reg.execute(1, quick, 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c')).rejects.toMatchObject({ code: 'QUERY_TIMEOUT' });
    clearInterval(tick);
    expect(Date.now() - t0).toBeLessThan(4000);
    expect(ticks).toBeGreaterThan(10); // the event loop kept running while SQLite counted
    expect((await reg.execute(1, quick, 'select count(*) as n from t')).rows).toEqual([{ n: 2 }]);
    await reg.closeAll();
  });
});

describe('a host that never answers', () => {
  it.each(['postgresql', 'mysql', 'mariadb'])('%s test returns false within maxWaitTime', async (dbType) => {
    const silent = await startSilentHost();
    try {
      const t0 = Date.now();
      let reason = '';
      const ok = await testConnection(
        { dbType, hostName: '127.0.0.1', port: silent.port, dbName: 'x', username: 'u', password: 'Secret#Pw1', maxWaitTime: 1 },
        { onError: (m) => (reason = m) },
      );
      const took = Date.now() - t0;
      expect(ok).toBe(false);
      expect(took).toBeLessThan(2500);
      expect(took).toBeGreaterThanOrEqual(900);
      expect(reason).not.toContain('Secret#Pw1');
    } finally {
      await silent.close();
    }
  });
});

describe.skipIf(!PG_URL)('PostgreSQL connector', () => {
  const admin = new pg.Client({ connectionString: PG_URL });
  const user = `ds_test_${suffix}`;
  const password = `Pw_${suffix}!x`;
  let base: SqlSettings;
  let enforcesPasswords = false;

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE USER ${user} WITH PASSWORD '${password}'`);
    const u = new URL(PG_URL!);
    base = { dbType: 'postgresql', hostName: u.hostname, port: Number(u.port || 5432), dbName: u.pathname.slice(1), username: user, password, maxWaitTime: 3, maxActive: 2, queryTimeout: 5 };
    // does this server check passwords at all (pg_hba 'trust' does not)?
    const probe = new pg.Client({ host: base.hostName!, port: base.port!, database: base.dbName!, user, password: 'definitely-wrong' });
    enforcesPasswords = await probe.connect().then(
      () => probe.end().then(() => false),
      () => true,
    );
    if (!enforcesPasswords) console.log('[note] PostgreSQL at PG_URL uses trust auth: the wrong-password case is checked with an unknown role instead');
  });
  afterAll(async () => {
    await admin.query(`DROP USER IF EXISTS ${user}`).catch(() => undefined);
    await admin.end();
  });

  it('right password → true; wrong password (or unknown role) → false, reason without the password', async () => {
    expect(await testConnection(base)).toBe(true);
    let reason = '';
    const wrong = enforcesPasswords ? { ...base, password: 'Wrong#Pass9' } : { ...base, username: `nobody_${suffix}`, password: 'Wrong#Pass9' };
    expect(await testConnection(wrong, { onError: (m) => (reason = m) })).toBe(false);
    expect(reason).not.toBe('');
    expect(reason).not.toContain('Wrong#Pass9');
    expect(await testConnection({ ...base, dbName: `no_such_db_${suffix}` })).toBe(false);
  });

  it('pool honours maxActive (3rd concurrent query waits) and maxWaitTime', () => poolLimits({ ...base, maxActive: 2, maxWaitTime: 3 }, 'pg', (n) => `pg_sleep(${n})`, 'pg_backend_pid()'));

  it('queryTimeout cancels a long query', async () => {
    const reg = new PoolRegistry();
    const t0 = Date.now();
    await expect(reg.execute('pg3', { ...base, queryTimeout: 1 }, 'select pg_sleep(5)')).rejects.toMatchObject({ code: 'QUERY_TIMEOUT' });
    expect(Date.now() - t0).toBeLessThan(4000);
    await reg.closeAll();
  });

  it('cuts a huge result by size and row count, reading row by row, and the pool stays usable', async () => {
    const reg = new PoolRegistry();
    const s1 = { ...base, maxActive: 1 };
    const huge = await reg.execute('pg5', s1, "select g, repeat('x', 1000000) as v from generate_series(1, 6000) g");
    expect(huge.truncated).toBe(true);
    expect(huge.rows.length).toBeLessThan(40);
    const many = await reg.execute('pg5', s1, `select g from generate_series(1, ${MAX_ROWS + 1000}) g`);
    expect(many).toMatchObject({ truncated: true, rowCount: MAX_ROWS, columns: ['g'] });
    expect((await reg.execute('pg5', s1, 'select 1 as one')).rows).toEqual([{ one: 1 }]);
    // a failing statement answers its error at once and frees its slot (s1 has one)
    const t0 = Date.now();
    await expect(reg.execute('pg5', s1, 'selec 1')).rejects.toThrow(/syntax/i);
    await expect(reg.execute('pg5', s1, 'select * from no_such_table_x')).rejects.toThrow(/no_such_table_x/);
    expect(Date.now() - t0).toBeLessThan(2000);
    // one value larger than a JavaScript string can be used to end the server (inside the driver's parser):
    // now it ends the data source's own process, and the next query gets a fresh one
    await expect(reg.execute('pg5', s1, "select repeat('x', 540000000) as v")).rejects.toThrow();
    expect((await reg.execute('pg5', s1, 'select 2 as two')).rows).toEqual([{ two: 2 }]);
    // several statements in one text are refused by the server (the extended protocol, with or without
    // parameters: issue 40), and none of them runs
    await expect(reg.execute('pg5', s1, 'select 1 as a; select g as b from generate_series(1, 3) g')).rejects.toThrow('每次只能执行一条语句');
    await expect(reg.execute('pg5', s1, `select 1 as a; select pg_sleep(0)`)).rejects.toThrow('每次只能执行一条语句');
    await reg.closeAll();
  });

  it('refuses connection parameters with control characters (a NUL would smuggle in another database)', async () => {
    const reg = new PoolRegistry();
    await expect(reg.execute('pg6', { ...base, dbName: 'postgres', properties: 'application_name=x%00database%00test' }, 'select current_database() as db')).rejects.toThrow('连接参数不能包含控制字符');
    // an application name that is not a plain name is replaced by the default, not passed on
    const named = await reg.execute('pg6', { ...base, properties: 'application_name=a%0Ab' }, 'select 1 as x').catch((e) => e);
    expect(String(named)).toContain('连接参数不能包含控制字符');
    const fine = await reg.execute('pg7', { ...base, properties: 'application_name=report tool' }, "select current_setting('application_name') as n");
    expect(fine.rows).toEqual([{ n: 'report tool' }]);
    await reg.closeAll();
  });

  it('binds named parameters and rebuilds the pool when the settings change', async () => {
    const reg = new PoolRegistry();
    const r = await reg.execute('pg4', base, 'select :a::text as a, :b::int + 1 as b', { a: "x' or '1'='1", b: 41 });
    expect(r.rows).toEqual([{ a: "x' or '1'='1", b: 42 }]);
    const p1 = reg.pool('pg4', base);
    const p2 = reg.pool('pg4', { ...base, maxActive: 3 });
    expect(p2).not.toBe(p1);
    await expect(p1.query('select 1')).rejects.toBeTruthy(); // old pool closed
    await reg.invalidate('pg4');
    expect(reg.has('pg4')).toBe(false);
    await reg.closeAll();
  });
});

describe.skipIf(!MYSQL_URL)('MariaDB / MySQL connector', () => {
  let admin: mysql.Connection;
  const user = `ds_test_${suffix}`.slice(0, 30);
  const password = `Pw_${suffix}!x`;
  let base: SqlSettings;

  beforeAll(async () => {
    admin = await mysql.createConnection(MYSQL_URL!);
    const u = new URL(MYSQL_URL!);
    await admin.query(`CREATE USER IF NOT EXISTS '${user}'@'%' IDENTIFIED BY '${password}'`);
    await admin.query(`CREATE USER IF NOT EXISTS '${user}'@'localhost' IDENTIFIED BY '${password}'`);
    await admin.query(`GRANT ALL ON \`${u.pathname.slice(1)}\`.* TO '${user}'@'%'`);
    await admin.query(`GRANT ALL ON \`${u.pathname.slice(1)}\`.* TO '${user}'@'localhost'`);
    base = { dbType: 'mariadb', hostName: u.hostname, port: Number(u.port || 3306), dbName: u.pathname.slice(1), username: user, password, maxWaitTime: 3, maxActive: 2, queryTimeout: 5 };
  });
  afterAll(async () => {
    await admin.query(`DROP USER IF EXISTS '${user}'@'%'`).catch(() => undefined);
    await admin.query(`DROP USER IF EXISTS '${user}'@'localhost'`).catch(() => undefined);
    await admin.end();
  });

  it('right password → true; wrong password → false, reason without the password', async () => {
    expect(await testConnection(base)).toBe(true);
    expect(await testConnection({ ...base, dbType: 'mysql' })).toBe(true);
    let reason = '';
    expect(await testConnection({ ...base, password: 'Wrong#Pass9' }, { onError: (m) => (reason = m) })).toBe(false);
    expect(reason).toMatch(/denied/i);
    expect(reason).not.toContain('Wrong#Pass9');
  });

  it('pool honours maxActive (3rd concurrent query waits) and maxWaitTime', () => poolLimits(base, 'my', (n) => `sleep(${n})`, 'connection_id()'));

  it('queryTimeout stops a long query', async () => {
    const reg = new PoolRegistry();
    const t0 = Date.now();
    const s1 = { ...base, queryTimeout: 1, maxActive: 1 };
    await expect(reg.execute('my3', s1, 'select sleep(5) as marker_timeout')).rejects.toMatchObject({ code: 'QUERY_TIMEOUT' });
    expect(Date.now() - t0).toBeLessThan(4000);
    // the pool (one slot) is usable at once, and the statement was stopped on the server
    expect((await reg.execute('my3', s1, 'select 7 as x')).rows).toEqual([{ x: 7 }]);
    await new Promise((r) => setTimeout(r, 300));
    const [left] = await admin.query("select count(*) as n from information_schema.processlist where info like 'select sleep(5) as marker_timeout%'");
    expect(Number((left as any)[0].n)).toBe(0);
    await reg.closeAll();
  });

  it('cuts a huge result by size and row count, reading row by row, and the pool stays usable', async () => {
    const reg = new PoolRegistry();
    const s1 = { ...base, maxActive: 1 };
    const rows = (n: number, value: string) => `with recursive c(x) as (select 1 union all select x + 1 from c where x < ${n}) select x, ${value} as v from c`;
    const huge = await reg.execute('my5', s1, rows(300, "repeat('x', 1000000)"));
    expect(huge.truncated).toBe(true);
    expect(huge.rows.length).toBeLessThan(40);
    const many = await reg.execute('my5', s1, rows(900, "'y'") + ` cross join (${Array.from({ length: 14 }, (_, i) => `select ${i + 1}`).join(' union all ')}) k`);
    expect(many).toMatchObject({ truncated: true, rowCount: MAX_ROWS });
    const t0 = Date.now();
    await expect(reg.execute('my5', s1, 'selec 1')).rejects.toThrow(/syntax/i);
    expect(Date.now() - t0).toBeLessThan(2000);
    const bound = await reg.execute('my5', s1, rows(10, ':v'), { v: 'z' });
    expect(bound.rows).toHaveLength(10);
    expect((await reg.execute('my5', s1, 'select 1 as one')).rows).toEqual([{ one: 1 }]);
    await reg.closeAll();
  });

  it('binds parameters (prepared statements)', async () => {
    const reg = new PoolRegistry();
    const r = await reg.execute('my4', base, 'select :a as a, :b + 1 as b', { a: "x' or '1'='1", b: 41 });
    expect(r.rows[0].a).toBe("x' or '1'='1");
    expect(Number(r.rows[0].b)).toBe(42);
    await reg.closeAll();
  });
});
