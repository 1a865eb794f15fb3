// Sheets (issue 24 item 4): the one import / export service of every list page — declared tables, custom pages
// in the generic store, and whatever else hands it rows. It never knows where rows come from:
//   - sendSheet streams rows (an async iterable of chunks) as CSV (core/csv.ts: BOM, quoted, formulas disarmed)
//     or XLSX (exceljs's streaming WorkbookWriter: every cell a value, never a formula), dictionary labels for
//     values, dates as text, at most EXPORT_MAX_ROWS rows;
//   - readSheet reads an uploaded CSV or XLSX into { header, rows } under limits that hold against hostile
//     files (size, rows, columns, the zip's entries and real inflated size checked before exceljs reads it);
//   - recordsFromSheet maps the header to the page's fields (by column title or field name), converts types and
//     dictionary labels, and checks every row with the page's declared field rules, collecting every fault.
// Anything malformed is a BizError with a Chinese reason, never a crash.
import { PassThrough } from 'node:stream';
import { once } from 'node:events';
import { inflateRawSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import ExcelJS from 'exceljs';
import { BizError } from './envelope.js';
import { CSV_BOM, attachment, csvLine } from './csv.js';
import { checkBody, fieldRulesOf, type PageDeclaration } from './declarations.js';
import { isEmptyValue, requiredMessageOf, valueFault } from '../../common/dialog-rules.js';
import { safeRegExp } from './patterns.js';
import type { DictEntry } from './dicts.js';

/** Rows an export reads a call at a time, and at most. */
export const EXPORT_CHUNK = 500;
export const EXPORT_MAX_ROWS = 100_000;

/** Limits of an uploaded sheet. */
export const SHEET_LIMITS = {
  /** the upload itself */
  maxBytes: 10 * 1024 * 1024,
  /** data rows (the header not counted) */
  maxRows: 10_000,
  maxColumns: 100,
  /** an XLSX: entries in the zip, and all of them inflated */
  maxEntries: 2_000,
  maxInflated: 100 * 1024 * 1024,
  /** one cell's text */
  maxCell: 32_767,
};

export type SheetFormat = 'csv' | 'xlsx';
export const SHEET_FORMATS: readonly SheetFormat[] = ['csv', 'xlsx'];

export interface SheetColumn {
  field: string;
  title: string;
  dict?: string;
}

export type Dicts = Record<string, { items: DictEntry[] } | undefined>;

export interface SendSheetOptions {
  /** the file's name without extension, in any language (页面标题) */
  name: string;
  /** an ASCII name for old clients */
  fallback: string;
  format: SheetFormat;
  columns: SheetColumn[];
  /** the rows, a chunk at a time; read until done or EXPORT_MAX_ROWS */
  rows: AsyncIterable<Record<string, unknown>[]>;
  /** dictionaries for the columns' labels (app.dicts.current()) */
  dicts?: Dicts;
  /** a cell's text or number, over the default (dictionary label, date as text, JSON for objects) */
  cell?: (column: SheetColumn, value: unknown, row: Record<string, unknown>) => string | number | null;
  /** rows at most (default EXPORT_MAX_ROWS) */
  maxRows?: number;
}

/** The label of a dictionary value, searched through a tree dictionary's children too. */
export function dictLabel(items: DictEntry[], v: unknown): string | undefined {
  for (const i of items) {
    if (i.value === v || (typeof v !== 'object' && String(i.value) === String(v) && typeof i.value !== typeof v)) return i.label;
    const below = i.children ? dictLabel(i.children, v) : undefined;
    if (below !== undefined) return below;
  }
  return undefined;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A date as the store writes times: 'YYYY-MM-DD HH:mm:ss' (local), or 'YYYY-MM-DD' at midnight. */
function dateText(d: Date, utc = false): string {
  const [y, m, day, h, mi, s] = utc
    ? [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()]
    : [d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds()];
  const date = `${y}-${pad(m)}-${pad(day)}`;
  return h || mi || s ? `${date} ${pad(h)}:${pad(mi)}:${pad(s)}` : date;
}

/** The default cell of an export: '' for nothing, the dictionary label, numbers as numbers, dates and objects as text. */
export function exportCell(c: SheetColumn, v: unknown, dicts?: Dicts): string | number | null {
  if (v === null || v === undefined) return null;
  const dict = c.dict && dicts && Object.hasOwn(dicts, c.dict) ? dicts[c.dict] : undefined;
  const label = dict ? dictLabel(dict.items, v) : undefined;
  if (label !== undefined) return label;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (v instanceof Date) return dateText(v);
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/**
 * Sends every row of `o.rows` as a CSV or XLSX download. The first chunk is read before anything is sent, so a
 * fault of the query is still an envelope; later ones end the download.
 */
export async function sendSheet(reply: FastifyReply, o: SendSheetOptions): Promise<FastifyReply> {
  const max = o.maxRows ?? EXPORT_MAX_ROWS;
  const cellOf = (c: SheetColumn, v: unknown, r: Record<string, unknown>) => (o.cell ? o.cell(c, v, r) : exportCell(c, v, o.dicts));
  const it = o.rows[Symbol.asyncIterator]();
  const first = await it.next();
  async function* chunks(): AsyncGenerator<Record<string, unknown>[]> {
    let sent = 0;
    let next = first;
    while (!next.done && sent < max) {
      const rows = next.value.slice(0, max - sent);
      sent += rows.length;
      yield rows;
      if (sent >= max) break;
      next = await it.next();
    }
    await it.return?.();
  }
  const ext = o.format === 'xlsx' ? 'xlsx' : 'csv';
  reply
    .header('content-type', o.format === 'xlsx' ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'text/csv; charset=utf-8')
    .header('content-disposition', attachment(`${o.name}.${ext}`, `${o.fallback}.${ext}`))
    .header('cache-control', 'no-store');
  const out = new PassThrough();
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const run = async () => {
    if (o.format === 'csv') {
      await write(`${CSV_BOM}${csvLine(o.columns.map((c) => c.title))}`);
      for await (const rows of chunks()) {
        await write(rows.map((r) => csvLine(o.columns.map((c) => {
          const v = cellOf(c, r[c.field], r);
          return v === null ? '' : String(v);
        }))).join(''));
      }
      out.end();
      return;
    }
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
    const sheet = book.addWorksheet(sheetName(o.name));
    sheet.addRow(o.columns.map((c) => c.title)).commit();
    for await (const rows of chunks()) {
      for (const r of rows) {
        // strings are written as strings (t="inlineStr"/"str"), never as formulas, whatever they start with
        sheet.addRow(o.columns.map((c) => {
          const v = cellOf(c, r[c.field], r);
          return typeof v === 'string' && v.length > SHEET_LIMITS.maxCell ? v.slice(0, SHEET_LIMITS.maxCell) : v;
        })).commit();
      }
      if (out.writableNeedDrain) await once(out, 'drain');
    }
    sheet.commit();
    await book.commit();
  };
  run().catch((err: unknown) => {
    reply.log.error({ err }, 'sheet export failed');
    out.destroy(err as Error);
  });
  return reply.send(out);
}

/** A workbook held in memory (a mail's attachment): one sheet per entry, a title row, then the rows; strings stay strings. */
export async function workbookOf(sheets: Array<{ name: string; columns: Array<{ title: string; field: string }>; rows: Array<Record<string, unknown>> }>): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  // Excel compares sheet names without case, and keeps History for itself
  const used = new Set<string>(['history']);
  for (const s of sheets) {
    let name = sheetName(s.name);
    for (let i = 2; used.has(name.toLowerCase()); i++) name = sheetName(`${s.name.slice(0, 26)} (${i})`);
    used.add(name.toLowerCase());
    const sheet = book.addWorksheet(name);
    sheet.addRow(s.columns.map((c) => c.title));
    for (const r of s.rows.slice(0, EXPORT_MAX_ROWS)) {
      sheet.addRow(
        s.columns.map((c) => {
          const v = r[c.field];
          if (v === null || v === undefined) return null;
          if (typeof v === 'number' || typeof v === 'boolean') return v;
          const t = typeof v === 'string' ? v : JSON.stringify(v);
          return t.length > SHEET_LIMITS.maxCell ? t.slice(0, SHEET_LIMITS.maxCell) : t;
        }),
      );
    }
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** A worksheet name Excel accepts: no []:*?/\ and at most 31 characters. */
function sheetName(name: string): string {
  const clean = name.replace(/[[\]:*?/\\]/g, ' ').trim().replace(/^'+|'+$/g, '').trim().slice(0, 31);
  return clean || 'Sheet1';
}

/** Paged rows as the chunks sendSheet reads: `page(n)` answers page n (1-based) of `size` rows. */
export async function* pagedRows(page: (pageNum: number, pageSize: number) => Promise<Record<string, unknown>[]>, size = EXPORT_CHUNK, max = EXPORT_MAX_ROWS): AsyncGenerator<Record<string, unknown>[]> {
  for (let n = 1; (n - 1) * size < max; n++) {
    const rows = await page(n, size);
    if (rows.length) yield rows;
    if (rows.length < size) return;
  }
}

/* ------------------------------------------------------------------ reading */

export interface SheetRow {
  /** the row's number in the sheet (1-based; the header is row 1) */
  line: number;
  cells: string[];
}

export interface Sheet {
  header: string[];
  rows: SheetRow[];
}

export interface ReadOptions {
  maxRows?: number;
  maxColumns?: number;
  maxBytes?: number;
}

const MB = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

/** Reads an uploaded CSV or XLSX (by its name's extension, checked against its content). */
export async function readSheet(buffer: Buffer, filename: string, opts: ReadOptions = {}): Promise<Sheet> {
  const limits = { maxRows: opts.maxRows ?? SHEET_LIMITS.maxRows, maxColumns: opts.maxColumns ?? SHEET_LIMITS.maxColumns, maxBytes: opts.maxBytes ?? SHEET_LIMITS.maxBytes };
  if (buffer.length > limits.maxBytes) throw new BizError(`文件不能超过 ${MB(limits.maxBytes)}`);
  if (!buffer.length) throw new BizError('文件是空的');
  const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  const isZip = buffer.length >= 4 && buffer.readUInt32LE(0) === 0x04034b50;
  let cells: string[][];
  let lines: number[];
  if (ext === 'xlsx') {
    if (!isZip) throw new BizError('文件不是有效的 Excel（.xlsx）文件，请用表格程序另存为 .xlsx 后再导入');
    ({ cells, lines } = await readXlsx(buffer, limits));
  } else if (ext === 'csv') {
    if (isZip) throw new BizError('文件扩展名是 .csv，内容却是压缩包（可能是 Excel 文件），请改用 .xlsx 扩展名');
    cells = parseCsv(decodeText(buffer), limits);
    lines = cells.map((_, i) => i + 1);
  } else {
    throw new BizError('只支持 CSV（.csv）或 Excel（.xlsx）文件');
  }
  return sheetOf(cells, lines, limits.maxRows);
}

/** UTF-8 text (with or without the BOM) that is text: not binary, not another encoding. */
export function decodeText(buffer: Buffer): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buffer);
  } catch {
    throw new BizError('文件不是 UTF-8 编码的文本，请在表格程序中另存为“CSV UTF-8（逗号分隔）”后再导入');
  }
  if (text.includes('\u0000')) throw new BizError('文件内容不是文本，不是有效的 CSV 文件');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** RFC 4180 cells: quoted cells may hold commas, quotes ("") and line breaks; a leading disarm quote is taken off. */
export function parseCsv(text: string, limits: { maxRows: number; maxColumns: number }): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let wasQuoted = false;
  let i = 0;
  const endCell = () => {
    if (cell.length > SHEET_LIMITS.maxCell) throw new BizError(`第 ${rows.length + 1} 行有单元格超过 ${SHEET_LIMITS.maxCell} 个字符`);
    // what core/csv.ts put before a cell a sheet would run as a formula, taken off again
    row.push(wasQuoted && /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);
    if (row.length > limits.maxColumns) throw new BizError(`文件列数过多：最多 ${limits.maxColumns} 列`);
    cell = '';
    wasQuoted = false;
  };
  const endRow = () => {
    endCell();
    rows.push(row);
    row = [];
    if (rows.length > limits.maxRows + 1) throw new BizError(`文件行数过多：最多 ${limits.maxRows} 行数据`);
  };
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      cell += ch;
      i++;
      continue;
    }
    if (ch === '"' && !cell.length && !wasQuoted) {
      quoted = true;
      wasQuoted = true;
      i++;
    } else if (ch === ',') {
      endCell();
      i++;
    } else if (ch === '\r' || ch === '\n') {
      endRow();
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      if (wasQuoted) throw new BizError(`第 ${rows.length + 1} 行的引号不成对，不是有效的 CSV 文件`);
      cell += ch;
      i++;
    }
  }
  if (quoted) throw new BizError(`第 ${rows.length + 1} 行的引号没有结束，不是有效的 CSV 文件`);
  if (cell.length || row.length || wasQuoted) endRow();
  return rows;
}

