// Excel and CSV files as datasets (issue 35 §1): an upload read into DuckDB (duck.ts) — each sheet first as text in a
// staging table (a CSV read by DuckDB's own reader, an XLSX by exceljs after the zip checks of core/sheets.ts), then
// every column's type found from its values (number, date, boolean, else text) and the typed table `data` written.
// Append matches columns by name whatever their order; upsert replaces the rows whose key the file holds; replace may
// change the columns. A value that does not fit its column is refused with its row and column, and nothing is written.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { BizError } from '../../core/envelope.js';
import { decodeText, readWorkbook, SHEET_LIMITS } from '../../core/sheets.js';
import { FIELD_NAME_RE, type DatasetField, type FieldType } from '../../../common/dataset.js';
import { duckId, read } from './duck.js';

export interface FileLimits {
  maxBytes: number;
  maxRows: number;
}

/** One sheet of an upload, staged as text: `raw_<n>(line, c0 … cN)`. */
export interface StagedSheet {
  sheet: string;
  table: string;
  header: string[];
  rows: number;
}

export interface ColumnInfo {
  name: string;
  type: FieldType;
}

const DUCK_TYPE: Record<FieldType, string> = { number: 'DOUBLE', date: 'TIMESTAMP', boolean: 'BOOLEAN', text: 'VARCHAR' };
const TYPE_LABEL: Record<FieldType, string> = { number: '数字', date: '日期', boolean: '是/否（true / false）', text: '文本' };
const MAX_COLUMNS = SHEET_LIMITS.maxColumns;

const col = (i: number) => `c${i}`;
const MB = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

/** Checks a header: every column named, no name twice (DuckDB names ignore case). */
function checkHeader(header: string[], where: string): string[] {
  if (!header.length) throw new BizError(`${where}第 1 行应为表头（列名）`);
  if (header.length > MAX_COLUMNS) throw new BizError(`${where}文件列数过多：最多 ${MAX_COLUMNS} 列`);
  const seen = new Map<string, string>();
  header.forEach((h, i) => {
    if (!h) throw new BizError(`${where}第 ${i + 1} 列没有列名`);
    if (h.length > 64) throw new BizError(`${where}列名「${h.slice(0, 20)}…」超过 64 个字符`);
    const k = h.toLowerCase();
    if (seen.has(k)) throw new BizError(`${where}列名「${h}」重复`);
    seen.set(k, h);
  });
  return header;
}

/** Reads an upload into staging tables, one per sheet (a CSV is one sheet, named after the file). */
export async function stageUpload(conn: DuckDBConnection, scratch: string, file: { buffer: Buffer; filename: string }, limits: FileLimits): Promise<StagedSheet[]> {
  const { buffer, filename } = file;
  if (buffer.length > limits.maxBytes) throw new BizError(`文件不能超过 ${MB(limits.maxBytes)}`);
  if (!buffer.length) throw new BizError('文件是空的');
  const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  const isZip = buffer.length >= 4 && buffer.readUInt32LE(0) === 0x04034b50;
  const base = path.basename(filename).replace(/\.[^.]*$/, '').slice(0, 50) || '数据';
  if (ext === 'csv') {
    if (isZip) throw new BizError('文件扩展名是 .csv，内容却是压缩包（可能是 Excel 文件），请改用 .xlsx 扩展名');
    const text = decodeText(buffer); // UTF-8 text, not binary
    const csv = path.join(scratch, 'upload.csv');
    writeFileSync(csv, buffer.subarray(buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0), { mode: 0o600 });
    try {
      await conn.run(
        `create table raw_0 as select row_number() over () as line, * from read_csv(${quote(csv)}, header = false, all_varchar = true, delim = ',', quote = '"', escape = '"', null_padding = true, strict_mode = false, max_line_size = 1048576, columns = ${columnsSpec(csvWidth(text))})`,
      );
    } catch (err) {
      throw new BizError(`文件不是有效的 CSV：${String((err as Error).message).split('\n')[0].slice(0, 200)}`);
    }
    return [await fromRaw(conn, 'raw_0', base, limits)];
  }
  if (ext !== 'xlsx') throw new BizError('只支持 CSV（.csv）或 Excel（.xlsx）文件');
  const sheets = await readWorkbook(buffer, { maxBytes: limits.maxBytes, maxRows: limits.maxRows, maxColumns: MAX_COLUMNS, maxInflated: Math.max(SHEET_LIMITS.maxInflated, limits.maxBytes * 10) });
  const out: StagedSheet[] = [];
  for (const [n, s] of sheets.entries()) {
    const header = checkHeader(s.header, `工作表「${s.name}」：`);
    const table = `raw_${n}`;
    await conn.run(`create table ${table} (line integer, ${header.map((_, i) => `${col(i)} varchar`).join(', ')})`);
    const app = await conn.createAppender(table);
    for (const r of s.rows) {
      app.appendInteger(r.line);
      for (let i = 0; i < header.length; i++) {
        const v = r.cells[i];
        if (v === undefined || v === '') app.appendNull();
        else app.appendVarchar(v);
      }
      app.endRow();
    }
    app.flushSync();
    app.closeSync();
    out.push({ sheet: s.name.slice(0, 50), table, header, rows: s.rows.length });
  }
  return out;
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
/** The widest row of a CSV's first lines (DuckDB needs the columns named when no header is read). */
function csvWidth(text: string): number {
  let width = 1;
  let n = 1;
  let quoted = false;
  for (let i = 0; i < text.length && i < 4_000_000; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === ',') n++;
    else if (!quoted && ch === '\n') {
      width = Math.max(width, n);
      n = 1;
    }
  }
  width = Math.max(width, n);
  if (width > MAX_COLUMNS) throw new BizError(`文件列数过多：最多 ${MAX_COLUMNS} 列`);
  return width;
}
const columnsSpec = (n: number) => `{${Array.from({ length: n }, (_, i) => `'${col(i)}': 'VARCHAR'`).join(', ')}}`;

