// Query plans and the cost guard (issue 25 item 3) over real HTTP, against SQLite always and PostgreSQL (PG_URL)
// and MariaDB / MySQL (MYSQL_URL) when set: a full scan of a large table, a list without LIMIT and a cross join are
// warned of; no plan runs the statement (a statement that would fail, sleep or move a sequence, shown not to have);
// a secret-bound value never appears in a response; injection strings stay bound; approving above the threshold
// needs a reason, which the audit keeps with the estimate.
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { sqliteFixture } from '../../testing/sqlite.js';
import { startTestServer, type TestServer } from '../../testing/server.js';
import { readPlan } from './plan.js';

const P = '/api/gemini/api';
const PG_URL = process.env.PG_URL;
const MYSQL_URL = process.env.MYSQL_URL;
const BIG = 20_000;
const SECRET = 'TopSecret-4711';

interface Dialect {
  name: string;
  ds: string;
  /** table names as the SQL writes them */
  big: string;
  small: string;
  /** a statement that fails (or sleeps) when run, and a way to tell whether it ran */
  sideEffect?: { sql: string; ran(): Promise<boolean> };
}

describe('query plans and the cost guard', () => {
  let s: TestServer;
  let dev: string;
  let approver: string;
  const dialects: Dialect[] = [];
  const tag = randomBytes(4).toString('hex');
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    s = await startTestServer({ env: { PLAN_REASON_ROWS: '15000' } });
    dev = await s.loginAs('developer');
    approver = await s.loginAs('devapprover');
    // SQLite: no sqlite_stat1, so the big table's size is counted (bounded)
    const rows = Array.from({ length: BIG }, (_, i) => `(${i + 1}, ${i % 50}, 'n${i}')`);
    const smallRows = Array.from({ length: 50 }, (_, i) => `(${i}, 'l${i}')`);
    const lite = `create table big(id integer primary key, sid integer, note text); create table small(id integer primary key, label text);
      insert into big values ${rows.join(',')}; insert into small values ${smallRows.join(',')}`;
    await sqliteFixture(s, 'plans.db', lite, 'plans_lite');
    dialects.push({ name: 'sqlite', ds: 'plans_lite', big: 'big', small: 'small' });

    if (PG_URL) {
      const u = new URL(PG_URL);
      const schema = `plan_${tag}`;
      const c = new pg.Client(PG_URL);
      await c.connect();
      await c.query(`create schema ${schema}; create table ${schema}.big_${tag}(id int primary key, sid int, note text); create table ${schema}.small_${tag}(id int primary key, label text);
        insert into ${schema}.big_${tag} select g, g % 50, 'n' || g from generate_series(1, ${BIG}) g; insert into ${schema}.small_${tag} select g, 'l' || g from generate_series(0, 49) g;
        create sequence ${schema}.seq_${tag}; analyze ${schema}.big_${tag}; analyze ${schema}.small_${tag};`);
      await c.end();
      cleanups.push(async () => {
        const d = new pg.Client(PG_URL);
        await d.connect();
        await d.query(`drop schema ${schema} cascade`);
        await d.end();
      });
      const r = await s.request('POST', '/api/gemini/datasource/info/save', { dsName: 'plans_pg', dbType: 'postgresql', hostName: u.hostname, port: Number(u.port || 5432), dbName: u.pathname.slice(1), username: u.username || 'postgres', pwd: 'unused' });
      expect(r.body.status).toBe(0);
      dialects.push({
        name: 'postgresql',
        ds: 'plans_pg',
        big: `${schema}.big_${tag}`,
        small: `${schema}.small_${tag}`,
        sideEffect: {
          // would move the sequence and then fail on division by zero
          sql: `select nextval('${schema}.seq_${tag}'), 1 / (id - id) from ${schema}.small_${tag}`,
          ran: async () => {
            const d = new pg.Client(PG_URL);
            await d.connect();
            const { rows: got } = await d.query(`select is_called from ${schema}.seq_${tag}`);
            await d.end();
            return got[0].is_called;
          },
        },
      });
    }
    if (MYSQL_URL) {
      const u = new URL(MYSQL_URL);
      const db = u.pathname.slice(1);
      const admin = await mysql.createConnection({ uri: MYSQL_URL, multipleStatements: true });
      const user = `plan_${tag}`;
      await admin.query(`create table big_${tag}(id int primary key, sid int, note varchar(20)); create table small_${tag}(id int primary key, label varchar(20)); create table log_${tag}(id int)`);
      for (let i = 0; i < BIG; i += 5000) await admin.query(`insert into big_${tag} values ${Array.from({ length: 5000 }, (_, k) => `(${i + k + 1}, ${(i + k) % 50}, 'n${i + k}')`).join(',')}`);
      await admin.query(`insert into small_${tag} values ${Array.from({ length: 50 }, (_, k) => `(${k}, 'l${k}')`).join(',')}; analyze table big_${tag}, small_${tag}`);
      for (const h of ['%', 'localhost']) {
        await admin.query(`create user if not exists '${user}'@'${h}' identified by 'Plan#Pw_1'`);
        await admin.query(`grant select on \`${db}\`.* to '${user}'@'${h}'`);
      }
      cleanups.push(async () => {
        await admin.query(`drop table big_${tag}, small_${tag}, log_${tag}`);
        for (const h of ['%', 'localhost']) await admin.query(`drop user if exists '${user}'@'${h}'`);
        await admin.end();
      });
      const r = await s.request('POST', '/api/gemini/datasource/info/save', { dsName: 'plans_my', dbType: 'mariadb', hostName: u.hostname, port: Number(u.port || 3306), dbName: db, username: user, pwd: 'Plan#Pw_1' });
      expect(r.body.status).toBe(0);
      dialects.push({
        name: 'mariadb',
        ds: 'plans_my',
        big: `big_${tag}`,
        small: `small_${tag}`,
        sideEffect: {
          // fails when run (a subquery of many rows where one is expected); the plan answers
          sql: `select id from small_${tag} where id = (select id from big_${tag})`,
          ran: async () => false,
        },
      });
    }
  }, 60_000);
  afterAll(async () => {
    for (const c of cleanups) await c().catch(() => undefined);
    await s?.close();
  });

  const plan = (ds: string, script: string, reqParamList: unknown[] = []) => s.request('POST', `${P}/design/plan`, { dsName: ds, script, reqParamList }, dev);
  const codes = (p: { warnings: Array<{ code: string }> }) => p.warnings.map((w) => w.code).sort();

  it('warns of a full scan of a large table and of a list without LIMIT, with the plan and its estimates', async () => {
    for (const d of dialects) {
      const r = await plan(d.ds, `select id, note from ${d.big} where note = :note`, [{ paramName: 'note', paramType: 'string', paramValue: 'n7' }]);
      expect(r.body.status, `${d.name}: ${r.body.msg}`).toBe(0);
      const p = r.body.data;
      expect(p.dialect).toBe(d.name);
      expect(codes(p), d.name).toEqual(['fullScan', 'noLimit']);
      expect(p.warnings.find((w: any) => w.code === 'fullScan').message).toMatch(/^全表扫描大表【(\w+\.)?big(_\w+)?】（(约|超过) [\d,]+ 行）：/);
      expect(p.scanRows, d.name).toBeGreaterThan(15_000);
      expect(p.nodes.length).toBeGreaterThan(0);
      expect(p.raw).not.toBeNull();
      if (d.name === 'postgresql') {
        expect(p.nodes[0]).toMatchObject({ op: 'Seq Scan', table: expect.stringContaining('big_') });
        // the generic plan (issue 40): the value stored for a test never chooses it
        expect(p.nodes[0].detail).toContain('$1');
        expect(p.cost).toBeGreaterThan(0);
        expect(p.estimatedRows).toBeGreaterThanOrEqual(1);
      }
      if (d.name === 'mariadb') expect(p.nodes[0].children[0]).toMatchObject({ op: 'ALL', table: d.big });
      // SQLite without sqlite_stat1: counted up to one past the threshold (15,000), no further
      if (d.name === 'sqlite') expect(p.nodes[0]).toMatchObject({ op: 'SCAN（全表扫描）', table: 'big', rows: 15_001 });
      // a capped list on an indexed lookup: neither warning
      const ok = await plan(d.ds, `select id, note from ${d.big} where id = :id limit 10`, [{ paramName: 'id', paramType: 'integer', paramValue: '7' }]);
      expect(codes(ok.body.data), d.name).toEqual([]);
      // a small table read in full is no warning; its missing LIMIT is
      expect(codes((await plan(d.ds, `select label from ${d.small}`)).body.data), d.name).toEqual(['noLimit']);
      // declared paging caps the answer: no LIMIT warning then
      const paged = await s.request('POST', `${P}/design/plan`, { dsName: d.ds, script: `select label from ${d.small} order by id`, pageable: 1 }, dev);
      expect(codes(paged.body.data), d.name).toEqual([]);
    }
  });

  it('warns of a cross join, not of a join with its condition', async () => {
    for (const d of dialects) {
      const cross = (await plan(d.ds, `select a.id, b.label from ${d.big} a, ${d.small} b limit 10`)).body;
      expect(cross.status, `${d.name}: ${cross.msg}`).toBe(0);
      expect(codes(cross.data), d.name).toContain('crossJoin');
      expect(cross.data.warnings.find((w: any) => w.code === 'crossJoin').message).toMatch(/^疑似笛卡尔积/);
      const joined = (await plan(d.ds, `select a.id, b.label from ${d.big} a join ${d.small} b on b.id = a.sid limit 10`)).body;
      expect(joined.status, `${d.name}: ${joined.msg}`).toBe(0);
      expect(codes(joined.data), d.name).not.toContain('crossJoin');
    }
  });

  it('never runs the statement: what would fail, sleep or move a sequence is planned, not run', async () => {
    for (const d of dialects) {
      if (d.name === 'sqlite') {
        // integer overflow when run; the plan answers
        const script = `select abs(-9223372036854775807 - id) from ${d.small}`;
        const run = await s.request('POST', `${P}/execute`, { dsName: d.ds, script }, dev);
        expect(run.body.status).toBe(1);
        expect((await plan(d.ds, script)).body.status).toBe(0);
        continue;
      }
      const t0 = Date.now();
      const r = await plan(d.ds, d.sideEffect!.sql);
      expect(r.body.status, `${d.name}: ${r.body.msg}`).toBe(0);
      expect(Date.now() - t0).toBeLessThan(2500);
      expect(await d.sideEffect!.ran()).toBe(false);
    }
    // a second statement after the first is refused, not run
    for (const d of dialects) {
      const r = await plan(d.ds, `select id from ${d.small} limit 1; delete from ${d.small}`);
      expect(r.body.status, d.name).toBe(1);
      expect(r.body.msg).toMatch(/^接口 SQL 只能是一条语句/);
    }
    if (PG_URL) {
      const c = new pg.Client(PG_URL);
      await c.connect();
      expect((await c.query(`select count(*)::int as n from plan_${tag}.small_${tag}`)).rows[0].n).toBe(50);
      await c.end();
    }
  });

  it('never shows a value bound from a secret, and keeps injection strings bound', async () => {
    for (const d of dialects) {
      const params = [
        { paramName: 'code', paramType: 'string', paramValue: SECRET, secret: true },
        { paramName: 'note', paramType: 'string', paramValue: "x' or '1'='1" },
      ];
      const r = await plan(d.ds, `select id from ${d.big} where note = :code or note = :note limit 5`, params);
      expect(r.body.status, `${d.name}: ${r.body.msg}`).toBe(0);
      const text = JSON.stringify(r.body);
      expect(text).not.toContain(SECRET);
      expect(r.body.data.boundValues).toEqual(['******', "x' or '1'='1"]);
      expect(r.body.data.sql).not.toContain("'1'='1");
      expect(codes(r.body.data)).toContain('secretHidden');
      if (d.name !== 'sqlite') expect(r.body.data.raw).toBeNull();
      // named like a secret, not marked: hidden all the same
      const named = await plan(d.ds, `select id from ${d.big} where note = :apiToken limit 5`, [{ paramName: 'apiToken', paramType: 'string', paramValue: SECRET }]);
      expect(JSON.stringify(named.body)).not.toContain(SECRET);
      // the test run's plan too
      const run = await s.request('POST', `${P}/execute`, { dsName: d.ds, script: `select id from ${d.big} where note = :code limit 5`, reqParamList: params.slice(0, 1) }, dev);
      expect(run.body.status).toBe(0);
      expect(run.body.data.plan.boundValues).toEqual(['******']);
      expect(run.body.data.boundValues).toEqual(['******']);
      expect(run.body.data.querySql).toContain("-- [1] '******'");
      expect(JSON.stringify(run.body.data.plan)).not.toContain(SECRET);
    }
    if (PG_URL) {
      // the database's error would echo the value: masked there too
      const r = await plan('plans_pg', `select id from plan_${tag}.big_${tag} where id = cast(:code as int)`, [{ paramName: 'code', paramType: 'string', paramValue: SECRET, secret: true }]);
      // the generic plan never binds the value: nothing to echo
      expect(r.body.status, r.body.msg).toBe(0);
      expect(JSON.stringify(r.body)).not.toContain(SECRET);
    }
  });

  it('shows the plan on the approval screen, and asks a reason above the threshold, kept in the audit', async () => {
    const groupId = (await s.request('POST', `${P}/group/save`, { parentId: 0, name: '计划' }, dev)).body.data;
    for (const d of dialects) {
      const apiId = (await s.request('POST', `${P}/design/info/save`, { groupId, apiName: `scan_${d.name}`, apiComment: '全表扫描' }, dev)).body.data;
      const cfg = { apiId, dsName: d.ds, script: `select id, note from ${d.big} where note = :note`, reqParamList: [{ paramName: 'note', paramType: 'string', paramValue: 'n9' }, { paramName: 'pwd', paramType: 'string', paramValue: SECRET }] };
      // saved with a test's SQL listing that (written before secrets were masked there) names the value
      expect((await s.request('POST', `${P}/config/save`, { ...cfg, querySql: `select 1 -- [1] '${SECRET}'` }, dev)).body.status).toBe(0);
      expect((await s.request('POST', `${P}/design/info/submit`, { id: apiId }, dev)).body.status).toBe(0);
      const shown = await s.request('GET', `${P}/approve/plan?id=${apiId}`, undefined, approver);
      expect(shown.body.status, `${d.name}: ${shown.body.msg}`).toBe(0);
      expect(codes(shown.body.data), d.name).toEqual(['fullScan', 'noLimit']);
      expect(shown.body.data).toMatchObject({ reasonRequired: true, threshold: 15000 });
      // the diff never shows a secret parameter's value either
      expect(JSON.stringify((await s.request('GET', `${P}/approve/info?id=${apiId}`, undefined, approver)).body)).not.toContain(SECRET);
      const refused = await s.request('POST', `${P}/approve/resolve`, { id: apiId, approveResult: '同意' }, approver);
      expect(refused.body).toMatchObject({ status: 1, msg: expect.stringMatching(d.name === 'sqlite' ? /^执行计划估计行数超过阈值 15,000 行：审批通过须填写超限理由$/ : /^执行计划估计行数约 [\d,]+ 行，超过阈值 15,000 行：审批通过须填写超限理由$/) });
      expect((await s.request('POST', `${P}/approve/resolve`, { id: apiId, approveResult: '同意', costReason: '   ' }, approver)).body.status).toBe(1);
      const passed = await s.request('POST', `${P}/approve/resolve`, { id: apiId, approveResult: '同意', costReason: '夜间批量报表，调用方每日一次' }, approver);
      expect(passed.body.status, passed.body.msg).toBe(0);
      const trail = (await s.request('GET', `${P}/design/audit?id=${apiId}`, undefined, dev)).body.data;
      const entry = trail.find((e: any) => e.action === 'resolve');
      expect(entry).toMatchObject({ costReason: '夜间批量报表，调用方每日一次', version: 1 });
      expect(entry.planRows).toBeGreaterThan(15_000);
    }
    // two statements are refused at save (issue 40)
    const twoId = (await s.request('POST', `${P}/design/info/save`, { groupId, apiName: 'two_statements', apiComment: '两条语句' }, dev)).body.data;
    expect((await s.request('POST', `${P}/config/save`, { apiId: twoId, dsName: 'plans_lite', script: 'select label from small limit 1; select 2' }, dev)).body).toMatchObject({ status: 1, msg: '接口 SQL 只能是一条语句（发现 2 条）：请去掉分号后的语句' });
    // a plan that cannot be taken asks a reason too (here: a table the data source does not have)
    expect((await s.request('POST', `${P}/config/save`, { apiId: twoId, dsName: 'plans_lite', script: 'select label from no_such_table limit 1' }, dev)).body.status).toBe(0);
    expect((await s.request('POST', `${P}/design/info/submit`, { id: twoId }, dev)).body.status).toBe(0);
    expect((await s.request('GET', `${P}/approve/plan?id=${twoId}`, undefined, approver)).body).toMatchObject({ status: 1, msg: expect.stringMatching(/^获取执行计划失败：.*no_such_table/) });
    expect((await s.request('POST', `${P}/approve/resolve`, { id: twoId }, approver)).body).toMatchObject({ status: 1, msg: expect.stringMatching(/^无法获取执行计划（.*no_such_table.*）：审批通过须填写理由$/) });
    expect((await s.request('POST', `${P}/approve/resolve`, { id: twoId, costReason: '已人工核对' }, approver)).body.status).toBe(0);
    // below the threshold no reason is asked; the estimate is kept all the same
    const apiId = (await s.request('POST', `${P}/design/info/save`, { groupId, apiName: 'small_list', apiComment: '小表' }, dev)).body.data;
    expect((await s.request('POST', `${P}/config/save`, { apiId, dsName: 'plans_lite', script: 'select label from small limit 20' }, dev)).body.status).toBe(0);
    expect((await s.request('POST', `${P}/design/info/submit`, { id: apiId }, dev)).body.status).toBe(0);
    expect((await s.request('POST', `${P}/approve/resolve`, { id: apiId }, approver)).body.status).toBe(0);
    const entry = (await s.request('GET', `${P}/design/audit?id=${apiId}`, undefined, dev)).body.data.find((e: any) => e.action === 'resolve');
    expect(entry).toMatchObject({ costReason: null, planRows: 50 });
  });
});

