// Screens started from a shipped template, and each screen's thumbnail (issue 22 item 3), over real HTTP on each
// store: the template list, a creation from every template (its widgets with new ids, in one transaction), the
// refusals (an unknown template, a template on an edit, a caller without the add permission), a bad template
// refusing the start; the thumbnail's upload (type by content, size, permission) and its reading (list
// permission, ETag, 404 while none), copied and deleted with its screen.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { loadSchemas } from '../../core/schemas.js';
import { serverForSuite, testStores } from '../../testing/server.js';
import { loadTemplates, unknownTemplate } from './templates.js';
import { NO_THUMBNAIL, THUMBNAIL } from './thumbnails.js';

const root = path.resolve(import.meta.dirname, '../../..');
const templateDir = path.join(root, 'schemas', 'templates');
const shipped = readdirSync(templateDir)
  .filter((f) => f.endsWith('.screen.json'))
  .map((f) => ({ name: f.replace(/\.screen\.json$/, ''), doc: JSON.parse(readFileSync(path.join(templateDir, f), 'utf8')) }));
const P = '/api/datav/screen';

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** A real PNG of w×h pixels of one colour. */
function png(w: number, h: number, rgb = [20, 60, 120]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: w }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** The start of a WebP file (RIFF … WEBP VP8L), enough for a content check. */
const webp = () => Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8L'), Buffer.alloc(40, 1)]);

describe('the shipped templates', () => {
  it('are three or more, each a 1920×1080 screen with a title, a description and widgets of several kinds', () => {
    expect(shipped.map((t) => t.name)).toEqual(expect.arrayContaining(['operations', 'sales', 'monitoring']));
    for (const { doc } of shipped) {
      expect(doc.page).toMatchObject({ width: 1920, height: 1080 });
      expect(doc.page.pageName).toBeTruthy();
      expect(doc.description).toBeTruthy();
      const kinds = new Set(doc.widgets.map((w: any) => w.widgetName));
      expect(kinds.size, doc.page.pageName).toBeGreaterThanOrEqual(10);
      // every widget on the canvas, none beyond its edges
      for (const w of doc.widgets) {
        const v = w.widgetProps.viewProps;
        expect(v.left >= 0 && v.top >= 0 && v.left + v.width <= 1920 && v.top + v.height <= 1080, `${doc.page.pageName} ${w.widgetTitle}`).toBe(true);
        // sample data shipped in the file: a template never calls an API
        expect(w.widgetProps.datasourceProps.datasourceType).toBe('STATIC');
      }
    }
  });

  it('a template with a bad widget refuses the start, naming its file and the JSON pointer', () => {
    const schemas = loadSchemas(root);
    const app = (templates: Record<string, unknown>) => ({ ctx: { schemas: { ...schemas, screenTemplates: templates } } }) as unknown as FastifyInstance;
    expect(loadTemplates(app(schemas.screenTemplates)).size).toBe(shipped.length);
    const bad = structuredClone(schemas.screenTemplates.sales);
    const title = bad.widgets.findIndex((w: any) => w.widgetName === 'singleLineTitle');
    bad.widgets[title].widgetProps.viewProps.fontSize = 'huge';
    expect(() => loadTemplates(app({ sales: bad }))).toThrow(`大屏模板 schemas/templates/sales.screen.json 不可用：/widgets/${title}/widgetProps/viewProps/fontSize 类型应为整数`);
    const unknown = structuredClone(schemas.screenTemplates.sales);
    unknown.widgets[0].widgetName = 'rocket';
    expect(() => loadTemplates(app({ sales: unknown }))).toThrow('/widgets/0/widgetName 未知部件：rocket');
    const form = structuredClone(schemas.screenTemplates.sales);
    form.widgets[0].widgetName = 'formInput';
    expect(() => loadTemplates(app({ sales: form }))).toThrow('不能用于大屏');
  });
});