/**
 * Checks an XLSX's zip before anything inflates it blindly: the central directory read by hand (no zip64, no
 * encryption, only stored or deflated entries, at most maxEntries), and every entry inflated here with a byte
 * budget that holds whatever sizes the directory claims. Throws BizError.
 */
export function checkZip(buffer: Buffer, limits = SHEET_LIMITS): void {
  const bad = () => new BizError('文件不是有效的 Excel（.xlsx）文件（压缩结构损坏）');
  const tooBig = () => new BizError(`Excel 文件解压后过大（超过 ${MB(limits.maxInflated)}），拒绝读取`);
  // end of central directory: 22 bytes + a comment of up to 65535
  let eocd = -1;
  for (let p = buffer.length - 22; p >= Math.max(0, buffer.length - 22 - 65535); p--) {
    if (buffer.readUInt32LE(p) === 0x06054b50) {
      eocd = p;
      break;
    }
  }
  if (eocd < 0) throw bad();
  const entries = buffer.readUInt16LE(eocd + 10);
  const cdSize = buffer.readUInt32LE(eocd + 12);
  const cdOffset = buffer.readUInt32LE(eocd + 16);
  if (entries === 0xffff || cdOffset === 0xffffffff) throw new BizError('不支持 ZIP64 格式的 Excel 文件');
  if (entries > limits.maxEntries) throw new BizError(`Excel 文件包含的条目过多（${entries}），拒绝读取`);
  if (cdOffset + cdSize > eocd) throw bad();
  let p = cdOffset;
  let budget = limits.maxInflated;
  for (let n = 0; n < entries; n++) {
    if (p + 46 > eocd || buffer.readUInt32LE(p) !== 0x02014b50) throw bad();
    const flags = buffer.readUInt16LE(p + 8);
    const method = buffer.readUInt16LE(p + 10);
    const compressed = buffer.readUInt32LE(p + 20);
    const size = buffer.readUInt32LE(p + 24);
    const nameLen = buffer.readUInt16LE(p + 28);
    const extraLen = buffer.readUInt16LE(p + 30);
    const commentLen = buffer.readUInt16LE(p + 32);
    const local = buffer.readUInt32LE(p + 42);
    p += 46 + nameLen + extraLen + commentLen;
    if (flags & 1) throw new BizError('不支持加密的 Excel 文件，请取消密码后再导入');
    if (size === 0xffffffff || compressed === 0xffffffff) throw new BizError('不支持 ZIP64 格式的 Excel 文件');
    if (size > budget) throw tooBig();
    if (local + 30 > buffer.length || buffer.readUInt32LE(local) !== 0x04034b50) throw bad();
    const start = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28);
    if (start + compressed > buffer.length) throw bad();
    const data = buffer.subarray(start, start + compressed);
    let real: number;
    if (method === 0) real = compressed;
    else if (method === 8) {
      try {
        // never more than the budget left, whatever the directory says: a lying size cannot inflate further
        real = inflateRawSync(data, { maxOutputLength: Math.max(1, budget) }).length;
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) throw tooBig();
        throw bad();
      }
    } else throw bad();
    if (real !== size) throw bad();
    budget -= real;
  }
}

