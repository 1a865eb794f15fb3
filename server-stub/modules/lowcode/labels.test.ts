// A page generated from a table reads as the table's owners wrote it (issue 34 item 6): columns labelled by their
// comments where PostgreSQL and MySQL hold them (titles, search placeholder, required and import messages), text
// columns single-line unless long (a long length, a long text type, or a name that says it holds prose); the page
// manager's preview of such a page shows the table's first rows.
import mysql from 'mysql2/promise';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { sqliteFixture } from '../../testing/sqlite.js';
import { startTestServer, type TestServer } from '../../testing/server.js';

const PG_URL = process.env.PG_URL;
const MYSQL_URL = process.env.MYSQL_URL;

describe('generated pages: labels from column comments, single-line text', () => {
  let s: TestServer;
  const tag = randomBytes(3).toString('hex');
  const targets: Array<{ name: string; dsId: number; table: string; schema?: string; comments: boolean }> = [];
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    s = await startTestServer({ env: {} });
    const liteId = await sqliteFixture(s, 'labels.db', "create table shops(id integer primary key, district text not null, remark text, code varchar(20)); insert into shops values (1, '朝阳区', '旗舰店', 'CY'), (2, '海淀区', null, 'HD')", 'labels_lite');
    targets.push({ name: 'sqlite', dsId: liteId, table: 'shops', comments: false });
    if (PG_URL) {
      const u = new URL(PG_URL);
      const schema = `lb_${tag}`;
      const c = new pg.Client(PG_URL);
      await c.connect();
      await c.query(`create schema ${schema}; create table ${schema}.shops(id int primary key, district text not null, remark text, code varchar(20));
        comment on column ${schema}.shops.district is '区县'; comment on column ${schema}.shops.remark is E'备注\\n第二行不要'; comment on column ${schema}.shops.code is '编码'`);
      cleanups.push(async () => {
        await c.query(`drop schema ${schema} cascade`);
        await c.end();
      });
      const r = await s.request('POST', '/api/gemini/datasource/info/save', { dsName: 'labels_pg', dbType: 'postgresql', hostName: u.hostname, port: Number(u.port || 5432), dbName: u.pathname.slice(1), username: u.username || 'postgres', pwd: 'unused' });
      targets.push({ name: 'postgresql', dsId: r.body.data, table: 'shops', schema, comments: true });
    }
    if (MYSQL_URL) {
      const u = new URL(MYSQL_URL);
      const admin = await mysql.createConnection({ uri: MYSQL_URL });
      const t = `lb_${tag}_shops`;
      await admin.query(`create table ${t}(id int primary key, district text not null comment '区县', remark text comment '备注', code varchar(20) comment '编码')`);
      const user = `lb_${tag}`;
      for (const h of ['%', 'localhost']) {
        await admin.query(`create user if not exists '${user}'@'${h}' identified by 'Lb#Pw_123'`);
        await admin.query(`grant select on \`${u.pathname.slice(1)}\`.* to '${user}'@'${h}'`);
      }
      cleanups.push(async () => {
        await admin.query(`drop table ${t}`);
        for (const h of ['%', 'localhost']) await admin.query(`drop user if exists '${user}'@'${h}'`);
        await admin.end();
      });
      const r = await s.request('POST', '/api/gemini/datasource/info/save', { dsName: 'labels_my', dbType: 'mariadb', hostName: u.hostname, port: Number(u.port || 3306), dbName: u.pathname.slice(1), username: user, pwd: 'Lb#Pw_123' });
      expect(r.body.status, r.body.msg).toBe(0);
      targets.push({ name: 'mariadb', dsId: r.body.data, table: t, comments: true });
    }
  }, 60_000);
  afterAll(async () => {
    for (const c of cleanups) await c().catch(() => undefined);
    await s?.close();
  });

  it('labels columns by their comments and keeps short text on one line', async () => {
    for (const t of targets) {
      const r = await s.request('POST', '/api/lowcode/source/generate', { dsId: t.dsId, table: t.table, schema: t.schema, pageKey: `lb_${t.name}`, title: '门店' });
      expect(r.body.status, `${t.name}: ${r.body.msg}`).toBe(0);
      const d = r.body.data.declaration;
      const titles = Object.fromEntries(d.columns.filter((c: any) => c.field).map((c: any) => [c.field, c.title]));
      const p = d.dialog.schema.properties;
      if (t.comments) {
        expect(titles, t.name).toMatchObject({ district: '区县', remark: '备注', code: '编码' });
        expect(p.district.title).toBe('区县');
        expect(p.district['x-validator'][0].message).toBe('请输入区县');
        expect(d.search.placeholder).toBe('请输入区县、备注、编码');
        // the field names stay the columns'
        expect(d.search.fields).toEqual(['district', 'remark', 'code']);
      } else {
        expect(titles).toMatchObject({ district: 'district', remark: 'remark' });
      }
      // an unbounded text named like a place is one line; a remark is several; a short code is one line
      expect(p.district['x-component'], t.name).toBeUndefined();
      expect(p.remark['x-component'], t.name).toBe('Input.TextArea');
      expect(p.code['x-component'], t.name).toBeUndefined();
    }
  });

  it('previews the table’s first rows of the declared columns, names checked against the catalogue', async () => {
    const t = targets[0];
    const sqlitePath = await s.request('POST', '/api/lowcode/source/preview', { dsId: t.dsId, table: t.table, columns: ['district', 'code', 'x"; drop table shops; --'] });
    expect(sqlitePath.body.status, sqlitePath.body.msg).toBe(0);
    // the unknown name is left out; the known columns come back as the table holds them
    expect(sqlitePath.body.data.records).toEqual([
      { district: '朝阳区', code: 'CY' },
      { district: '海淀区', code: 'HD' },
    ]);
    const none = await s.request('POST', '/api/lowcode/source/preview', { dsId: t.dsId, table: t.table, columns: ['nope'] });
    expect(none.body.msg).toBe('所选的列都不在表「shops」中');
    expect((await s.request('POST', '/api/lowcode/source/preview', { dsId: t.dsId, table: 'no_such', columns: ['id'] })).body.status).toBe(1);
    const dev = await s.loginAs('developer');
    expect((await s.request('POST', '/api/lowcode/source/preview', { dsId: t.dsId, table: t.table, columns: ['id'] }, dev)).http).toBe(403);
  });
});
