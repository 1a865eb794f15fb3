// Default deny, decided by the route that matched: every route needs a live session unless it is
// declared public (`config.public`), and its `config.perm` is checked here on the server, whatever the
// UI shows. The URL's spelling plays no part for a matched route (the router has already decoded it);
// a request that matched no route needs a session when its path, read as leniently as any router or
// proxy could read it, points into /api or /open — so the route table does not leak either.
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { BizError, UnsignedError } from './envelope.js';
import { isGuardedPath } from './paths.js';
import { hasPermission } from './permissions.js';
import type { SessionStore } from './sessions.js';
import { refusal, toRequestUser } from './users.js';

export const MSG_NO_PERMISSION = '没有权限访问该功能，请联系管理员授权';
export const MSG_NOT_SIGNED_IN = '未登录或登录已过期，请重新登录';
export const MSG_CHANGE_PASSWORD_FIRST = '请先修改初始密码后再使用';

/** The refusal the guard gives when the role lacks the route's permission. */
export class PermissionDenied extends BizError {
  constructor() {
    super(MSG_NO_PERMISSION, 403);
  }
}

/** One registered route as the guard sees it (the route table sweeps in tests read this). */
export interface RouteEntry {
  method: string;
  url: string;
  public: boolean;
  perm?: string;
  /** property names of the declared body and query schemas (what hostile-input sweeps aim at) */
  bodyFields: string[];
  queryFields: string[];
}

const propsOf = (schema: unknown): string[] => Object.keys((schema as { properties?: object } | undefined)?.properties ?? {});

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteEntry[];
  }
}

export function bearerToken(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(h);
  return m ? m[1].trim() : undefined;
}

export function installAuth(app: FastifyInstance, sessions: SessionStore) {
  app.decorate('routeTable', [] as RouteEntry[]);
  app.addHook('onRoute', (route: RouteOptions) => {
    for (const method of [route.method].flat()) {
      app.routeTable.push({
        method,
        url: route.url,
        public: route.config?.public === true,
        perm: route.config?.perm,
        bodyFields: propsOf(route.schema?.body),
        queryFields: propsOf(route.schema?.querystring),
      });
    }
  });

  app.addHook('onRequest', async (req) => {
    const cfg = req.routeOptions.config;
    // the app's file catch-all also matches /api/… paths no route serves: those stay guarded
    const matched = Boolean(req.routeOptions.url) && !(cfg?.appFiles === true && isGuardedPath(req.url));
    const token = bearerToken(req);
    if (matched && cfg?.public === true) {
      if (token) req.token = token;
      // a public route that also serves signed-in callers (published APIs): a live session is recognised,
      // anything else leaves the caller anonymous and the route decides
      if (token && cfg.sessionOptional === true) {
        const uid = await sessions.find(token);
        const loaded = uid == null ? null : await app.ctx.users.load(uid);
        if (loaded && !refusal(loaded.user)) req.user = toRequestUser(loaded);
      }
      return;
    }
    // unmatched: the not-found handler answers, but only to a signed-in caller when the path is guarded
    if (!matched && !isGuardedPath(req.url)) return;
    if (!token) throw new UnsignedError(MSG_NOT_SIGNED_IN);
    const userId = await sessions.find(token);
    // ended by someone else: the reason (账号已停用 …) instead of 登录已过期
    if (userId == null) {
      const why = await sessions.endedWhy(token);
      throw why ? new UnsignedError(why, true) : new UnsignedError();
    }
    const loaded = await app.ctx.users.load(userId);
    const why = loaded ? refusal(loaded.user) : '账号不存在';
    if (!loaded || why) {
      await sessions.revoke(token);
      throw new UnsignedError(why ?? '账号不存在');
    }
    req.user = toRequestUser(loaded);
    req.token = token;
    if (loaded.user.must_change_password === 1 && !(matched && cfg?.beforePasswordChange === true)) throw new BizError(MSG_CHANGE_PASSWORD_FIRST, 403);
    if (matched && cfg?.perm && app.ctx.config.permissionSwitch && !hasPermission(req.user.permissions, cfg.perm)) {
      throw new PermissionDenied();
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
