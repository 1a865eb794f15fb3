// A form's choice fields with options from a dataset field (issue 35 §6) over real HTTP: the fill-in page gets the
// field's distinct values (labels from another field, parents for a cascade), a signed-in filler's row rules apply,
// an answer outside the values is refused and one inside is stored; a dataset deleted leaves the field without
// options, not the form broken.
import { sqliteFixture } from '../../testing/sqlite.js';
import { startTestServer, type TestServer } from '../../testing/server.js';

const F = '/api/jimu/form';
const D = '/api/dataset';

describe('form options from a dataset', () => {
  let s: TestServer;
  let dev: string;
  let datasetId: number;
  let formId: number;

  beforeAll(async () => {
    s = await startTestServer({ env: {} });
    dev = await s.loginAs('developer');
    const dsId = await sqliteFixture(
      s,
      'cities.db',
      `create table cities(code text primary key, name text, province text);
       insert into cities values ('hz', '杭州', '浙江'), ('nb', '宁波', '浙江'), ('nj', '南京', '江苏'), ('hz', '重复', '浙江') on conflict do nothing;`,
      'cities_lite',
    );
    const definition = { table: { schema: null, table: 'cities' } };
    const fields = (await s.request('POST', `${D}/fields`, { kind: 'table', dsId, definition }, dev)).body.data;
    const saved = await s.request('POST', `${D}/info/save`, { name: '城市表', kind: 'table', dsId, definition, fields, cacheTtl: 60 }, dev);
    expect(saved.body.status, saved.body.msg).toBe(0);
    datasetId = saved.body.data;
    const form = await s.request('POST', `${F}/info/save`, { pageName: '城市登记', fillAccess: 'public' }, dev);
    formId = form.body.data.id;
    for (const k of ['formSelect', 'formSelect', 'formSubmit']) expect((await s.request('POST', `${F}/widget/add`, { pageId: formId, widgetName: k }, dev)).body.status).toBe(0);
    const list = (await s.request('GET', `${F}/widget/select?pageId=${formId}`, undefined, dev)).body.data as any[];
    const props = [
      { field: 'province', label: '省份', optionsDataset: { datasetId, datasetName: '城市表', valueField: 'province' } },
      { field: 'city', label: '城市', cascadeFrom: 'province', optionsDataset: { datasetId, datasetName: '城市表', valueField: 'code', labelField: 'name', parentField: 'province' } },
    ];
    const widgets = list.map((w, i) => (props[i] ? { ...w, widgetProps: { ...w.widgetProps, viewProps: { ...w.widgetProps.viewProps, ...props[i] } } } : w));
    const up = await s.request('POST', `${F}/widget/update`, { pageId: formId, widgets }, dev);
    expect(up.body.status, up.body.msg).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const optionsOf = async (token?: string) => {
    const r = await s.request('GET', `${F}/fill/get?id=${formId}`, undefined, token ?? null);
    expect(r.body.status, r.body.msg).toBe(0);
    return Object.fromEntries((r.body.data.widgets as any[]).filter((w) => w.widgetProps.viewProps.field).map((w) => [w.widgetProps.viewProps.field, w.widgetProps.viewProps.options]));
  };

  it('fills the options with the field’s distinct values, labels and parents', async () => {
    const o = await optionsOf();
    expect(o.province).toEqual([
      { value: '江苏', label: '江苏' },
      { value: '浙江', label: '浙江' },
    ]);
    expect(o.city).toEqual([
      { value: 'nj', label: '南京', parent: '江苏' },
      { value: 'nb', label: '宁波', parent: '浙江' },
      { value: 'hz', label: '杭州', parent: '浙江' },
    ]);
  });

  it('refuses an answer outside the dataset’s values and stores one inside', async () => {
    const bad = await s.request('POST', `${F}/fill/submit?id=${formId}`, { values: { province: '广东', city: 'gz' } }, null);
    expect(bad.body.status).toBe(1);
    expect(bad.body.msg).toContain('省份');
    const good = await s.request('POST', `${F}/fill/submit?id=${formId}`, { values: { province: '浙江', city: 'nb' } }, null);
    expect(good.body.status, good.body.msg).toBe(0);
    const entry = await s.app.ctx.db.selectFrom('jimu_form_entry').select(['texts', 'data']).where('form_id', '=', formId).executeTakeFirstOrThrow();
    expect(JSON.parse(entry.data)).toMatchObject({ province: '浙江', city: 'nb' });
    expect(JSON.parse(entry.texts)).toMatchObject({ city: '宁波' });
  });

  it('applies the signed-in filler’s row rules', async () => {
    const info = (await s.request('GET', `${D}/info/get?id=${datasetId}`, undefined, dev)).body.data;
    const saved = await s.request('POST', `${D}/info/save`, { ...info, id: datasetId, rowRules: [{ subject: 'user', key: 'developer', field: 'province', values: ['江苏'] }] }, dev);
    expect(saved.body.status, saved.body.msg).toBe(0);
    expect((await optionsOf(dev)).province).toEqual([{ value: '江苏', label: '江苏' }]);
    expect((await optionsOf()).province).toHaveLength(2);
    const refused = await s.request('POST', `${F}/fill/submit?id=${formId}`, { values: { province: '浙江', city: 'hz' } }, dev);
    expect(refused.body.status).toBe(1);
  });

  it('a deleted dataset leaves the field without options; the form still opens', async () => {
    expect((await s.request('GET', `${D}/delete?id=${datasetId}`, undefined, dev)).body.status).toBe(0);
    const o = await optionsOf();
    expect(o.province).toEqual([]);
    expect((await s.request('POST', `${F}/fill/submit?id=${formId}`, { values: { province: '浙江' } }, null)).body.status).toBe(1);
  });
});
