// 在线用户 (issue 21 item 6): the live sessions of this deployment (in the store, or in Redis when REDIS_URL is set,
// so every instance's sessions), with forced sign-out. A session is named by its token's hash: the list never
// shows a token, and the id cannot be turned back into one.
import type { FastifyInstance } from 'fastify';
import { browserOf } from '../../core/audit.js';
import { BizError, ok } from '../../core/envelope.js';
import { listQuerySchema } from '../../core/list.js';
import { SIGNED_OUT } from './access.js';

const idBody = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[0-9a-f]{64}$', title: '会话' } } };

export function onlineRoutes(app: FastifyInstance) {
  const { db, sessions } = app.ctx;

  app.post<{ Body: { search?: string | null; pageNum?: number; pageSize?: number } }>('/online/list', { config: { perm: 'monitor:online:list' }, schema: { body: listQuerySchema() } }, async (req) => {
    const live = await sessions.list();
    const ids = [...new Set(live.map((l) => l.userId))];
    const users = ids.length ? await db.selectFrom('sys_user').select(['id', 'username', 'nick_name']).where('id', 'in', ids).execute() : [];
    const byId = new Map(users.map((u) => [u.id, u]));
    const mine = req.token ? sessions.idOf(req.token) : '';
    const text = (req.body?.search ?? '').trim().toLowerCase();
    const rows = live
      .map((l) => ({ id: l.id, userId: l.userId, username: byId.get(l.userId)?.username ?? '', nickName: byId.get(l.userId)?.nick_name ?? '', address: l.address, browser: browserOf(l.userAgent), createTime: l.createTime, lastSeen: l.lastSeen, current: l.id === mine }))
      .filter((r) => !text || [r.username, r.nickName, r.address ?? ''].some((v) => v.toLowerCase().includes(text)));
    const size = req.body?.pageSize ?? 20;
    const from = ((req.body?.pageNum ?? 1) - 1) * size;
    return ok({ records: rows.slice(from, from + size), total: rows.length });
  });

  app.post<{ Body: { id: string } }>('/online/forceLogout', { config: { perm: 'monitor:online:forceLogout' }, schema: { body: idBody } }, async (req) => {
    if (req.token && sessions.idOf(req.token) === req.body.id) throw new BizError('不能强制退出自己当前的会话，请用右上角的退出登录');
    if (!(await sessions.revokeId(req.body.id, SIGNED_OUT.forced))) throw new BizError('该会话已结束');
    return ok(null, '已强制退出');
  });
}
