// Secrets never leave in an export (issue 24 item 4): every page declaration with an export (read from
// schemas/pages, so a new one is covered without editing this file) is exported as CSV and as XLSX by the admin
// after records with known passwords were saved; no export holds a password, its ciphertext or its mask, nor a
// column declared as a password.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { MASK } from '../core/secrets.js';
import { serverForSuite } from '../testing/server.js';

const dir = path.resolve(import.meta.dirname, '../../schemas/pages');
const pages = readdirSync(dir)
  .filter((f) => f.endsWith('.page.json'))
  .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')))
  .filter((p) => typeof p.api?.export === 'string');

const PW = { ds: 'DsSecret#A1b2c3', ftp: 'FtpSecret#D4e5f6', etl: 'EtlSecret#G7h8i9', model: 'ModelSecret#J1k2' };

/** Every secret column title of a page: columns formatted as passwords and dialog fields that are passwords. */
function secretTitles(page: any): string[] {
  const props: Record<string, any> = page.dialog?.schema?.properties ?? {};
  const secretFields = new Set(Object.keys(props).filter((f) => /password/i.test(String(props[f]['x-component'] ?? '')) || props[f].format === 'password'));
  return (page.columns ?? []).filter((c: any) => c.field && (c.format === 'password' || secretFields.has(c.field))).map((c: any) => c.title);
}

describe('exports hold no secrets', () => {
  const s = serverForSuite();

  it('covers the built-in pages with secrets', () => {
    const ids = pages.map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining(['datasource', 'ftp', 'etl', 'model', 'user', 'variable', 'dictType', 'role']));
  });

  it('sweeps every page with an export, as CSV and as XLSX', async () => {
    const saved = [
      await s.request('POST', '/api/gemini/datasource/info/save', { dbType: 'postgresql', dsName: 'ds_secret', hostName: '127.0.0.1', port: 5432, dbName: 'sales', username: 'postgres', pwd: PW.ds }),
      await s.request('POST', '/api/remote/ftp/save', { envType: 'dev', nodeCode: 'F01', nodeName: '文件一', ip: '127.0.0.1', username: 'ftpuser', password: PW.ftp, rootPath: '/' }),
      await s.request('POST', '/api/remote/etl/save', { envType: 'dev', nodeName: 'etl-1', ip: '127.0.0.1', username: 'etl', password: PW.etl }),
      await s.request('POST', '/api/gemini/model/info/add', { dsName: 'm_secret', dbType: 'postgresql', hostName: '127.0.0.1', port: 5432, dbName: 'm', username: 'u', pwd: PW.model }),
    ];
    for (const r of saved) expect(r.body.status, r.body.msg).toBe(0);
    // what is stored for them (ciphertext): not exported either
    const stored: string[] = [];
    for (const [table, col] of [['gemini_datasource', 'pwd'], ['remote_server', 'password']] as const) {
      const rows = await s.app.ctx.db.selectFrom(table as any).select(col as any).execute().catch(() => []);
      for (const r of rows as any[]) if (typeof r[col] === 'string' && r[col].length > 8) stored.push(r[col]);
    }
    const forbidden = [...Object.values(PW), MASK, ...stored];
    const checked: string[] = [];
    for (const page of pages) {
      const call = String(page.api.export).split(/\s+/)[1];
      for (const format of ['csv', 'xlsx'] as const) {
        const res = await fetch(`${s.url}/api${call}?format=${format}`, { headers: { authorization: `Bearer ${s.token}` } });
        const body = Buffer.from(await res.arrayBuffer());
        if ((res.headers.get('content-type') ?? '').includes('json')) {
          // a page whose list needs an address parameter (a form's entries) answers its reason, not a file
          expect(JSON.parse(body.toString()).status, `${page.id} ${format}`).toBe(1);
          continue;
        }
        expect(res.status, `${page.id} ${format}`).toBe(200);
        let text = body.toString('utf8');
        if (format === 'xlsx') {
          const book = new ExcelJS.Workbook();
          await book.xlsx.load(body as unknown as ArrayBuffer);
          const cells: string[] = [];
          book.worksheets[0].eachRow((row) => row.eachCell((c) => void cells.push(String(c.value))));
          text = cells.join('\n');
        }
        for (const f of forbidden) expect(text.includes(f), `${page.id} ${format} holds ${f === MASK ? 'the mask' : 'a secret'}`).toBe(false);
        const header = format === 'csv' ? text.split('\r\n')[0] : text;
        for (const t of secretTitles(page)) expect(header.includes(`"${t}"`) || (format === 'xlsx' && text.split('\n').includes(t)), `${page.id} ${format} has the column ${t}`).toBe(false);
        checked.push(`${page.id}.${format}`);
      }
    }
    expect(checked).toEqual(expect.arrayContaining(['datasource.csv', 'datasource.xlsx', 'ftp.xlsx', 'etl.csv', 'model.xlsx', 'user.csv']));
  });
});
