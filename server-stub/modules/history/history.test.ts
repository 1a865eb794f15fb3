// Versions of designed items over real HTTP (issue 37 item 1), on each store: every save of a page declaration and
// of a screen (canvas and widgets as one snapshot) keeps a version with who, when and a note; the newest
// VERSIONS_KEPT stay plus every published one; 恢复 saves the old content as the newest version (history never
// rewritten); versions are shown only to those who may edit such items; a secret-looking value is never kept.
import { serverForSuite, testStores } from '../../testing/server.js';
import { addPerson } from '../../testing/people.js';
import { sqliteFixture } from '../../testing/sqlite.js';

const H = '/api/history';

describe.each(testStores)('history of designed items (%s store)', (store) => {
  const s = serverForSuite({ store, env: { VERSIONS_KEPT: '3' } });
  const must = async (method: 'GET' | 'POST', path: string, body?: unknown, token?: string) => {
    const r = await s.request(method, path, body, token);
    if (r.body.status !== 0) throw new Error(`${path}: ${r.body.msg}`);
    return r.body.data;
  };
  const decl = (title: string, width: number) => ({
    title,
    columns: [{ title: '城市', field: 'city', width }],
    dialog: { schema: { type: 'object', properties: { city: { type: 'string', title: '城市' } } } },
  });

  it('keeps a version per save of a page, the newest VERSIONS_KEPT and every published one, and restores one as a new version', async () => {
    const id = await must('POST', '/api/lowcode/page/save', { pageKey: 'hist_page', title: '历史页', declaration: decl('历史页', 120), published: true, roles: ['sys_admin'], note: '第一版' });
    for (const w of [140, 160, 180]) await must('POST', '/api/lowcode/page/save', { id, pageKey: 'hist_page', title: '历史页', declaration: decl('历史页', w), note: `宽度 ${w}` });
    const list = await must('GET', `${H}/list?kind=page&key=hist_page`);
    // 3 kept drafts (the newest) and the published first one
    expect(list.records.map((v: any) => [v.note, v.published])).toEqual([
      ['宽度 180', false],
      ['宽度 160', false],
      ['宽度 140', false],
      ['第一版', true],
    ]);
    expect(list.records[0]).toMatchObject({ createUser: 'admin', title: '历史页', number: 4 });
    expect(list).toMatchObject({ title: '历史页', exists: true });
    const first = await must('GET', `${H}/get?id=${list.records[3].id}`);
    expect(first.content.columns[0].width).toBe(120);
    // 恢复 the first: the page has its content again, as a fifth version; the others stay
    expect((await s.request('POST', `${H}/restore`, { id: first.id })).body).toMatchObject({ status: 0, msg: '已恢复：旧版本的内容已保存为最新版本' });
    const page = await must('GET', '/api/lowcode/page/get?pageKey=hist_page');
    expect(page.declaration.columns[0].width).toBe(120);
    // the publication stays as it is now (the later saves withdrew it), whatever the restored version had
    expect(page.published).toBe(false);
    const after = await must('GET', `${H}/list?kind=page&key=hist_page`);
    expect(after.records[0].note).toMatch(/^恢复自版本 1（/);
    expect(after.records.map((v: any) => v.note)).toContain('第一版');
    // the item now, for a refused editor's diff
    expect((await must('GET', `${H}/current?kind=page&key=hist_page`)).content.columns[0].width).toBe(120);
  });

  it('keeps a screen’s canvas and widgets as one snapshot and restores it through the designer’s own checks', async () => {
    const D = '/api/datav/screen';
    const page = await must('POST', `${D}/info/save`, { pageName: '历史大屏' });
    const a = await must('POST', `${D}/widget/add`, { pageId: page.id, widgetName: 'singleLineTitle' });
    const b = await must('POST', `${D}/widget/add`, { pageId: page.id, widgetName: 'barChart' });
    const moved = (w: any, left: number) => ({ ...w, widgetProps: { ...w.widgetProps, viewProps: { ...w.widgetProps.viewProps, left } } });
    await must('POST', `${D}/widget/update`, { pageId: page.id, widgets: [moved(a, 10), b] });
    await must('POST', `${D}/widget/update`, { pageId: page.id, widgets: [moved(a, 300)] });
    const list = await must('GET', `${H}/list?kind=screen&key=${page.id}`);
    // created, then two saves (the single widget adds are not the designer's save)
    expect(list.records).toHaveLength(3);
    const two = await must('GET', `${H}/get?id=${list.records[1].id}`);
    expect(two.content.widgets.map((w: any) => [w.widgetName, w.widgetProps.viewProps.left])).toEqual([
      ['singleLineTitle', 10],
      ['barChart', b.widgetProps.viewProps.left],
    ]);
    expect(two.content.canvas).toMatchObject({ pageName: '历史大屏', width: 1920 });
    await must('POST', `${H}/restore`, { id: two.id });
    const widgets = await must('GET', `${D}/widget/select?pageId=${page.id}`);
    expect(widgets.map((w: any) => [w.id, w.widgetProps.viewProps.left])).toEqual([
      [a.id, 10],
      [b.id, b.widgetProps.viewProps.left],
    ]);
    expect((await must('GET', `${H}/list?kind=screen&key=${page.id}`)).records[0].note).toMatch(/^恢复自版本 2/);
    // a version whose widget is no longer valid is refused whole by the same checks, nothing written
    const v = await s.app.ctx.db.selectFrom('sys_version').selectAll().where('id', '=', two.id).executeTakeFirstOrThrow();
    const broken = JSON.parse(v.content);
    broken.widgets[1].widgetProps.viewProps.width = 'wide';
    await s.app.ctx.db.updateTable('sys_version').set({ content: JSON.stringify(broken) }).where('id', '=', two.id).execute();
    expect((await s.request('POST', `${H}/restore`, { id: two.id })).body.msg).toContain('部件【柱状图】的属性不合法');
    expect((await must('GET', `${D}/widget/select?pageId=${page.id}`)).map((w: any) => w.widgetProps.viewProps.left)).toEqual([10, b.widgetProps.viewProps.left]);
  });

  it('keeps a version per save of a menu entry and restores one through the menu save', async () => {
    const M = '/api/system/menu';
    const id = await must('POST', `${M}/save`, { parentId: 0, menuKey: 'hist_menu', name: '历史菜单', type: 'C', path: '/hist/menu', component: 'page:variable', icon: 'BookOutlined', orderNum: 5, perms: 'sys:var:list' });
    await must('POST', `${M}/save`, { id, parentId: 0, name: '历史菜单改名', type: 'C', path: '/hist/menu2', component: 'page:variable', icon: 'BookOutlined', orderNum: 6, perms: 'sys:var:list' });
    const list = await must('GET', `${H}/list?kind=menu&key=hist_menu`);
    expect(list.records.map((v: any) => v.title)).toEqual(['历史菜单改名', '历史菜单']);
    const first = await must('GET', `${H}/get?id=${list.records[1].id}`);
    expect(first.content).toMatchObject({ menuKey: 'hist_menu', name: '历史菜单', path: '/hist/menu', orderNum: 5, parentKey: null });
    await must('POST', `${H}/restore`, { id: first.id });
    const now = await must('GET', `${M}/get?id=${id}`);
    expect(now).toMatchObject({ name: '历史菜单', path: '/hist/menu', orderNum: 5 });
    expect((await must('GET', `${H}/list?kind=menu&key=hist_menu`)).records[0].note).toMatch(/^恢复自版本 1/);
  });

  it('shows versions only to those who may edit such items, and never keeps a secret-looking value', async () => {
    const role = await must('POST', '/api/system/role/save', { roleName: `hist_viewer_${store}`, roleKey: `hist_viewer_${store}`, roleType: 'default', orderNum: 9, dataScope: '1', permKeys: ['lowcode:page:list', 'datav:screen:list'] });
    const { token } = await addPerson(s, `hist.viewer.${store}`, [role]);
    const anyVersion = (await must('GET', `${H}/list?kind=page&key=hist_page`)).records[0].id;
    for (const [method, path, body] of [
      ['GET', `${H}/list?kind=page&key=hist_page`],
      ['GET', `${H}/get?id=${anyVersion}`],
      ['GET', `${H}/current?kind=page&key=hist_page`],
      ['POST', `${H}/restore`, { id: anyVersion }],
    ] as const) {
      const r = await s.request(method, path, body, token);
      expect(r.body, path).toMatchObject({ status: 1, msg: '没有权限查看该类内容的历史版本' });
    }
    expect((await s.request('GET', `${H}/list?kind=page&key=hist_page`, undefined, null)).http).toBe(401);
    for (const bad of ['kind=user&key=1', 'kind=page', 'kind=page&key=', `kind=page&key=${'x'.repeat(101)}`]) expect((await s.request('GET', `${H}/list?${bad}`)).body.status, bad).toBe(1);
    // a declaration holding a password-looking value: kept masked
    const withSecret = { ...decl('密码页', 100), dialog: { ...decl('密码页', 100).dialog, defaults: { password: 'Hunter2!' } } };
    await must('POST', '/api/lowcode/page/save', { pageKey: 'hist_secret', title: '密码页', declaration: withSecret });
    const rows = await s.app.ctx.db.selectFrom('sys_version').select('content').where('item_key', '=', 'hist_secret').execute();
    expect(rows.map((r) => r.content).join('')).not.toContain('Hunter2!');
    expect(rows[0].content).toContain('******');
    // such a version is not restored (the mask would become the value)
    await must('POST', '/api/lowcode/page/save', { id: (await must('GET', '/api/lowcode/page/get?pageKey=hist_secret')).id, pageKey: 'hist_secret', title: '密码页', declaration: decl('密码页', 200) });
    const masked = (await must('GET', `${H}/list?kind=page&key=hist_secret`)).records[1].id;
    expect((await s.request('POST', `${H}/restore`, { id: masked })).body.msg).toBe('该版本中的密码等密钥没有保存在历史版本里，不能恢复：请在编辑器中对照差异手工修改');
  });
});