async function loadBook(buffer: Buffer, limits: Pick<typeof SHEET_LIMITS, 'maxEntries' | 'maxInflated'> = SHEET_LIMITS): Promise<ExcelJS.Workbook> {
  checkZip(buffer, { ...SHEET_LIMITS, ...limits });
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch {
    throw new BizError('文件不是有效的 Excel（.xlsx）文件，请用表格程序另存为 .xlsx 后再导入');
  }
  return book;
}

/** One worksheet's cells (row 1 the header), under the limits. */
function worksheetCells(sheet: ExcelJS.Worksheet, limits: { maxRows: number; maxColumns: number }, named = (m: string) => m): { cells: string[][]; lines: number[] } {
  if (sheet.actualRowCount > limits.maxRows + 1) throw new BizError(named(`文件行数过多：最多 ${limits.maxRows} 行数据`));
  if (sheet.actualColumnCount > limits.maxColumns) throw new BizError(named(`文件列数过多：最多 ${limits.maxColumns} 列`));
  const cells: string[][] = [];
  const lines: number[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, line) => {
    const out: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, col) => {
      if (col > limits.maxColumns) throw new BizError(named(`文件列数过多：最多 ${limits.maxColumns} 列`));
      out[col - 1] = cellText(cell.value, line, col);
    });
    for (let k = 0; k < out.length; k++) out[k] ??= '';
    // the header row is the sheet's first row: a sheet starting lower still has its own numbers
    if (!cells.length && line !== 1) throw new BizError(named('文件第 1 行应为表头（列名）'));
    cells.push(out);
    lines.push(line);
  });
  return { cells, lines };
}

