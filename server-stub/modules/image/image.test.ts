// Image upload rules over real HTTP (multipart): type by content, extension matches content, count, size,
// names; served files carry a CSP sandbox so a script in an SVG cannot run on the console's origin.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { serverForSuite, testStores } from '../../testing/server.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]), Buffer.alloc(64), Buffer.from([0xff, 0xd9])]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(28)]);
const SVG_XSS = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script><rect width="10" height="10"/></svg>');

type Part = { name: string; data: Buffer | Blob };

describe.each(testStores)('image files (%s store)', (store) => {
  const s = serverForSuite({ store });

  const upload = async (files: Part[], fields: Record<string, string> = {}, token: string | null = s.token) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    for (const f of files) form.append('files', f.data instanceof Blob ? f.data : new Blob([new Uint8Array(f.data)]), f.name);
    const res = await fetch(`${s.url}/api/file/image/uploadImage`, { method: 'POST', body: form, headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { http: res.status, body: (await res.json()) as { status: number; msg: string; data: any } };
  };

  it('accepts png, jpeg, webp and svg by content; lists, sorts, gets the URL, serves with CSP and nosniff', async () => {
    const r = await upload([
      { name: 'a.png', data: PNG },
      { name: '照片.JPG', data: JPEG },
      { name: 'c.webp', data: WEBP },
      { name: 'd.jpeg', data: JPEG },
    ], { bucketName: 'gemini' });
    expect(r.body).toMatchObject({ status: 0, msg: '上传文件成功' });
    expect(r.body.data).toHaveLength(4);
    expect(r.body.data[1]).toMatchObject({ fileName: '照片.JPG', extName: 'jpg', bucketName: 'gemini', size: JPEG.length });
    const list = await s.request('POST', '/api/file/image/searchImageList', { pageNum: 1, pageSize: 10, orderByColumn: 'size', isAsc: 'desc' });
    expect(list.body.data.total).toBe(4);
    expect(list.body.data.records[0].size).toBe(Math.max(PNG.length, JPEG.length, WEBP.length));
    const found = await s.request('POST', '/api/file/image/searchImageList', { search: 'a.pn' });
    expect(found.body.data.records.map((x: any) => x.fileName)).toEqual(['a.png']);
    const url = await s.request('GET', `/api/file/image/getImageUrl?id=${found.body.data.records[0].id}`);
    expect(url.body.data).toMatch(/^\/files\/gemini\/[0-9a-f-]{36}\.png$/);
    const file = await fetch(s.url + url.body.data);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('stores an SVG with a script but serves it sandboxed as image/svg+xml', async () => {
    const r = await upload([{ name: 'x.svg', data: SVG_XSS }], { bucketName: 'icons' });
    expect(r.body.status).toBe(0);
    const res = await fetch(s.url + r.body.data[0].fileUrl);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(existsSync(join(s.dataDir, 'files', 'icons', r.body.data[0].fileKey))).toBe(true);
  });

  it('refuses a text file named .png, a png named .jpg, a wrong extension, path tricks and no files', async () => {
    const text = await upload([{ name: 'fake.png', data: Buffer.from('just some text, not an image') }]);
    expect(text.body.status).toBe(1);
    expect(text.body.msg).toContain('只能上传.jpg,.jpeg,.png,.webp,.svg文件!');
    expect((await upload([{ name: 'swap.jpg', data: PNG }])).body.status).toBe(1);
    expect((await upload([{ name: 'a.gif', data: PNG }])).body).toMatchObject({ status: 1, msg: '只能上传.jpg,.jpeg,.png,.webp,.svg文件!' });
    expect((await upload([{ name: 'noext', data: PNG }])).body.status).toBe(1);
    for (const name of ['../evil.png', '..\\evil.png', 'dir/evil.png', 'nul\0.png']) {
      const r = await upload([{ name, data: PNG }]);
      expect(r.body, name).toMatchObject({ status: 1, msg: '文件名不合法' });
    }
    expect((await upload([], { bucketName: 'gemini' })).body).toMatchObject({ status: 1, msg: '请先上传文件' });
    expect((await upload([{ name: 'ok.png', data: PNG }], { bucketName: '../etc' })).body.status).toBe(1);
    const plain = await s.request('POST', '/api/file/image/uploadImage', { files: [] });
    expect(plain.body.status).toBe(1);
    // nothing half-stored
    expect(readdirSync(join(s.dataDir, 'files', '.tmp'))).toEqual([]);
    expect((await s.request('POST', '/api/file/image/searchImageList', {})).body.data.total).toBe(5);
  });

  it('refuses 11 files at once', async () => {
    const files = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.png`, data: PNG }));
    const r = await upload(files);
    expect(r.body).toMatchObject({ status: 1, msg: '超过了限制，每次只能上传10个文件。' });
    expect((await upload(files.slice(0, 10))).body.status).toBe(0);
  });

  it('refuses a file over 50 MB', async () => {
    const big = new Blob([new Uint8Array(PNG), new Uint8Array(50 * 1024 * 1024 + 1 - PNG.length)]);
    const r = await upload([{ name: 'big.png', data: big }]);
    expect(r.body).toMatchObject({ status: 1, msg: '文件大小不能超过50MB!' });
    expect(readdirSync(join(s.dataDir, 'files', '.tmp'))).toEqual([]);
  });

  it('permissions, unknown files, delete', async () => {
    const biz = await s.loginAs('bizapprover');
    const denied = await upload([{ name: 'a.png', data: PNG }], {}, biz);
    expect(denied.body.status).toBe(1);
    expect(denied.body.msg).toContain('没有权限');
    expect((await upload([{ name: 'a.png', data: PNG }], {}, null)).body.status).toBe(2);
    expect((await fetch(`${s.url}/files/gemini/00000000-0000-0000-0000-000000000000.png`)).status).toBe(404);
    expect((await fetch(`${s.url}/files/gemini/..%2Fplatform.db`)).status).toBe(404);
    const list = await s.request('POST', '/api/file/image/searchImageList', { search: 'a.png' });
    const rec = list.body.data.records[0];
    expect((await s.request('GET', `/api/file/image/deleteFile?id=${rec.id}`, undefined, biz)).body.msg).toContain('没有权限');
    expect((await s.request('GET', `/api/file/image/deleteFile?id=${rec.id}`)).body).toMatchObject({ status: 0, msg: '删除成功' });
    expect((await fetch(s.url + rec.fileUrl)).status).toBe(404);
    expect(existsSync(join(s.dataDir, 'files', rec.bucketName, rec.fileKey))).toBe(false);
  });
});