describe('reading plans', () => {
  it('reads a MySQL 8 plan: rows produced, cost, a hash join without condition', () => {
    const plan = {
      query_block: {
        select_id: 1,
        cost_info: { query_cost: '2513.75' },
        nested_loop: [
          { table: { table_name: 'b', access_type: 'ALL', rows_examined_per_scan: 50, rows_produced_per_join: 50, filtered: '100.00', cost_info: { prefix_cost: '5.25' } } },
          { table: { table_name: 'a', access_type: 'ALL', rows_examined_per_scan: 20000, rows_produced_per_join: 1000000, filtered: '100.00', using_join_buffer: 'hash join', cost_info: { prefix_cost: '2513.75' } } },
        ],
      },
    };
    const p = readPlan({ dialect: 'mysql', plan, tableRows: { a: 20000, b: 50 } }, 'select * from a, b', { largeTableRows: 10000, reasonRows: 100000 });
    expect(p).toMatchObject({ estimatedRows: 1000000, cost: 2513.75, scanRows: 20000, reasonRequired: true, guardRows: 1000000 });
    expect(p.warnings.map((w) => w.code).sort()).toEqual(['crossJoin', 'fullScan', 'noLimit']);
    // the same join with its condition
    plan.query_block.nested_loop[1].table = { ...plan.query_block.nested_loop[1].table, attached_condition: '(`t`.`a`.`bid` = `t`.`b`.`id`)' } as never;
    expect(readPlan({ dialect: 'mysql', plan, tableRows: { a: 20000 } }, 'select * from a join b on a.bid = b.id limit 5', { largeTableRows: 10000, reasonRows: 100000 }).warnings.map((w) => w.code)).toEqual(['fullScan']);
  });
});