/** A CSV read with header = false: row 1 becomes the header, the rest the rows (empty rows dropped). */
async function fromRaw(conn: DuckDBConnection, table: string, sheet: string, limits: FileLimits): Promise<StagedSheet> {
  const cols = (await read(conn, `select column_name from information_schema.columns where table_name = '${table}' and column_name <> 'line' order by ordinal_position`)).rows.map((r) => String(r.column_name));
  const head = (await read(conn, `select ${cols.join(', ')} from ${table} where line = 1`)).rows[0];
  if (!head) throw new BizError('文件第 1 行应为表头（列名）');
  const header = cols.map((c) => String(head[c] ?? '').trim().replace(/^\uFEFF/, ''));
  while (header.length && !header[header.length - 1]) header.pop();
  checkHeader(header, '');
  for (const c of cols.slice(header.length)) {
    const extra = (await read(conn, `select min(line) as line from ${table} where line > 1 and nullif(trim(${c}), '') is not null`)).rows[0];
    if (extra?.line != null) throw new BizError(`第 ${Number(extra.line)} 行的列数多于表头`);
    await conn.run(`alter table ${table} drop column ${c}`);
  }
  await conn.run(`delete from ${table} where line = 1 or (${header.map((_, i) => `nullif(trim(${col(i)}), '') is null`).join(' and ')})`);
  const rows = Number((await read(conn, `select count(*) as n from ${table}`)).rows[0]?.n ?? 0);
  if (rows > limits.maxRows) throw new BizError(`文件行数过多：最多 ${limits.maxRows} 行数据`);
  return { sheet, table, header, rows };
}

/** Every column's type, found from its values: numbers, dates (with or without a time), true / false, else text. */
export async function inferTypes(conn: DuckDBConnection, s: StagedSheet): Promise<ColumnInfo[]> {
  if (!s.header.length) return [];
  const v = (i: number) => `nullif(trim(${col(i)}), '')`;
  const parts = s.header.flatMap((_, i) => [
    `count(${v(i)}) as n${i}`,
    `count(*) filter (where ${v(i)} is not null and try_cast(${v(i)} as double) is null) as num${i}`,
    `count(*) filter (where ${v(i)} is not null and try_cast(${v(i)} as timestamp) is null) as dt${i}`,
    `count(*) filter (where ${v(i)} is not null and lower(${v(i)}) not in ('true', 'false')) as b${i}`,
  ]);
  const r = (await read(conn, `select ${parts.join(', ')} from ${s.table}`)).rows[0] ?? {};
  return s.header.map((name, i) => {
    const n = Number(r[`n${i}`] ?? 0);
    const type: FieldType = !n ? 'text' : Number(r[`num${i}`]) === 0 ? 'number' : Number(r[`dt${i}`]) === 0 ? 'date' : Number(r[`b${i}`]) === 0 ? 'boolean' : 'text';
    return { name, type };
  });
}