describe.each(testStores)('the recycle bin (%s store)', (store) => {
  const s = serverForSuite({ store });
  const R = '/api/history/recycle';
  const must = async (method: 'GET' | 'POST', path: string, body?: unknown, token?: string) => {
    const r = await s.request(method, path, body, token);
    if (r.body.status !== 0) throw new Error(`${path}: ${r.body.msg}`);
    return r.body.data;
  };
  const decl = { title: '回收页', columns: [{ title: '城市', field: 'city' }], dialog: { schema: { type: 'object', properties: { city: { type: 'string', title: '城市' } } } } };
  const menuKeys = async () => (await s.app.ctx.db.selectFrom('sys_menu').select('menu_key').where('menu_key', 'like', 'lowcode-bin_page%').execute()).map((r) => r.menu_key).sort();

  it('a deleted page goes to the bin with its menu entry, its buttons and their grants; 还原 puts them back', async () => {
    const id = await must('POST', '/api/lowcode/page/save', { pageKey: 'bin_page', title: '回收页', declaration: decl, published: true, roles: ['sys_admin', 'designer'] });
    await must('POST', '/api/lowcode/data/bin_page/add', { city: '杭州' });
    const grantsBefore = await s.app.ctx.db.selectFrom('sys_role_menu').selectAll().where('menu_key', 'like', 'lowcode-bin_page%').execute();
    expect(grantsBefore.length).toBeGreaterThan(2);
    expect((await s.request('GET', `/api/lowcode/page/delete?id=${id}`)).body).toMatchObject({ status: 0, msg: '删除成功' });
    // gone from the page manager, its data calls and the menu
    expect((await must('POST', '/api/lowcode/page/search', { search: 'bin_page' })).total).toBe(0);
    expect((await s.request('POST', '/api/lowcode/data/bin_page/search', {})).body.msg).toBe('页面不存在');
    expect(await menuKeys()).toEqual([]);
    // its key stays taken while it waits
    expect((await s.request('POST', '/api/lowcode/page/save', { pageKey: 'bin_page', title: 'x', declaration: decl })).body.msg).toBe('页面标识【bin_page】已被回收站中的页面使用：请先在回收站中还原或彻底删除它');
    // searched by name, % and _ taken as themselves
    expect((await must('POST', `${R}/search`, { search: '回_页' })).total).toBe(0);
    const bin = await must('POST', `${R}/search`, { search: '回收' });
    expect(bin.records[0]).toMatchObject({ kind: 'page', kindLabel: '页面', title: '回收页', deleteUser: 'admin', took: ['菜单「回收页」及其 6 个按钮权限（2 个角色可见）', '1 条记录'] });
    expect(bin.records[0].expireTime > bin.records[0].deleteTime).toBe(true);
    expect((await s.request('POST', `${R}/restore`, { id: bin.records[0].id })).body).toMatchObject({ status: 0, msg: '已还原' });
    expect((await must('POST', '/api/lowcode/data/bin_page/search', {})).records.map((r: any) => r.city)).toEqual(['杭州']);
    expect(await menuKeys()).toHaveLength(7);
    const grantsAfter = await s.app.ctx.db.selectFrom('sys_role_menu').selectAll().where('menu_key', 'like', 'lowcode-bin_page%').execute();
    expect(grantsAfter.map((g) => `${g.role_key}/${g.menu_key}`).sort()).toEqual(grantsBefore.map((g) => `${g.role_key}/${g.menu_key}`).sort());
    expect((await must('POST', `${R}/search`, {})).records.some((r: any) => r.itemKey === 'bin_page')).toBe(false);
  });

  it('a menu entry whose parent is gone comes back at the top level, and says so; 彻底删除 ends it', async () => {
    const id = (await must('GET', '/api/lowcode/page/get?pageKey=bin_page')).id;
    // an admin placed it under a directory of their own, later deleted
    await s.app.ctx.db.insertInto('sys_menu').values({ menu_key: 'bin_dir', parent_key: null, module_type: 'platform', order_num: 99, entry: JSON.stringify({ key: 'bin_dir', name: '临时目录', type: 'M', path: '/bin' }), custom: 1 }).execute();
    await s.app.ctx.db.updateTable('sys_menu').set({ parent_key: 'bin_dir' }).where('menu_key', '=', 'lowcode-bin_page').execute();
    await must('GET', `/api/lowcode/page/delete?id=${id}`);
    await s.app.ctx.db.deleteFrom('sys_menu').where('menu_key', '=', 'bin_dir').execute();
    const entry = (await must('POST', `${R}/search`, { search: '回收页' })).records[0];
    const back = await s.request('POST', `${R}/restore`, { id: entry.id });
    expect(back.body.msg).toBe('已还原：菜单「回收页」原来的上级菜单已不存在，已放在顶层');
    expect((await s.app.ctx.db.selectFrom('sys_menu').select('parent_key').where('menu_key', '=', 'lowcode-bin_page').executeTakeFirstOrThrow()).parent_key).toBeNull();
    // 彻底删除: the page, its records and its key are free again
    await must('GET', `/api/lowcode/page/delete?id=${id}`);
    const again = (await must('POST', `${R}/search`, { search: '回收页' })).records[0];
    expect((await s.request('POST', `${R}/purge`, { id: again.id })).body).toMatchObject({ status: 0, msg: '已彻底删除' });
    expect(await s.app.ctx.db.selectFrom('lowcode_data').select('id').where('page_key', '=', 'bin_page').execute()).toEqual([]);
    // its history went with it: a new page under the same key starts its own
    expect(await s.app.ctx.db.selectFrom('sys_version').select('id').where('kind', '=', 'page').where('item_key', '=', 'bin_page').execute()).toEqual([]);
    expect((await s.request('POST', `${R}/restore`, { id: again.id })).body.msg).toBe('回收站中没有该项');
    await must('POST', '/api/lowcode/page/save', { pageKey: 'bin_page', title: '新的同名页', declaration: decl });
  });

  it('a deleted API design goes to the bin with its versions and approval record, sealed; 还原 gives it back under its id', async () => {
    const P = '/api/gemini/api';
    const group = await must('POST', `${P}/group/save`, { parentId: 0, name: '回收分组' });
    const apiId = await must('POST', `${P}/design/info/save`, { groupId: group, apiName: 'binned_api', apiComment: '回收接口' });
    await must('POST', `${P}/config/save`, { apiId, dsName: '', script: 'select 1', reqParamList: [{ paramName: 'token', paramType: 'string', required: 0, paramValue: 'S3cret-Value' }] }).catch(() => undefined);
    expect((await s.request('GET', `${P}/design/delete?id=${apiId}`)).body.msg).toBe('删除成功');
    expect(await s.app.ctx.db.selectFrom('gemini_api').select('id').where('id', '=', apiId).executeTakeFirst()).toBeUndefined();
    const entry = (await must('POST', `${H}/recycle/search`, { search: 'binned_api' })).records[0];
    expect(entry).toMatchObject({ kind: 'api', title: '回收接口（binned_api）' });
    // nothing of it in clear in the bin
    const raw = await s.app.ctx.db.selectFrom('sys_recycle').select('payload').where('id', '=', entry.id).executeTakeFirstOrThrow();
    expect(raw.payload).not.toMatch(/binned_api|S3cret|select 1/);
    expect((await s.request('POST', `${H}/recycle/restore`, { id: entry.id })).body.status).toBe(0);
    const back = await must('GET', `${P}/design/info/get?id=${apiId}`);
    expect(back).toMatchObject({ apiName: 'binned_api', apiComment: '回收接口' });
  });

  it('a deleted screen keeps its widgets until restored; others see only what they deleted; old entries are swept', async () => {
    const D = '/api/datav/screen';
    const designerRole = (await s.app.ctx.db.selectFrom('sys_role').select('id').where('role_key', '=', 'designer').executeTakeFirstOrThrow()).id;
    const { token } = await addPerson(s, `bin.designer.${store}`, [designerRole]);
    const mine = await must('POST', `${D}/info/save`, { pageName: '设计师的大屏' }, token);
    await must('POST', `${D}/widget/add`, { pageId: mine.id, widgetName: 'barChart' }, token);
    const admins = await must('POST', `${D}/info/save`, { pageName: '管理员的大屏' });
    await must('GET', `${D}/delete?id=${mine.id}`, undefined, token);
    await must('GET', `${D}/delete?id=${admins.id}`);
    expect((await s.request('GET', `${D}/info/get?id=${mine.id}`)).body.status).toBe(1);
    expect((await s.request('GET', `${D}/widget/select?pageId=${mine.id}`)).body.status).toBe(1);
    // the designer sees their own deletion only; the admin both
    const theirs = await must('POST', `${R}/search`, { kind: ['screen'] }, token);
    expect(theirs.records.map((r: any) => [r.title, r.took])).toEqual([['设计师的大屏', ['1 个组件']]]);
    expect((await must('POST', `${R}/search`, { kind: ['screen'] })).records.map((r: any) => r.title)).toEqual(['管理员的大屏', '设计师的大屏']);
    const adminsEntry = (await must('POST', `${R}/search`, { search: '管理员的大屏' })).records[0];
    for (const path of [`${R}/restore`, `${R}/purge`]) expect((await s.request('POST', path, { id: adminsEntry.id }, token)).body.msg, path).toBe('回收站中没有该项');
    await must('POST', `${R}/restore`, { id: theirs.records[0].id }, token);
    expect((await must('GET', `${D}/widget/select?pageId=${mine.id}`, undefined, token)).map((w: any) => w.widgetName)).toEqual(['barChart']);
    // an entry older than RECYCLE_DAYS is deleted for good by the sweep
    await s.app.ctx.db.updateTable('sys_recycle').set({ delete_time: '2000-01-01 00:00:00' }).where('id', '=', adminsEntry.id).execute();
    expect(await s.app.recycle.sweep()).toBe(1);
    expect(await s.app.ctx.db.selectFrom('datav_page').select('id').where('id', '=', admins.id).execute()).toEqual([]);
    expect((await s.request('POST', `${R}/search`, {}, null)).http).toBe(401);
  });
});

