import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testStores, type TestServer } from '../../testing/server.js';
import { removeMenuEntry, upsertMenuEntry } from './store.js';

interface Node {
  key: string;
  type: string;
  component?: string;
  parentId: number | null;
  children?: Node[];
}
const keys = (nodes: Node[]): string[] => nodes.flatMap((n) => [n.key, ...keys(n.children ?? [])]);

describe.each(testStores)('menus per role (%s store)', (store) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ store });
  });
  afterAll(() => s?.close());

  it('gives the admin every seeded entry as a tree with parents', async () => {
    const r = await s.request<Node[]>('GET', '/api/menu/routes/get?moduleType=platform');
    expect(r.body.status).toBe(0);
    const all = keys(r.body.data);
    for (const k of ['home', 'data', 'datasource', 'datasource-add', 'remote', 'ftp', 'etl', 'system', 'pagemanager']) expect(all).toContain(k);
    const data = r.body.data.find((n) => n.key === 'data')!;
    expect(data.type).toBe('M');
    expect(data.children!.every((c) => c.parentId != null)).toBe(true);
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
