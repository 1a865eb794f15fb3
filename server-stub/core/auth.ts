// Default-deny: every /api route needs a live session unless it is declared public, and a route's
// `config.perm` is checked here on the server, whatever the UI shows.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BizError, UnsignedError } from './envelope.js';
import { hasPermission } from './permissions.js';
import type { SessionStore } from './sessions.js';
import { loadUser, refusal, toRequestUser } from './users.js';

export const MSG_NO_PERMISSION = '没有权限访问该功能，请联系管理员授权';

export function bearerToken(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(h);
  return m ? m[1].trim() : undefined;
}

export function installAuth(app: FastifyInstance, sessions: SessionStore) {
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/')) return; // static app, served files and published APIs
    const cfg = req.routeOptions.config;
    if (!req.routeOptions.url) return; // unknown route: the not-found handler answers
    const token = bearerToken(req);
    if (cfg?.public) {
      if (token) req.token = token;
      return;
    }
    if (!token) throw new UnsignedError('未登录或登录已过期，请重新登录');
    const userId = await sessions.find(token);
    if (userId == null) throw new UnsignedError();
    const loaded = await loadUser(app.ctx.db, userId);
    const why = loaded ? refusal(loaded.user) : '账号不存在';
    if (!loaded || why) {
      await sessions.revoke(token);
      throw new UnsignedError(why ?? '账号不存在');
    }
    req.user = toRequestUser(loaded);
    req.token = token;
    if (cfg?.perm && app.ctx.config.permissionSwitch && !hasPermission(req.user.permissions, cfg.perm)) {
      throw new BizError(MSG_NO_PERMISSION, 403);
    }
  });
}

/**
 * For routes whose permission depends on the request (save = add or edit, encrypt = add or edit):
 * throws the standard refusal unless the caller holds one of `wanted`. The permission switch is honoured.
 */
export function assertPermission(req: FastifyRequest, ...wanted: string[]): void {
  if (!req.server.ctx.config.permissionSwitch) return;
  const held = req.user?.permissions ?? [];
  if (!wanted.some((w) => hasPermission(held, w))) throw new BizError(MSG_NO_PERMISSION, 403);
}
