import Fastify from 'fastify';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { BizError } from './envelope.js';
import { checkZip, readSheet, recordsFromSheet, sendSheet, SHEET_LIMITS, type SheetColumn } from './sheets.js';
import { zip } from '../testing/zip.js';

const columns: SheetColumn[] = [
  { field: 'name', title: '名称' },
  { field: 'status', title: '状态', dict: 'sys_normal_disable' },
  { field: 'amount', title: '金额' },
  { field: 'note', title: '备注' },
];
const dicts = { sys_normal_disable: { items: [{ value: '0', label: '正常' }, { value: '1', label: '停用' }] } };
const rows = [
  { name: '张三', status: '0', amount: 12.5, note: '=HYPERLINK("http://evil","点我")' },
  { name: '李四，"引号"', status: '1', amount: -3, note: '+1+1\n第二行' },
  { name: '@SUM(A1)', status: '0', amount: 0, note: '-2' },
];

async function* chunks<T>(all: T[], size = 2): AsyncGenerator<T[]> {
  for (let i = 0; i < all.length; i += size) yield all.slice(i, i + size);
}

async function exported(format: 'csv' | 'xlsx', data: Record<string, unknown>[] = rows): Promise<{ body: Buffer; headers: Record<string, unknown> }> {
  const app = Fastify();
  app.get('/x', (_req, reply) => sendSheet(reply, { name: '测试页', fallback: 'test', format, columns, rows: chunks(data), dicts }));
  const res = await app.inject({ method: 'GET', url: '/x' });
  await app.close();
  expect(res.statusCode).toBe(200);
  return { body: res.rawPayload, headers: res.headers };
}

async function bizMessage(p: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    expect(err).toBeInstanceOf(BizError);
    return (err as Error).message;
  }
  throw new Error('expected a BizError');
}

