// 历史版本 (issue 37 item 1): the versions of a designed item (page, screen, form, menu, dataset) kept by the
// `versions` platform service (core/versions.ts), each shown only to those who may edit such items (the kind's
// permission, checked in the service by the version's own kind, whatever the route's spelling).
//   GET  /api/history/list?kind&key     the item's versions, newest first (no content), and the item's title now
//   GET  /api/history/get?id            one version with its content
//   GET  /api/history/current?kind&key  the item as saved now (what a refused stale save compares with)
//   POST /api/history/restore {id}      the version's content saved as the item's newest version
import type { FastifyInstance } from 'fastify';
import { BizError, ok } from '../../core/envelope.js';
import type { ServerModule } from '../../core/module.js';
import { idQuery } from '../../core/declarations.js';

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
  needs: ['versions'],
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
  },
};
