// 导出 of the built-in list pages whose module serves its own list (data sources, dictionaries, users, roles, ETL,
// …): GET /api/sheets/export/<pageId>?format=csv|xlsx&<the list's query>. The rows are the page's own search
// call, asked page after page as the caller (the module's permission check, scoping and secret scrubbing hold),
// written by core/sheets.ts with the page's declared columns less every secret one. A page opts in by declaring
// `api.export: "GET /sheets/export/<pageId>"`; the permission is the page's perms.export (else perms.list).
import type { FastifyInstance } from 'fastify';
import { assertPermission } from '../../core/auth.js';
import { BizError } from '../../core/envelope.js';
import { listQuerySchema } from '../../core/list.js';
import type { ServerModule } from '../../core/module.js';
import { EXPORT_CHUNK, EXPORT_MAX_ROWS, sendSheet, type SheetFormat } from '../../core/sheets.js';
import { exportColumnsOf } from '../../core/tables.js';

const PAGE_ID = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export const sheetsModule: ServerModule = {
  name: 'sheets',
  prefix: '/api/sheets',
  service: 'platform',
  needs: ['dicts'],
  plugin: async (app: FastifyInstance) => {
    app.get<{ Params: { page: string }; Querystring: Record<string, unknown> & { format?: SheetFormat } }>(
      '/export/:page',
      {
        schema: {
          params: { type: 'object', required: ['page'], properties: { page: { type: 'string', maxLength: 64, title: '页面' } } },
          querystring: { ...listQuerySchema({ format: { type: 'string', enum: ['csv', 'xlsx'], title: '导出格式' } }), additionalProperties: { type: ['string', 'array'], maxLength: 200, maxItems: 50, items: { type: 'string', maxLength: 200 } } },
        },
      },
      async (req, reply) => {
        const pages = app.ctx.schemas.pages as Record<string, any>;
        const id = req.params.page;
        const page = PAGE_ID.test(id) && Object.hasOwn(pages, id) ? pages[id] : undefined;
        // only a page that declares this export (never an arbitrary page's search)
        if (!page || page.api?.export !== `GET /sheets/export/${id}` || typeof page.api?.search !== 'string') throw new BizError('页面不存在或不支持导出');
        const perm = page.perms?.export ?? page.perms?.list;
        if (!perm) throw new BizError('页面没有声明导出权限');
        assertPermission(req, perm);
        const [method, path] = String(page.api.search).split(/\s+/);
        const { format, pageNum: _n, pageSize: _s, ...query } = req.query;
        const headers: Record<string, string> = {};
        if (req.headers.authorization) headers.authorization = req.headers.authorization;
        // the page's own list call, as the caller
        const list = async (pageNum: number): Promise<{ records: Record<string, unknown>[]; total: number }> => {
          const payload = { ...query, pageNum, pageSize: EXPORT_CHUNK };
          const res = await app.inject(method === 'GET' ? { method: 'GET', url: `/api${path}`, headers, query: payload as unknown as Record<string, string> } : { method: 'POST', url: `/api${path}`, headers, payload });
          const body = res.json() as { status: number; msg: string; data: any };
          if (body.status !== 0) throw new BizError(body.msg || '导出失败');
          const data = body.data;
          const records = Array.isArray(data) ? data : Array.isArray(data?.records) ? data.records : Array.isArray(data?.rows) ? data.rows : [];
          return { records, total: Number(data?.total ?? records.length) };
        };
        async function* rows() {
          let seen = 0;
          for (let n = 1; seen < EXPORT_MAX_ROWS; n++) {
            const { records, total } = await list(n);
            if (!records.length) return;
            // a tree list answers its nodes nested: every node, parents first
            const flat = records.flatMap(function walk(r: any): any[] {
              return [r, ...(Array.isArray(r.children) ? r.children.flatMap(walk) : [])];
            });
            yield flat;
            seen += records.length;
            if (seen >= total || records.length < EXPORT_CHUNK) return;
          }
        }
        return sendSheet(reply, { name: String(page.title ?? id), fallback: id, format: format ?? 'csv', columns: exportColumnsOf(page), dicts: await app.dicts.current(), rows: rows() });
      },
    );
  },
};