async function readXlsx(buffer: Buffer, limits: { maxRows: number; maxColumns: number }): Promise<{ cells: string[][]; lines: number[] }> {
  const book = await loadBook(buffer);
  const sheet = book.worksheets[0];
  if (!sheet) throw new BizError('Excel 文件中没有工作表');
  return worksheetCells(sheet, limits);
}

/** The header and data rows of cells read from a file (an empty row is no record). */
function sheetOf(cells: string[][], lines: number[], maxRows: number, where = ''): Sheet {
  if (!cells.length || cells[0].every((c) => !c.trim())) throw new BizError(`${where}文件第 1 行应为表头（列名）`);
  const header = cells[0].map((c) => c.trim());
  while (header.length && !header[header.length - 1]) header.pop();
  const rows: SheetRow[] = [];
  for (let i = 1; i < cells.length; i++) {
    if (cells[i].every((c) => !c.trim())) continue; // an empty row (a trailing line) is no record
    rows.push({ line: lines[i], cells: cells[i] });
  }
  if (rows.length > maxRows) throw new BizError(`${where}文件行数过多：最多 ${maxRows} 行数据`);
  return { header, rows };
}

/** Every worksheet of an uploaded XLSX (empty sheets left out), each as a Sheet with its name. */
export async function readWorkbook(buffer: Buffer, limits: { maxRows: number; maxColumns: number; maxBytes: number; maxInflated: number }): Promise<Array<Sheet & { name: string }>> {
  if (buffer.length > limits.maxBytes) throw new BizError(`文件不能超过 ${MB(limits.maxBytes)}`);
  if (!(buffer.length >= 4 && buffer.readUInt32LE(0) === 0x04034b50)) throw new BizError('文件不是有效的 Excel（.xlsx）文件，请用表格程序另存为 .xlsx 后再导入');
  const book = await loadBook(buffer, { maxEntries: SHEET_LIMITS.maxEntries, maxInflated: limits.maxInflated });
  const out: Array<Sheet & { name: string }> = [];
  let total = 0;
  for (const ws of book.worksheets) {
    if (!ws.actualRowCount) continue;
    const { cells, lines } = worksheetCells(ws, limits, (m) => `工作表「${ws.name}」：${m}`);
    const sheet = sheetOf(cells, lines, limits.maxRows, `工作表「${ws.name}」：`);
    total += sheet.rows.length;
    if (total > limits.maxRows) throw new BizError(`文件行数过多：所有工作表合计最多 ${limits.maxRows} 行数据`);
    out.push({ name: ws.name, ...sheet });
  }
  if (!out.length) throw new BizError('Excel 文件中没有工作表');
  return out;
}