/** The SQL reading staged column i as a column of `type`. */
const castOf = (i: number, type: FieldType) => (type === 'text' ? `nullif(${col(i)}, '')` : `cast(nullif(trim(${col(i)}), '') as ${DUCK_TYPE[type]})`);

/** Refuses the first value of a staged column that is not of `type`, naming its row and column. */
async function checkValues(conn: DuckDBConnection, s: StagedSheet, i: number, type: FieldType): Promise<void> {
  if (type === 'text') return;
  const bad = (await read(conn, `select line, ${col(i)} as v from ${s.table} where nullif(trim(${col(i)}), '') is not null and try_cast(trim(${col(i)}) as ${DUCK_TYPE[type]}) is null order by line limit 1`)).rows[0];
  if (bad) throw new BizError(`第 ${Number(bad.line)} 行「${s.header[i]}」的值「${String(bad.v).slice(0, 40)}」不是${TYPE_LABEL[type]}`);
}

/** The stored table, in the database a new version is written to (duck.ts publish attaches it as `out`). */
const DATA = 'out.data';

/** Writes the typed table `data` of a staged sheet (replacing any). */
export async function createData(conn: DuckDBConnection, s: StagedSheet, columns: ColumnInfo[]): Promise<void> {
  await conn.run(`drop table if exists ${DATA}`);
  await conn.run(`create table ${DATA} as select ${columns.map((c, i) => `${castOf(i, c.type)} as ${duckId(c.name)}`).join(', ')} from ${s.table} order by line`);
}

/** The columns of the stored table `data` (of the database `catalog`), with their field types. */
export async function dataColumns(conn: DuckDBConnection | ((sql: string) => Promise<{ rows: Record<string, unknown>[] }>), catalog: 'out' | null = 'out'): Promise<ColumnInfo[]> {
  const q = `select column_name, data_type from information_schema.columns where table_catalog = ${catalog ? `'${catalog}'` : 'current_database()'} and table_name = 'data' order by ordinal_position`;
  const rows = (typeof conn === 'function' ? await conn(q) : await read(conn, q)).rows;
  return rows.map((r) => {
    const t = String(r.data_type).toUpperCase();
    const type: FieldType = /INT|DOUBLE|DECIMAL|FLOAT|REAL|NUMERIC/.test(t) ? 'number' : /DATE|TIME/.test(t) ? 'date' : t === 'BOOLEAN' ? 'boolean' : 'text';
    return { name: String(r.column_name), type };
  });
}

/** Maps a staged sheet's header onto the stored columns by name (any order); a column the table lacks is refused. */
function matchColumns(s: StagedSheet, stored: ColumnInfo[]): Array<{ i: number; column: ColumnInfo }> {
  const byName = new Map(stored.map((c) => [c.name.toLowerCase(), c]));
  const unknown = s.header.filter((h) => !byName.has(h.toLowerCase()));
  if (unknown.length) throw new BizError(`文件中的列「${unknown.slice(0, 5).join('」「')}」不在数据集中；要改变列，请用「替换」`);
  return s.header.map((h, i) => ({ i, column: byName.get(h.toLowerCase())! }));
}

/** Appends a staged sheet to `data`, columns matched by name; answers the rows added (`dry`: checks only). */
export async function appendData(conn: DuckDBConnection, s: StagedSheet, limits: FileLimits, dry = false): Promise<{ added: number }> {
  const stored = await dataColumns(conn);
  const cols = matchColumns(s, stored);
  for (const c of cols) await checkValues(conn, s, c.i, c.column.type);
  const have = Number((await read(conn, `select count(*) as n from ${DATA}`)).rows[0]?.n ?? 0);
  if (have + s.rows > limits.maxRows) throw new BizError(`追加后共 ${have + s.rows} 行，超过数据集的上限 ${limits.maxRows} 行`);
  if (dry) return { added: s.rows };
  await conn.run(`insert into ${DATA} (${cols.map((c) => duckId(c.column.name)).join(', ')}) select ${cols.map((c) => castOf(c.i, c.column.type)).join(', ')} from ${s.table} order by line`);
  return { added: s.rows };
}