describe('sendSheet + readSheet: round trips', () => {
  it('CSV: BOM, Chinese, quotes and line breaks, dictionary labels, formulas disarmed and read back as written', async () => {
    const { body, headers } = await exported('csv');
    expect(headers['content-type']).toContain('text/csv');
    expect(String(headers['content-disposition'])).toContain("filename*=UTF-8''%E6%B5%8B%E8%AF%95%E9%A1%B5.csv");
    const text = body.toString('utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text).toContain(`"'=HYPERLINK(""http://evil"",""点我"")"`);
    const sheet = await readSheet(body, '导出.csv');
    expect(sheet.header).toEqual(['名称', '状态', '金额', '备注']);
    expect(sheet.rows.map((r) => r.line)).toEqual([2, 3, 4]);
    expect(sheet.rows[0].cells).toEqual(['张三', '正常', '12.5', '=HYPERLINK("http://evil","点我")']);
    expect(sheet.rows[1].cells).toEqual(['李四，"引号"', '停用', "-3", '+1+1\n第二行']);
    expect(sheet.rows[2].cells[0]).toBe('@SUM(A1)');
  });

  it('XLSX: values, never formulas; strings starting with = + - @ stay strings; numbers stay numbers', async () => {
    const { body, headers } = await exported('xlsx');
    expect(headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(body as unknown as ArrayBuffer);
    const ws = book.worksheets[0];
    expect(ws.name).toBe('测试页');
    expect(ws.getRow(1).values).toEqual([undefined, '名称', '状态', '金额', '备注']);
    expect(ws.getCell('D2').type).toBe(ExcelJS.ValueType.String);
    expect(ws.getCell('D2').value).toBe('=HYPERLINK("http://evil","点我")');
    expect(ws.getCell('A4').value).toBe('@SUM(A1)');
    expect(ws.getCell('C2').value).toBe(12.5);
    expect(ws.getCell('B3').value).toBe('停用');
    // no formula element anywhere in the sheet's XML
    checkZip(body);
    expect(body.includes(Buffer.from('<f>'))).toBe(false);
    const sheet = await readSheet(body, 'x.xlsx');
    expect(sheet.rows[1].cells).toEqual(['李四，"引号"', '停用', '-3', '+1+1\n第二行']);
  });

  it('XLSX: every row streamed, bounded by maxRows', async () => {
    const many = Array.from({ length: 1234 }, (_, i) => ({ name: `行${i}`, status: '0', amount: i, note: '' }));
    const { body } = await exported('xlsx', many);
    const sheet = await readSheet(body, 'x.xlsx', { maxRows: 2000 });
    expect(sheet.rows.length).toBe(1234);
    expect(sheet.rows[1233].cells[0]).toBe('行1233');
    const app = Fastify();
    app.get('/x', (_req, reply) => sendSheet(reply, { name: 'n', fallback: 'n', format: 'csv', columns, rows: chunks(many, 100), maxRows: 150 }));
    const res = await app.inject({ method: 'GET', url: '/x' });
    await app.close();
    expect(res.body.trim().split('\r\n').length).toBe(151);
  });
});

describe('readSheet: hostile and malformed files are refused with a reason', () => {
  it('a CSV of more rows than allowed', async () => {
    const csv = Buffer.from(`名称\r\n${'x\r\n'.repeat(SHEET_LIMITS.maxRows + 5)}`);
    expect(await bizMessage(readSheet(csv, 'a.csv'))).toContain('行数过多');
  });

  it('too many columns, an oversized upload, an empty file', async () => {
    expect(await bizMessage(readSheet(Buffer.from(`${'a,'.repeat(200)}a\r\n`), 'a.csv'))).toContain('列数过多');
    expect(await bizMessage(readSheet(Buffer.alloc(SHEET_LIMITS.maxBytes + 1, 0x61), 'a.csv'))).toContain('文件不能超过');
    expect(await bizMessage(readSheet(Buffer.alloc(0), 'a.csv'))).toBe('文件是空的');
  });

  it('binary garbage as CSV or XLSX; a wrong extension; an xlsx named .csv; GBK text', async () => {
    const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
    expect(await bizMessage(readSheet(garbage, 'a.csv'))).toMatch(/UTF-8|不是文本/);
    expect(await bizMessage(readSheet(garbage, 'a.xlsx'))).toContain('不是有效的 Excel');
    expect(await bizMessage(readSheet(Buffer.from('名称\r\n张三'), 'a.txt'))).toContain('只支持 CSV');
    const { body } = await exported('xlsx');
    expect(await bizMessage(readSheet(body, 'a.csv'))).toContain('压缩包');
    expect(await bizMessage(readSheet(Buffer.from([0xc3, 0xfb, 0xb3, 0xc6, 0x0d, 0x0a]), 'gbk.csv'))).toContain('UTF-8');
    // a zip that is not a workbook; a truncated workbook
    expect(await bizMessage(readSheet(zip([{ name: 'a.txt', data: Buffer.from('hello') }]), 'a.xlsx'))).toMatch(/不是有效的 Excel|没有工作表/);
    expect(await bizMessage(readSheet(body.subarray(0, body.length - 100), 'a.xlsx'))).toContain('不是有效的 Excel');
  });

  it('unterminated quotes', async () => {
    expect(await bizMessage(readSheet(Buffer.from('名称\r\n"张三\r\n'), 'a.csv'))).toContain('引号');
  });

  it('zip bombs: a size claimed too big, a size that lies, too many entries — refused before exceljs inflates them', async () => {
    const zeros = Buffer.alloc(SHEET_LIMITS.maxInflated + 1024 * 1024);
    // honest: the directory says 101 MB
    expect(await bizMessage(readSheet(zip([{ name: 'xl/worksheets/sheet1.xml', data: zeros }]), 'bomb.xlsx'))).toContain('解压后过大');
    // liar: the directory says 1 KB, the data inflates to 101 MB — stopped at the budget
    expect(await bizMessage(readSheet(zip([{ name: 'xl/worksheets/sheet1.xml', data: zeros, claim: 1024 }]), 'liar.xlsx'))).toContain('解压后过大');
    // many small entries that add up
    const lots = Array.from({ length: 3 }, (_, i) => ({ name: `x${i}.xml`, data: Buffer.alloc(40 * 1024 * 1024) }));
    expect(await bizMessage(readSheet(zip(lots), 'sum.xlsx'))).toContain('解压后过大');
    const many = Array.from({ length: SHEET_LIMITS.maxEntries + 1 }, (_, i) => ({ name: `e${i}`, data: Buffer.from('x'), store: true }));
    expect(await bizMessage(readSheet(zip(many), 'many.xlsx'))).toContain('条目过多');
  });

  it('an XLSX with many rows, a formula without a cached value, and one with a value', async () => {
    const book = new ExcelJS.Workbook();
    const ws = book.addWorksheet('s');
    ws.addRow(['名称', '金额']);
    ws.addRow(['甲', { formula: 'SUM(1,2)', result: 3 }]);
    const withResult = Buffer.from(await book.xlsx.writeBuffer());
    const read = await readSheet(withResult, 'f.xlsx');
    expect(read.rows[0].cells).toEqual(['甲', '3']);
    ws.addRow(['乙', { formula: 'SUM(1,2)' }]);
    const noResult = Buffer.from(await book.xlsx.writeBuffer());
    expect(await bizMessage(readSheet(noResult, 'f.xlsx'))).toContain('第 3 行第 2 列是公式且没有计算结果');
    const big = new ExcelJS.Workbook();
    const s2 = big.addWorksheet('s');
    s2.addRow(['名称']);
    for (let i = 0; i < 30; i++) s2.addRow([`r${i}`]);
    expect(await bizMessage(readSheet(Buffer.from(await big.xlsx.writeBuffer()), 'b.xlsx', { maxRows: 20 }))).toContain('行数过多');
  });
});

describe('recordsFromSheet', () => {
  const page = {
    columns: [{ title: '名称', field: 'name' }, { title: '状态', field: 'status', dict: 'sys_normal_disable' }, { title: '创建时间', field: 'createTime' }],
    dialog: {
      defaults: { status: '0' },
      schema: {
        type: 'object',
        properties: {
          name: { type: 'string', title: '名称', required: true, maxLength: 5 },
          status: { type: 'string', title: '状态', 'x-dict': 'sys_normal_disable' },
          sort: { type: 'integer', title: '排序', minimum: 0 },
          on: { type: 'boolean', title: '启用' },
        },
      },
    },
  };
  it('maps titles and field names, converts labels and types, ignores other columns, reports every fault by row', () => {
    const sheet = {
      header: ['名称', '状态', 'sort', '启用', '创建时间'],
      rows: [
        { line: 2, cells: ['甲', '停用', '3', '是', 'x'] },
        { line: 3, cells: ['', '正常', 'abc', '', ''] },
        { line: 4, cells: ['太长的名称了', '未知', '-1', '也许', ''] },
        { line: 5, cells: ['乙', '', '', '否', ''] },
      ],
    };
    const out = recordsFromSheet(page, sheet, dicts);
    expect(out.records).toEqual([
      { row: 2, record: { name: '甲', status: '1', sort: 3, on: true } },
      { row: 5, record: { name: '乙', status: '0', on: false } },
    ]);
    expect(out.faults.filter((f) => f.row === 3).map((f) => f.field)).toEqual(['排序', '名称']);
    expect(out.faults.find((f) => f.row === 3 && f.field === '名称')!.reason).toContain('名称');
    expect(out.faults.filter((f) => f.row === 4).map((f) => f.field).sort()).toEqual(['名称', '启用', '排序', '状态'].sort());
  });
  it('a header without the page’s columns, or without a required one, is refused', () => {
    expect(() => recordsFromSheet(page, { header: ['甲', '乙'], rows: [] }, dicts)).toThrow('表头没有可导入的列');
    expect(() => recordsFromSheet(page, { header: ['状态'], rows: [] }, dicts)).toThrow('表头缺少必填列：「名称」');
    expect(() => recordsFromSheet(page, { header: ['名称', 'name'], rows: [] }, dicts)).toThrow('同一个字段');
  });
});