describe.each(testStores)('screen templates and thumbnails (%s store)', (store) => {
  const s = serverForSuite({ store });
  let dev: string;
  let biz: string;
  beforeAll(async () => {
    dev = await s.loginAs('developer');
    biz = await s.loginAs('bizapprover');
  });
  const get = (p: string, token = dev) => s.request('GET', P + p, undefined, token);
  const post = (p: string, body: unknown, token = dev) => s.request('POST', P + p, body, token);
  const pageCount = async () => (await post('/search', { pageNum: 1, pageSize: 10 })).body.data.total as number;

  it('lists 空白大屏 first, then every shipped template, to whoever may create a screen', async () => {
    const r = await get('/template/list');
    expect(r.body.status, r.body.msg).toBe(0);
    const list = r.body.data as any[];
    expect(list[0]).toMatchObject({ value: '', label: '空白大屏', widgetCount: 0 });
    expect(list.slice(1).map((t) => t.value).sort()).toEqual(shipped.map((t) => t.name).sort());
    for (const t of shipped) expect(list.find((x) => x.value === t.name)).toMatchObject({ label: t.doc.page.pageName, description: t.doc.description, width: 1920, height: 1080, widgetCount: t.doc.widgets.length });
    // bizapprover reads screens but may not create one
    expect((await get('/template/list', biz)).body).toMatchObject({ status: 1 });
    expect((await s.request('GET', `${P}/template/list`, undefined, null)).http).toBe(401);
  });

  it.each(shipped.map((t) => [t.name, t.doc] as const))('creates a screen from template %s: its canvas and widgets, with new ids, in one call', async (name, doc) => {
    const r = await post('/info/save', { pageName: `模板 ${name}`, template: name, width: 800, height: 600 });
    expect(r.body, JSON.stringify(r.body).slice(0, 300)).toMatchObject({ status: 0, msg: '保存成功' });
    const page = r.body.data;
    // the template's canvas wins over the dialog's defaults; the name is the caller's
    expect(page).toMatchObject({ pageName: `模板 ${name}`, width: doc.page.width, height: doc.page.height, backgroundColor: doc.page.backgroundColor, widgetCount: doc.widgets.length, revision: 1 });
    const widgets = (await get(`/widget/select?pageId=${page.id}`)).body.data as any[];
    expect(widgets.map((w) => w.widgetName)).toEqual(doc.widgets.map((w: any) => w.widgetName));
    expect(widgets.map((w) => w.widgetTitle)).toEqual(doc.widgets.map((w: any) => w.widgetTitle));
    widgets.forEach((w, i) => {
      expect(w.widgetProps.viewProps).toEqual(doc.widgets[i].widgetProps.viewProps);
      expect(w.widgetProps.datasourceProps).toEqual(doc.widgets[i].widgetProps.datasourceProps);
      expect(w.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    });
    // a second screen from the same template gets ids of its own, and saving its list back passes widget/update's checks
    const again = (await post('/info/save', { pageName: `模板 ${name} 2`, template: name })).body.data;
    const second = (await get(`/widget/select?pageId=${again.id}`)).body.data as any[];
    expect(second.some((w) => widgets.some((o) => o.id === w.id))).toBe(false);
    expect((await post('/widget/update', { pageId: again.id, widgets: second, revision: again.revision })).body).toMatchObject({ status: 0 });
    // the list counts them
    const found = (await post('/search', { pageNum: 1, pageSize: 10, search: `模板 ${name} 2` })).body.data.records[0];
    expect(found).toMatchObject({ widgetCount: doc.widgets.length, thumbnail: null });
  });

  it('refuses an unknown template, a template on an edit, and a creation without the add permission; nothing is created', async () => {
    const before = await pageCount();
    for (const template of ['rocket', '../operations', '__proto__', 'constructor', 'OPERATIONS']) {
      expect((await post('/info/save', { pageName: '坏模板', template })).body).toMatchObject({ status: 1, msg: unknownTemplate(template) });
    }
    expect((await post('/info/save', { pageName: '坏模板', template: 7 })).body).toMatchObject({ status: 1 });
    expect((await post('/info/save', { pageName: '无权', template: 'sales' }, biz)).body).toMatchObject({ status: 1 });
    expect(await pageCount()).toBe(before);
    const blank = (await post('/info/save', { pageName: '空白', template: '' })).body.data;
    expect(blank).toMatchObject({ width: 1920, height: 1080, widgetCount: 0 });
    expect((await post('/info/save', { id: blank.id, pageName: '空白', template: 'sales' })).body).toMatchObject({ status: 1, msg: '只有新建时才能选择模板' });
    // forms have no templates
    expect((await s.request('POST', '/api/jimu/form/info/save', { pageName: '表单', template: 'sales' }, dev)).body).toMatchObject({ status: 1, msg: unknownTemplate('sales') });
  });

  describe('thumbnails', () => {
    const upload = async (id: number, name: string, data: Buffer, token: string | null = dev) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(data)]), name);
      const res = await fetch(`${s.url}${P}/thumbnail/upload?id=${id}`, { method: 'POST', body: form, headers: token ? { authorization: `Bearer ${token}` } : {} });
      return { http: res.status, body: (await res.json()) as any };
    };
    const read = (id: number, token: string | null = dev, headers: Record<string, string> = {}) =>
      fetch(`${s.url}${P}/thumbnail?id=${id}`, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
    const newScreen = async (pageName: string) => (await post('/info/save', { pageName })).body.data as { id: number; revision: number };

    it('stores the editor’s picture and serves it with the list permission only', async () => {
      const page = await newScreen('缩略图');
      const none = await read(page.id);
      expect(none.status).toBe(404);
      expect(await none.json()).toMatchObject({ status: 1, msg: NO_THUMBNAIL });

      const picture = png(32, 18);
      const up = await upload(page.id, 'thumbnail.png', picture);
      expect(up.body, JSON.stringify(up.body)).toMatchObject({ status: 0, data: { size: picture.length, contentType: 'image/png' } });
      const etag = up.body.data.thumbnail as string;

      const record = (await post('/search', { pageNum: 1, pageSize: 10, search: '缩略图' })).body.data.records.find((r: any) => r.id === page.id);
      expect(record.thumbnail).toBe(etag);

      for (const token of [dev, biz]) {
        const res = await read(page.id, token);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/png');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('content-security-policy')).toContain('sandbox');
        expect(Buffer.from(await res.arrayBuffer()).equals(picture)).toBe(true);
      }
      const again = await read(page.id, dev, { 'if-none-match': `"${etag}"` });
      expect(again.status).toBe(304);
      // no session, no picture
      expect((await read(page.id, null)).status).toBe(401);

      // a new picture replaces it (webp this time)
      const next = await upload(page.id, 'thumbnail.webp', webp());
      expect(next.body).toMatchObject({ status: 0, data: { contentType: 'image/webp' } });
      expect(next.body.data.thumbnail).not.toBe(etag);
      expect((await read(page.id)).headers.get('content-type')).toBe('image/webp');
    });

    it('only the screen’s editors may set it: the edit permission, a session, a screen that exists', async () => {
      const page = await newScreen('缩略图权限');
      expect((await upload(page.id, 'a.png', png(4, 4), biz)).body).toMatchObject({ status: 1 });
      expect((await upload(page.id, 'a.png', png(4, 4), null)).http).toBe(401);
      expect((await upload(999999, 'a.png', png(4, 4))).body).toMatchObject({ status: 1, msg: '大屏不存在' });
      const form = (await s.request('POST', '/api/jimu/form/info/save', { pageName: '表单' }, dev)).body.data;
      expect((await upload(form.id, 'a.png', png(4, 4))).body).toMatchObject({ status: 1, msg: '大屏不存在' });
      expect((await read(form.id)).status).toBe(404);
      expect((await read(page.id)).status).toBe(404);
    });

    it('refuses what is not a small png, jpeg or webp picture, by name and by content', async () => {
      const page = await newScreen('缩略图类型');
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      const refusals: Array<[string, Buffer, RegExp]> = [
        ['t.svg', svg, /只能上传\.png,\.jpg,\.jpeg,\.webp文件/],
        ['t.gif', Buffer.from('GIF89a....'), /只能上传/],
        ['t.png', Buffer.from('not a picture at all'), /内容与类型不符/],
        ['t.png', svg, /内容与类型不符/],
        ['t.webp', png(4, 4), /内容与类型不符/],
        ['../t.png', png(4, 4), /文件名不合法/],
      ];
      for (const [name, data, msg] of refusals) expect((await upload(page.id, name, data)).body.msg, name).toMatch(msg);
      // over the size limit (a PNG signature followed by filler): refused while it streams
      const big = Buffer.concat([png(2, 2), Buffer.alloc(THUMBNAIL.maxBytes, 7)]);
      expect((await upload(page.id, 'big.png', big)).body).toMatchObject({ status: 1, msg: '文件大小不能超过0.5MB!' });
      // two files in one call
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(png(2, 2))]), 'a.png');
      form.append('file', new Blob([new Uint8Array(png(2, 2))]), 'b.png');
      const two = await fetch(`${s.url}${P}/thumbnail/upload?id=${page.id}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${dev}` } });
      expect(await two.json()).toMatchObject({ status: 1, msg: '超过了限制，每次只能上传1个文件。' });
      // a JSON body is no upload
      expect((await post(`/thumbnail/upload?id=${page.id}`, { file: 'x' })).body).toMatchObject({ status: 1 });
      expect((await read(page.id)).status).toBe(404);
    });

    it('goes with its screen: a copy carries it, a delete removes it', async () => {
      const page = await newScreen('缩略图复制');
      const picture = png(8, 8, [200, 30, 30]);
      expect((await upload(page.id, 't.png', picture)).body.status).toBe(0);
      const copyId = (await get(`/copy?id=${page.id}`)).body.data as number;
      expect(Buffer.from(await (await read(copyId)).arrayBuffer()).equals(picture)).toBe(true);
      expect((await get(`/delete?id=${page.id}`)).body.status).toBe(0);
      expect((await read(page.id)).status).toBe(404);
      // kept in the recycle bin with its screen (issue 37), gone once the screen is deleted for good
      const rows = () => s.app.ctx.db.selectFrom('datav_thumbnail').select('page_id').where('page_id', '=', page.id).execute();
      expect(await rows()).toHaveLength(1);
      const binned = await s.app.ctx.db.selectFrom('sys_recycle').select('id').where('kind', '=', 'screen').where('item_key', '=', String(page.id)).executeTakeFirstOrThrow();
      expect((await s.request('POST', '/api/history/recycle/purge', { id: binned.id })).body.status).toBe(0);
      expect(await rows()).toEqual([]);
      expect((await read(copyId)).status).toBe(200);
    });
  });
});