/** A cell's value as text: a formula's cached result, rich text joined, dates as text; an error refused. */
function cellText(v: ExcelJS.CellValue, line: number, col: number): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof Date) return dateText(v, true); // exceljs reads a sheet's date as that wall time in UTC
  if (typeof v === 'object') {
    const o = v as unknown as Record<string, unknown>;
    if ('formula' in o || 'sharedFormula' in o) {
      const result = o.result;
      if (result === undefined || result === null || (typeof result === 'object' && !(result instanceof Date))) {
        throw new BizError(`第 ${line} 行第 ${col} 列是公式且没有计算结果，请在表格程序中把公式转为数值后再导入`);
      }
      return cellText(result as ExcelJS.CellValue, line, col);
    }
    if (Array.isArray(o.richText)) return (o.richText as Array<{ text?: string }>).map((t) => t.text ?? '').join('');
    if (typeof o.text === 'string') return o.text; // a hyperlink
    if ('error' in o) throw new BizError(`第 ${line} 行第 ${col} 列是错误值（${String(o.error)}），请修正后再导入`);
  }
  return String(v);
}

/* ------------------------------------------------------------------ rows → records */

export interface SheetFault {
  /** the sheet's row number (1-based; the header is row 1) */
  row: number;
  /** the field's Chinese label ('' for the row as a whole) */
  field: string;
  reason: string;
}

