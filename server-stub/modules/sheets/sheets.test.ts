// Import and export of list pages over real HTTP (issue 24 item 4): a custom page's 10,000 records out as XLSX
// and read back; imports with a bad row write nothing and name the row, good ones write every row; a declared
// page's import; permissions; every built-in page's export free of secrets — on SQLite and (PG_URL) PostgreSQL.
import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import example from '../../../schemas/examples/supplier.page.json';
import { serverForSuite, testStores, type TestServer } from '../../testing/server.js';
import { now } from '../../store/columns.js';

// the shipped example page (schemas/examples), as an admin pastes it into the page manager
const supplier = structuredClone(example);

async function download(s: TestServer, p: string, token = s.token): Promise<{ http: number; type: string; body: Buffer }> {
  const res = await fetch(s.url + p, { headers: { authorization: `Bearer ${token}` } });
  return { http: res.status, type: res.headers.get('content-type') ?? '', body: Buffer.from(await res.arrayBuffer()) };
}

async function upload(s: TestServer, p: string, file: { name: string; data: Buffer | string }, mode: 'preview' | 'commit', token = s.token) {
  const form = new FormData();
  form.append('mode', mode);
  form.append('file', new Blob([typeof file.data === 'string' ? file.data : new Uint8Array(file.data)]), file.name);
  const res = await fetch(s.url + p, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return { http: res.status, body: (await res.json()) as { status: number; msg: string; data: any } };
}

async function readXlsx(buf: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(buf as unknown as ArrayBuffer);
  return book.worksheets[0];
}

const count = async (s: TestServer, pageKey: string) => Number((await s.app.ctx.db.selectFrom('lowcode_data').select((eb) => eb.fn.countAll().as('n')).where('page_key', '=', pageKey).executeTakeFirst())?.n ?? 0);

describe.each(testStores)('sheets: export and import of list pages (%s store)', (store) => {
  const s = serverForSuite({ store });

  it('a custom page gets 导出, 导入 and 订阅 in its toolbar, and its calls', async () => {
    const r = await s.request('POST', '/api/lowcode/page/save', { pageKey: 'supplier', title: '供应商', declaration: supplier, published: true, roles: ['default', 'biz_approve'] });
    expect(r.body.status, r.body.msg).toBe(0);
    const got = await s.request('GET', '/api/lowcode/page/get?pageKey=supplier');
    const decl = got.body.data.declaration;
    expect(decl.api).toMatchObject({ export: 'GET /lowcode/data/supplier/export', import: 'POST /lowcode/data/supplier/import' });
    expect(decl.toolbar.map((a: any) => a.label ?? a.action)).toEqual(['新增供应商', '导出', '导入', '订阅']);
    // 订阅 is the job page's 新增, for those who may add jobs
    expect(decl.toolbar.at(-1)).toMatchObject({ action: 'add', page: 'job', perms: ['system:job:add'] });
  });

  it('exports 10,000 records of a custom page as XLSX (every row, not a page), the search applied', async () => {
    const time = now();
    const rows = Array.from({ length: 10_000 }, (_, i) => ({ page_key: 'supplier', data: JSON.stringify({ name: `供应商${i}`, phone: '13800000000', status: i % 2, remark: i === 7 ? '=CMD|calc' : '' }), create_user: 'admin', create_time: time, update_time: time }));
    for (let i = 0; i < rows.length; i += 500) await s.app.ctx.db.insertInto('lowcode_data').values(rows.slice(i, i + 500)).execute();
    const all = await download(s, '/api/lowcode/data/supplier/export?format=xlsx');
    expect(all.http).toBe(200);
    expect(all.type).toContain('spreadsheetml');
    const ws = await readXlsx(all.body);
    expect(ws.actualRowCount).toBe(10_001);
    expect(ws.getRow(1).values).toEqual([undefined, '名称', '手机号', '状态', '备注']);
    const labels = new Set<string>();
    ws.eachRow((row, n) => {
      if (n > 1) labels.add(String(row.getCell(3).value));
    });
    expect([...labels].sort()).toEqual(['否', '是']);
    const formula = ws.getColumn(4).values.find((v) => typeof v === 'string' && v.startsWith('='));
    expect(formula).toBe('=CMD|calc');
    // the search and a filter as the list sends them
    const some = await download(s, `/api/lowcode/data/supplier/export?format=csv&search=${encodeURIComponent('供应商99')}&status=1`);
    expect([...some.body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = some.body.toString('utf8').slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('"名称","手机号","状态","备注"');
    expect(lines.length - 1).toBe(56); // 供应商99, 990–999, 9900–9999: the odd ones
    expect(lines.slice(1).every((l) => l.includes('"是"'))).toBe(true);
  });

  it('an import with one bad row writes nothing and names the row; preview shows the first rows and the report', async () => {
    const before = await count(s, 'supplier');
    const csv = '\uFEFF名称,手机号,状态,备注\r\n甲,13900000001,是,第一行\r\n,13900000002,否,缺名称\r\n丙,12345,是,手机号错\r\n丁,13900000004,是,\r\n';
    const preview = await upload(s, '/api/lowcode/data/supplier/import', { name: '供应商.csv', data: csv }, 'preview');
    expect(preview.body.status, preview.body.msg).toBe(0);
    expect(preview.body.data).toMatchObject({ header: ['名称', '手机号', '状态', '备注'], total: 4 });
    expect(preview.body.data.preview[0]).toEqual({ row: 2, cells: ['甲', '13900000001', '是', '第一行'] });
    expect(preview.body.data.faults).toEqual([
      { row: 3, field: '名称', reason: '请输入名称' },
      { row: 4, field: '手机号', reason: '请输入正确的手机号码' },
    ]);
    const commit = await upload(s, '/api/lowcode/data/supplier/import', { name: '供应商.csv', data: csv }, 'commit');
    expect(commit.body.status).toBe(1);
    expect(commit.body.msg).toContain('导入失败：第 3 行「名称」：请输入名称');
    expect(commit.body.msg).toContain('第 4 行「手机号」');
    expect(commit.body.data.faults).toHaveLength(2);
    expect(await count(s, 'supplier')).toBe(before);
  });

  it('an import of good rows (XLSX) writes every row, labels turned into values', async () => {
    const before = await count(s, 'supplier');
    const book = new ExcelJS.Workbook();
    const ws = book.addWorksheet('导入');
    ws.addRow(['名称', '状态', '备注', '创建时间']);
    for (let i = 0; i < 250; i++) ws.addRow([`新供应商${i}`, i % 2 ? '是' : '否', i === 0 ? '+1 不是公式' : null, '2026-01-01']);
    const data = Buffer.from(await book.xlsx.writeBuffer());
    const r = await upload(s, '/api/lowcode/data/supplier/import', { name: '新供应商.xlsx', data }, 'commit');
    expect(r.body.status, r.body.msg).toBe(0);
    expect(r.body.msg).toBe('导入成功，共 250 条');
    expect(await count(s, 'supplier')).toBe(before + 250);
    const first = await s.request('POST', '/api/lowcode/data/supplier/search', { search: '新供应商0', pageSize: 1, orderByColumn: 'name', isAsc: 'asc' });
    expect(first.body.data.records[0]).toMatchObject({ name: '新供应商0', status: 0, remark: '+1 不是公式' });
  });

  it('hostile or malformed uploads are refused with a reason, never a 500', async () => {
    const garbage = Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 131) % 256));
    for (const file of [
      { name: 'x.xlsx', data: garbage },
      { name: 'x.csv', data: garbage },
      { name: 'x.exe', data: '名称\r\n甲' },
      { name: 'x.csv', data: '' },
      { name: 'x.csv', data: '不认识,的列\r\n1,2' },
    ]) {
      const r = await upload(s, '/api/lowcode/data/supplier/import', file, 'commit');
      expect(r.http, file.name).toBe(200);
      expect(r.body.status, file.name).toBe(1);
      expect(r.body.msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    const big = await upload(s, '/api/lowcode/data/supplier/import', { name: 'big.csv', data: Buffer.alloc(11 * 1024 * 1024, 0x61) }, 'preview');
    expect(big.body).toMatchObject({ status: 1, msg: '文件不能超过 10 MB' });
    const notMultipart = await s.request('POST', '/api/lowcode/data/supplier/import', { file: 'x' });
    expect(notMultipart.body).toMatchObject({ status: 1, msg: '请以 multipart/form-data 上传文件' });
  });

  it('permissions: a role without the import permission is refused; without a page’s export permission too', async () => {
    const biz = await s.loginAs('bizapprover'); // lowcode:data:list only
    const before = await count(s, 'supplier');
    const r = await upload(s, '/api/lowcode/data/supplier/import', { name: 'a.csv', data: '名称\r\n越权\r\n' }, 'commit', biz);
    expect(r.http).toBe(403);
    expect(await count(s, 'supplier')).toBe(before);
    expect((await download(s, '/api/lowcode/data/supplier/export?format=csv', biz)).http).toBe(200);
    // built-in pages: the page's own list permission, which this role lacks
    for (const p of ['/api/sys/var/export?format=xlsx', '/api/sheets/export/role?format=csv', '/api/sheets/export/user', '/api/remote/ftp/export']) expect((await download(s, p, biz)).http, p).toBe(403);
    const imp = await upload(s, '/api/sys/var/import', { name: 'v.csv', data: '变量名\r\nx\r\n' }, 'commit', biz);
    expect(imp.http).toBe(403);
    // the data-source list this role may see, it may export (its passwords never in it: see security/sheets.test.ts)
    expect((await download(s, '/api/sheets/export/datasource?format=csv', biz)).http).toBe(200);
    // a page that does not declare the generic export is not exported through it
    expect((await s.request('GET', '/api/sheets/export/online')).body).toMatchObject({ status: 1, msg: '页面不存在或不支持导出' });
  });

  it('exports API 审批, API Key 用量 and 图片文件 with their columns (issue 34), under each page’s list permission', async () => {
    // the usage list is one key's (the page opens as a sub-list with keyId; its export carries the same query)
    const keyId = (await s.request('POST', '/api/gemini/api/key/add', { keyName: '导出用量' })).body.data.id;
    const query: Record<string, string> = { apiApprove: '', apiKeyUsage: `&keyId=${keyId}`, image: '' };
    for (const id of Object.keys(query)) {
      const decl = JSON.parse(readFileSync(path.resolve(import.meta.dirname, `../../../schemas/pages/${id}.page.json`), 'utf8'));
      const api = decl.api.export.split(' ')[1];
      expect(decl.toolbar.some((b: any) => b.action === 'download' && b.api === decl.api.export), id).toBe(true);
      const csv = await download(s, `/api${api}?format=csv${query[id]}`);
      expect(csv.http, id).toBe(200);
      const head = csv.body.toString('utf8').replace(/^\uFEFF/, '').split('\r\n')[0];
      const first = decl.columns.find((c: any) => c.field && c.type !== 'actions' && c.type !== 'index');
      expect(head, id).toContain(`"${first.title}"`);
      const xlsx = await download(s, `/api${api}?format=xlsx${query[id]}`);
      expect([xlsx.http, xlsx.body.subarray(0, 2).toString()], id).toEqual([200, 'PK']);
    }
    // a role without the page's list permission gets none of them
    const [biz, dev] = [await s.loginAs('bizapprover'), await s.loginAs('developer')];
    expect((await download(s, `/api/sheets/export/apiApprove?format=csv`, dev)).http).toBe(403);
    expect((await download(s, `/api/sheets/export/apiKeyUsage?format=csv${query.apiKeyUsage}`, biz)).http).toBe(403);
  });

  it('a declared page (变量): import all-or-nothing, export as XLSX', async () => {
    const page = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../../schemas/pages/variable.page.json'), 'utf8'));
    const props = page.dialog.schema.properties as Record<string, any>;
    const required = Object.keys(props).filter((f) => (page.dialog.schema.required ?? []).includes(f) || props[f].required || (props[f]['x-validator'] ?? []).some?.((v: any) => v.required));
    const titles = Object.keys(props).map((f) => props[f].title);
    expect(required.length).toBeGreaterThan(0);
    const preview = await upload(s, '/api/sys/var/import', { name: 'v.csv', data: `${titles.join(',')}\r\n` }, 'preview');
    expect(preview.body.status, preview.body.msg).toBe(0);
    const list = async () => (await s.request('POST', '/api/sys/var/searchList', { pageNum: 1, pageSize: 100 })).body.data.total as number;
    const before = await list();
    // a row with every required field empty: refused, nothing written
    const bad = await upload(s, '/api/sys/var/import', { name: 'v.csv', data: `${titles.join(',')}\r\n${titles.map(() => '').join(',')}x\r\n` }, 'commit');
    expect(bad.body.status).toBe(1);
    expect(bad.body.msg).toMatch(/导入失败：第 2 行/);
    expect(await list()).toBe(before);
    const xlsx = await download(s, '/api/sys/var/export?format=xlsx');
    expect(xlsx.http).toBe(200);
    expect((await readXlsx(xlsx.body)).getRow(1).values).toContain(page.columns.find((c: any) => c.field && c.type !== 'actions')?.title);
  });
});
