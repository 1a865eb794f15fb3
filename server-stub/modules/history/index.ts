// 历史版本 (issue 37 item 1): the versions of a designed item (page, screen, form, menu, dataset) kept by the
// `versions` platform service (core/versions.ts), each shown only to those who may edit such items (the kind's
// permission, checked in the service by the version's own kind, whatever the route's spelling).
//   GET  /api/history/list?kind&key     the item's versions, newest first (no content), and the item's title now
//   GET  /api/history/get?id            one version with its content
//   GET  /api/history/current?kind&key  the item as saved now (what a refused stale save compares with)
//   POST /api/history/restore {id}      the version's content saved as the item's newest version
// 回收站 (issue 37 item 2, core/recycle.ts): what was deleted, for RECYCLE_DAYS — admins see all, others their own
//   POST /api/history/recycle/search    the bin's entries (kind, name, what they took along, who, when, until when)
//   POST /api/history/recycle/restore   {id}: back where it was (a menu entry whose parent is gone at the top level)
//   POST /api/history/recycle/purge     {id}: gone for good
import type { FastifyInstance } from 'fastify';
import { BizError, ok } from '../../core/envelope.js';
import type { ServerModule } from '../../core/module.js';
import { idQuery } from '../../core/declarations.js';
import { listQuerySchema } from '../../core/list.js';

const itemQuery = {
  type: 'object',
  required: ['kind', 'key'],
  additionalProperties: false,
  properties: {
    kind: { type: 'string', enum: ['page', 'screen', 'form', 'menu', 'dataset'], title: '类型' },
    key: { type: 'string', minLength: 1, maxLength: 100, title: '标识' },
  },
} as const;

export const historyModule: ServerModule = {
  name: 'history',
  prefix: '/api/history',
  service: 'platform',
  needs: ['versions', 'recycle'],
  plugin: async (app: FastifyInstance) => {
    app.get<{ Querystring: { kind: string; key: string } }>('/list', { schema: { querystring: itemQuery } }, async (req) => {
      const records = await app.versions.list(req.query.kind, req.query.key, req);
      const now = await app.versions.kindOf(req.query.kind).current(req.query.key, req);
      return ok({ records, total: records.length, title: now?.title ?? records[0]?.title ?? null, exists: !!now });
    });

    app.get<{ Querystring: { id: number } }>('/get', { schema: { querystring: idQuery } }, async (req) => ok(await app.versions.get(req.query.id, req)));

    app.get<{ Querystring: { kind: string; key: string } }>('/current', { schema: { querystring: itemQuery } }, async (req) => {
      const def = app.versions.kindOf(req.query.kind);
      // the same permission as its versions: listing them first checks it
      await app.versions.list(req.query.kind, req.query.key, req);
      const now = await def.current(req.query.key, req);
      if (!now) throw new BizError('内容不存在或已删除');
      return ok(now);
    });

    app.post<{ Body: { id: number } }>(
      '/restore',
      { schema: { body: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647, title: '版本' } } } } },
      async (req) => {
        await app.versions.restore(req.body.id, req);
        return ok(null, '已恢复：旧版本的内容已保存为最新版本');
      },
    );

    const RECYCLE = 'system:recycle:list';
    const idBody = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647, title: '编号' } } } as const;
    app.post<{ Body: { search?: string | null; kind?: string | null; pageNum?: number; pageSize?: number } }>(
      '/recycle/search',
      { config: { perm: RECYCLE }, schema: { body: listQuerySchema({ kind: { type: ['string', 'array', 'null'], maxLength: 20, maxItems: 5, items: { type: 'string', maxLength: 20 }, title: '类型' } }) } },
      async (req) => {
        const b = req.body ?? {};
        const kind = Array.isArray(b.kind) ? (b.kind.length === 1 ? b.kind[0] : null) : b.kind;
        return ok(await app.recycle.list(req, { ...b, kind }));
      },
    );
    app.post<{ Body: { id: number } }>('/recycle/restore', { config: { perm: RECYCLE }, schema: { body: idBody } }, async (req) => {
      const notes = await app.recycle.restore(req.body.id, req);
      return ok(notes, notes.length ? `已还原：${notes.join('；')}` : '已还原');
    });
    app.post<{ Body: { id: number } }>('/recycle/purge', { config: { perm: RECYCLE }, schema: { body: idBody } }, async (req) => {
      await app.recycle.purge(req.body.id, req);
      return ok(null, '已彻底删除');
    });
  },
};