export interface SheetRecords {
  /** the checked records (declared fields only), one per data row that had no fault */
  records: Array<{ row: number; record: Record<string, unknown> }>;
  faults: SheetFault[];
  /** header cell → field ('' where the column is not one of the page's fields, and is ignored) */
  mapping: string[];
}

const TRUE_WORDS = ['true', '1', '是', 'yes', 'y', '启用', '正常'];
const FALSE_WORDS = ['false', '0', '否', 'no', 'n', '停用', '禁用'];

/** Dictionary value of a label (or of the value itself, written as text), through children too. */
function dictValueOf(items: DictEntry[], text: string): { value: unknown } | undefined {
  for (const i of items) {
    if (i.label === text || String(i.value) === text) return { value: i.value };
    const below = i.children ? dictValueOf(i.children, text) : undefined;
    if (below) return below;
  }
  return undefined;
}

/**
 * The page's records from a sheet: header cells are matched to the page's dialog fields by the field's title, a
 * column's title, or the field name; cells converted to the field's type (dictionary labels → values); every
 * row checked with the page's declared rules (core/declarations checkBody), every fault collected.
 */
export function recordsFromSheet(page: PageDeclaration, sheet: Sheet, dicts: Dicts = {}): SheetRecords {
  const rules = fieldRulesOf(page);
  const byName = new Map<string, (typeof rules)[number]>();
  for (const r of rules) byName.set(r.field, r);
  for (const c of (page?.columns ?? []) as Array<{ title?: string; field?: string; dict?: string }>) {
    if (c.title && c.field && byName.has(c.field) && !byName.has(c.title)) byName.set(c.title, byName.get(c.field)!);
  }
  for (const r of rules) if (!byName.has(r.title)) byName.set(r.title, r);
  const mapping = sheet.header.map((h) => byName.get(h)?.field ?? '');
  const seen = new Map<string, string>();
  sheet.header.forEach((h, i) => {
    const f = mapping[i];
    if (!f) return;
    if (seen.has(f)) throw new BizError(`表头的「${seen.get(f)}」与「${h}」是同一个字段，请只保留一列`);
    seen.set(f, h);
  });
  if (!seen.size) throw new BizError(`表头没有可导入的列，应为：${rules.map((r) => r.title).join('、')}`);
  const defaults: Record<string, unknown> = page?.dialog?.defaults ?? {};
  const missing = rules.filter((r) => r.required && !seen.has(r.field) && defaults[r.field] === undefined);
  if (missing.length) throw new BizError(`表头缺少必填列：${missing.map((r) => `「${r.title}」`).join('、')}`);

  const rulesByField = new Map(rules.map((r) => [r.field, r]));
  const env = {
    regExp: safeRegExp,
    dictValues: (dict: string) => {
      const items = dicts[dict]?.items;
      return items ? flatValues(items) : undefined;
    },
  };
  const records: SheetRecords['records'] = [];
  const faults: SheetFault[] = [];
  for (const { line, cells } of sheet.rows) {
    const body: Record<string, unknown> = {};
    const rowFaults: SheetFault[] = [];
    mapping.forEach((f, i) => {
      if (!f) return;
      const rule = rulesByField.get(f)!;
      const text = (cells[i] ?? '').trim();
      if (!text) return;
      const converted = convert(rule, text, dicts);
      if ('fault' in converted) rowFaults.push({ row: line, field: rule.title, reason: converted.fault });
      else body[f] = converted.value;
    });
    // every field's fault, not only the first (checkBody stops at the first)
    for (const r of rules) {
      if (rowFaults.some((x) => x.field === r.title)) continue;
      let v = body[r.field];
      if (isEmptyValue(v) && defaults[r.field] !== undefined) v = defaults[r.field];
      if (isEmptyValue(v)) {
        if (r.required) rowFaults.push({ row: line, field: r.title, reason: requiredMessageOf(r) });
        continue;
      }
      const fault = valueFault(r, v, env);
      if (fault) rowFaults.push({ row: line, field: r.title, reason: fault });
    }
    if (rowFaults.length) {
      faults.push(...rowFaults);
      continue;
    }
    try {
      records.push({ row: line, record: checkBody(page, body, { dicts: dicts as Record<string, any>, applyDefaults: true }) });
    } catch (err) {
      if (!(err instanceof BizError)) throw err;
      faults.push({ row: line, field: '', reason: err.message });
    }
  }
  return { records, faults, mapping };
}

