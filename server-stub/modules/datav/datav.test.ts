// The screen (大屏) and form (表单) designers' backend over real HTTP, on each store, under both prefixes:
// pages (defaults, spec messages, list, save with the stale-save refusal, copy, delete), widgets (catalogue,
// add with the declared defaults, maxUse, the whole-list update validated against each kind's schemas),
// permissions and hostile input.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serverForSuite, testStores } from '../../testing/server.js';
import { addTestKind } from './testKinds.js';

const widgetsDir = path.resolve(import.meta.dirname, '../../../widgets');

const KINDS = [
  { name: 'screen', P: '/api/datav/screen', noun: '大屏' },
  { name: 'form', P: '/api/jimu/form', noun: '表单' },
] as const;

describe.each(testStores)('screen and form designers (%s store)', (store) => {
  const s = serverForSuite({
    store,
    setup: (app) => {
      // two test kinds: one capped at a single use, one without declared width / height defaults
      addTestKind(app, 'singleLineTitle', 'onlyOnce', { folderId: 'test', folderTitle: '测试组件', folderOrder: 9, order: 1, widgetTitle: '唯一标题', maxUse: 1 });
      const plain = addTestKind(app, 'borderBox', 'plainBox', { folderId: 'test', folderTitle: '测试组件', folderOrder: 9, order: 2, widgetTitle: '素框', maxUse: 0 });
      delete plain.viewProps.properties.width.default;
      delete plain.viewProps.properties.height.default;
    },
  });
  let dev: string;
  let biz: string;
  beforeAll(async () => {
    dev = await s.loginAs('developer');
    biz = await s.loginAs('bizapprover');
  });

  const as = (token: string, P: string) => ({
    get: (path: string) => s.request('GET', P + path, undefined, token),
    post: (path: string, body: unknown = {}) => s.request('POST', P + path, body, token),
  });

  describe.each(KINDS)('$name', ({ P, noun }) => {
    const d = () => as(dev, P);
    const newPage = async (pageName: string, extra: object = {}) => {
      const r = await d().post('/info/save', { pageName, ...extra });
      expect(r.body, JSON.stringify(r.body)).toMatchObject({ status: 0, msg: '保存成功' });
      return r.body.data as any;
    };
    const select = async (pageId: number) => {
      const r = await d().get(`/widget/select?pageId=${pageId}`);
      expect(r.body.status, r.body.msg).toBe(0);
      return r.body.data as any[];
    };
    const add = async (pageId: number, widgetName: string, at: object = {}) => (await d().post('/widget/add', { pageId, widgetName, ...at })).body;

    it('creates a page with the spec defaults and the spec message for a missing name; lists, gets and edits it', async () => {
      expect((await d().post('/info/save', {})).body).toMatchObject({ status: 1, msg: `请输入${noun}名称` });
      expect((await d().post('/info/save', { pageName: '   ' })).body).toMatchObject({ status: 1, msg: `请输入${noun}名称` });
      expect((await d().post('/info/save', { pageName: 'x'.repeat(51) })).body).toMatchObject({ status: 1, msg: `${noun}名称不能超过50个字符` });
      const page = await newPage(' 运营总览 ');
      expect(page).toMatchObject({ pageName: '运营总览', width: 1920, height: 1080, backgroundColor: '', refreshSeconds: null, presetLine: [], widgetCount: 0, status: 0, revision: 1, createUser: 'developer' });
      expect(page.id).toBeGreaterThan(0);
      expect(page.createTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

      const got = (await d().get(`/info/get?id=${page.id}`)).body;
      expect(got).toMatchObject({ status: 0, data: page });
      expect((await d().get('/info/get?id=999999')).body).toMatchObject({ status: 1, msg: `${noun}不存在` });
      const list = (await d().post('/search', { search: '运营', pageNum: 1, pageSize: 10 })).body.data;
      expect(list.total).toBe(1);
      const { presetLine: _lines, ...record } = page;
      // a screen's record also says whether it has a thumbnail (templates.test.ts), a form's does not
      expect(list.records).toEqual([noun === '大屏' ? { ...record, thumbnail: null } : record]);

      // edit: the checks of the canvas properties, each with its message, nothing stored when refused
      const edit = (body: object) => d().post('/info/save', { id: page.id, ...body });
      for (const width of [0, 1.5, 1000000, 'abc', -3]) expect((await edit({ width })).body, String(width)).toMatchObject({ status: 1, msg: '宽度只能是1到999999之间的整数' });
      expect((await edit({ height: 0 })).body.msg).toBe('高度只能是1到999999之间的整数');
      for (const backgroundColor of ['red', '#12', 'rgb(1,2)', 'url(x)', `#${'a'.repeat(40)}`]) expect((await edit({ backgroundColor })).body.status, backgroundColor).toBe(1);
      for (const refreshSeconds of [0, 86401, 2.5]) expect((await edit({ refreshSeconds })).body.msg).toBe('刷新间隔只能是1到86400之间的整数（秒）');
      expect((await edit({ pageName: '' })).body.msg).toBe(`请输入${noun}名称`);
      expect((await d().get(`/info/get?id=${page.id}`)).body.data.revision).toBe(1);

      for (const backgroundColor of ['#fff', '#1D202D', '#11223344', 'rgba(15, 40, 80, 0.35)', 'rgb(1,2,3)']) {
        expect((await edit({ backgroundColor })).body.status, backgroundColor).toBe(0);
      }
      const saved = await edit({ pageName: '运营总览2', width: '1280', height: 720, backgroundColor: '', refreshSeconds: 30, presetLine: [{ type: 'h', site: 100 }] });
      expect(saved.body).toMatchObject({ status: 0, msg: '保存成功', data: { id: page.id, pageName: '运营总览2', width: 1280, height: 720, backgroundColor: '', refreshSeconds: 30, presetLine: [{ type: 'h', site: 100 }], revision: 7 } });
      // absent fields keep their values; null clears the nullable ones
      const again = (await edit({ refreshSeconds: null })).body.data;
      expect(again).toMatchObject({ pageName: '运营总览2', width: 1280, height: 720, refreshSeconds: null, presetLine: [{ type: 'h', site: 100 }], revision: 8 });
      expect((await d().post('/info/save', { id: 999999, pageName: 'x' })).body).toMatchObject({ status: 1, msg: `${noun}不存在` });

      // issue 22: the theme and the background image (none until set; the image kind's address rules)
      expect(again).toMatchObject({ theme: '', backgroundImage: '' });
      expect((await edit({ theme: 'bad theme!' })).body).toMatchObject({ status: 1, msg: '主题不正确' });
      for (const backgroundImage of ['javascript:alert(1)', '//evil.example/x.png', 'data:image/png;base64,AA', 'x.png']) {
        expect((await edit({ backgroundImage })).body, backgroundImage).toMatchObject({ status: 1, msg: expect.stringContaining('背景图片地址不正确') });
      }
      const themed = (await edit({ theme: 'bright', backgroundImage: '/files/gemini/bg.png' })).body.data;
      expect(themed).toMatchObject({ theme: 'bright', backgroundImage: '/files/gemini/bg.png', backgroundColor: '' });
      // a save without them (a client from before themes) keeps them
      expect((await edit({ refreshSeconds: 5 })).body.data).toMatchObject({ theme: 'bright', backgroundImage: '/files/gemini/bg.png' });
      expect((await d().get(`/info/get?id=${page.id}`)).body.data).toMatchObject({ theme: 'bright', backgroundImage: '/files/gemini/bg.png' });
      expect((await edit({ theme: '', backgroundImage: null })).body.data).toMatchObject({ theme: '', backgroundImage: '' });

      // issue 23: the screen's variables, checked by common/variables.ts; absent keeps them, [] or null clears
      expect(again).toMatchObject({ variables: [] });
      const variables = [
        { name: 'region', title: '大区', type: 'string', default: "east' OR 1=1" },
        { name: 'cities', type: 'list', default: '杭州,宁波' },
      ];
      expect((await edit({ variables })).body.data).toMatchObject({ variables });
      expect((await edit({ refreshSeconds: 6 })).body.data).toMatchObject({ variables });
      expect((await d().get(`/info/get?id=${page.id}`)).body.data).toMatchObject({ variables });
      for (const [bad, says] of [
        [[{ name: 'a b', type: 'string' }], '名称不合法'],
        [[{ name: 'a', type: 'string' }, { name: 'a', type: 'string' }], '变量名称【a】重复'],
        [[{ name: 'n', type: 'number', default: '1; drop table x' }], '变量【n】的默认值不是数字'],
        [[{ name: 'n', type: 'string', sql: 'x' }], '未知的属性'],
        [[{ name: 'pageId', type: 'string' }], '预览地址自用'],
        ['x', '变量'],
      ] as const) {
        expect((await edit({ variables: bad })).body, JSON.stringify(bad)).toMatchObject({ status: 1, msg: expect.stringContaining(says) });
      }
      expect((await edit({ variables: null })).body.data).toMatchObject({ variables: [] });
    });

    it('keeps screens and forms apart', async () => {
      const page = await newPage(`只属于${noun}`);
      const other = KINDS.find((k) => k.P !== P)!;
      expect((await as(dev, other.P).get(`/info/get?id=${page.id}`)).body).toMatchObject({ status: 1, msg: `${other.noun}不存在` });
      expect((await as(dev, other.P).post('/search', { search: `只属于${noun}` })).body.data.total).toBe(0);
      expect((await as(dev, other.P).get(`/widget/select?pageId=${page.id}`)).body.msg).toBe(`${other.noun}不存在`);
      expect((await as(dev, other.P).get(`/delete?id=${page.id}`)).body.msg).toBe(`${other.noun}不存在`);
    });

    it('answers the catalogue derived from the declarations: folders by folderOrder, components by order, only the kinds this designer may use', async () => {
      const cat = (await d().get('/widget/catalogue')).body.data as any[];
      // the form-field kinds (catalogue.designers ["form"]) and their folder are the form designer's only
      const formFields = ['M:formControls', 'C:formInput', 'C:formTextarea', 'C:formNumber', 'C:formSelect', 'C:formRadio', 'C:formCheckbox', 'C:formSwitch', 'C:formDate', 'C:formDateRange', 'C:formImage', 'C:formSubmit'];
      // every kind folder (widgets/<kind>/<kind>.widget.json) is in the catalogue of each designer it declares
      for (const kind of readdirSync(widgetsDir).filter((k) => existsSync(path.join(widgetsDir, k, `${k}.widget.json`)))) {
        const designers: string[] = JSON.parse(readFileSync(path.join(widgetsDir, kind, `${kind}.widget.json`), 'utf8')).catalogue.designers ?? ['screen', 'form'];
        expect(cat.some((e) => e.widgetName === kind), kind).toBe(designers.includes(P === '/api/jimu/form' ? 'form' : 'screen'));
      }
      // the shipped kinds and the test kinds in their order (a kind added since keeps its own place)
      const shipped = new Set(['form', 'chart', 'singleLineTitle', 'carousel', 'borderBox', 'activeRing', 'scrollTable', 'barChart', 'test', 'onlyOnce', 'plainBox', ...formFields.map((e) => e.slice(2))]);
      expect(cat.filter((e) => shipped.has(e.id)).map((e) => `${e.widgetType}:${e.id}`)).toEqual([
        'M:form',
        'C:singleLineTitle',
        'C:carousel',
        'M:chart',
        'C:borderBox',
        'C:activeRing',
        'C:scrollTable',
        'C:barChart',
        ...(P === '/api/jimu/form' ? formFields : []),
        'M:test',
        'C:onlyOnce',
        'C:plainBox',
      ]);
      expect(cat[0]).toEqual({ id: 'form', parentId: '0', widgetType: 'M', widgetTitle: '表单组件', maxUse: 0, icon: 'FolderOutlined' });
      expect(cat[1]).toEqual({ id: 'singleLineTitle', parentId: 'form', widgetType: 'C', widgetTitle: '单行标题', maxUse: 0, icon: 'FontSizeOutlined', widgetName: 'singleLineTitle' });
      expect(cat.find((e) => e.id === 'onlyOnce').maxUse).toBe(1);
    });

    it('creates widgets on the server with the defaults of their schemas, stacked on top; refuses unknown kinds and uses past maxUse', async () => {
      const page = await newPage('部件默认值');
      const title = await add(page.id, 'singleLineTitle', { top: 120, left: 33 });
      expect(title).toMatchObject({ status: 0, msg: '添加成功' });
      const w = title.data;
      expect(w.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(w).toMatchObject({ pageId: page.id, widgetName: 'singleLineTitle', widgetTitle: '单行标题', icon: 'FontSizeOutlined', isHead: true, isTail: true });
      expect(w.widgetProps).toEqual({
        widgetViewName: 'SingleLineTitle',
        widgetFormName: 'SchemaPanel',
        selectedTab: 'view',
        viewProps: { width: 200, height: 60, top: 120, left: 33, text: '单行标题', fontSize: 16, fontWeight: 600, color: '#A8E3FF', textAlign: 'center' },
        versionProps: { title: '单行标题', widgetNum: 'W0001', version: '1.0.0', upgrade: false, docUrl: '' },
        datasourceProps: { datasourceType: 'STATIC', dataMapping: [], dataConfig: { data: [] } },
      });
      const plain = (await add(page.id, 'plainBox')).data;
      expect(plain.widgetProps.viewProps).toMatchObject({ width: 300, height: 300, top: 0, left: 0 });
      expect(plain).toMatchObject({ isHead: true, isTail: false });
      const scroll = (await add(page.id, 'scrollTable')).data;
      expect(scroll.widgetProps.viewProps).toMatchObject({ width: 500, height: 400 });
      expect(scroll.widgetProps.datasourceProps.dataConfig.data.length).toBeGreaterThan(0);

      expect(await add(page.id, 'nope')).toMatchObject({ status: 1, msg: '未知部件：nope' });
      expect(await add(page.id, '__proto__')).toMatchObject({ status: 1, msg: '未知部件：__proto__' });
      expect((await add(page.id, 'singleLineTitle', { top: 1.5 })).status).toBe(1);
      expect(await add(999999, 'singleLineTitle')).toMatchObject({ status: 1, msg: `${noun}不存在` });
      expect((await add(page.id, 'onlyOnce')).status).toBe(0);
      expect(await add(page.id, 'onlyOnce')).toMatchObject({ status: 1, msg: '【唯一标题】最多只能添加 1 个' });

      const list = await select(page.id);
      expect(list.map((x) => x.widgetName)).toEqual(['singleLineTitle', 'plainBox', 'scrollTable', 'onlyOnce']);
      expect(list.map((x) => [x.isTail, x.isHead])).toEqual([
        [true, false],
        [false, false],
        [false, false],
        [false, true],
      ]);
      expect((await d().get(`/info/get?id=${page.id}`)).body.data.widgetCount).toBe(4);
      const reload = (await d().get(`/widget/reload?id=${plain.id}`)).body;
      expect(reload).toMatchObject({ status: 0, data: { id: plain.id, isHead: false, isTail: false } });
      expect((await d().get('/widget/reload?id=00000000-0000-0000-0000-000000000000')).body).toMatchObject({ status: 1, msg: '部件不存在' });
      expect((await d().get('/widget/reload?id=../x')).body.status).toBe(1);
      // one widget deleted on its own
      expect((await d().get(`/widget/delete?id=${plain.id}`)).body).toMatchObject({ status: 0, msg: '删除成功' });
      expect((await select(page.id)).map((x) => x.widgetName)).toEqual(['singleLineTitle', 'scrollTable', 'onlyOnce']);
    });

    it('saves the whole widget list: order kept, left-out ones deleted, new ids inserted; a value outside its schema refuses all', async () => {
      const page = await newPage('整表保存');
      const a = (await add(page.id, 'singleLineTitle')).data;
      const b = (await add(page.id, 'borderBox')).data;
      const c = (await add(page.id, 'barChart')).data;
      // reorder (c to the bottom), drop b, paste a copy of a with a browser-made id on top
      const copy = { ...structuredClone(a), id: 'c0ffee00-0000-4000-8000-000000000001', widgetProps: { ...structuredClone(a.widgetProps), locked: true, viewProps: { ...a.widgetProps.viewProps, top: 500, text: '副本' } } };
      const saved = await d().post('/widget/update', { pageId: page.id, widgets: [c, a, copy] });
      expect(saved.body).toMatchObject({ status: 0, msg: '保存成功' });
      expect(saved.body.data.map((x: any) => x.id)).toEqual([c.id, a.id, copy.id]);
      const list = await select(page.id);
      expect(list).toEqual(saved.body.data);
      expect(list.map((x) => [x.isTail, x.isHead])).toEqual([
        [true, false],
        [false, false],
        [false, true],
      ]);
      expect(list[2].widgetProps.viewProps).toMatchObject({ top: 500, text: '副本' });
      // the designer's own layer flags are kept
      expect(list[2].widgetProps.locked).toBe(true);
      expect((await d().post('/widget/update', { pageId: page.id, widgets: [{ ...copy, widgetProps: { ...copy.widgetProps, hidden: 'yes' } }] })).body.status).toBe(1);
      expect(list.some((x) => x.id === b.id)).toBe(false);

      // a viewProps value outside its schema: refused with the JSON pointer, nothing changed
      const bad = structuredClone(list);
      bad[2].widgetProps.viewProps.fontSize = 500;
      bad.splice(0, 1);
      const refused = await d().post('/widget/update', { pageId: page.id, widgets: bad });
      expect(refused.body).toMatchObject({ status: 1, msg: '部件【单行标题】的属性不合法：/widgets/1/widgetProps/viewProps/fontSize 必须 <= 200' });
      expect(await select(page.id)).toEqual(list);
      const badDs = structuredClone(list);
      badDs[0].widgetProps.datasourceProps.datasourceType = 'FTP';
      expect((await d().post('/widget/update', { pageId: page.id, widgets: badDs })).body.msg).toBe('部件【柱状图】的属性不合法：/widgets/0/widgetProps/datasourceProps/datasourceType 取值必须是 "STATIC", "API", "DATASET" 之一');
      const noWidth = structuredClone(list);
      delete noWidth[1].widgetProps.viewProps.width;
      expect((await d().post('/widget/update', { pageId: page.id, widgets: noWidth })).body.msg).toBe('部件【单行标题】的属性不合法：/widgets/1/widgetProps/viewProps 缺少必填属性 width');
      const wrongType = structuredClone(list);
      wrongType[1].widgetProps.viewProps.text = 42;
      expect((await d().post('/widget/update', { pageId: page.id, widgets: wrongType })).body.msg).toBe('部件【单行标题】的属性不合法：/widgets/1/widgetProps/viewProps/text 类型应为文本');

      // wrong page, unknown kind, duplicate ids, bad ids, maxUse: refused, nothing changed
      const other = await newPage('别的页面');
      expect((await d().post('/widget/update', { pageId: other.id, widgets: list })).body).toMatchObject({ status: 1, msg: `第 1 个部件的页面编号（pageId）与所保存的${noun}不一致` });
      expect((await d().post('/widget/update', { pageId: page.id, widgets: [{ ...list[0], widgetName: 'nope' }] })).body.msg).toBe('未知部件：nope');
      expect((await d().post('/widget/update', { pageId: page.id, widgets: [list[0], list[0]] })).body.msg).toBe(`部件编号重复：${list[0].id}`);
      for (const id of ['', 'a/b', "x' or '1'='1", 'x'.repeat(37)]) expect((await d().post('/widget/update', { pageId: page.id, widgets: [{ ...list[0], id }] })).body.status, id).toBe(1);
      const once = { ...structuredClone(list[1]), widgetName: 'onlyOnce' };
      const twice = { ...structuredClone(once), id: 'd0d0d0d0-0000-4000-8000-000000000002' };
      expect((await d().post('/widget/update', { pageId: page.id, widgets: [once, twice] })).body).toMatchObject({ status: 1, msg: '【唯一标题】最多只能添加 1 个' });
      expect((await d().post('/widget/update', { pageId: 999999, widgets: [] })).body.msg).toBe(`${noun}不存在`);
      expect(await select(page.id)).toEqual(list);
      // an id that another page holds is not taken over
      const foreign = (await add(other.id, 'borderBox')).data;
      expect((await d().post('/widget/update', { pageId: page.id, widgets: [...list, { ...foreign, pageId: page.id }] })).body.msg).toBe(`部件编号 ${foreign.id} 已被其他页面使用`);
      expect(await select(other.id)).toHaveLength(1);
      expect(await select(page.id)).toEqual(list);

      // the bare list (the spec's "list") with pageId in its items; the browser's string page id is understood
      const bare = await d().post('/widget/update', [list[2], list[1]].map((w) => ({ ...w, pageId: String(page.id) })));
      expect(bare.body.status, bare.body.msg).toBe(0);
      expect(bare.body.data.map((x: any) => x.id)).toEqual([list[2].id, list[1].id]);
      expect((await d().post('/widget/update', [{ ...list[0], pageId: other.id }, { ...list[1], pageId: page.id }])).body.msg).toBe(`第 2 个部件的页面编号（pageId）与所保存的${noun}不一致`);
      expect((await d().post('/widget/update', [])).body.msg).toBe('缺少页面编号（pageId）');
      // an empty list clears the page
      expect((await d().post('/widget/update', { pageId: page.id, widgets: [] })).body.data).toEqual([]);
      expect((await d().get(`/info/get?id=${page.id}`)).body.data.widgetCount).toBe(0);
    });

    it('stores layer groups and renamed layers as sent; refuses bad group data in Chinese, nothing changed', async () => {
      const page = await newPage('分组保存');
      const [a, b, c] = [(await add(page.id, 'singleLineTitle')).data, (await add(page.id, 'borderBox')).data, (await add(page.id, 'barChart')).data];
      const group = { id: 'a1b2c3d4-0000-4000-8000-000000000009', name: '顶部区域' };
      const inGroup = (w: any, g: unknown = group) => ({ ...w, widgetProps: { ...w.widgetProps, group: g } });
      const saved = await d().post('/widget/update', { pageId: page.id, widgets: [{ ...a, widgetTitle: '主标题' }, inGroup(b), inGroup(c)] });
      expect(saved.body, saved.body.msg).toMatchObject({ status: 0 });
      const list = await select(page.id);
      expect(list.map((w) => w.widgetProps.group ?? null)).toEqual([null, group, group]);
      expect(list[0].widgetTitle).toBe('主标题');
      // a list without groups (an existing screen) still saves
      expect((await d().post('/widget/update', { pageId: page.id, widgets: [a, b, c] })).body.status).toBe(0);
      expect((await d().post('/widget/update', { pageId: page.id, widgets: list })).body.status).toBe(0);

      const refuse = async (widgets: unknown[], msg: string | RegExp) => {
        const r = (await d().post('/widget/update', { pageId: page.id, widgets })).body;
        expect(r.status, JSON.stringify(r)).toBe(1);
        expect(r.msg).toMatch(msg);
        expect(await select(page.id)).toEqual(list);
      };
      await refuse([inGroup(a), b, inGroup(c)], /^分组【顶部区域】的图层在叠放顺序中不相邻（第 3 个部件【柱状图】）$/);
      await refuse([a, b, inGroup(c)], '分组【顶部区域】只有一个图层，一个分组至少要有两个图层');
      await refuse([a, inGroup(b), inGroup(c, { ...group, name: '别名' })], '分组【顶部区域】的图层名称不一致（第 3 个部件【柱状图】写作【别名】）');
      for (const bad of ['x', [], { id: 'a/b', name: 'n' }, { id: group.id, name: '' }, { id: group.id, name: 'n'.repeat(51) }, { id: group.id }, { ...group, extra: 1 }]) {
        await refuse([a, inGroup(b, bad), inGroup(c, bad)], /分组/);
      }
    });

    it('copies a page with all its widgets (new ids, same order) and deletes a page with its widgets', async () => {
      const page = await newPage('复制源', { width: 800, height: 600, backgroundColor: '#000', refreshSeconds: 60 });
      await add(page.id, 'singleLineTitle');
      await add(page.id, 'activeRing');
      await add(page.id, 'carousel');
      const src = await select(page.id);
      const copied = await d().get(`/copy?id=${page.id}`);
      expect(copied.body).toMatchObject({ status: 0, msg: '复制成功' });
      const copyId = copied.body.data;
      expect(copyId).not.toBe(page.id);
      const got = (await d().get(`/info/get?id=${copyId}`)).body.data;
      expect(got).toMatchObject({ pageName: '复制源-副本', width: 800, height: 600, backgroundColor: '#000', refreshSeconds: 60, widgetCount: 3, revision: 1 });
      const dst = await select(copyId);
      expect(dst.map((w) => w.widgetName)).toEqual(src.map((w) => w.widgetName));
      expect(dst.map((w) => w.widgetProps)).toEqual(src.map((w) => w.widgetProps));
      expect(dst.every((w) => w.pageId === copyId && !src.some((x) => x.id === w.id))).toBe(true);
      // a long name is cut to 50 characters
      const long = await newPage('长'.repeat(50));
      expect((await d().get(`/info/get?id=${(await d().get(`/copy?id=${long.id}`)).body.data}`)).body.data.pageName).toBe(`${'长'.repeat(47)}-副本`);
      expect((await d().get('/copy?id=999999')).body.msg).toBe(`${noun}不存在`);

      expect((await d().get(`/delete?id=${page.id}`)).body).toMatchObject({ status: 0, msg: '删除成功' });
      expect((await d().get(`/info/get?id=${page.id}`)).body.msg).toBe(`${noun}不存在`);
      expect((await d().get(`/widget/reload?id=${src[0].id}`)).body.msg).toBe('部件不存在');
      expect(await select(copyId)).toHaveLength(3);
      expect((await d().get(`/delete?id=${page.id}`)).body.msg).toBe(`${noun}不存在`);
    });

    it('refuses a stale save: the second client of the same revision is told, the first one’s values stay', async () => {
      const page = await newPage('并发');
      const r = page.revision;
      const first = await d().post('/info/save', { id: page.id, pageName: '并发', width: 1000, revision: r });
      expect(first.body).toMatchObject({ status: 0, data: { revision: r + 1, width: 1000 } });
      const second = await as(await s.loginAs('developer'), P).post('/info/save', { id: page.id, pageName: '别人的', width: 2000, revision: r });
      expect(second.body).toMatchObject({ status: 1, msg: `该${noun}已被他人修改（当前版本 ${r + 1}），请刷新后再保存` });
      expect((await d().get(`/info/get?id=${page.id}`)).body.data).toMatchObject({ pageName: '并发', width: 1000, revision: r + 1 });
      // a widget list saved against an older revision is refused too
      expect((await d().post('/widget/update', { pageId: page.id, widgets: [], revision: r })).body.msg).toBe(`该${noun}已被他人修改（当前版本 ${r + 1}），请刷新后再保存`);

      // racing: of many saves from one revision exactly one passes
      const race = await Promise.all(Array.from({ length: 6 }, (_, i) => d().post('/info/save', { id: page.id, pageName: `竞争${i}`, revision: r + 1 })));
      expect(race.filter((x) => x.body.status === 0)).toHaveLength(1);
      const winner = race.find((x) => x.body.status === 0)!.body.data;
      expect((await d().get(`/info/get?id=${page.id}`)).body.data).toMatchObject({ pageName: winner.pageName, revision: r + 2 });
    });

    it('lets an approver read but not change; a developer does all', async () => {
      const page = await newPage('权限');
      const w = (await add(page.id, 'singleLineTitle')).data;
      const b = as(biz, P);
      expect((await b.post('/search', {})).body.status).toBe(0);
      expect((await b.get(`/info/get?id=${page.id}`)).body.status).toBe(0);
      expect((await b.get(`/widget/select?pageId=${page.id}`)).body.status).toBe(0);
      expect((await b.get('/widget/catalogue')).body.status).toBe(0);
      expect((await b.get(`/widget/reload?id=${w.id}`)).body.status).toBe(0);
      const refused = [
        await b.post('/info/save', { pageName: 'x' }),
        await b.post('/info/save', { id: page.id, pageName: 'x' }),
        await b.post('/widget/add', { pageId: page.id, widgetName: 'singleLineTitle' }),
        await b.post('/widget/update', { pageId: page.id, widgets: [] }),
        await b.get(`/widget/delete?id=${w.id}`),
        await b.get(`/copy?id=${page.id}`),
        await b.get(`/delete?id=${page.id}`),
      ];
      for (const r of refused) expect(r).toMatchObject({ http: 403, body: { status: 1, msg: '没有权限访问该功能，请联系管理员授权' } });
      expect(await select(page.id)).toHaveLength(1);
      expect((await d().get(`/info/get?id=${page.id}`)).body.data).toMatchObject({ pageName: '权限', revision: 1 });
      expect((await d().get(`/delete?id=${page.id}`)).body.status).toBe(0);
    });

    it('takes hostile input verbatim or refuses it, never with a 500', async () => {
      const inj = "x' or '1'='1";
      const page = await newPage(inj);
      expect(page.pageName).toBe(inj);
      const found = (await d().post('/search', { search: "' or '1'='1" })).body.data;
      expect(found.records.map((r: any) => r.pageName)).toEqual([inj]);
      expect((await d().post('/search', { search: "%' --" })).body.data.total).toBe(0);
      expect((await d().post('/search', { search: '%' })).body.data.total).toBe(0);
      for (const orderByColumn of ['widgetCount', 'pageName', 'createTime', 'p.id; drop table datav_page', 'constructor']) {
        const r = await d().post('/search', { orderByColumn, isAsc: 'desc' });
        expect(r.body.status, orderByColumn).toBe(0);
      }
      expect((await d().post('/search', { search: 'x'.repeat(21) })).body.status).toBe(1);
      expect((await d().get('/info/get?id=1%20or%201=1')).body.status).toBe(1);
      expect((await d().get('/widget/select?pageId=-1')).body.status).toBe(1);

      const huge = await d().post('/info/save', { pageName: 'x'.repeat(3 * 1024 * 1024) });
      expect(huge).toMatchObject({ http: 413, body: { status: 1, msg: '请求体过大' } });
      const deep = await d().post('/widget/update', `{"pageId":${page.id},"widgets":${'['.repeat(100)}${']'.repeat(100)}}`);
      expect(deep.http).toBe(400);
      expect(deep.body.status).toBe(1);
      const w = (await add(page.id, 'scrollTable')).data;
      const fat = structuredClone(w);
      fat.widgetProps.datasourceProps.dataConfig.data = Array.from({ length: 3000 }, (_, i) => ({ area: `区域${i}`, value: 'v'.repeat(100) }));
      expect((await d().post('/widget/update', { pageId: page.id, widgets: [fat] })).body.msg).toBe('部件【滚动表格】的属性过大（不能超过 200 KB）');
      const many = Array.from({ length: 2001 }, (_, i) => ({ ...w, id: `id-${i}` }));
      const tooMany = await d().post('/widget/update', { pageId: page.id, widgets: many });
      expect(tooMany.body.status).toBe(1);
      expect(tooMany.http).toBeLessThan(500);
      expect((await d().post('/widget/update', many.map((x) => ({ ...x, pageId: page.id })))).body.msg).toBe(`一个${noun}最多只能有 2000 个部件`);
      expect(await select(page.id)).toHaveLength(1);
      for (const body of ['null', '"x"', '123', '{"widgets":"x"}', `{"pageId":${page.id},"widgets":[null]}`, `{"pageId":${page.id},"widgets":[{"id":"a","widgetName":"singleLineTitle","widgetProps":{"viewProps":[]}}]}`]) {
        const r = await d().post('/widget/update', body);
        expect(r.body.status, body).toBe(1);
        expect(r.http, body).toBeLessThan(500);
      }
    });
  });
});
