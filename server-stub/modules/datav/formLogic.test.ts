// A form's field logic and its sub-table on the server (issue 23 items 7 and 8), over real HTTP on each store:
// a public form's entry is checked by the same logic the fill-in page runs (common/formLogic.ts) — a field
// shown by a choice is required, hidden it is neither required nor stored; a cascade takes only its parent
// value's options; a sub-table's rows are bounded and checked cell by cell; the rows are stored as sent (HTML
// and formula text included, as data), listed with their columns and read one line a row in the CSV.
import { rawRequest } from '../../security/sweep.js';
import { serverForSuite, testStores } from '../../testing/server.js';

const F = '/api/jimu/form';
let hostNo = 0;
const freshAddress = () => {
  hostNo++;
  return `127.8.${(hostNo >> 8) & 255}.${(hostNo & 255) || 1}`;
};

const HAS_CAR = [
  { label: '有', value: 'yes' },
  { label: '无', value: 'no' },
];
const CITIES = [
  { label: '杭州', value: 'hz', parent: 'zj' },
  { label: '宁波', value: 'nb', parent: 'zj' },
  { label: '南京', value: 'nj', parent: 'js' },
];

describe.each(testStores)('form logic and sub-tables (%s store)', (store) => {
  const s = serverForSuite({ store });
  let dev: string;
  let formId: number;
  beforeAll(async () => {
    dev = await s.loginAs('developer');
    const post = (path: string, body: unknown) => s.request('POST', path, body, dev);
    const page = (await post(`${F}/info/save`, { pageName: '用车登记', fillAccess: 'public' })).body.data;
    formId = page.id;
    for (const k of ['formRadio', 'formInput', 'formSelect', 'formSelect', 'formSubTable', 'formSubmit']) expect((await post(`${F}/widget/add`, { pageId: formId, widgetName: k })).body.status).toBe(0);
    const list = (await s.request('GET', `${F}/widget/select?pageId=${formId}`, undefined, dev)).body.data as any[];
    const props: object[] = [
      { field: 'hasCar', label: '是否有车', options: HAS_CAR },
      {
        field: 'plate',
        label: '车牌号',
        logic: [
          { field: 'hasCar', op: 'eq', value: 'yes', effect: 'show' },
          { field: 'hasCar', op: 'eq', value: 'yes', effect: 'require' },
        ],
      },
      { field: 'province', label: '省份', options: [{ label: '浙江', value: 'zj' }, { label: '江苏', value: 'js' }] },
      { field: 'city', label: '城市', cascadeFrom: 'province', options: CITIES },
      { field: 'items', label: '明细', minRows: 1, maxRows: 3 },
      {},
    ];
    const widgets = list.map((w, i) => ({ ...w, widgetProps: { ...w.widgetProps, viewProps: { ...w.widgetProps.viewProps, ...props[i] } } }));
    const saved = (await post(`${F}/widget/update`, { pageId: formId, widgets })).body;
    expect(saved.status, saved.msg).toBe(0);
  });

  /** An entry posted by hand, without signing in, from a fresh address. */
  const submit = async (values: unknown) => {
    const a = await rawRequest(s.url, 'POST', `${F}/fill/submit?id=${formId}`, { body: JSON.stringify({ values }), localAddress: freshAddress() });
    return a.body as { status: number; msg: string; data?: { id: number } };
  };
  const entry = async (id: number) => {
    const r = await s.request('POST', `${F}/entry/search`, { formId, pageSize: 100 }, dev);
    return (r.body.data.records as any[]).find((e) => e.id === id);
  };

  it('refuses an entry without the field a choice shows and requires, in Chinese naming it', async () => {
    expect(await submit({ hasCar: 'yes' })).toMatchObject({ status: 1, msg: '请输入车牌号' });
    expect(await submit({ hasCar: 'yes', plate: '' })).toMatchObject({ status: 1, msg: '请输入车牌号' });
    const ok = await submit({ hasCar: 'yes', plate: '浙A12345' });
    expect(ok.status, ok.msg).toBe(0);
    expect(await entry(ok.data!.id)).toMatchObject({ hasCar: 'yes', plate: '浙A12345' });
  });

  it('takes an entry without a hidden field, and drops a hidden field sent anyway (it is not checked either)', async () => {
    const a = await submit({ hasCar: 'no' });
    expect(a.status, a.msg).toBe(0);
    const b = await submit({ hasCar: 'no', plate: 12345 }); // of the wrong type, but hidden: not stored, not refused
    expect(b.status, b.msg).toBe(0);
    const stored = await entry(b.data!.id);
    expect(stored.hasCar).toBe('no');
    expect(Object.hasOwn(stored, 'plate')).toBe(false);
    // an unknown key is still refused, hidden fields or not
    expect(await submit({ hasCar: 'no', nosuch: 1 })).toMatchObject({ status: 1, msg: '未知字段：nosuch' });
  });

  it('a cascade takes only the options of its parent value', async () => {
    expect(await submit({ province: 'js', city: 'hz' })).toMatchObject({ status: 1, msg: '城市的取值不在选项中' });
    expect(await submit({ city: 'hz' })).toMatchObject({ status: 1, msg: '城市的取值不在选项中' });
    const ok = await submit({ province: 'zj', city: 'nb' });
    expect(ok.status, ok.msg).toBe(0);
  });

  it('bounds a sub-table and checks its cells, naming the row', async () => {
    const row = (item: unknown, qty: unknown, extra: object = {}) => ({ item, qty, ...extra });
    expect(await submit({ items: [row('a', 1), row('b', 1), row('c', 1), row('d', 1)] })).toMatchObject({ status: 1, msg: '明细最多填写3行' });
    expect(await submit({ items: [row('a', 1), { item: 'b' }] })).toMatchObject({ status: 1, msg: '明细第2行：请输入数量' });
    expect(await submit({ items: [row('a', 0)] })).toMatchObject({ status: 1, msg: '明细第1行：数量不能小于1' });
    expect(await submit({ items: [row('a', '2')] })).toMatchObject({ status: 1, msg: '明细第1行：数量类型错误' });
    expect(await submit({ items: [row('a', 1, { unit: 'kg' })] })).toMatchObject({ status: 1, msg: '明细第1行：单位的取值不在选项中' });
    expect(await submit({ items: [row('a', 1, { evil: 'x' })] })).toMatchObject({ status: 1, msg: '明细第1行含未知列：evil' });
    expect(await submit({ items: 'a' })).toMatchObject({ status: 1, msg: '明细类型错误' });
    expect(await submit({ items: [['a', 1]] })).toMatchObject({ status: 1, msg: '明细类型错误' });
    // not required: no rows is no value
    expect((await submit({ items: [] })).status).toBe(0);
  });

  it('stores the rows as sent, lists them with their columns and reads them one line a row in the CSV', async () => {
    const html = '<img src=x onerror=alert(1)>';
    const formula = '=HYPERLINK("http://evil")';
    const r = await submit({ hasCar: 'no', items: [{ item: html, qty: 3, unit: 'box' }, { item: formula, qty: 1 }] });
    expect(r.status, r.msg).toBe(0);
    const stored = await entry(r.data!.id);
    expect(stored.items).toEqual([{ item: html, qty: 3, unit: 'box' }, { item: formula, qty: 1 }]);
    // found by a cell's text
    const found = await s.request('POST', `${F}/entry/search`, { formId, search: 'onerror' }, dev);
    expect(found.body.data.records.map((e: any) => e.id)).toEqual([r.data!.id]);
    const cols = (await s.request('GET', `${F}/entry/columns?formId=${formId}`, undefined, dev)).body.data as any[];
    expect(cols.find((c) => c.field === 'items')).toEqual({
      field: 'items',
      title: '明细',
      kind: 'formSubTable',
      type: 'rows',
      columns: [
        { field: 'item', title: '名称' },
        { field: 'qty', title: '数量' },
        { field: 'unit', title: '单位', options: [{ label: '个', value: 'pc' }, { label: '箱', value: 'box' }] },
      ],
    });
    const csv = await (await fetch(`${s.url}${F}/entry/export?formId=${formId}`, { headers: { authorization: `Bearer ${dev}` } })).text();
    const header = csv.replace(/^\uFEFF/, '').split('\r\n')[0];
    expect(header).toBe('"编号","提交人","提交时间","提交IP","是否有车","车牌号","省份","城市","明细"');
    // the newest entry first: its sub-table cell is one quoted cell, a line a row, labels for columns and options
    const first = csv.replace(/^\uFEFF/, '').split('\r\n')[1];
    expect(first).toContain(`"无","","","","[1] 名称：<img src=x onerror=alert(1)>；数量：3；单位：箱\n[2] 名称：=HYPERLINK(""http://evil"")；数量：1"`);
  });
});
