import type { CrudServices, PageDeclaration, Row } from '../../crud';

/** A few made-up rows shaped by the columns, so the preview shows cells, tags and formats. */
export function sampleRows(decl: PageDeclaration, dicts: Record<string, { value: unknown }[]>): Row[] {
  const props = decl.dialog?.schema.properties ?? {};
  return [0, 1, 2].map((i) => {
    const row: Row = { [decl.rowKey ?? 'id']: i + 1 };
    for (const c of decl.columns) {
      if (!c.field) continue;
      const p = props[c.field];
      if (c.dict) row[c.field] = dicts[c.dict]?.[i % Math.max(1, dicts[c.dict]?.length ?? 1)]?.value ?? '';
      else if (c.format === 'yesno') row[c.field] = i % 2 ? 0 : 1;
      else if (c.format === 'datetime' || c.format === 'date') row[c.field] = Date.now() - i * 86_400_000;
      else if (c.format === 'password') row[c.field] = '******';
      else if (c.format === 'filesize') row[c.field] = 1024 * (i + 1) * 37;
      else if (p?.type === 'number' || p?.type === 'integer') row[c.field] = (i + 1) * 10;
      else row[c.field] = `${c.title}${i + 1}`;
    }
    return row;
  });
}

/** A page on a table: where its rows are (the declaration's `source`, written by the generator). */
function tableSource(decl: PageDeclaration): { dsId: number; table: string; schema: string | null } | null {
  const src = (decl as { source?: { dsId?: unknown; table?: unknown; schema?: unknown } }).source;
  return src && typeof src.dsId === 'number' && typeof src.table === 'string' ? { dsId: src.dsId, table: src.table, schema: typeof src.schema === 'string' ? src.schema : null } : null;
}

/**
 * Preview services: reads answer with the table's first rows for a page on a table (read through the page manager's
 * own call, never written), sample rows otherwise; writes are not sent — the preview must never touch real records
 * while the declaration is still a draft.
 */
export function previewServices(base: CrudServices, decl: PageDeclaration, dicts: Record<string, { value: unknown }[]>, notify: (text: string) => void): CrudServices {
  const rows = sampleRows(decl, dicts);
  const source = tableSource(decl);
  const columns = [...new Set(decl.columns.map((c) => c.field).filter((f): f is string => typeof f === 'string').concat(decl.rowKey ? [decl.rowKey] : []))];
  return {
    ...base,
    async request<T>(_method: 'GET' | 'POST', path: string) {
      if (/search/i.test(path) && source && columns.length) return base.request<T>('POST', '/lowcode/source/preview', { body: { ...source, columns } });
      if (/search/i.test(path)) return { records: rows, total: rows.length } as T;
      notify('预览模式：操作未提交到服务器');
      return true as T;
    },
    async upload<T>() {
      notify('预览模式：文件未上传');
      return true as T;
    },
    loadPage: undefined,
  };
}
