// Excel and CSV datasets in DuckDB (issue 35 §1) over real HTTP: a workbook of two sheets made into two datasets,
// charted; a CSV appended with its columns in another order; an upsert by a key; a replace that drops a field a
// chart uses (listed before it is confirmed); the version files never rewritten; and what is refused — unknown
// columns, values of the wrong type, duplicate keys, zip bombs, files too big or too long, a file dataset turned
// into another kind — with nothing written.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { startTestServer, type TestServer } from '../../testing/server.js';
import { zip } from '../../testing/zip.js';

const P = '/api/dataset';

async function workbook(sheets: Record<string, Array<Array<string | number | Date | null>>>): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const ws = book.addWorksheet(name);
    for (const r of rows) ws.addRow(r);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('file datasets (Excel / CSV in DuckDB)', () => {
  let s: TestServer;
  let dev: string;
  const made = new Map<string, number>();

  beforeAll(async () => {
    s = await startTestServer({ env: { DATASET_FILE_MAX_ROWS: '1000' } });
    dev = await s.loginAs('developer');
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  async function upload(fields: Record<string, string>, file: { name: string; data: Buffer | string }, token = dev) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([typeof file.data === 'string' ? file.data : new Uint8Array(file.data)]), file.name);
    const res = await fetch(`${s.url}${P}/file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    return { http: res.status, body: (await res.json()) as { status: number; msg: string; data: any } };
  }
  const query = async (q: object, token = dev) => {
    const r = await s.request('POST', `${P}/query`, { queries: [q] }, token);
    expect(r.body.status, r.body.msg).toBe(0);
    expect(r.body.data[0].error, r.body.data[0].error).toBeUndefined();
    return r.body.data[0];
  };
  const info = async (id: number) => (await s.request('GET', `${P}/info/get?id=${id}`, undefined, dev)).body.data;
  const files = () => readdirSync(path.join(s.dataDir, 'duckdb')).filter((f) => f.endsWith('.duckdb'));

  it('makes one dataset per sheet of a workbook, types found from the values, and charts it in the database', async () => {
    const book = await workbook({
      销售: [
        ['省份', '城市', '日期', '销售额', 'qty'],
        ['浙江', '杭州', new Date(Date.UTC(2026, 0, 5)), 100, 1],
        ['浙江', '宁波', new Date(Date.UTC(2026, 1, 3)), 70, 2],
        ['江苏', '南京', new Date(Date.UTC(2026, 0, 11)), 80.5, 4],
      ],
      目标: [
        ['省份', '目标'],
        ['浙江', 200],
        ['江苏', 150],
      ],
    });
    const preview = await upload({ mode: 'preview' }, { name: '销售.xlsx', data: book });
    expect(preview.body.status, preview.body.msg).toBe(0);
    const [sales, goals] = preview.body.data.sheets;
    expect(sales).toMatchObject({ sheet: '销售', rows: 3 });
    expect(sales.columns).toEqual([
      { name: '省份', type: 'text' },
      { name: '城市', type: 'text' },
      { name: '日期', type: 'date' },
      { name: '销售额', type: 'number' },
      { name: 'qty', type: 'number' },
    ]);
    expect(goals).toMatchObject({ sheet: '目标', rows: 2 });
    expect(files().length).toBe(0); // a preview writes nothing

    const commit = await upload({ mode: 'commit', name: '上传销售' }, { name: '销售.xlsx', data: book });
    expect(commit.body.status, commit.body.msg).toBe(0);
    expect(commit.body.data.map((d: any) => d.name)).toEqual(['上传销售-销售', '上传销售-目标']);
    const salesId = commit.body.data[0].id as number;
    made.set('sales', salesId);
    made.set('goals', commit.body.data[1].id);
    expect(files().length).toBe(2);

    const ds = await info(salesId);
    expect(ds.kind).toBe('file');
    // Chinese column names get ASCII field names, labelled with the column; numbers are measures
    expect(ds.fields.map((f: any) => [f.label, f.type, f.role])).toEqual([
      ['省份', 'text', 'dimension'],
      ['城市', 'text', 'dimension'],
      ['日期', 'date', 'dimension'],
      ['销售额', 'number', 'measure'],
      ['qty', 'number', 'measure'],
    ]);
    const f = Object.fromEntries(ds.fields.map((x: any) => [x.label, x.name]));
    const byProvince = await query({ datasetId: salesId, dimensions: [{ field: f['省份'] }], measures: [{ field: f['销售额'], agg: 'sum' }], sort: [{ field: f['省份'], dir: 'asc' }] });
    expect(byProvince.rows).toEqual([
      { [f['省份']]: '江苏', [`${f['销售额']}_sum`]: 80.5 },
      { [f['省份']]: '浙江', [`${f['销售额']}_sum`]: 170 },
    ]);
    const byMonth = await query({ datasetId: salesId, dimensions: [{ field: f['日期'], dateGroup: 'month' }], measures: [{ field: f['城市'], agg: 'countDistinct' }], sort: [{ field: f['日期'], dir: 'asc' }] });
    expect(byMonth.rows).toEqual([
      { [`${f['日期']}_month`]: '2026-01', [`${f['城市']}_countDistinct`]: 2 },
      { [`${f['日期']}_month`]: '2026-02', [`${f['城市']}_countDistinct`]: 1 },
    ]);
    // a calculated field compiled for DuckDB; a filter bound
    const saved = await s.request('POST', `${P}/info/save`, { ...ds, id: salesId, fields: [...ds.fields, { name: 'unit', label: '单价', type: 'number', role: 'measure', expr: `round([销售额] / qty, 1)` }] }, dev);
    expect(saved.body.status, saved.body.msg).toBe(0);
    const unit = await query({ datasetId: salesId, dimensions: [{ field: f['城市'] }], measures: [{ field: 'unit', agg: 'max' }], filters: [{ field: f['省份'], op: 'eq', value: '浙江' }], sort: [{ field: f['城市'], dir: 'asc' }] });
    expect(unit.rows).toEqual([
      { [f['城市']]: '宁波', unit_max: 35 },
      { [f['城市']]: '杭州', unit_max: 100 },
    ]);
    const preview100 = await s.request('POST', `${P}/preview`, { id: salesId }, dev);
    expect(preview100.body.data.total).toBe(3);
    // SQL in an expression is refused as on every dialect
    const bad = await s.request('POST', `${P}/info/save`, { ...ds, id: salesId, fields: [...ds.fields, { name: 'x', label: 'x', type: 'number', role: 'measure', expr: "1; select * from read_csv('/etc/passwd')" }] }, dev);
    expect(bad.body.status).toBe(1);
  });

  it('appends a CSV whose columns come in another order, matched by name; the version moves and the old answer is not served', async () => {
    const id = made.get('goals')!;
    const before = await info(id);
    const f = Object.fromEntries(before.fields.map((x: any) => [x.label, x.name]));
    const q = { datasetId: id, measures: [{ field: f['目标'], agg: 'sum' }] };
    expect((await query(q)).rows).toEqual([{ [`${f['目标']}_sum`]: 350 }]);
    const csv = '\uFEFF目标,省份\r\n100,广东\r\n"50",上海\r\n';
    const preview = await upload({ mode: 'preview', action: 'append', id: String(id) }, { name: '追加.csv', data: csv });
    expect(preview.body.status, preview.body.msg).toBe(0);
    expect(preview.body.data).toMatchObject({ rows: 2, added: 2 });
    expect((await query(q)).rows).toEqual([{ [`${f['目标']}_sum`]: 350 }]);
    const filesBefore = files();
    const commit = await upload({ mode: 'commit', action: 'append', id: String(id) }, { name: '追加.csv', data: csv });
    expect(commit.body).toMatchObject({ status: 0, msg: '已追加 2 行' });
    expect((await info(id)).version).toBe(before.version + 1);
    const after = await query(q);
    expect(after.rows).toEqual([{ [`${f['目标']}_sum`]: 500 }]);
    expect(after.cached).toBe(false);
    // a new file for the new version; the old one stays a while for readers on other instances
    expect(files().filter((x) => !filesBefore.includes(x)).length).toBe(1);

    // refused, and nothing written: a column the dataset lacks, a value of the wrong type, a file over the row limit
    const unknown = await upload({ mode: 'commit', action: 'append', id: String(id) }, { name: 'x.csv', data: '省份,目标,备注\n北京,1,x\n' });
    expect(unknown.body).toMatchObject({ status: 1, msg: expect.stringContaining('文件中的列「备注」不在数据集中') });
    const wrong = await upload({ mode: 'commit', action: 'append', id: String(id) }, { name: 'x.csv', data: '省份,目标\n北京,1\n天津,很多\n' });
    expect(wrong.body).toMatchObject({ status: 1, msg: '第 3 行「目标」的值「很多」不是数字' });
    const long = await upload({ mode: 'commit', action: 'append', id: String(id) }, { name: 'x.csv', data: `省份,目标\n${'北京,1\n'.repeat(1000)}` });
    expect(long.body).toMatchObject({ status: 1, msg: expect.stringContaining('超过数据集的上限 1000 行') });
    expect((await query(q)).rows).toEqual([{ [`${f['目标']}_sum`]: 500 }]);
    expect((await info(id)).version).toBe(before.version + 1);
  });

  it('upserts by a key column: rows with the key replaced, others added; a key twice in the file is refused', async () => {
    const id = made.get('goals')!;
    const ds = await info(id);
    const f = Object.fromEntries(ds.fields.map((x: any) => [x.label, x.name]));
    const dup = await upload({ mode: 'commit', action: 'upsert', id: String(id), key: '省份' }, { name: 'u.csv', data: '省份,目标\n浙江,1\n浙江,2\n' });
    expect(dup.body).toMatchObject({ status: 1, msg: '文件中键列「省份」的值「浙江」出现了 2 次' });
    const r = await upload({ mode: 'commit', action: 'upsert', id: String(id), key: '省份' }, { name: 'u.csv', data: '省份,目标\n浙江,300\n北京,10\n' });
    expect(r.body).toMatchObject({ status: 0, msg: '已更新 1 行，新增 1 行' });
    const rows = (await query({ datasetId: id, dimensions: [{ field: f['省份'] }], measures: [{ field: f['目标'], agg: 'sum' }], sort: [{ field: f['省份'], dir: 'asc' }] })).rows;
    expect(Object.fromEntries(rows.map((x: any) => [x[f['省份']], x[`${f['目标']}_sum`]]))).toEqual({ 上海: 50, 北京: 10, 广东: 100, 江苏: 150, 浙江: 300 });
  });

  it('replaces the rows with other columns: the charts losing a field are listed, and the replace waits for a confirmation', async () => {
    const id = made.get('goals')!;
    const ds = await info(id);
    const goal = ds.fields.find((x: any) => x.label === '目标').name;
    // a screen with a chart on the dataset's 目标
    const page = await s.app.ctx.db.insertInto('datav_page').values({ kind: 'screen', page_name: '目标大屏', width: 1920, height: 1080, background_color: null, refresh_seconds: null, preset_line: '[]', status: 0, revision: 1, create_user: 'developer', create_time: '2026-11-28 00:00:00', update_time: '2026-11-28 00:00:00' } as never).returning('id').executeTakeFirstOrThrow();
    const props = { datasourceProps: { datasourceType: 'DATASET', dataConfig: { dataset: { datasetId: id } }, dataMapping: [{ slot: 'measure', datasetField: goal, agg: 'sum' }] } };
    await s.app.ctx.db.insertInto('datav_widget').values({ id: 'w-goal', page_id: Number(page.id), sort_no: 0, widget_name: 'BarCommon', widget_title: '目标柱图', icon: '', widget_props: JSON.stringify(props), create_time: '2026-11-28 00:00:00', update_time: '2026-11-28 00:00:00' }).execute();

    const csv = '省份,计划\n浙江,9\n';
    const preview = await upload({ mode: 'preview', action: 'replace', id: String(id) }, { name: '新目标.csv', data: csv });
    expect(preview.body.status, preview.body.msg).toBe(0);
    expect(preview.body.data.removed).toEqual([{ name: goal, label: '目标' }]);
    expect(preview.body.data.charts).toEqual([{ pageId: Number(page.id), pageName: '目标大屏', widget: '目标柱图', fields: [goal] }]);
    const unconfirmed = await upload({ mode: 'commit', action: 'replace', id: String(id) }, { name: '新目标.csv', data: csv });
    expect(unconfirmed.body).toMatchObject({ status: 1, msg: expect.stringContaining('请确认后再替换') });
    const done = await upload({ mode: 'commit', action: 'replace', id: String(id), confirm: '1' }, { name: '新目标.csv', data: csv });
    expect(done.body).toMatchObject({ status: 0, msg: '已替换为 1 行' });
    const after = await info(id);
    // 省份 kept its field (name, label, role); 计划 is new
    expect(after.fields.map((x: any) => x.label)).toEqual(['省份', '计划']);
    expect(after.fields[0].name).toBe(ds.fields[0].name);
    expect(after.definition.file.fileName).toBe('新目标.csv');
  });

  it('refuses hostile and broken files, other kinds, and callers without the permission', async () => {
    const bomb = zip([{ name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(30 * 1024 * 1024), claim: 30 * 1024 * 1024 }]);
    expect((await upload({ mode: 'preview' }, { name: 'bomb.xlsx', data: bomb })).body.status).toBe(1);
    expect((await upload({ mode: 'preview' }, { name: 'x.csv', data: Buffer.from([0xff, 0xfe, 0x00, 0x41]) })).body.msg).toContain('UTF-8');
    expect((await upload({ mode: 'preview' }, { name: 'x.exe', data: 'MZ' })).body.msg).toBe('只支持 CSV（.csv）或 Excel（.xlsx）文件');
    expect((await upload({ mode: 'preview' }, { name: 'x.csv', data: 'a,A\n1,2\n' })).body.msg).toBe('列名「A」重复');
    expect((await upload({ mode: 'preview' }, { name: 'x.csv', data: 'a,,c\n1,2,3\n' })).body.msg).toBe('第 2 列没有列名');
    // hostile column names are names: quoted, never SQL
    const names = await upload({ mode: 'commit', name: '奇怪的列' }, { name: 'x.csv', data: `"a""b","'); drop table data; --",c\n1,2,3\n4,5,6\n` });
    expect(names.body.status, names.body.msg).toBe(0);
    const odd = await info(names.body.data[0].id);
    expect(odd.fields.map((x: any) => x.label)).toEqual(['a"b', "'); drop table data; --", 'c']);
    const sums = await query({ datasetId: odd.id, measures: odd.fields.map((x: any) => ({ field: x.name, agg: 'sum' })) });
    expect(Object.values(sums.rows[0])).toEqual([5, 7, 9]);
    expect((await upload({ mode: 'preview' }, { name: 'x.csv', data: 'a,b\n1,\u0000\n' })).body.msg).toContain('不是文本');
    // a file dataset is made by an upload only, and stays a file dataset
    const id = made.get('sales')!;
    const ds = await info(id);
    expect((await s.request('POST', `${P}/info/save`, { ...ds, id, kind: 'table', dsId: 1, definition: { table: { table: 'x' } } }, dev)).body.msg).toContain('文件');
    expect((await s.request('POST', `${P}/info/save`, { name: '伪造', kind: 'file', fields: ds.fields, definition: { file: { name: '../platform.db' } } }, dev)).body.msg).toContain('上传文件创建');
    // a table dataset cannot take rows from a file
    expect((await upload({ mode: 'preview', action: 'append', id: '999999' }, { name: 'x.csv', data: 'a\n1\n' })).body.msg).toBe('数据集不存在');
    // permissions: no session, and a role that may not edit datasets
    const anon = await fetch(`${s.url}${P}/file/upload`, { method: 'POST', body: new FormData() });
    expect(anon.status).toBe(401);
    const biz = await s.loginAs('bizapprover');
    expect((await upload({ mode: 'preview' }, { name: 'x.csv', data: 'a\n1\n' }, biz)).http).toBe(403);
    // delete removes the dataset; its file goes later (other instances may be reading it)
    expect((await s.request('GET', `${P}/delete?id=${made.get('sales')}`, undefined, dev)).body.status).toBe(0);
  });
});
