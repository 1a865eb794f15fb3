// Forms that collect data (issue 11) over real HTTP, on each store: catalogue per designer, field names,
// form settings, the public fill-in routes (access, validation, storage, closed / deleted forms, body
// limit, uploads, the per-address limit) and the entries (columns, search, delete, CSV export).
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { rawRequest } from '../../security/sweep.js';
import { serverForSuite, testStores } from '../../testing/server.js';
import { EXPORT_CHUNK } from './entries.js';
import { FILL_RATE, PENDING_UPLOADS_PER_FORM } from './fill.js';
import { FORM_IMAGE_SWEEP, sweepFormImages } from './formImages.js';
import { addTestKind } from './testKinds.js';

const F = '/api/jimu/form';
const S = '/api/datav/screen';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

// every fill-in call from its own loopback address, so the per-address limit is met only where a test means it
let hostNo = 0;
const freshAddress = () => {
  hostNo++;
  return `127.7.${(hostNo >> 8) & 255}.${(hostNo & 255) || 1}`;
};

describe.each(testStores)('forms that collect data (%s store)', (store) => {
  const s = serverForSuite({
    store,
    setup: (app) => {
      // a kind only screens may use, in a folder of its own
      addTestKind(app, 'singleLineTitle', 'screenOnly', { folderId: 'screenOnlyFolder', folderTitle: '仅大屏', folderOrder: 8, order: 1, widgetTitle: '大屏专用', maxUse: 0, designers: ['screen'] });
    },
  });
  let dev: string;
  let biz: string;
  beforeAll(async () => {
    dev = await s.loginAs('developer');
    biz = await s.loginAs('bizapprover');
  });

  const get = (path: string, token: string | null = dev) => s.request('GET', path, undefined, token);
  const post = (path: string, body: unknown, token: string | null = dev) => s.request('POST', path, body, token);
  /** Deletes a form in the recycle bin for good (issue 37). */
  const purgeForm = async (formId: number) => {
    const binned = await s.app.ctx.db.selectFrom('sys_recycle').select('id').where('kind', '=', 'form').where('item_key', '=', String(formId)).executeTakeFirstOrThrow();
    expect((await s.request('POST', '/api/history/recycle/purge', { id: binned.id })).body.status).toBe(0);
  };
  const newForm = async (pageName: string, extra: object = {}) => {
    const r = await post(`${F}/info/save`, { pageName, ...extra });
    expect(r.body.status, r.body.msg).toBe(0);
    return r.body.data as any;
  };
  const add = async (pageId: number, widgetName: string, P = F) => (await post(`${P}/widget/add`, { pageId, widgetName })).body;
  const select = async (pageId: number, P = F) => (await get(`${P}/widget/select?pageId=${pageId}`)).body.data as any[];
  /** Sets view props of the widgets (by index) and saves the list. */
  const update = async (pageId: number, list: any[], changes: Record<number, object>) => {
    const widgets = list.map((w, i) => (changes[i] ? { ...w, widgetProps: { ...w.widgetProps, viewProps: { ...w.widgetProps.viewProps, ...changes[i] } } } : w));
    return (await post(`${F}/widget/update`, { pageId, widgets })).body;
  };
  /** A fill-in call from a fresh address; token optional. */
  const fill = async (method: 'GET' | 'POST', path: string, body?: unknown, token?: string, from = freshAddress()) => {
    const a = await rawRequest(s.url, method, `${F}${path}`, { body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body), token, localAddress: from });
    return { http: a.http, body: a.body };
  };
  const upload = async (formId: number, name: string, data: Buffer, token?: string) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)]), name);
    const res = await fetch(`${s.url}${F}/fill/upload?id=${formId}`, { method: 'POST', body: form, headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { http: res.status, body: (await res.json()) as any };
  };

  /** A public form with one field of every kind and a submit button. */
  const fullForm = async (name: string) => {
    const page = await newForm(name, { fillAccess: 'public' });
    for (const k of ['formInput', 'formTextarea', 'formNumber', 'formSelect', 'formRadio', 'formCheckbox', 'formSwitch', 'formDate', 'formDateRange', 'formImage', 'formSubmit']) expect((await add(page.id, k)).status).toBe(0);
    const list = await select(page.id);
    const saved = await update(page.id, list, {
      0: { field: 'name', label: '姓名', required: true },
      1: { field: 'note', label: '备注', maxLength: 20 },
      2: { field: 'age', label: '年龄', minimum: 0, maximum: 150 },
      3: { field: 'city', label: '城市' },
      4: { field: 'ok', label: '同意', dict: 'YES_OR_NO' },
      5: { field: 'tags', label: '标签' },
      6: { field: 'sub', label: '订阅' },
      7: { field: 'day', label: '日期' },
      8: { field: 'trip', label: '行程' },
      9: { field: 'pic', label: '照片', maxCount: 2 },
      10: { successText: '感谢参与！' },
    });
    expect(saved.status, saved.msg).toBe(0);
    return page;
  };

  describe('catalogue per designer', () => {
    it('leaves out the kinds a designer may not use, and their folder once empty', async () => {
      const screenCat = (await get(`${S}/widget/catalogue`)).body.data as any[];
      const formCat = (await get(`${F}/widget/catalogue`)).body.data as any[];
      expect(screenCat.map((e) => e.id)).toContain('screenOnly');
      expect(screenCat.map((e) => e.id)).toContain('screenOnlyFolder');
      expect(screenCat.some((e) => e.id === 'formControls' || e.id === 'formInput')).toBe(false);
      expect(formCat.map((e) => e.id)).not.toContain('screenOnly');
      expect(formCat.map((e) => e.id)).not.toContain('screenOnlyFolder');
      expect(formCat.filter((e) => e.parentId === 'formControls').map((e) => e.id)).toEqual(['formInput', 'formTextarea', 'formNumber', 'formSelect', 'formRadio', 'formCheckbox', 'formSwitch', 'formDate', 'formDateRange', 'formImage', 'formSubTable', 'formSubmit']);
      // the general kinds stay in both
      for (const cat of [screenCat, formCat]) expect(cat.map((e) => e.id)).toContain('singleLineTitle');
    });

    it('refuses a kind on a page kind it is not for, on add and on update', async () => {
      const screen = (await post(`${S}/info/save`, { pageName: '大屏' })).body.data;
      expect(await add(screen.id, 'formInput', S)).toMatchObject({ status: 1, msg: '【单行文本】不能用于大屏' });
      const form = await newForm('表单');
      expect(await add(form.id, 'screenOnly')).toMatchObject({ status: 1, msg: '【大屏专用】不能用于表单' });
      const input = (await add(form.id, 'formInput')).data;
      const onScreen = await post(`${S}/widget/update`, { pageId: screen.id, widgets: [{ ...input, pageId: screen.id }] });
      expect(onScreen.body).toMatchObject({ status: 1, msg: '【单行文本】不能用于大屏' });
      const title = (await add(screen.id, 'screenOnly', S)).data;
      expect((await post(`${F}/widget/update`, { pageId: form.id, widgets: [{ ...title, pageId: form.id }] })).body).toMatchObject({ status: 1, msg: '【大屏专用】不能用于表单' });
      expect(await select(screen.id, S)).toHaveLength(1);
      expect(await select(form.id)).toHaveLength(1);
    });
  });

  describe('field names', () => {
    it('gives each new field the smallest free name of its kind', async () => {
      const form = await newForm('字段名');
      const names = [];
      for (const k of ['formInput', 'formInput', 'formSelect', 'formDateRange', 'formSubmit', 'formInput']) names.push((await add(form.id, k)).data.widgetProps.viewProps.field);
      expect(names).toEqual(['input_1', 'input_2', 'select_1', 'daterange_1', undefined, 'input_3']);
      const list = await select(form.id);
      expect((await get(`${F}/widget/delete?id=${list[1].id}`)).body.status).toBe(0);
      expect((await add(form.id, 'formInput')).data.widgetProps.viewProps.field).toBe('input_2');
      // a name set by hand is taken into account
      const now = await select(form.id);
      expect((await update(form.id, now, { 0: { field: 'input_4' } })).status).toBe(0);
      expect((await add(form.id, 'formInput')).data.widgetProps.viewProps.field).toBe('input_1');
      // racing drops never share a name
      const race = await Promise.all(Array.from({ length: 5 }, () => add(form.id, 'formNumber')));
      expect(race.map((r) => r.data.widgetProps.viewProps.field).sort()).toEqual(['number_1', 'number_2', 'number_3', 'number_4', 'number_5']);
    });

    it('refuses an empty, duplicate or reserved name and an unsafe custom pattern, naming the widget by its label', async () => {
      const form = await newForm('字段校验');
      await add(form.id, 'formInput');
      await add(form.id, 'formSelect');
      await add(form.id, 'formSubmit');
      const list = await select(form.id);
      expect((await update(form.id, list, { 0: { label: '姓名', field: '' } })).msg).toBe('部件【姓名】的字段名不能为空');
      expect((await update(form.id, list, { 0: { label: '' , field: '  ' } })).msg).toBe('部件【单行文本】的字段名不能为空');
      expect((await update(form.id, list, { 0: { label: '姓名', field: 'city' }, 1: { label: '城市', field: 'city' } })).msg).toBe('部件【城市】的字段名 city 与部件【姓名】重复');
      for (const field of ['id', 'formId', 'createUser', 'createTime', 'createIp', 'CreateIP', 'constructor', '__proto__']) {
        expect((await update(form.id, list, { 0: { label: '姓名', field } })).msg, field).toBe(`部件【姓名】的字段名 ${field} 是保留名，请换一个`);
      }
      expect((await update(form.id, list, { 0: { label: '姓名', field: '1abc' } })).msg).toBe('部件【单行文本】的属性不合法：/widgets/0/widgetProps/viewProps/field 格式不正确');
      const redos = await update(form.id, list, { 0: { label: '姓名', patternPreset: 'custom', customPattern: '^(a+)+$' } });
      expect(redos.msg).toBe('部件【姓名】的属性不合法：/widgets/0/widgetProps/viewProps/customPattern 可能导致灾难性回溯（ReDoS），请改写正则表达式');
      expect((await update(form.id, list, { 0: { label: '姓名', patternPreset: 'custom', customPattern: '([a-' } })).msg).toBe('部件【姓名】的属性不合法：/widgets/0/widgetProps/viewProps/customPattern 不是合法的正则表达式');
      expect(await select(form.id)).toEqual(list);
      const good = await update(form.id, list, { 0: { label: '姓名', field: 'name', patternPreset: 'custom', customPattern: '^[A-Z][a-z]+$' } });
      expect(good.status, good.msg).toBe(0);
      // bounds the wrong way round make a field nobody can fill
      expect((await update(form.id, good.data, { 0: { minLength: 20, maxLength: 5 } })).msg).toBe('部件【姓名】的最少字符数不能大于最多字符数');
      expect((await add(form.id, 'formNumber')).status).toBe(0);
      const withNumber = await select(form.id);
      const n = withNumber.findIndex((w: { widgetName: string }) => w.widgetName === 'formNumber');
      expect((await update(form.id, withNumber, { [n]: { label: '年龄', minimum: 120, maximum: 18 } })).msg).toBe('部件【年龄】的最小值不能大于最大值');
      expect((await update(form.id, withNumber, { [n]: { label: '年龄', minimum: 18, maximum: 18 } })).status).toBe(0);
    });

    it('keeps a good custom pattern', async () => {
      const form = await newForm('字段校验二');
      await add(form.id, 'formInput');
      const list = await select(form.id);
      const good = await update(form.id, list, { 0: { label: '姓名', field: 'name', patternPreset: 'custom', customPattern: '^[A-Z][a-z]+$' } });
      expect(good.status, good.msg).toBe(0);
      expect(good.data[0].widgetProps.viewProps).toMatchObject({ field: 'name', customPattern: '^[A-Z][a-z]+$' });
    });
  });

  describe('form settings', () => {
    it('saves who may fill in a form and whether it collects; get and search answer them with the entry count', async () => {
      const form = await newForm('设置');
      expect(form).toMatchObject({ fillAccess: 'login', accepting: 1, entryCount: 0 });
      const edit = (body: object) => post(`${F}/info/save`, { id: form.id, ...body });
      expect((await edit({ fillAccess: 'anyone' })).body).toMatchObject({ status: 1, msg: '填写权限只能是 login（登录用户）或 public（任何人）' });
      for (const accepting of [2, 'yes', -1]) expect((await edit({ accepting })).body, String(accepting)).toMatchObject({ status: 1, msg: '是否收集只能是 1（收集中）或 0（已停止）' });
      expect((await edit({ fillAccess: 'public', accepting: false })).body.data).toMatchObject({ fillAccess: 'public', accepting: 0 });
      // absent keeps them
      expect((await edit({ pageName: '设置2' })).body.data).toMatchObject({ fillAccess: 'public', accepting: 0 });
      expect((await edit({ accepting: '1' })).body.data).toMatchObject({ fillAccess: 'public', accepting: 1 });
      expect((await get(`${F}/info/get?id=${form.id}`)).body.data).toMatchObject({ pageName: '设置2', fillAccess: 'public', accepting: 1, entryCount: 0 });
      const made = await newForm('新建即公开', { fillAccess: 'public', accepting: 0 });
      expect(made).toMatchObject({ fillAccess: 'public', accepting: 0 });
      // a screen has none of them
      const screen = (await post(`${S}/info/save`, { pageName: '大屏设置', fillAccess: 'public' })).body.data;
      expect(screen).not.toHaveProperty('fillAccess');
      expect(screen).not.toHaveProperty('entryCount');
    });
  });

  describe('fill-in', () => {
    it('answers the form to whom its access allows: anyone for a public form, signed-in callers for the others', async () => {
      const form = await newForm('仅登录');
      await add(form.id, 'formInput');
      const anon = await fill('GET', `/fill/get?id=${form.id}`);
      expect(anon).toMatchObject({ http: 401, body: { status: 2, msg: '未登录或登录已过期，请重新登录' } });
      expect((await fill('GET', `/fill/get?id=${form.id}`, undefined, 'dead-token-0123456789')).http).toBe(401);
      expect((await fill('POST', `/fill/submit?id=${form.id}`, { values: {} })).http).toBe(401);
      const signed = await fill('GET', `/fill/get?id=${form.id}`, undefined, biz);
      expect(signed.body.status).toBe(0);
      expect(signed.body.data.page).toEqual({ id: form.id, pageName: '仅登录', width: 1920, height: 1080, backgroundColor: '', theme: '', backgroundImage: '', fillAccess: 'login', accepting: 1 });
      expect(signed.body.data.widgets).toEqual(await select(form.id));
      await post(`${F}/info/save`, { id: form.id, fillAccess: 'public' });
      expect((await fill('GET', `/fill/get?id=${form.id}`)).body.status).toBe(0);
      expect((await fill('GET', '/fill/get?id=999999')).body).toMatchObject({ status: 1, msg: '表单不存在' });
      // a screen is no form
      const screen = (await post(`${S}/info/save`, { pageName: '大屏' })).body.data;
      expect((await fill('GET', `/fill/get?id=${screen.id}`)).body).toMatchObject({ status: 1, msg: '表单不存在' });
    });

    it('checks a submission against the form’s own fields and stores nothing refused', async () => {
      const form = await fullForm('全部字段');
      const sub = (values: unknown) => fill('POST', `/fill/submit?id=${form.id}`, { values });
      const refusals: Array<[unknown, string]> = [
        [{}, '请输入姓名'],
        [{ name: '' }, '请输入姓名'],
        [{ name: 1 }, '姓名类型错误'],
        [{ name: 'a', note: 'x'.repeat(21) }, '备注长度须在0到20个字符之间'],
        [{ name: 'a', age: 151 }, '年龄须在0到150之间'],
        [{ name: 'a', age: '18' }, '年龄类型错误'],
        [{ name: 'a', city: '9' }, '城市的取值不在选项中'],
        [{ name: 'a', ok: 3 }, '同意的取值不在选项中'],
        [{ name: 'a', tags: ['1', '1'] }, '标签类型错误'],
        [{ name: 'a', sub: 'yes' }, '订阅类型错误'],
        [{ name: 'a', day: '2023-02-29' }, '日期不是有效日期'],
        [{ name: 'a', trip: ['2024-02-02', '2024-02-01'] }, '行程的开始日期不能晚于结束日期'],
        [{ name: 'a', pic: ['https://evil.example/a.png'] }, '照片类型错误'],
        // the right shape, but no file this service stored
        [{ name: 'a', pic: ['/files/form/0f8fad5b-d9cb-469f-a165-70867728950e.png'] }, '照片类型错误'],
        [{ name: 'a', hacked: 1 }, '未知字段：hacked'],
        [{ name: 'a', createUser: 'admin' }, '未知字段：createUser'],
      ];
      for (const [values, msg] of refusals) {
        const r = await sub(values);
        expect(r.body, JSON.stringify(values)).toMatchObject({ status: 1, msg });
        expect(r.http).toBeLessThan(500);
      }
      for (const body of [{}, { values: [] }, { values: 'x' }, [], 'null']) {
        const r = await fill('POST', `/fill/submit?id=${form.id}`, body);
        expect(r.body.status, JSON.stringify(body)).toBe(1);
        expect(r.http).toBeLessThan(500);
      }
      expect((await get(`${F}/info/get?id=${form.id}`)).body.data.entryCount).toBe(0);

      // a whole good entry: an uploaded image included; thanked with the button's own text
      const up = await upload(form.id, '头像.png', PNG);
      expect(up.body).toMatchObject({ status: 0, data: { alt: '头像' } });
      expect(up.body.data.url).toMatch(/^\/files\/form\/[0-9a-f-]{36}\.png$/);
      const good = { name: '张三', note: '', age: 30, city: '2', ok: 1, tags: ['1', '3'], sub: true, day: '2024-02-29', trip: ['2024-03-01', '2024-03-05'], pic: [up.body.data.url] };
      const ok = await sub(good);
      expect(ok.body).toMatchObject({ status: 0, msg: '感谢参与！' });
      expect(ok.body.data.id).toBeGreaterThan(0);
      expect((await get(`${F}/info/get?id=${form.id}`)).body.data.entryCount).toBe(1);
      const listed = (await post(`${F}/search`, { search: '全部字段' })).body.data.records;
      expect(listed[0].entryCount).toBe(1);
      const rec = (await post(`${F}/entry/search`, { formId: form.id })).body.data;
      expect(rec.total).toBe(1);
      const { note: _empty, ...stored } = good;
      expect(rec.records[0]).toEqual({ id: ok.body.data.id, createUser: null, createTime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/), createIp: expect.stringMatching(/^(::ffff:)?127\.7\./), ...stored });
    });

    it('removes a fill-in upload no entry names once a day has passed: abandoned, its entry deleted, its form deleted; never an image of the image list', async () => {
      const served = async (url: string) => (await fetch(s.url + url)).status;
      const later = () => new Date(Date.now() + 5000);
      const newImageForm = async (name: string) => {
        const form = await newForm(name, { fillAccess: 'public' });
        await add(form.id, 'formImage');
        expect((await update(form.id, await select(form.id), { 0: { maxCount: 3 } })).status).toBe(0);
        const [field] = (await select(form.id)).map((w) => w.widgetProps.viewProps.field);
        const submit = async (urls: string[]) => {
          const r = await fill('POST', `/fill/submit?id=${form.id}`, { values: { [field]: urls } });
          expect(r.body.status, r.body.msg).toBe(0);
          return r.body.data.id as number;
        };
        return { form, submit, up: async () => (await upload(form.id, 'a.png', PNG)).body.data.url as string };
      };
      const a = await newImageForm('图片清理');
      const kept = await a.up();
      const twice = await a.up();
      const dropped = await a.up();
      const entry = await a.submit([kept, twice]);
      await a.submit([twice]);
      // the image list may put a file in bucket "form" too: never the sweep's
      const form = new FormData();
      form.append('bucketName', 'form');
      form.append('files', new Blob([new Uint8Array(PNG)]), 'listed.png');
      const listed = (await (await fetch(`${s.url}/api/file/image/uploadImage`, { method: 'POST', body: form, headers: { authorization: `Bearer ${s.token}` } })).json()) as any;
      expect(listed.status, listed.msg).toBe(0);
      const manual = listed.data[0].fileUrl as string;
      expect(manual).toMatch(/^\/files\/form\//);

      // a day has not passed for any
      await sweepFormImages(s.app, new Date(Date.now() - FORM_IMAGE_SWEEP.keepMs));
      expect(await Promise.all([kept, twice, dropped, manual].map(served))).toEqual([200, 200, 200, 200]);
      // as if it had: the upload no entry names goes, file and record; the rest stay
      await sweepFormImages(s.app, later());
      expect(await Promise.all([kept, twice, dropped, manual].map(served))).toEqual([200, 200, 404, 200]);
      const images = async () => (await post('/api/file/image/searchImageList', { bucketName: 'form', pageNum: 1, pageSize: 100 }, s.token)).body.data.records.map((r: any) => r.fileUrl);
      expect(await images()).not.toContain(dropped);
      // the first entry deleted: its own image goes, the one the second entry also names stays
      expect((await get(`${F}/entry/delete?id=${entry}`, s.token)).body.status).toBe(0);
      await sweepFormImages(s.app, later());
      expect(await Promise.all([kept, twice, manual].map(served))).toEqual([404, 200, 200]);
      expect(await images()).not.toContain(kept);
      // the form deleted: its entries wait with it in the recycle bin (issue 37), and their images too
      expect((await get(`${F}/delete?id=${a.form.id}`)).body.status).toBe(0);
      await sweepFormImages(s.app, later());
      expect(await Promise.all([twice, manual].map(served))).toEqual([200, 200]);
      // deleted for good with its entries: the last one goes
      await purgeForm(a.form.id);
      await sweepFormImages(s.app, later());
      expect(await Promise.all([twice, manual].map(served))).toEqual([404, 200]);
      expect(await images()).toEqual(expect.arrayContaining([manual]));
    });

    it('sweeps on past an upload whose file cannot be removed now, and keeps its record for the next sweep', async () => {
      const form = await newForm('图片清理2', { fillAccess: 'public' });
      await add(form.id, 'formImage');
      const stuck = (await upload(form.id, 'a.png', PNG)).body.data.url as string;
      const next = (await upload(form.id, 'b.png', PNG)).body.data.url as string;
      // a folder where the file was: unlink fails (not "already gone")
      const file = path.join(s.app.ctx.config.dataDir, 'files', 'form', path.basename(stuck));
      rmSync(file);
      mkdirSync(path.join(file, 'inside'), { recursive: true });
      // one image a batch: the stuck one must not hold up the next
      await sweepFormImages(s.app, new Date(Date.now() + 5000), 1);
      expect((await fetch(s.url + next)).status).toBe(404);
      const images = (await post('/api/file/image/searchImageList', { bucketName: 'form', pageNum: 1, pageSize: 100 }, s.token)).body.data.records.map((r: any) => r.fileUrl);
      expect(images).toContain(stuck);
      expect(images).not.toContain(next);
      rmSync(file, { recursive: true });
      await sweepFormImages(s.app, new Date(Date.now() + 5000), 1);
      expect((await post('/api/file/image/searchImageList', { bucketName: 'form', pageNum: 1, pageSize: 100 }, s.token)).body.data.records.map((r: any) => r.fileUrl)).not.toContain(stuck);
    });

    it('records who submitted to a login-only form and thanks with the general text without a button of its own', async () => {
      const form = await newForm('登录填写');
      await add(form.id, 'formInput');
      const r = await fill('POST', `/fill/submit?id=${form.id}`, { values: { input_1: '你好' } }, biz);
      expect(r.body).toMatchObject({ status: 0, msg: '提交成功，感谢您的填写！' });
      expect((await post(`${F}/entry/search`, { formId: form.id })).body.data.records[0]).toMatchObject({ createUser: 'bizapprover', input_1: '你好' });
    });

    it('refuses submissions and uploads to a closed or deleted form, and an oversized body with a message', async () => {
      const form = await newForm('停止收集', { fillAccess: 'public' });
      await add(form.id, 'formInput');
      await add(form.id, 'formImage');
      const big = await fill('POST', `/fill/submit?id=${form.id}`, { values: { input_1: 'x'.repeat(300 * 1024) } });
      expect(big).toMatchObject({ http: 413, body: { status: 1, msg: '提交内容过大（不能超过 256 KB）', data: null } });
      await post(`${F}/info/save`, { id: form.id, accepting: 0 });
      expect((await fill('GET', `/fill/get?id=${form.id}`)).body.data.page.accepting).toBe(0);
      expect((await fill('POST', `/fill/submit?id=${form.id}`, { values: { input_1: 'x' } })).body).toMatchObject({ status: 1, msg: '该表单已停止收集' });
      expect((await upload(form.id, 'a.png', PNG)).body).toMatchObject({ status: 1, msg: '该表单已停止收集' });
      await post(`${F}/info/save`, { id: form.id, accepting: 1 });
      expect((await fill('POST', `/fill/submit?id=${form.id}`, { values: { input_1: 'x' } })).body.status).toBe(0);
      expect((await get(`${F}/delete?id=${form.id}`)).body.status).toBe(0);
      expect((await fill('POST', `/fill/submit?id=${form.id}`, { values: { input_1: 'x' } })).body).toMatchObject({ status: 1, msg: '表单不存在' });
      expect((await upload(form.id, 'a.png', PNG)).body).toMatchObject({ status: 1, msg: '表单不存在' });
      // its entries are out of reach while it is in the recycle bin, and go when it is deleted for good
      expect((await post(`${F}/entry/search`, { formId: form.id })).body).toMatchObject({ status: 1, msg: '表单不存在' });
      const left = () => s.app.ctx.db.selectFrom('jimu_form_entry').select('id').where('form_id', '=', form.id).execute();
      expect(await left()).toHaveLength(1);
      await purgeForm(form.id);
      expect(await left()).toEqual([]);
    });

    it('answers an upload whose body ends inside the file at once (400), leaving no temp file', async () => {
      const form = await newForm('截断上传', { fillAccess: 'public' });
      await add(form.id, 'formImage');
      const staging = path.join(s.app.ctx.config.dataDir, 'files', '.tmp');
      const cut = '--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG';
      // the route looks the form up first, so busboy has seen the whole body before the parts are read
      const res = await fetch(`${s.url}${F}/fill/upload?id=${form.id}`, {
        method: 'POST',
        body: cut,
        headers: { 'content-type': 'multipart/form-data; boundary=zzz' },
        signal: AbortSignal.timeout(5000),
      });
      expect({ http: res.status, body: await res.json() }).toEqual({ http: 400, body: { status: 1, msg: '上传内容格式不正确', data: null } });
      expect(readdirSync(staging)).toEqual([]);
    });

    it('refuses uploads and entries while the disk is short of MIN_FREE_DISK_MB, storing nothing, and takes them again once there is room', async () => {
      const form = await newForm('磁盘空间', { fillAccess: 'public' });
      await add(form.id, 'formInput');
      await add(form.id, 'formImage');
      const files = () => readdirSync(path.join(s.app.ctx.config.dataDir, 'files'), { recursive: true }).length;
      const entries = async () => (await s.app.ctx.db.selectFrom('jimu_form_entry').select('id').where('form_id', '=', form.id).execute()).length;
      const listUpload = async () => {
        const body = new FormData();
        body.append('files', new Blob([new Uint8Array(PNG)]), 'a.png');
        return (await (await fetch(`${s.url}/api/file/image/uploadImage`, { method: 'POST', body, headers: { authorization: `Bearer ${s.token}` } })).json()) as any;
      };
      const wikiUpload = async () => {
        const body = new FormData();
        body.append('fileBizType', 'wiki');
        body.append('file', new Blob([new Uint8Array(PNG)]), 'a.png');
        const res = await fetch(`${s.url}/api/doc/file/upload`, { method: 'POST', body, headers: { authorization: `Bearer ${s.token}` } });
        return { http: res.status, body: (await res.json()) as any };
      };
      const before = { files: files(), entries: await entries() };
      const room = s.app.ctx.config.minFreeDiskBytes;
      s.app.ctx.config.minFreeDiskBytes = Number.MAX_SAFE_INTEGER; // more than any disk has free
      try {
        const full = { status: 1, msg: '服务器存储空间不足，暂时不能保存，请联系管理员', data: null };
        expect(await upload(form.id, 'a.png', PNG)).toEqual({ http: 507, body: full });
        expect(await fill('POST', `/fill/submit?id=${form.id}`, { values: { input_1: 'x' } })).toEqual({ http: 507, body: full });
        expect(await listUpload()).toEqual(full);
        expect(await wikiUpload()).toEqual({ http: 507, body: full });
        expect({ files: files(), entries: await entries() }).toEqual(before);
      } finally {
        s.app.ctx.config.minFreeDiskBytes = room;
      }
      expect((await upload(form.id, 'a.png', PNG)).body.status).toBe(0);
      expect((await fill('POST', `/fill/submit?id=${form.id}`, { values: { input_1: 'x' } })).body.status).toBe(0);
      expect((await listUpload()).status).toBe(0);
      expect((await wikiUpload()).body.status).toBe(0);
    });

    it('takes uploads only through the image checks, only for a form with an image field, only as access allows', async () => {
      const form = await newForm('上传', { fillAccess: 'public' });
      await add(form.id, 'formInput');
      expect((await upload(form.id, 'a.png', PNG)).body).toMatchObject({ status: 1, msg: '该表单没有图片上传字段' });
      await add(form.id, 'formImage');
      expect((await upload(form.id, 'fake.png', Buffer.from('not an image'))).body.msg).toContain('只能上传.jpg,.jpeg,.png,.webp,.svg文件!');
      expect((await upload(form.id, '../x.png', PNG)).body).toMatchObject({ status: 1, msg: '文件名不合法' });
      expect((await upload(form.id, 'a.gif', PNG)).body.status).toBe(1);
      const ok = await upload(form.id, 'a.png', PNG);
      expect(ok.body.status).toBe(0);
      const served = await fetch(`${s.url}${ok.body.data.url}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      await post(`${F}/info/save`, { id: form.id, fillAccess: 'login' });
      expect((await upload(form.id, 'a.png', PNG)).http).toBe(401);
      expect((await upload(form.id, 'a.png', PNG, biz)).body.status).toBe(0);
      // a link is no free file hosting: uploads no entry names are capped per form (the sweep frees room)
      const stamp = '2026-01-01 00:00:00';
      const pending = Array.from({ length: PENDING_UPLOADS_PER_FORM }, (_, i) => ({ file_image_id: 900_000 + i, form_id: form.id, create_time: stamp }));
      await s.app.ctx.db.insertInto('jimu_form_upload').values(pending).execute();
      expect((await upload(form.id, 'a.png', PNG, biz)).body).toMatchObject({ status: 1, msg: '该表单待提交的图片过多，请先提交已填写的内容或稍后再试' });
      await s.app.ctx.db.deleteFrom('jimu_form_upload').where('file_image_id', '>=', 900_000).execute();
    });

    it('limits fill-in calls per client address', async () => {
      const form = await newForm('限流', { fillAccess: 'public' });
      await add(form.id, 'formInput');
      const from = freshAddress();
      const codes: number[] = [];
      for (let i = 0; i < FILL_RATE.submit + 2; i++) codes.push((await fill('POST', `/fill/submit?id=${form.id}`, { values: { input_1: `${i}` } }, undefined, from)).http);
      expect(codes.slice(0, FILL_RATE.submit)).toEqual(Array(FILL_RATE.submit).fill(200));
      expect(codes.slice(FILL_RATE.submit)).toEqual([429, 429]);
      expect((await fill('POST', `/fill/submit?id=${form.id}`, { values: {} }, undefined, from)).body).toEqual({ status: 1, msg: '请求过于频繁，请稍后再试', data: null });
      // another address is not held back, and the entries are exactly the ones let through
      expect((await fill('POST', `/fill/submit?id=${form.id}`, { values: { input_1: 'x' } })).http).toBe(200);
      expect((await get(`${F}/info/get?id=${form.id}`)).body.data.entryCount).toBe(FILL_RATE.submit + 1);
    });
  });

  describe('entries', () => {
    it('lists columns: current fields in layer order, then fields only old entries have, with their old titles', async () => {
      const form = await newForm('列', { fillAccess: 'public' });
      for (const k of ['formInput', 'formSelect', 'formSubmit', 'formTextarea']) await add(form.id, k);
      let list = await select(form.id);
      await update(form.id, list, { 0: { field: 'name', label: '姓名' }, 1: { field: 'city', label: '城市' }, 3: { field: 'memo', label: '备注' } });
      expect((await fill('POST', `/fill/submit?id=${form.id}`, { values: { name: '甲', city: '1', memo: '旧备注' } })).body.status).toBe(0);
      const cols = (await get(`${F}/entry/columns?formId=${form.id}`)).body.data;
      expect(cols).toEqual([
        { field: 'name', title: '姓名', kind: 'formInput' },
        {
          field: 'city',
          title: '城市',
          kind: 'formSelect',
          options: [
            { label: '选项一', value: '1' },
            { label: '选项二', value: '2' },
            { label: '选项三', value: '3' },
          ],
        },
        { field: 'memo', title: '备注', kind: 'formTextarea' },
      ]);
      // the form changes: memo goes, a new field comes; the old entry keeps its memo under its old title
      list = await select(form.id);
      expect((await post(`${F}/widget/update`, { pageId: form.id, widgets: [list[0], list[1], list[2]] })).body.status).toBe(0);
      await add(form.id, 'formDate');
      const after = (await get(`${F}/entry/columns?formId=${form.id}`)).body.data;
      expect(after.map((c: any) => [c.field, c.title, c.kind, c.removed])).toEqual([
        ['name', '姓名', 'formInput', undefined],
        ['city', '城市', 'formSelect', undefined],
        ['date_1', '日期', 'formDate', undefined],
        ['memo', '备注（已删除）', 'formTextarea', true],
      ]);
      expect((await post(`${F}/entry/search`, { formId: form.id })).body.data.records[0]).toMatchObject({ name: '甲', memo: '旧备注' });
      expect((await get(`${F}/entry/columns?formId=999999`)).body).toMatchObject({ status: 1, msg: '表单不存在' });
    });

    it('searches the values case-insensitively and literally, filters by time, pages newest first and deletes', async () => {
      const form = await newForm('检索', { fillAccess: 'public' });
      await add(form.id, 'formInput');
      await add(form.id, 'formSelect');
      for (const v of ['Alpha', '100%', 'a_b', 'beta', 'ALPHA-2']) expect((await fill('POST', `/fill/submit?id=${form.id}`, { values: { input_1: v, select_1: '2' } })).body.status).toBe(0);
      const search = async (body: object) => (await post(`${F}/entry/search`, { formId: form.id, ...body })).body;
      const names = (b: any) => b.data.records.map((r: any) => r.input_1);
      expect(names(await search({}))).toEqual(['ALPHA-2', 'beta', 'a_b', '100%', 'Alpha']);
      expect((await search({ pageNum: 2, pageSize: 2 })).data).toMatchObject({ total: 5, records: [{ input_1: 'a_b' }, { input_1: '100%' }] });
      expect(names(await search({ search: 'alpha' }))).toEqual(['ALPHA-2', 'Alpha']);
      expect(names(await search({ search: '%' }))).toEqual(['100%']);
      expect(names(await search({ search: '_' }))).toEqual(['a_b']);
      // the option's label is searchable too, not only its value
      expect((await search({ search: '选项二' })).data.total).toBe(5);
      expect((await search({ search: 'input_1' })).data.total).toBe(0); // field names are no values
      const today = new Date();
      const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
      expect((await search({ beginTime: day, endTime: day })).data.total).toBe(5);
      expect((await search({ endTime: '2000-01-01' })).data.total).toBe(0);
      expect((await search({ beginTime: '2999-01-01 00:00:00' })).data.total).toBe(0);
      for (const beginTime of ['2024-13-01', 'yesterday', "2024-01-01' or '1'='1", '2024-01-01 25:00:00']) expect(await search({ beginTime }), beginTime).toMatchObject({ status: 1, msg: '开始时间格式不正确（YYYY-MM-DD 或 YYYY-MM-DD HH:mm:ss）' });
      expect((await search({ formId: 999999 })).msg).toBe('表单不存在');
      expect((await post(`${F}/entry/search`, {})).body.status).toBe(1);

      const victim = (await search({ search: 'beta' })).data.records[0];
      expect((await get(`${F}/entry/delete?id=${victim.id}`, biz)).http).toBe(403);
      expect((await get(`${F}/entry/delete?id=${victim.id}`)).body).toMatchObject({ status: 0, msg: '删除成功' });
      expect((await get(`${F}/entry/delete?id=${victim.id}`)).body).toMatchObject({ status: 1, msg: '填写记录不存在' });
      expect((await search({})).data.total).toBe(4);
      // an approver reads entries
      expect((await post(`${F}/entry/search`, { formId: form.id }, biz)).body.data.total).toBe(4);
    });

    it('exports a CSV: BOM, titles, values as text, quotes doubled, formulas disarmed, the form name in the file name', async () => {
      const form = await newForm('导出 "表"', { fillAccess: 'public' });
      for (const k of ['formInput', 'formCheckbox', 'formSwitch', 'formDateRange', 'formNumber']) await add(form.id, k);
      const list = await select(form.id);
      await update(form.id, list, { 0: { label: '姓名' }, 4: { label: '金额', minimum: -100 } });
      const rows = [
        { input_1: '=HYPERLINK("http://evil")', checkbox_1: ['1', '3'], switch_1: false, daterange_1: ['2024-01-01', '2024-01-02'], number_1: -5 },
        { input_1: 'say "hi", 再见\n第二行', switch_1: true },
        { input_1: '@SUM(A1)' },
        { input_1: '+1' },
      ];
      for (const values of rows) expect((await fill('POST', `/fill/submit?id=${form.id}`, { values })).body.status).toBe(0);
      const res = await fetch(`${s.url}${F}/entry/export?formId=${form.id}`, { headers: { authorization: `Bearer ${dev}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="form-${form.id}-entries.csv"; filename*=UTF-8''%E5%AF%BC%E5%87%BA%20%22%E8%A1%A8%22-%E5%A1%AB%E5%86%99%E8%AE%B0%E5%BD%95.csv`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const text = new TextDecoder().decode(bytes.slice(3));
      const lines = text.split('\r\n');
      expect(lines[0]).toBe('"编号","提交人","提交时间","提交IP","姓名","多选","开关","日期范围","金额"');
      const cells = (line: string) => line.split(',').slice(4);
      expect(cells(lines[4])).toEqual(['"\'=HYPERLINK(""http://evil"")"', '"选项一、选项三"', '"否"', '"2024-01-01 ~ 2024-01-02"', '"\'-5"']);
      expect(lines[3]).toContain('"say ""hi"", 再见\n第二行","","是","",""');
      expect(cells(lines[2])[0]).toBe('"\'@SUM(A1)"');
      expect(cells(lines[1])[0]).toBe('"\'+1"');
      expect(lines.at(-1)).toBe('');
      // filtered like the list; a bad filter is an envelope, not a half-written file
      const some = await (await fetch(`${s.url}${F}/entry/export?formId=${form.id}&search=${encodeURIComponent('SUM')}`, { headers: { authorization: `Bearer ${dev}` } })).text();
      expect(some.trim().split('\r\n')).toHaveLength(2);
      const bad = await fetch(`${s.url}${F}/entry/export?formId=${form.id}&beginTime=x`, { headers: { authorization: `Bearer ${dev}` } });
      expect(await bad.json()).toMatchObject({ status: 1, msg: '开始时间格式不正确（YYYY-MM-DD 或 YYYY-MM-DD HH:mm:ss）' });
      expect((await fetch(`${s.url}${F}/entry/export?formId=${form.id}`)).status).toBe(401);
    });

    it('streams a long export in chunks: every entry once, newest first', async () => {
      const form = await newForm('长导出', { fillAccess: 'public' });
      await add(form.id, 'formInput');
      const n = EXPORT_CHUNK * 2 + 3;
      const rows = Array.from({ length: n }, (_, i) => ({
        form_id: form.id,
        data: JSON.stringify({ input_1: `v${i}` }),
        labels: '{"input_1":"单行文本"}',
        kinds: '{"input_1":"formInput"}',
        texts: JSON.stringify({ input_1: `v${i}` }),
        search_text: `v${i}`,
        create_user: null,
        create_ip: '127.0.0.1',
        create_time: '2024-01-01 00:00:00',
      }));
      for (let i = 0; i < n; i += 200) await s.app.ctx.db.insertInto('jimu_form_entry').values(rows.slice(i, i + 200)).execute();
      const text = await (await fetch(`${s.url}${F}/entry/export?formId=${form.id}`, { headers: { authorization: `Bearer ${dev}` } })).text();
      const lines = text.replace(/^\uFEFF/, '').trim().split('\r\n').slice(1);
      expect(lines).toHaveLength(n);
      expect(lines.map((l) => l.split(',').at(-1))).toEqual(Array.from({ length: n }, (_, i) => `"v${n - 1 - i}"`));
      expect((await post(`${F}/entry/search`, { formId: form.id, pageSize: 500 })).body.data.total).toBe(n);
    });
  });
});