function flatValues(items: DictEntry[]): unknown[] {
  return items.flatMap((i) => [i.value, ...(Array.isArray(i.children) ? flatValues(i.children) : [])]);
}

function convert(rule: ReturnType<typeof fieldRulesOf>[number], text: string, dicts: Dicts): { value: unknown } | { fault: string } {
  if (rule.dict) {
    const items = dicts[rule.dict]?.items;
    const hit = items ? dictValueOf(items, text) : undefined;
    if (hit) return hit;
    if (items) return { fault: `${rule.title}「${text}」不在字典中，可选：${items.slice(0, 20).map((i) => i.label).join('、')}` };
  }
  switch (rule.type) {
    case 'integer':
    case 'number': {
      const n = Number(text.replace(/,/g, ''));
      if (!/^[-+]?(\d[\d,]*)?(\.\d+)?([eE][-+]?\d+)?$/.test(text) || !Number.isFinite(n)) return { fault: `${rule.title}应为数字` };
      if (rule.type === 'integer' && !Number.isInteger(n)) return { fault: `${rule.title}应为整数` };
      return { value: n };
    }
    case 'boolean': {
      const t = text.toLowerCase();
      if (TRUE_WORDS.includes(t)) return { value: true };
      if (FALSE_WORDS.includes(t)) return { value: false };
      return { fault: `${rule.title}应为 是 或 否` };
    }
    default:
      if (rule.enum && !rule.enum.includes(text) && rule.enum.some((e) => typeof e === 'number')) {
        const n = Number(text);
        if (rule.enum.includes(n)) return { value: n };
      }
      return { value: text };
  }
}

/** 导入失败：第 3 行「名称」不能为空；… (the first few faults; the report holds them all). */
export function faultSummary(faults: SheetFault[], shown = 5): string {
  const parts = faults.slice(0, shown).map((f) => `第 ${f.row} 行${f.field ? `「${f.field}」` : ''}${f.reason.startsWith(f.field) && f.field ? f.reason.slice(f.field.length) : `：${f.reason}`}`);
  return `导入失败：${parts.join('；')}${faults.length > shown ? `；等共 ${faults.length} 处错误` : ''}（没有写入任何记录）`;
}

/* ------------------------------------------------------------------ the upload */

const accepted = new WeakSet<object>();

/** Lets `scope` parse multipart bodies (once per scope; a scope that already does keeps its own options). */
export function acceptSheets(scope: FastifyInstance, maxBytes = SHEET_LIMITS.maxBytes): void {
  if (accepted.has(scope) || scope.hasContentTypeParser('multipart/form-data')) return;
  accepted.add(scope);
  void scope.register(multipart, { limits: { files: 1, fileSize: maxBytes, fields: 10, parts: 12, fieldSize: 1024 } });
}

