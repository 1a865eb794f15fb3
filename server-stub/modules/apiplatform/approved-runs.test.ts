// What an approver approves is what runs (issue 40), over real HTTP on SQLite always, PostgreSQL (PG_URL) and
// MariaDB / MySQL (MYSQL_URL) when set: a second statement is refused at save and never runs on a published call;
// functions that run other queries or read files are refused; the cost guard sizes the statement as callers can
// call it (not as the stored test value makes it look), counts every node of the plan, sizes tables by their
// schema-qualified name and counts a table never analysed.
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { sqliteFixture } from '../../testing/sqlite.js';
import { startTestServer, type TestServer } from '../../testing/server.js';

const P = '/api/gemini/api';
const PG_URL = process.env.PG_URL;
const MYSQL_URL = process.env.MYSQL_URL;
const BIG = 20_000;

interface Dialect {
  name: 'sqlite' | 'postgresql' | 'mariadb';
  ds: string;
  big: string;
  small: string;
  keep: string;
  /** rows left in `keep` (3 at the start) */
  kept(): Promise<number>;
}

describe('what an approver approves is what runs', () => {
  let s: TestServer;
  let dev: string;
  let approver: string;
  let groupId: number;
  const dialects: Dialect[] = [];
  const tag = randomBytes(4).toString('hex');
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    s = await startTestServer({ env: { PLAN_REASON_ROWS: '5000' } });
    dev = await s.loginAs('developer');
    approver = await s.loginAs('devapprover');
    groupId = (await s.request('POST', `${P}/group/save`, { parentId: 0, name: '审批即运行' }, dev)).body.data;

    const bigRows = Array.from({ length: BIG }, (_, i) => `(${i + 1}, 'n${i}')`).join(',');
    const smallRows = Array.from({ length: 100 }, (_, i) => `(${i + 1}, 'l${i}')`).join(',');
    const liteFile = await sqliteFixture(
      s,
      'approved.db',
      `create table big(id integer primary key, note text); create table small(id integer primary key, label text); create table keep(id integer primary key);
       insert into big values ${bigRows}; insert into small values ${smallRows}; insert into keep values (1), (2), (3);`,
      'runs_lite',
    );
    void liteFile;
    dialects.push({
      name: 'sqlite',
      ds: 'runs_lite',
      big: 'big',
      small: 'small',
      keep: 'keep',
      kept: async () => {
        const r = await s.request('POST', `${P}/execute`, { dsName: 'runs_lite', script: 'select count(*) as n from keep' }, dev);
        return Number(r.body.data.respResult[0].n);
      },
    });

    if (PG_URL) {
      const u = new URL(PG_URL);
      const sc = `runs_${tag}`;
      const arch = `arch_${tag}`;
      const c = new pg.Client(PG_URL);
      await c.connect();
      await c.query(`create schema ${sc}; create schema ${arch};
        create table ${sc}.big(id int primary key, note text); insert into ${sc}.big select g, 'n' || g from generate_series(1, ${BIG}) g;
        create table ${sc}.small(id int primary key, label text); insert into ${sc}.small select g, 'l' || g from generate_series(1, 100) g;
        create table ${sc}.keep(id int); insert into ${sc}.keep values (1), (2), (3);
        create table public.events_${tag}(id int); insert into public.events_${tag} select generate_series(1, 10);
        create table ${arch}.events_${tag}(id int); insert into ${arch}.events_${tag} select generate_series(1, 50000);
        create table ${sc}.fresh(id int) with (autovacuum_enabled = false); insert into ${sc}.fresh select generate_series(1, ${BIG});
        analyze ${sc}.big; analyze ${sc}.small; analyze ${sc}.keep; analyze public.events_${tag}; analyze ${arch}.events_${tag};`);
      await c.end();
      cleanups.push(async () => {
        const d = new pg.Client(PG_URL);
        await d.connect();
        await d.query(`drop schema ${sc} cascade; drop schema ${arch} cascade; drop table public.events_${tag}`);
        await d.end();
      });
      const r = await s.request('POST', '/api/gemini/datasource/info/save', { dsName: 'runs_pg', dbType: 'postgresql', hostName: u.hostname, port: Number(u.port || 5432), dbName: u.pathname.slice(1), username: u.username || 'postgres', pwd: 'unused' });
      expect(r.body.status, r.body.msg).toBe(0);
      dialects.push({
        name: 'postgresql',
        ds: 'runs_pg',
        big: `${sc}.big`,
        small: `${sc}.small`,
        keep: `${sc}.keep`,
        kept: async () => {
          const d = new pg.Client(PG_URL);
          await d.connect();
          const n = (await d.query(`select count(*)::int as n from ${sc}.keep`)).rows[0].n;
          await d.end();
          return n;
        },
      });
    }
    if (MYSQL_URL) {
      const u = new URL(MYSQL_URL);
      const db = u.pathname.slice(1);
      const admin = await mysql.createConnection({ uri: MYSQL_URL, multipleStatements: true });
      await admin.query(`create table big_${tag}(id int primary key, note varchar(20)); create table small_${tag}(id int primary key, label varchar(20)); create table keep_${tag}(id int)`);
      for (let i = 0; i < BIG; i += 5000) await admin.query(`insert into big_${tag} values ${Array.from({ length: 5000 }, (_, k) => `(${i + k + 1}, 'n${i + k}')`).join(',')}`);
      await admin.query(`insert into small_${tag} values ${smallRows}; insert into keep_${tag} values (1), (2), (3); analyze table big_${tag}, small_${tag}, keep_${tag}`);
      const user = `runs_${tag}`;
      for (const h of ['%', 'localhost']) {
        await admin.query(`create user if not exists '${user}'@'${h}' identified by 'Runs#Pw_1'`);
        // enough to empty a table: what a stacked delete would do if it ran
        await admin.query(`grant select, delete on \`${db}\`.* to '${user}'@'${h}'`);
      }
      cleanups.push(async () => {
        await admin.query(`drop table big_${tag}, small_${tag}, keep_${tag}`);
        for (const h of ['%', 'localhost']) await admin.query(`drop user if exists '${user}'@'${h}'`);
        await admin.end();
      });
      const r = await s.request('POST', '/api/gemini/datasource/info/save', { dsName: 'runs_my', dbType: 'mariadb', hostName: u.hostname, port: Number(u.port || 3306), dbName: db, username: user, pwd: 'Runs#Pw_1' });
      expect(r.body.status, r.body.msg).toBe(0);
      dialects.push({
        name: 'mariadb',
        ds: 'runs_my',
        big: `big_${tag}`,
        small: `small_${tag}`,
        keep: `keep_${tag}`,
        kept: async () => Number(((await admin.query(`select count(*) as n from keep_${tag}`)) as any)[0][0].n),
      });
    }
  }, 90_000);
  afterAll(async () => {
    for (const c of cleanups) await c().catch(() => undefined);
    await s?.close();
  });

  let seq = 0;
  /** A design with the script saved as its configuration; answers the save's envelope and the design's id. */
  const design = async (d: Dialect, script: string, reqParamList: unknown[] = []) => {
    const apiName = `runs_${d.name}_${++seq}`;
    const id = (await s.request('POST', `${P}/design/info/save`, { groupId, apiName, apiComment: '审批即运行' }, dev)).body.data;
    const saved = (await s.request('POST', `${P}/config/save`, { apiId: id, dsName: d.ds, script, reqParamList }, dev)).body;
    return { id, apiName, saved };
  };
  const plan = async (d: Dialect, script: string, reqParamList: unknown[] = []) => (await s.request('POST', `${P}/design/plan`, { dsName: d.ds, script, reqParamList }, dev)).body;

  it('refuses a second statement at save, at test and at plan, read with the dialect lexer; a stacked statement never runs on a published call', async () => {
    for (const d of dialects) {
      for (const script of [`select 1 as x; delete from ${d.keep}`, `select 1 as x /* a ; in a comment */ ;\n-- and one here ;\n delete from ${d.keep}`, `select ';' as x;select 2`]) {
        const { saved } = await design(d, script);
        expect(saved, `${d.name}: ${script}`).toMatchObject({ status: 1, msg: expect.stringMatching(/^接口 SQL 只能是一条语句（发现 2 条）/) });
        expect((await s.request('POST', `${P}/execute`, { dsName: d.ds, script }, dev)).body.status).toBe(1);
        expect((await plan(d, script)).status).toBe(1);
      }
      // a ';' inside a literal, a quoted name or a comment, or one at the end, is not a second statement
      const fine = d.name === 'postgresql' ? `select ';' as "a;b", $$;$$ as c -- ;\n;` : d.name === 'mariadb' ? "select ';' as `a;b` # ;\n;" : `select ';' as [a;b] -- ;\n;`;
      expect((await design(d, fine)).saved, `${d.name}: ${fine}`).toMatchObject({ status: 0 });

      // a version published before this rule with a stacked script: the call is refused, nothing runs
      const { id, apiName } = await design(d, `select count(*) as n from ${d.keep}`);
      expect((await s.request('POST', `${P}/design/info/submit`, { id }, dev)).body.status).toBe(0);
      expect((await s.request('POST', `${P}/approve/resolveAndOnline`, { id }, approver)).body.status).toBe(0);
      const called = await s.request('POST', `/open/api/${apiName}`, {}, dev);
      expect(called.body.status, d.name).toBe(0);
      expect(Number(called.body.data[0].n)).toBe(3);
      await s.exec(`update gemini_api_version set script = 'select 1 as x; delete from ${d.keep}' where api_id = ${id}`);
      await s.exec(`update gemini_api set online_seq = online_seq + 1 where id = ${id}`);
      const stacked = await s.request('POST', `/open/api/${apiName}`, {}, dev);
      expect(stacked.body.status, d.name).toBe(1);
      expect(stacked.body.msg).toMatch(/只能是一条语句/);
      expect(await d.kept(), d.name).toBe(3);
    }
  });

  it('refuses functions that run other queries, reach other servers or read files, however they are spelled', async () => {
    const cases: Record<Dialect['name'], string[]> = {
      postgresql: [
        `select query_to_xml('select * from big', true, false, '') as x`,
        `select table_to_xml('big'::regclass, true, false, '') as x`,
        `select pg_catalog."table_to_xml"('big', true, false, '') as x`,
        `select QUERY_TO_XML /* a comment */ ('select 1', true, false, '') as x`,
        `select id from big where id::text = table_to_xml('big', true, false, '')::text`,
        `select pg_read_file('/etc/passwd') as x`,
        `select lo_import('/etc/passwd') as x`,
        `select * from dblink('dbname=postgres', 'select 1') as t(x int)`,
      ],
      mariadb: ["select load_file('/etc/passwd') as x", 'select `sys_exec`(\'id\') as x', 'select sleep(10) as x', "select 1 as x /*!50000 , load_file('/etc/passwd') */"],
      sqlite: ["select readfile('/etc/passwd') as x", "select load_extension('x') as x"],
    };
    for (const d of dialects) {
      for (const script of cases[d.name]) {
        const { saved } = await design(d, script);
        expect(saved.status, `${d.name}: ${script}`).toBe(1);
        expect(saved.msg, script).toMatch(/函数 \w+：.*接口中不允许使用|可执行注释/);
        // planning never evaluates it: refused before the database is asked
        const t0 = Date.now();
        expect((await plan(d, script)).status).toBe(1);
        expect(Date.now() - t0).toBeLessThan(1000);
      }
      // the same names inside a literal or as a column are not calls
      expect((await design(d, `select 'query_to_xml(' as load_file, 1 as sleep`)).saved.status, d.name).toBe(0);
    }
    const msg = (await design(dialects[0], "select readfile('/etc/passwd') as x")).saved.msg;
    expect(msg).toBe('SQL 第 8 个字符处调用了函数 readfile：它读写数据库服务器上的文件或调用外部程序，接口中不允许使用');
  });

  it('sizes the statement as callers can call it: not by the stored test value', async () => {
    for (const d of dialects) {
      const params = [{ paramName: 'min', paramType: 'integer', paramValue: '999999999' }];
      const p = await plan(d, `select count(*) as n from ${d.big} where id > :min`, params);
      expect(p.status, `${d.name}: ${p.msg}`).toBe(0);
      expect(p.data.reasonRequired, `${d.name}: guard ${p.data.guardRows}`).toBe(true);
      // published without a reason it is not: the approver is asked for one
      const { id, saved } = await design(d, `select count(*) as n from ${d.big} where id > :min`, params);
      expect(saved.status).toBe(0);
      expect((await s.request('POST', `${P}/design/info/submit`, { id }, dev)).body.status).toBe(0);
      expect((await s.request('POST', `${P}/approve/resolve`, { id }, approver)).body.msg).toMatch(/超过阈值 5,000 行：审批通过须填写超限理由$/);
      // a lookup by key stays cheap whatever the value
      const one = await plan(d, `select note from ${d.big} where id = :id`, [{ paramName: 'id', paramType: 'integer', paramValue: '5' }]);
      expect(one.data.reasonRequired, d.name).toBe(false);
    }
  });

  it('counts every node of the plan, tables by their schema-qualified name, and a table never analysed', async () => {
    for (const d of dialects) {
      const p = await plan(d, `select count(*) as n from ${d.small} a cross join ${d.small} b`);
      expect(p.status, `${d.name}: ${p.msg}`).toBe(0);
      expect(p.data.guardRows, d.name).toBeGreaterThanOrEqual(10_000);
      expect(p.data.reasonRequired).toBe(true);
      // the small table alone is cheap
      expect((await plan(d, `select count(*) as n from ${d.small}`)).data.reasonRequired, d.name).toBe(false);
    }
    const pgd = dialects.find((d) => d.name === 'postgresql');
    if (!pgd) return;
    expect((await plan(pgd, 'select count(*) as n from generate_series(1, 100000000) g')).data.reasonRequired).toBe(true);
    // arch.events (50,000 rows) is not sized by the 10-row public.events
    const arch = await plan(pgd, `select count(*) as n from arch_${tag}.events_${tag}`);
    expect(arch.data.scanRows).toBe(50_000);
    expect(arch.data.reasonRequired).toBe(true);
    expect((await plan(pgd, `select count(*) as n from events_${tag}`)).data.scanRows).toBe(10);
    // never analysed: counted (bounded at the threshold + 1), not taken as one row
    const fresh = await plan(pgd, `select count(*) as n from runs_${tag}.fresh`);
    expect(fresh.data.scanRows).toBeGreaterThan(5000);
    expect(fresh.data.reasonRequired).toBe(true);
  });
});
