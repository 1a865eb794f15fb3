import { describe, expect, it } from 'vitest';
import { serverForSuite, testStores } from '../../testing/server.js';
import { removeMenuEntry, upsertMenuEntry } from '../../core/menus.js';

interface Node {
  key: string;
  type: string;
  component?: string;
  parentId: number | null;
  children?: Node[];
}
const keys = (nodes: Node[]): string[] => nodes.flatMap((n) => [n.key, ...keys(n.children ?? [])]);

describe.each(testStores)('menus per role (%s store)', (store) => {
  const s = serverForSuite({ store });

  it('gives the admin every seeded entry as a tree with parents', async () => {
    const r = await s.request<Node[]>('GET', '/api/menu/routes/get?moduleType=platform');
    expect(r.body.status).toBe(0);
    const all = keys(r.body.data);
    for (const k of ['home', 'data', 'datasource', 'datasource-add', 'remote', 'ftp', 'etl', 'system', 'pagemanager']) expect(all).toContain(k);
    const data = r.body.data.find((n) => n.key === 'data')!;
    expect(data.type).toBe('M');
    expect(data.children!.every((c) => c.parentId != null)).toBe(true);
  });

  it('says whether a path exists for anyone (the shell then shows 401, not 404), and nothing more', async () => {
    const dev = await s.loginAs('developer');
    const exists = async (path: string) => (await s.request<{ exists: boolean }>('GET', `/api/menu/routes/exists?path=${encodeURIComponent(path)}`, undefined, dev)).body;
    // admin-only page and its directory: they exist, though the developer's own menu lacks them
    expect(await exists('/system/pages')).toEqual({ status: 0, msg: '操作成功', data: { exists: true } });
    expect((await exists('/system/pages/')).data.exists).toBe(true);
    expect((await exists('/system')).data.exists).toBe(true);
    // hidden V pages count too; buttons (no path) and unknown paths do not
    expect((await exists('/apimgr/design/detail')).data.exists).toBe(true);
    expect((await exists('/nowhere/at/all')).data.exists).toBe(false);
    expect((await exists('/system/page')).data.exists).toBe(false);
    // a published custom page exists; once removed it does not
    await upsertMenuEntry(s.app.ctx.db, { key: 'lowcode-probe', name: '探针', type: 'C', path: '/custom/probe', component: 'page:probe' }, ['sys_admin']);
    expect((await exists('/custom/probe')).data.exists).toBe(true);
    await removeMenuEntry(s.app.ctx.db, 'lowcode-probe');
    expect((await exists('/custom/probe')).data.exists).toBe(false);
    // bad input is named in Chinese; no session, no answer
    expect((await exists('system')).msg).toBe('字段「路径（path）」格式不正确，应为：以 / 开头的页面地址');
    expect((await s.request('GET', '/api/menu/routes/exists?path=/system', undefined, null)).http).toBe(401);
  });

  it('hides entries a role may not see, and empty directories with them', async () => {
    const biz = await s.loginAs('bizapprover');
    const r = await s.request<Node[]>('GET', '/api/menu/routes/get?moduleType=platform', undefined, biz);
    const all = keys(r.body.data);
    expect(all).toContain('datasource');
    expect(all).not.toContain('variable');
    expect(all).not.toContain('ops');
    expect(all).not.toContain('pagemanager');
    expect(all).not.toContain('system');
  });

  it('shows a published custom page to the chosen roles only, and drops it when removed', async () => {
    const dev = await s.loginAs('developer');
    const biz = await s.loginAs('bizapprover');
    const seen = async (token: string) => keys((await s.request<Node[]>('GET', '/api/menu/routes/get', undefined, token)).body.data);
    expect(await seen(dev)).not.toContain('supplier');
    await upsertMenuEntry(s.app.ctx.db, { key: 'supplier', name: '供应商', type: 'C', component: 'page:supplier' }, ['default']);
    expect(await seen(dev)).toEqual(expect.arrayContaining(['custom', 'supplier']));
    expect(await seen(biz)).not.toContain('supplier');
    expect(await seen(biz)).not.toContain('custom');
    // moved by an admin (菜单管理), it stays where it was put when published again
    await s.app.ctx.db.updateTable('sys_menu').set({ parent_key: 'data', order_num: 42 }).where('menu_key', '=', 'supplier').execute();
    await upsertMenuEntry(s.app.ctx.db, { key: 'supplier', name: '供应商（新）', type: 'C', component: 'page:supplier' }, ['default']);
    const placed = await s.app.ctx.db.selectFrom('sys_menu').select(['parent_key', 'order_num', 'entry']).where('menu_key', '=', 'supplier').executeTakeFirstOrThrow();
    expect([placed.parent_key, placed.order_num, JSON.parse(placed.entry).name]).toEqual(['data', 42, '供应商（新）']);
    await removeMenuEntry(s.app.ctx.db, 'supplier');
    expect(await seen(dev)).not.toContain('supplier');
    expect(await seen(dev)).not.toContain('custom');
  });

  it('rejects a malformed moduleType', async () => {
    const r = await s.request('GET', '/api/menu/routes/get?moduleType=' + encodeURIComponent("x' or 1=1"));
    expect(r.body.status).toBe(1);
    expect(r.body.msg).toContain('moduleType');
  });
});
