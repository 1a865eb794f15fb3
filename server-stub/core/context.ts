import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Dialect } from '../store/columns.js';
import type { Database } from '../store/schema.js';
import type { Cache } from './cache.js';
import type { LoadedSchemas } from './schemas.js';
import type { SessionStore } from './sessions.js';
import type { Invalidation } from './invalidation.js';
import type { UserCache } from './users.js';
import type { StoreWatch } from '../store/watch.js';

/** What every module's plugin reaches through `app.ctx`. */
export interface AppContext {
  config: Config;
  db: Kysely<Database>;
  dialect: Dialect;
  schemas: LoadedSchemas;
  cache: Cache;
  log: Logger;
  /** the sessions (store or Redis): a module ends a user's sessions on every instance with revokeUser */
  sessions: SessionStore;
  /** the channel that tells every instance what changed (core/invalidation.ts) */
  invalidation: Invalidation;
  /** users with roles and permissions, held in memory (core/users.ts userCache) */
  users: UserCache;
  /** the statements the store runs and the writes it tells of (store/watch.ts; tests observe them) */
  storeWatch: StoreWatch;
}

export interface RequestUser {
  id: number;
  username: string;
  nickName: string;
  roles: string[];
  permissions: string[];
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    user?: RequestUser;
    token?: string;
  }
  interface FastifyContextConfig {
    /** Permission string this route needs; checked on the server for every call. */
    perm?: string;
    /** No session needed (login, public key, published APIs, served files). */
    public?: boolean;
    /** On a public route: a valid session token, when sent, sets req.user (the route decides access). */
    sessionOptional?: boolean;
    /** A catch-all route of the built app's files: public, but never for a path under /api or /open. */
    appFiles?: boolean;
    /**
     * Answered to a user who must still change the password an admin set (sys_user.must_change_password): the
     * session, sign-out, the change itself, and what the shell needs to show its question. Every other route
     * refuses them with 请先修改初始密码 until they have.
     */
    beforePasswordChange?: boolean;
  }
}
