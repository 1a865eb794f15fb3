// Versions of designed items over real HTTP (issue 37 item 1), on each store: every save of a page declaration and
// of a screen (canvas and widgets as one snapshot) keeps a version with who, when and a note; the newest
// VERSIONS_KEPT stay plus every published one; 恢复 saves the old content as the newest version (history never
// rewritten); versions are shown only to those who may edit such items; a secret-looking value is never kept.
import { serverForSuite, testStores } from '../../testing/server.js';
import { addPerson } from '../../testing/people.js';

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
  });
});
