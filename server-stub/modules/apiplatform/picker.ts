// What other screens read of the published APIs: the detail screen's call statistics and the widget
// data-source tab's API picker (spec part 2 §7 "API picker": GET …/api/query?search).
import type { FastifyInstance } from 'fastify';
import { ok } from '../../core/envelope.js';
import { idQuery } from '../../core/declarations.js';
import { callRecorder } from './calls.js';
import { ONLINE_STATUS } from './design.js';
import { paramsObject, rowsOf } from './params.js';
import { PERM } from './perms.js';

export function pickerRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  // Statistics for the detail screen: calls, errors and latency over the last 24 hours.
  app.get<{ Querystring: { id: number } }>('/design/stats', { config: { perm: PERM.designList }, schema: { querystring: idQuery } }, async (req) => {
    return ok(await callRecorder(app).stats(req.query.id));
  });

  // The API picker of the widget data-source tab: online APIs with their parameters and a sample answer.
  app.get<{ Querystring: { search?: string } }>(
    '/query',
    { config: { perm: PERM.picker }, schema: { querystring: { type: 'object', properties: { search: { type: 'string', maxLength: 20, title: '搜索' } } } } },
    async (req) => {
      const text = (req.query.search ?? '').trim().toLowerCase();
      const rows = await db
        .selectFrom('gemini_api as a')
        .innerJoin('gemini_api_version as v', (j) => j.onRef('v.api_id', '=', 'a.id').onRef('v.version', '=', 'a.online_version'))
        .select(['a.id', 'a.api_name', 'v.api_comment', 'v.req_params', 'a.resp_result'])
        .where('a.online_status', '=', ONLINE_STATUS.online)
        .orderBy('a.api_name')
        .limit(500)
        .execute();
      const hits = text ? rows.filter((r) => r.api_name.toLowerCase().includes(text) || r.api_comment.toLowerCase().includes(text)) : rows;
      return ok(hits.slice(0, 100).map((r) => ({ id: r.id, apiName: r.api_name, apiComment: r.api_comment, reqParams: JSON.stringify(paramsObject(rowsOf(r.req_params))), respResult: r.resp_result })));
    },
  );
}

