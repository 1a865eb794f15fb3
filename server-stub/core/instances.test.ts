// Several instances on one store (issue 28): they may start at the same moment, a restart of one changes no
// answer the others give, and a later start never undoes what admins changed in the store.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, testStores, type TestServer, dropStoreSchemas } from '../testing/server.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** One store (a fresh PostgreSQL schema or SQLite DATA_DIR) that several test instances share. */
function sharedStore(store: 'sqlite' | 'pg') {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'instances-'));
  const schema = `t_${randomBytes(6).toString('hex')}`;
  cleanups.push(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (store !== 'pg') return;
    const client = new pg.Client({ connectionString: process.env.PG_URL });
    await client.connect();
    await dropStoreSchemas(client, schema);
    await client.end();
  });
  const env = { DATA_DIR: dataDir, ...(store === 'pg' ? { DATABASE_SCHEMA: schema } : {}) };
  return async (extra: Record<string, string> = {}) => {
    const s = await startTestServer({ store, env: { ...env, ...extra } });
    let closed = false;
    const close = s.close;
    s.close = async () => {
      if (closed) return;
      closed = true;
      await close();
    };
    cleanups.push(() => s.close());
    return s;
  };
}

const menuOf = (s: TestServer, token: string) => s.request('GET', '/api/menu/routes/get?moduleType=platform', undefined, token);
const listOf = (s: TestServer, token: string) => s.request('POST', '/api/gemini/datasource/search', { pageNum: 1, pageSize: 10 }, token);

describe.skipIf(!process.env.PG_URL)('instances starting together (PostgreSQL)', () => {
  it('three instances started at the same moment on an empty schema all come up, with one set of accounts and menus', async () => {
    const start = sharedStore('pg');
    const servers = await Promise.all([start(), start(), start()]);
    for (const s of servers) expect((await menuOf(s, s.token)).body.status).toBe(0);
    const [a, b, c] = servers;
    // one store: a session made on one is good on the others, and each sees one admin and one menu
    expect((await menuOf(b, a.token)).body.data).toEqual((await menuOf(c, c.token)).body.data);
    const users = await a.request<{ total: number }>('POST', '/api/uams/user/search', { pageNum: 1, pageSize: 50 });
    const names = (users.body.data as unknown as { records: { username: string }[] }).records.map((r) => r.username);
    expect(names.filter((n) => n === 'admin')).toHaveLength(1);
  });

  it('restarting one instance while another is polled changes none of its answers', async () => {
    const start = sharedStore('pg');
    let a = await start();
    const b = await start();
    const dev = await b.loginAs('developer');
    const menu0 = await menuOf(b, dev);
    const list0 = await listOf(b, dev);
    expect(menu0.body.status).toBe(0);
    expect(list0.http).toBe(200);
    expect(list0.body.status).toBe(0);

    let polling = true;
    const seen: string[] = [];
    const poll = (async () => {
      while (polling) {
        const [m, l] = await Promise.all([menuOf(b, dev), listOf(b, dev)]);
        if (JSON.stringify(m.body) !== JSON.stringify(menu0.body)) seen.push(`menu ${m.http} ${JSON.stringify(m.body).slice(0, 120)}`);
        if (l.http !== 200 || JSON.stringify(l.body) !== JSON.stringify(list0.body)) seen.push(`list ${l.http} ${JSON.stringify(l.body).slice(0, 120)}`);
      }
    })();
    for (let i = 0; i < 3; i++) {
      await a.close();
      a = await start();
    }
    polling = false;
    await poll;
    expect(seen).toEqual([]);
  });
});

