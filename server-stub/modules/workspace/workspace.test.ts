// Workspace export and import over real HTTP between two deployments (issue 37 item 3), on each store (two
// PostgreSQL schemas when PG_URL is set): a screen with its dataset and API and a page with its dictionary move
// from one to the other with the data source mapped by choice; the preview tells new, unchanged and changed (with
// both sides), a conflict is settled per item, everything is written in one transaction, APIs arrive as drafts;
// crafted files (a role granted more than the importer holds, SQL from a designer, hostile JSON) are refused.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestServer, TEST_PASSWORD, testStores, type TestServer } from '../../testing/server.js';
import { addPerson } from '../../testing/people.js';
import { GOODS_SQL, sqliteFixture } from '../../testing/sqlite.js';

const W = '/api/workspace';

describe.each(testStores)('workspace export and import (%s stores)', (store) => {
  let src: TestServer;
  let dst: TestServer;
  let file: any;
  let dstDs: number;
  let screenId: number;
  beforeAll(async () => {
    [src, dst] = await Promise.all([startTestServer({ store }), startTestServer({ store })]);
    const srcDs = await sqliteFixture(src, 'shop.db', GOODS_SQL, 'shop');
    dstDs = await sqliteFixture(dst, 'shop.db', GOODS_SQL, 'shop_prod');
    const must = async (path: string, body: unknown) => {
      const r = await src.request('POST', path, body);
      if (r.body.status !== 0) throw new Error(`${path}: ${r.body.msg}`);
      return r.body.data;
    };
    // a dataset on the goods table, an API, a dictionary, a page naming it, a screen charting the dataset and the API
    const fields = await must('/api/dataset/fields', { kind: 'table', dsId: srcDs, definition: { table: { table: 'goods' } } });
    await must('/api/dataset/info/save', { name: '商品数据', kind: 'table', dsId: srcDs, definition: { table: { table: 'goods' } }, fields, cacheTtl: 60 });
    const datasetId = (await src.app.ctx.db.selectFrom('dataset').select('id').where('name', '=', '商品数据').executeTakeFirstOrThrow()).id;
    const group = await must('/api/gemini/api/group/save', { parentId: 0, name: '商品' });
    const apiId = await must('/api/gemini/api/design/info/save', { groupId: group, apiName: 'goods_price', apiComment: '商品价格' });
    await must('/api/gemini/api/config/save', { apiId, dsName: 'shop', script: 'select name, price from goods order by id', reqParamList: [] });
    await must('/api/dict/admin/type/save', { dictType: 'GOODS_LEVEL', dictName: '商品等级', valueType: 'string' });
    await must('/api/lowcode/page/save', {
      pageKey: 'goods_note',
      title: '商品备注',
      published: true,
      roles: ['sys_admin'],
      declaration: { title: '商品备注', columns: [{ title: '等级', field: 'level', dict: 'GOODS_LEVEL' }], dialog: { schema: { type: 'object', properties: { level: { type: 'string', title: '等级' } } } } },
    });
    const page = await must('/api/datav/screen/info/save', { pageName: '销售大屏' });
    screenId = page.id;
    const bar = await must('/api/datav/screen/widget/add', { pageId: page.id, widgetName: 'barChart' });
    const line = await must('/api/datav/screen/widget/add', { pageId: page.id, widgetName: 'lineChart' });
    const ds = bar.widgetProps.datasourceProps;
    bar.widgetProps.datasourceProps = { ...ds, datasourceType: 'DATASET', dataConfig: { ...ds.dataConfig, dataset: { datasetId } } };
    line.widgetProps.datasourceProps = { ...line.widgetProps.datasourceProps, datasourceType: 'API', dataConfig: { ...line.widgetProps.datasourceProps.dataConfig, datasource: 'goods_price' } };
    await must('/api/datav/screen/widget/update', { pageId: page.id, widgets: [bar, line] });
  });
  afterAll(async () => {
    await Promise.all([src?.close(), dst?.close()]);
  });

  it('exports the chosen items with what they depend on, data sources by name only', async () => {
    const items = (await src.request('GET', `${W}/items`)).body.data;
    expect(items.map((k: any) => k.kind)).toEqual(expect.arrayContaining(['dataset', 'api', 'page', 'screen', 'form', 'dict', 'role', 'variable']));
    const plan = await src.request('POST', `${W}/export`, { items: [{ kind: 'screen', key: String(screenId) }, { kind: 'page', key: 'goods_note' }], plan: true });
    expect(plan.body.status).toBe(0);
    expect(plan.body.data.items.map((i: any) => [i.kind, i.key, i.addedFor])).toEqual([
      ['dict', 'GOODS_LEVEL', '页面「商品备注」'],
      ['dataset', '商品数据', '大屏「销售大屏」'],
      ['api', 'goods_price', '大屏「销售大屏」'],
      ['page', 'goods_note', null],
      ['screen', '销售大屏', null],
    ]);
    const res = await fetch(`${src.url}${W}/export`, { method: 'POST', headers: { authorization: `Bearer ${src.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ kind: 'screen', key: String(screenId) }, { kind: 'page', key: 'goods_note' }] }) });
    expect(res.headers.get('content-disposition')).toMatch(/attachment/);
    const text = await res.text();
    file = JSON.parse(text);
    expect(file).toMatchObject({ format: 'dsc-workspace', formatVersion: 1, dataSources: [{ name: 'shop', type: 'sqlite' }] });
    // nothing of where the data source is or how to sign in
    expect(text).not.toMatch(/shop\.db|hostName|pwd|password/i);
    // the chart names its dataset by name
    const screen = file.items.find((i: any) => i.kind === 'screen');
    expect(screen.content.widgets[0].widgetProps.datasourceProps.dataConfig.dataset.datasetId).toBe('商品数据');
    // the file is what the published schema says
    expect(((await src.request('GET', `${W}/schema`)).body as unknown as { $id: string }).$id).toBe('workspace.schema.json');
  });

  it('previews the import with the data source mapped by choice, then writes it all; APIs wait for approval', async () => {
    const unmapped = (await dst.request('POST', `${W}/preview`, { file })).body.data;
    expect(unmapped.dataSources).toEqual([{ name: 'shop', type: 'sqlite', target: null }]);
    expect(unmapped.items.find((i: any) => i.kind === 'dataset')).toMatchObject({ status: 'invalid', reason: expect.stringContaining('数据源「shop」没有对应到本环境的数据源') });
    expect((await dst.request('POST', `${W}/import`, { file })).body.msg).toContain('数据源「shop」没有对应到本环境的数据源');
    const preview = (await dst.request('POST', `${W}/preview`, { file, dataSources: { shop: dstDs } })).body.data;
    expect(preview.items.map((i: any) => [i.kind, i.status, i.reason])).toEqual([
      ['dict', 'new', null],
      ['dataset', 'new', null],
      ['api', 'new', null],
      ['page', 'new', null],
      ['screen', 'new', null],
    ]);
    expect(preview.targets).toEqual(expect.arrayContaining([expect.objectContaining({ id: dstDs, name: 'shop_prod' })]));
    // a dry run checks and writes nothing
    expect((await dst.request('POST', `${W}/import`, { file, dataSources: { shop: dstDs }, dryRun: true })).body).toMatchObject({ status: 0, data: { created: 5, dryRun: true } });
    expect(await dst.app.ctx.db.selectFrom('dataset').select('id').executeTakeFirst()).toBeUndefined();

    const done = await dst.request('POST', `${W}/import`, { file, dataSources: { shop: dstDs } });
    expect(done.body).toMatchObject({ status: 0, data: { created: 5, replaced: 0, copied: 0 } });
    expect(done.body.msg).toContain('1 个接口为草稿，提交审批通过后才能上线');
    const db = dst.app.ctx.db;
    const dataset = await db.selectFrom('dataset').selectAll().where('name', '=', '商品数据').executeTakeFirstOrThrow();
    expect(dataset.ds_id).toBe(dstDs);
    const api = await db.selectFrom('gemini_api').selectAll().where('api_name', '=', 'goods_price').executeTakeFirstOrThrow();
    expect([api.api_status, api.online_status, api.ds_name]).toEqual([0, 0, 'shop_prod']);
    // the screen's chart reads this deployment's dataset, and answers from it
    const screen = await db.selectFrom('datav_page').selectAll().where('page_name', '=', '销售大屏').executeTakeFirstOrThrow();
    const widgets = (await dst.request('GET', `/api/datav/screen/widget/select?pageId=${screen.id}`)).body.data;
    expect(widgets[0].widgetProps.datasourceProps.dataConfig.dataset.datasetId).toBe(dataset.id);
    const answer = await dst.request('POST', '/api/dataset/query', { queries: [{ datasetId: dataset.id, dimensions: [{ field: 'name' }], measures: [{ field: 'price', agg: 'sum' }] }] });
    expect(answer.body.status).toBe(0);
    // the page with its menu entry and dictionary
    expect((await dst.request('GET', '/api/lowcode/page/get?pageKey=goods_note')).body.data.title).toBe('商品备注');
    expect(JSON.stringify((await dst.request('GET', '/api/menu/routes/get?moduleType=platform')).body.data)).toContain('商品备注');
    expect((await dst.request('POST', '/api/dict/selectMapData', ['GOODS_LEVEL'])).body.status).toBe(0);
    // each write kept a version
    expect((await dst.request('GET', `/api/history/list?kind=screen&key=${screen.id}`)).body.data.records[0].note).toBe('工作区导入');

    // again: everything unchanged, nothing to import
    const again = (await dst.request('POST', `${W}/preview`, { file, dataSources: { shop: dstDs } })).body.data;
    expect(again.items.every((i: any) => i.status === 'same')).toBe(true);
    expect((await dst.request('POST', `${W}/import`, { file, dataSources: { shop: dstDs } })).body.msg).toBe('没有要导入的内容（全部保留或无变化）');
  });

  it('tells an update at the source (imported as it is) from a conflict (edited here meanwhile: keep, replace or a copy)', async () => {
    const db = dst.app.ctx.db;
    const exported = async (items: unknown[]) => (await fetch(`${src.url}${W}/export`, { method: 'POST', headers: { authorization: `Bearer ${src.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ items }) })).json();
    // the source changed the dataset; production has not touched it since its import: an update
    await src.app.ctx.db.updateTable('dataset').set({ cache_ttl: 30 }).where('name', '=', '商品数据').execute();
    const update = await exported([{ kind: 'dataset', key: '商品数据' }]);
    const seen = (await dst.request('POST', `${W}/preview`, { file: update, dataSources: { shop: dstDs } })).body.data.items[0];
    expect(seen).toMatchObject({ status: 'changed', before: { cacheTtl: 60 }, after: { cacheTtl: 30 } });
    expect((await dst.request('POST', `${W}/import`, { file: update, dataSources: { shop: dstDs } })).body).toMatchObject({ status: 0, data: { replaced: 1 } });
    expect((await db.selectFrom('dataset').select('cache_ttl').where('name', '=', '商品数据').executeTakeFirstOrThrow()).cache_ttl).toBe(30);

    // edited here meanwhile: a conflict, settled only as decided
    await db.updateTable('dataset').set({ cache_ttl: 5 }).where('name', '=', '商品数据').execute();
    const preview = (await dst.request('POST', `${W}/preview`, { file, dataSources: { shop: dstDs } })).body.data;
    expect(preview.items.find((i: any) => i.kind === 'dataset')).toMatchObject({ status: 'conflict', before: { cacheTtl: 5 }, after: { cacheTtl: 60 } });
    expect((await dst.request('POST', `${W}/import`, { file, dataSources: { shop: dstDs } })).body.msg).toBe('数据集「商品数据」在本环境已存在且内容不同（本环境改过，或是另一项同名内容）：请选择保留、覆盖或导入为副本');
    // a copy: a second dataset beside the first
    const copied = await dst.request('POST', `${W}/import`, { file, dataSources: { shop: dstDs }, decisions: { 'dataset:商品数据': 'copy' } });
    expect(copied.body).toMatchObject({ status: 0, data: { copied: 1 } });
    expect((await db.selectFrom('dataset').select('name').orderBy('id').execute()).map((r) => r.name)).toEqual(['商品数据', '商品数据（导入）']);
    // replace: the file's content, as a new version of the same dataset
    await dst.request('POST', `${W}/import`, { file, dataSources: { shop: dstDs }, decisions: { 'dataset:商品数据': 'replace' } });
    expect((await db.selectFrom('dataset').select('cache_ttl').where('name', '=', '商品数据').executeTakeFirstOrThrow()).cache_ttl).toBe(60);
  });

  it('writes all or nothing: a failing item leaves no trace of the others', async () => {
    const bad = structuredClone(file);
    bad.items = bad.items.map((i: any) => (i.kind === 'dict' ? { ...i, key: 'GOODS_LEVEL_X' } : i.kind === 'screen' ? { ...i, key: '新大屏', content: { ...i.content, widgets: [{ ...i.content.widgets[0], widgetName: 'noSuchKind' }] } } : { ...i, key: i.kind === 'page' ? 'goods_note_x' : i.key }));
    const r = await dst.request('POST', `${W}/import`, { file: bad, dataSources: { shop: dstDs }, decisions: { 'dataset:商品数据': 'keep', 'api:goods_price': 'keep' } });
    expect(r.body.status).not.toBe(0);
    expect(r.body.msg).toMatch(/^大屏「新大屏」不能导入：/);
    const db = dst.app.ctx.db;
    expect(await db.selectFrom('sys_dict_type').select('id').where('dict_type', '=', 'GOODS_LEVEL_X').executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom('lowcode_page').select('id').where('page_key', '=', 'goods_note_x').executeTakeFirst()).toBeUndefined();
  });

  it('refuses crafted files: a role granted more than the importer holds, SQL from a designer, hostile JSON', async () => {
    const db = dst.app.ctx.db;
    // an importer who may import and manage roles and datasets, but holds neither *:*:* nor SQL
    const role = await db.insertInto('sys_role').values({ role_name: '搬运工', role_key: 'mover', role_type: 'default', order_num: 9, data_scope: '1', create_time: '2026-11-28 00:00:00' }).returning('id').executeTakeFirstOrThrow();
    const perms = ['system:workspace:import', 'system:workspace:export', 'system:role:list', 'system:role:add', 'datav:dataset:list', 'datav:dataset:add'];
    await db.insertInto('sys_role_permission').values(perms.map((permission) => ({ role_id: role.id, permission }))).execute();
    const mover = await addPerson(dst, 'mover1', [role.id]);
    const one = (item: unknown) => ({ format: 'dsc-workspace', formatVersion: 1, items: [item] });

    // a role that would hold what the importer does not (the user management page and its writes)
    const grab = one({ kind: 'role', key: 'grabber', title: '夺权', content: { roleName: '夺权', roleType: 'default', orderNum: 1, remark: null, dataScope: '1', permKeys: ['m:user', 'm:user-add', 'm:role', 'm:role-edit'] } });
    const r1 = await dst.request('POST', `${W}/import`, { file: grab }, mover.token);
    expect(r1.http).toBe(403);
    expect(r1.body.msg).toMatch(/^角色「grabber」不能导入：不能授予自己没有的权限/);
    // a grant this deployment has no leaf for (the administrators' *:*:*) is refused, not dropped
    const all = one({ kind: 'role', key: 'grabber', title: '夺权', content: { roleName: '夺权', orderNum: 1, dataScope: '1', permKeys: ['p:*:*:*'] } });
    expect((await dst.request('POST', `${W}/import`, { file: all })).body.msg).toBe('角色「grabber」不能导入：权限在本环境不存在：p:*:*:*');
    // the administrator role is never imported, whoever imports
    const admin = one({ kind: 'role', key: 'sys_admin', title: '管理员', content: { roleName: '管理员', orderNum: 1, dataScope: '1', permKeys: [] } });
    expect((await dst.request('POST', `${W}/import`, { file: admin })).body.msg).toBe('角色「sys_admin」不能导入：管理员角色不能导入');
    expect(await db.selectFrom('sys_role').select('id').where('role_key', '=', 'grabber').executeTakeFirst()).toBeUndefined();

    // a SQL dataset from someone who may not write SQL
    const sqlSet = one({ kind: 'dataset', key: '偷数', title: '偷数', content: { group: [], kind: 'sql', dataSource: 'shop', definition: { sql: 'select * from goods', params: [] }, fields: [], rowRules: [], cacheTtl: 60 } });
    const r2 = await dst.request('POST', `${W}/import`, { file: sqlSet, dataSources: { shop: dstDs } }, mover.token);
    expect(r2.body.status).not.toBe(0);
    expect(r2.body.msg).toMatch(/^数据集「偷数」不能导入：/);
    expect(await db.selectFrom('dataset').select('id').where('name', '=', '偷数').executeTakeFirst()).toBeUndefined();
    // nor may they import what they have no permission for (pages)
    const page = file.items.find((i: any) => i.kind === 'page');
    expect((await dst.request('POST', `${W}/preview`, { file: one({ ...page, key: 'other_page' }) }, mover.token)).body.data.items[0]).toMatchObject({ status: 'invalid', reason: '没有导入页面的权限' });

    // hostile JSON: prototype keys, depth, the wrong format, not JSON
    const proto = '{"format":"dsc-workspace","formatVersion":1,"items":[{"kind":"dict","key":"X_Y","title":"x","content":{"__proto__":{"polluted":1}}}]}';
    expect((await dst.request('POST', `${W}/preview`, { file: proto })).body.msg).toBe('文件中含有不允许的键「__proto__」');
    expect(({} as any).polluted).toBeUndefined();
    let deep: any = {};
    for (let i = 0; i < 200; i++) deep = { a: deep };
    expect((await dst.request('POST', `${W}/preview`, { file: JSON.stringify(one({ kind: 'dict', key: 'DEEP_X', title: 'x', content: deep })) })).body.msg).toBe('文件嵌套超过 40 层');
    expect((await dst.request('POST', `${W}/preview`, { file: { format: 'dsc-api-export', formatVersion: 1, apis: [] } })).body.msg).toMatch(/^文件不符合工作区导出格式：/);
    expect((await dst.request('POST', `${W}/preview`, { file: '{not json' })).body.msg).toBe('文件不是合法的 JSON');
    // too many items: refused by the schema before anything is read
    const many = { format: 'dsc-workspace', formatVersion: 1, items: Array.from({ length: 5001 }, (_, i) => ({ kind: 'dict', key: `K_${i}`, title: 'x', content: {} })) };
    expect((await dst.request('POST', `${W}/preview`, { file: JSON.stringify(many) })).body.msg).toBe('文件不符合工作区导出格式：字段「items」最多 5000 项');
    // without the import permission: refused by the route
    const designer = await dst.loginAs('designer');
    expect((await dst.request('POST', `${W}/preview`, { file }, designer)).http).toBe(403);
    expect((await dst.request('POST', `${W}/import`, { file }, null)).http).toBe(401);
  });

  it('runs headless for a pipeline: npm run workspace -- export / import --dry-run against a deployment’s URL', async () => {
    const run = (args: string[]) => promisify(execFile)(path.resolve('node_modules/.bin/tsx'), ['scripts/workspace.ts', ...args], { env: { ...process.env, WORKSPACE_USER: 'admin', WORKSPACE_PASSWORD: TEST_PASSWORD } });
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'ws-cli-')), 'file.json');
    const exported = await run(['export', '--out', out, '--items', `screen:${screenId}`, '--url', src.url]);
    expect(exported.stdout).toContain('已导出 3 项（数据源 1 个）');
    expect(JSON.parse(readFileSync(out, 'utf8')).format).toBe('dsc-workspace');
    const checked = await run(['import', out, '--dry-run', '--map', `shop=${dstDs}`, '--decide', 'keep', '--url', dst.url]);
    expect(checked.stdout).toContain(`数据源 shop → shop_prod（${dstDs}）`);
    expect(checked.stdout).toMatch(/大屏\t销售大屏\t无变化/);
    expect(checked.stdout).toContain('没有要导入的内容');
    // refused: the exit code says so, with the reason
    await expect(run(['import', out, '--url', dst.url])).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('数据源「shop」没有对应到本环境的数据源') });
  });

  it('carries menu entries an admin added, with their parent and the page they open', async () => {
    const M = '/api/system/menu';
    const dir = (await src.request('POST', `${M}/save`, { parentId: 0, menuKey: 'tools_dir', name: '工具', type: 'M', path: '/tools', orderNum: 50 })).body.data;
    expect((await src.request('POST', `${M}/save`, { parentId: dir, menuKey: 'tools_goods', name: '商品备注入口', type: 'C', path: '/tools/goods', component: 'page:goods_note', orderNum: 1, perms: 'sys:var:list' })).body.status).toBe(0);
    const plan = (await src.request('POST', `${W}/export`, { items: [{ kind: 'menu', key: 'tools_goods' }], plan: true })).body.data;
    expect(plan.items.map((i: any) => [i.kind, i.key])).toEqual([
      ['dict', 'GOODS_LEVEL'],
      ['page', 'goods_note'],
      ['menu', 'tools_goods'],
      ['menu', 'tools_dir'],
    ]);
    const res = await fetch(`${src.url}${W}/export`, { method: 'POST', headers: { authorization: `Bearer ${src.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ kind: 'menu', key: 'tools_goods' }] }) });
    const menus = await res.json();
    const done = await dst.request('POST', `${W}/import`, { file: menus, decisions: {} });
    expect(done.body).toMatchObject({ status: 0, data: { created: 2 } });
    const rows = await dst.app.ctx.db.selectFrom('sys_menu').select(['menu_key', 'parent_key', 'entry']).where('menu_key', 'in', ['tools_dir', 'tools_goods']).orderBy('menu_key').execute();
    expect(rows.map((r) => [r.menu_key, r.parent_key, JSON.parse(r.entry).component ?? null])).toEqual([
      ['tools_dir', null, null],
      ['tools_goods', 'tools_dir', 'page:goods_note'],
    ]);
    expect((await dst.request('GET', `/api/history/list?kind=menu&key=tools_goods`)).body.data.records[0].note).toBe('工作区导入');
  });

  it('takes a dictionary the same file brings as present when it checks a page naming it', async () => {
    const file2 = {
      format: 'dsc-workspace',
      formatVersion: 1,
      items: [
        { kind: 'dict', key: 'SHIP_MODE', title: '运输方式', content: { name: '运输方式', valueType: 'string', items: [{ value: 'air', label: '空运' }] } },
        {
          kind: 'page',
          key: 'ship_note',
          title: '运输备注',
          content: { published: false, roles: [], declaration: { title: '运输备注', columns: [{ title: '方式', field: 'mode', dict: 'SHIP_MODE' }], dialog: { schema: { type: 'object', properties: { mode: { type: 'string', title: '方式', 'x-dict': 'SHIP_MODE' } } } } } },
        },
      ],
    };
    const r = await dst.request('POST', `${W}/import`, { file: file2 });
    expect(r.body).toMatchObject({ status: 0, data: { created: 2 } });
    // a dictionary neither here nor in the file is still refused, as a page save refuses it
    const bad = structuredClone(file2);
    bad.items = [{ ...bad.items[1], key: 'ship_note_2', content: { ...bad.items[1].content, declaration: { ...(bad.items[1].content as any).declaration, dialog: { schema: { type: 'object', properties: { mode: { type: 'string', title: '方式', 'x-dict': 'NO_SUCH_DICT' } } } } } } }] as any;
    expect((await dst.request('POST', `${W}/import`, { file: bad })).body.msg).toMatch(/^页面「ship_note_2」不能导入：页面声明不合法：.*NO_SUCH_DICT/);
  });

  it('names its deployment by a random id; remembers a kept update; refuses menu cycles and grants of entries not here', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${src.url}${W}/export`, { method: 'POST', headers: { authorization: `Bearer ${src.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ kind: 'dict', key: 'GOODS_LEVEL' }] }) });
      ids.add((await res.json()).origin);
    }
    expect([...ids]).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);

    // an update kept here is remembered: the next file from there asks instead of replacing
    await src.request('POST', '/api/dict/admin/type/save', { id: (await src.app.ctx.db.selectFrom('sys_dict_type').select('id').where('dict_type', '=', 'GOODS_LEVEL').executeTakeFirstOrThrow()).id, dictType: 'GOODS_LEVEL', dictName: '商品等级（新）', valueType: 'string' });
    const res = await fetch(`${src.url}${W}/export`, { method: 'POST', headers: { authorization: `Bearer ${src.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ kind: 'dict', key: 'GOODS_LEVEL' }] }) });
    const update = await res.json();
    expect((await dst.request('POST', `${W}/preview`, { file: update })).body.data.items[0].status).toBe('changed');
    expect((await dst.request('POST', `${W}/import`, { file: update, decisions: { 'dict:GOODS_LEVEL': 'keep' } })).body.status).toBe(0);
    expect((await dst.request('POST', `${W}/preview`, { file: update })).body.data.items[0].status).toBe('conflict');

    // two entries made each other's parents by one file: refused whole
    const entry = (key: string, parentKey: string | null) => ({ kind: 'menu', key, title: key, content: { menuKey: key, parentKey, name: key, type: 'M', path: `/${key}`, component: null, link: null, newTab: false, icon: null, hidden: false, cache: true, perms: null, orderNum: 1 } });
    await dst.request('POST', `${W}/import`, { file: { format: 'dsc-workspace', formatVersion: 1, items: [entry('loop_a', null), entry('loop_b', null)] } });
    const loop = await dst.request('POST', `${W}/import`, { file: { format: 'dsc-workspace', formatVersion: 1, items: [entry('loop_a', 'loop_b'), entry('loop_b', 'loop_a')] }, decisions: { 'menu:loop_a': 'replace', 'menu:loop_b': 'replace' } });
    expect(loop.body.msg).toMatch(/的上级形成了循环$/);
    expect((await dst.app.ctx.db.selectFrom('sys_menu').select('parent_key').where('menu_key', 'in', ['loop_a', 'loop_b']).execute()).map((r) => r.parent_key)).toEqual([null, null]);
    // a role granting an entry this deployment does not have (even one the file brings) is refused, not half applied
    const role = { kind: 'role', key: 'tools_viewer', title: '工具查看', content: { roleName: '工具查看', orderNum: 1, dataScope: '1', permKeys: ['m:new_tools'] } };
    expect((await dst.request('POST', `${W}/import`, { file: { format: 'dsc-workspace', formatVersion: 1, items: [role, entry('new_tools', null)] } })).body.msg).toBe('角色「tools_viewer」不能导入：权限在本环境不存在：m:new_tools');
  });

  it('lets a page be seen by a role the same file brings', async () => {
    const role = { kind: 'role', key: 'note_reader', title: '备注查看', content: { roleName: '备注查看', orderNum: 1, dataScope: '1', permKeys: [] } };
    const page = { kind: 'page', key: 'reader_note', title: '查看备注', content: { published: true, roles: ['note_reader'], declaration: { title: '查看备注', columns: [{ title: '名称', field: 'name' }], dialog: { schema: { type: 'object', properties: { name: { type: 'string', title: '名称' } } } } } } };
    expect((await dst.request('POST', `${W}/import`, { file: { format: 'dsc-workspace', formatVersion: 1, items: [page, role] } })).body).toMatchObject({ status: 0, data: { created: 2 } });
    const grants = await dst.app.ctx.db.selectFrom('sys_role_menu').select('menu_key').where('role_key', '=', 'note_reader').execute();
    expect(grants.map((g) => g.menu_key)).toContain('lowcode-reader_note');
  });
});
