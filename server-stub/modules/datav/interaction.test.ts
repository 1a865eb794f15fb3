// A widget's click interactions (issue 23 §3–§5, common/interaction.ts) as the widget save checks them, over real
// HTTP: stored as sent when they name the page's variables and safe targets; refused in Chinese otherwise.
import { serverForSuite, testStores } from '../../testing/server.js';

describe.each(testStores)('widget click interactions (%s store)', (store) => {
  const s = serverForSuite({ store });
  let dev: string;
  beforeAll(async () => {
    dev = await s.loginAs('developer');
  });
  const post = (path: string, body: unknown) => s.request('POST', `/api/datav/screen${path}`, body, dev);

  const setUp = async () => {
    const page = (await post('/info/save', { pageName: '联动', variables: [{ name: 'region', title: '地区', type: 'string' }] })).body.data as { id: number };
    const bar = (await post('/widget/add', { pageId: page.id, widgetName: 'barChart' })).body.data as any;
    const title = (await post('/widget/add', { pageId: page.id, widgetName: 'singleLineTitle' })).body.data as any;
    const save = (interactionProps: unknown, w = bar, extra: object = {}) =>
      post('/widget/update', { pageId: page.id, widgets: [{ ...w, widgetProps: { ...w.widgetProps, interactionProps, ...extra } }] });
    return { page, bar, title, save };
  };

  it('stores a declared interaction and the 交互 tab as sent', async () => {
    const { save } = await setUp();
    const ip = {
      linkage: [{ field: 'name', variable: 'region' }],
      drill: [{ title: '省份', field: 'name', param: 'province' }, { title: '城市', field: 'name', param: 'city' }],
      jump: { target: 'url', to: 'https://report.example.com/detail', newTab: true, params: [{ field: 'name', param: 'region' }] },
    };
    const r = (await save(ip, undefined, { selectedTab: 'interaction' })).body;
    expect(r, JSON.stringify(r)).toMatchObject({ status: 0 });
    expect(r.data[0].widgetProps).toMatchObject({ interactionProps: ip, selectedTab: 'interaction' });
    expect((await save(null)).body.status).toBe(0);
  });

  it('refuses undeclared variables, unsafe targets and bad names in Chinese', async () => {
    const { save, title } = await setUp();
    const cases: Array<[unknown, string]> = [
      [{ linkage: [{ field: 'name', variable: 'city' }] }, '部件【柱状图】的属性不合法：联动第 1 条的变量【city】未在画布的变量中声明'],
      [{ jump: { target: 'url', to: 'javascript:alert(1)' } }, '部件【柱状图】的属性不合法：跳转的网址只能是 http:// 或 https:// 开头的地址'],
      [{ jump: { target: 'page', to: '//evil.example.com/' } }, '跳转的系统页面应为本系统的路径'],
      [{ jump: { target: 'screen', to: '1 or 1=1' } }, '跳转的大屏编号应为正整数'],
      [{ drill: [{ field: "name'--", param: 'p' }] }, '下钻第 1 层的字段名不合法'],
      [{ linkage: 'all' }, '联动应为列表'],
      [{ extra: true }, '交互设置有未知的属性：extra'],
      ['x', '交互'],
    ];
    for (const [ip, says] of cases) {
      const r = (await save(ip)).body;
      expect(r, JSON.stringify(ip)).toMatchObject({ status: 1, msg: expect.stringContaining(says) });
    }
    // a kind that emits no clicks takes none
    const t = (await save({ linkage: [{ field: 'name', variable: 'region' }] }, title)).body;
    expect(t).toMatchObject({ status: 1, msg: '部件【单行标题】的属性不合法：此部件不支持点击交互' });
  });
});