/** Replaces the rows whose key the file holds and adds the others (columns matched by name). */
export async function upsertData(conn: DuckDBConnection, s: StagedSheet, key: string, limits: FileLimits, dry = false): Promise<{ added: number; updated: number }> {
  const stored = await dataColumns(conn);
  const cols = matchColumns(s, stored);
  const k = cols.find((c) => c.column.name === key || c.column.name.toLowerCase() === key.toLowerCase());
  if (!k) throw new BizError(stored.some((c) => c.name === key) ? `文件中没有键列「${key}」` : `数据集中没有列「${key}」`);
  for (const c of cols) await checkValues(conn, s, c.i, c.column.type);
  const kx = castOf(k.i, k.column.type);
  const empty = (await read(conn, `select min(line) as line from ${s.table} where ${kx} is null`)).rows[0];
  if (empty?.line != null) throw new BizError(`第 ${Number(empty.line)} 行的键列「${k.column.name}」为空`);
  const dup = (await read(conn, `select ${kx} as k, count(*) as n from ${s.table} group by 1 having count(*) > 1 limit 1`)).rows[0];
  if (dup) throw new BizError(`文件中键列「${k.column.name}」的值「${String(dup.k).slice(0, 40)}」出现了 ${Number(dup.n)} 次`);
  const updated = Number((await read(conn, `select count(*) as n from ${DATA} where ${duckId(k.column.name)} in (select ${kx} from ${s.table})`)).rows[0]?.n ?? 0);
  const have = Number((await read(conn, `select count(*) as n from ${DATA}`)).rows[0]?.n ?? 0);
  if (have - updated + s.rows > limits.maxRows) throw new BizError(`更新后共 ${have - updated + s.rows} 行，超过数据集的上限 ${limits.maxRows} 行`);
  if (dry) return { added: s.rows - updated, updated };
  await conn.run(`delete from ${DATA} where ${duckId(k.column.name)} in (select ${kx} from ${s.table})`);
  await conn.run(`insert into ${DATA} (${cols.map((c) => duckId(c.column.name)).join(', ')}) select ${cols.map((c) => castOf(c.i, c.column.type)).join(', ')} from ${s.table} order by line`);
  return { added: s.rows - updated, updated };
}

/** Fields for a file's columns: a column's own name when it is a field name, else f1, f2 …; labels are the column names. */
export function fieldsForColumns(columns: ColumnInfo[], keep: DatasetField[] = []): DatasetField[] {
  const out: DatasetField[] = [];
  const taken = new Set<string>();
  for (const c of columns) {
    // a field the dataset had for this column keeps its name, label, role and format (and the type if still right)
    const old = keep.find((f) => !f.expr && (f.column ?? f.name) === c.name);
    let name = old?.name ?? (FIELD_NAME_RE.test(c.name) ? c.name : '');
    if (!name || taken.has(name)) for (let n = out.length + 1; !name || taken.has(name); n++) name = `f${n}`;
    taken.add(name);
    const role = old && old.type === c.type ? old.role : c.type === 'number' && !/(^id$|_id$|Id$|编号$)/.test(c.name) ? 'measure' : 'dimension';
    out.push({ name, label: old?.label ?? c.name, type: c.type, role, format: old?.format ?? null, column: c.name });
  }
  // calculated fields stay (they are checked against the new fields when the dataset is next saved or queried)
  for (const f of keep) if (f.expr && !taken.has(f.name)) out.push(f);
  return out;
}

/** The first rows of a staged sheet (an upload's preview). */
export async function sample(conn: DuckDBConnection, s: StagedSheet, n = 5): Promise<Array<Record<string, unknown>>> {
  const rows = (await read(conn, `select ${s.header.map((_, i) => col(i)).join(', ')} from ${s.table} order by line limit ${n}`)).rows;
  return rows.map((r) => Object.fromEntries(s.header.map((h, i) => [h, r[col(i)] ?? null])));
}