describe.each(testStores)('later starts (%s)', (store) => {
  it('keep what admins changed in roles and menus, and bring only what the shipped defaults changed', async () => {
    const start = sharedStore(store);
    let s = await start();
    // an admin takes the data-source list from developers, and the variables menu entry from their role
    await s.exec(`DELETE FROM sys_role_permission WHERE permission = 'gemini:datasource:list' AND role_id = (SELECT id FROM sys_role WHERE role_key = 'default')`);
    const dev0 = await s.loginAs('developer');
    const menuBefore = JSON.stringify((await menuOf(s, dev0)).body.data);
    const entries = (await s.app.ctx.db.selectFrom('sys_role_menu').select('menu_key').where('role_key', '=', 'default').execute()).map((r) => r.menu_key);
    const taken = entries[entries.length - 1];
    await s.exec(`DELETE FROM sys_role_menu WHERE role_key = 'default' AND menu_key = '${taken}'`);
    const menuChanged = JSON.stringify((await menuOf(s, dev0)).body.data);
    expect(menuChanged).not.toBe(menuBefore);
    await s.close();

    s = await start();
    const dev = await s.loginAs('developer');
    expect((await listOf(s, dev)).http).toBe(403);
    expect(JSON.stringify((await menuOf(s, dev)).body.data)).toBe(menuChanged);

    // a later version ships a permission the store had not seen for this role: it arrives, the admin's removal stays
    const recorded = await s.app.ctx.db.selectFrom('sys_setting').select('value').where('key', '=', 'shipped:uams:roles').executeTakeFirstOrThrow();
    const roles = JSON.parse(recorded.value) as { roleKey: string; permissions: string[] }[];
    const dev2 = roles.find((r) => r.roleKey === 'dev_approve')!;
    dev2.permissions = dev2.permissions.filter((p) => p !== 'sys:var:list');
    await s.app.ctx.db.updateTable('sys_setting').set({ value: JSON.stringify(roles) }).where('key', '=', 'shipped:uams:roles').execute();
    await s.exec(`DELETE FROM sys_role_permission WHERE permission = 'sys:var:list' AND role_id = (SELECT id FROM sys_role WHERE role_key = 'dev_approve')`);
    await s.close();

    s = await start();
    const approver = await s.loginAs('devapprover');
    expect((await s.request('POST', '/api/sys/var/searchList', { pageNum: 1, pageSize: 10 }, approver)).http).toBe(200);
    expect((await listOf(s, await s.loginAs('developer'))).http).toBe(403);
  });

  it('bring a role the files ship later (大屏设计师) to a store seeded before it: the role, its account and its menu', async () => {
    const start = sharedStore(store);
    let s = await start();
    // the store as a version without the role left it: no designer in what it recorded, nor in its tables
    const { db } = s.app.ctx;
    const read = async (key: string) => JSON.parse((await db.selectFrom('sys_setting').select('value').where('key', '=', key).executeTakeFirstOrThrow()).value);
    const roles = (await read('shipped:uams:roles')) as { roleKey: string }[];
    await db.updateTable('sys_setting').set({ value: JSON.stringify(roles.filter((r) => r.roleKey !== 'designer')) }).where('key', '=', 'shipped:uams:roles').execute();
    const menus = JSON.stringify(await read('shipped:menu:menus'), (k, v) => (k === 'roles' && Array.isArray(v) ? v.filter((r) => r !== 'designer') : v));
    await db.updateTable('sys_setting').set({ value: menus }).where('key', '=', 'shipped:menu:menus').execute();
    await s.exec(`DELETE FROM sys_user_role WHERE user_id = (SELECT id FROM sys_user WHERE username = 'designer')`);
    await s.exec(`DELETE FROM sys_user WHERE username = 'designer'`);
    await s.exec(`DELETE FROM sys_role_permission WHERE role_id = (SELECT id FROM sys_role WHERE role_key = 'designer')`);
    await s.exec(`DELETE FROM sys_role WHERE role_key = 'designer'`);
    await s.exec(`DELETE FROM sys_role_menu WHERE role_key = 'designer'`);
    await expect(s.loginAs('designer')).rejects.toThrow();
    await s.close();

    s = await start();
    const designer = await s.loginAs('designer');
    const tree = (await menuOf(s, designer)).body.data as Array<{ key: string; children?: Array<{ key: string }> }>;
    const keys = (list: typeof tree): string[] => list.flatMap((e) => [e.key, ...keys((e.children ?? []) as typeof tree)]);
    expect(keys(tree)).toEqual(expect.arrayContaining(['home', 'datav', 'screen', 'screen-design', 'dataset', 'dataset-edit-page', 'form', 'image']));
    expect(keys(tree)).not.toContain('datasource');
    expect(keys(tree)).not.toContain('api-design');
    expect((await s.request('POST', '/api/dataset/search', { pageNum: 1, pageSize: 10 }, designer)).http).toBe(200);
    expect((await listOf(s, designer)).http).toBe(403);
    const role = await s.app.ctx.db.selectFrom('sys_role').select(['role_name', 'role_type']).where('role_key', '=', 'designer').executeTakeFirstOrThrow();
    expect(role).toEqual({ role_name: '大屏设计师', role_type: 'default' });
  });
});