describe('datasets in the history and the recycle bin (sqlite store)', () => {
  const s = serverForSuite();
  const P = '/api/dataset';
  const must = async (method: 'GET' | 'POST', path: string, body?: unknown, token?: string) => {
    const r = await s.request(method, path, body, token);
    if (r.body.status !== 0) throw new Error(`${path}: ${r.body.msg}`);
    return r.body.data;
  };

  it('keeps a version per save (a SQL dataset’s only for those who may write SQL), and a deleted dataset waits in the bin naming the charts that use it', async () => {
    const dsId = await sqliteFixture(s, 'hist_ds.db', "create table sales(id integer primary key, city text, amount real); insert into sales(city, amount) values ('杭州', 3), ('宁波', 5)", 'hist_ds');
    const fields = await must('POST', `${P}/fields`, { kind: 'table', dsId, definition: { table: { schema: null, table: 'sales' } } });
    const id = await must('POST', `${P}/info/save`, { name: '历史数据集', kind: 'table', dsId, definition: { table: { schema: null, table: 'sales' } }, fields, cacheTtl: 60 });
    await must('POST', `${P}/info/save`, { id, name: '历史数据集', kind: 'table', dsId, definition: { table: { schema: null, table: 'sales' } }, fields: fields.map((f: any) => (f.name === 'city' ? { ...f, label: '城市' } : f)), cacheTtl: 120 });
    const list = await must('GET', `/api/history/list?kind=dataset&key=${id}`);
    expect(list.records).toHaveLength(2);
    const first = await must('GET', `/api/history/get?id=${list.records[1].id}`);
    expect(first.content).toMatchObject({ name: '历史数据集', kind: 'table', cacheTtl: 60 });
    await must('POST', '/api/history/restore', { id: first.id });
    expect((await s.app.ctx.db.selectFrom('dataset').select('cache_ttl').where('id', '=', id).executeTakeFirstOrThrow()).cache_ttl).toBe(60);
    // a SQL dataset's versions: not for a designer (no datav:dataset:sql), whatever its edit permission
    const sqlId = await must('POST', `${P}/info/save`, { name: 'SQL 数据集', kind: 'sql', dsId, definition: { sql: 'select city, amount from sales' }, fields: await must('POST', `${P}/fields`, { kind: 'sql', dsId, definition: { sql: 'select city, amount from sales' } }) });
    const designerRole = (await s.app.ctx.db.selectFrom('sys_role').select('id').where('role_key', '=', 'designer').executeTakeFirstOrThrow()).id;
    const { token } = await addPerson(s, 'hist.ds.designer', [designerRole]);
    expect((await s.request('GET', `/api/history/list?kind=dataset&key=${sqlId}`, undefined, token)).body.status).toBe(1);
    const sqlVersion = (await must('GET', `/api/history/list?kind=dataset&key=${sqlId}`)).records[0].id;
    expect((await s.request('GET', `/api/history/get?id=${sqlVersion}`, undefined, token)).body.status).toBe(1);
    expect((await s.request('GET', `/api/history/list?kind=dataset&key=${id}`, undefined, token)).body.status).toBe(0);
    // a chart on it, then the dataset deleted: the bin says which screen loses its data; restored, it answers again
    const screen = await must('POST', '/api/datav/screen/info/save', { pageName: '用数据集的大屏' });
    const chart = await must('POST', '/api/datav/screen/widget/add', { pageId: screen.id, widgetName: 'barChart' });
    chart.widgetProps.datasourceProps = { ...chart.widgetProps.datasourceProps, datasourceType: 'DATASET', dataConfig: { dataset: { datasetId: id } } };
    await s.app.ctx.db.updateTable('datav_widget').set({ widget_props: JSON.stringify(chart.widgetProps) }).where('id', '=', chart.id).execute();
    await must('GET', `${P}/delete?id=${id}`);
    expect((await s.request('GET', `${P}/info/get?id=${id}`)).body.status).toBe(1);
    const binned = (await must('POST', '/api/history/recycle/search', { kind: ['dataset'] })).records.find((r: any) => r.title === '历史数据集');
    expect(binned.took[0]).toMatch(/^1 个图表在使用（大屏：用数据集的大屏），还原前它们没有数据$/);
    // its name stays taken while it waits
    expect((await s.request('POST', `${P}/info/save`, { name: '历史数据集', kind: 'table', dsId, definition: { table: { schema: null, table: 'sales' } }, fields })).body.msg).toBe('数据集【历史数据集】已存在（也可能在回收站中）');
    await must('POST', '/api/history/recycle/restore', { id: binned.id });
    expect((await must('GET', `${P}/info/get?id=${id}`)).name).toBe('历史数据集');
  });
});