/** The uploaded sheet of an import request (field `file`) and its form fields; size-capped (`maxBytes`). */
export async function receiveSheet(req: FastifyRequest, maxBytes = SHEET_LIMITS.maxBytes): Promise<{ buffer: Buffer; filename: string; fields: Record<string, string> }> {
  if (!req.isMultipart()) throw new BizError('请以 multipart/form-data 上传文件');
  const fields: Record<string, string> = {};
  let file: { buffer: Buffer; filename: string } | undefined;
  try {
    for await (const part of req.parts({ limits: { files: 1, fileSize: maxBytes, fields: 10, parts: 12, fieldSize: 1024 } } as never)) {
      if (part.type === 'field') {
        if (typeof part.value === 'string' && !(part.fieldname in fields)) fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'file' || file) {
        part.file.resume();
        throw new BizError(`不支持的文件字段：${part.fieldname}`);
      }
      const buffer = await part.toBuffer();
      if (part.file.truncated) throw new BizError(`文件不能超过 ${MB(maxBytes)}`);
      file = { buffer, filename: part.filename ?? '' };
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new BizError(`文件不能超过 ${MB(maxBytes)}`);
    if (code === 'FST_FILES_LIMIT') throw new BizError('每次只能导入一个文件');
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw new BizError('表单字段过多');
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new BizError('请以 multipart/form-data 上传文件');
    if (err instanceof BizError) throw err;
    throw new BizError('上传的文件不完整，请重新选择文件导入');
  }
  if (!file) throw new BizError('请选择要导入的文件');
  return { ...file, fields };
}

/** How many rows a preview shows. */
export const PREVIEW_ROWS = 20;

export interface ImportReport {
  header: string[];
  /** the first PREVIEW_ROWS data rows: { row, cells } */
  preview: Array<{ row: number; cells: string[] }>;
  total: number;
  faults: SheetFault[];
  /** rows written (commit) */
  imported?: number;
}

/**
 * One import request, from the upload to the answer: reads the sheet, checks every row (`extra` a page's own
 * last word on a record, a BizError its fault), and on commit without faults hands every record to `write`
 * (which writes them all in one transaction or none). Answers the envelope { status, msg, data: report }.
 */
export async function importSheet(
  req: FastifyRequest,
  o: { page: PageDeclaration; dicts: Dicts; extra?: (rec: Record<string, unknown>) => void | Promise<void>; write: (records: Array<{ row: number; record: Record<string, unknown> }>) => Promise<void> },
): Promise<{ status: number; msg: string; data: ImportReport }> {
  const { buffer, filename, fields } = await receiveSheet(req);
  const mode = fields.mode ?? (req.query as Record<string, unknown> | undefined)?.mode ?? 'preview';
  if (mode !== 'preview' && mode !== 'commit') throw new BizError('导入方式只能是 preview（预览）或 commit（确认导入）');
  const sheet = await readSheet(buffer, filename);
  const { records, faults } = recordsFromSheet(o.page, sheet, o.dicts);
  if (o.extra) {
    for (const r of records) {
      try {
        await o.extra(r.record);
      } catch (err) {
        if (!(err instanceof BizError)) throw err;
        faults.push({ row: r.row, field: '', reason: err.message });
      }
    }
    faults.sort((a, b) => a.row - b.row);
  }
  const report: ImportReport = { header: sheet.header, preview: sheet.rows.slice(0, PREVIEW_ROWS).map((r) => ({ row: r.line, cells: r.cells })), total: sheet.rows.length, faults };
  if (mode === 'preview') return { status: 0, msg: faults.length ? `共 ${report.total} 行，${faults.length} 处错误` : `共 ${report.total} 行，可以导入`, data: report };
  if (!sheet.rows.length) return { status: 1, msg: '文件中没有数据行', data: report };
  if (faults.length) return { status: 1, msg: faultSummary(faults), data: report };
  try {
    await o.write(records);
  } catch (err) {
    if (err instanceof BizError) return { status: 1, msg: `导入失败：${err.message}（没有写入任何记录）`, data: report };
    throw err;
  }
  return { status: 0, msg: `导入成功，共 ${records.length} 条`, data: { ...report, imported: records.length } };
}
