// Builds the whole backend: declarations checked, store migrated and seeded, modules registered,
// the built browser app served. Tests call buildApp directly; main.ts adds listening.
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Config } from './config.js';
import { installAuth } from './core/auth.js';
import { installHealth } from './core/health.js';
import { REQUEST_ID_HEADER, requestIds } from './core/request-id.js';
import { createCache } from './core/cache.js';
import { answerBadAddress, answerClientError, installErrorHandling } from './core/errors.js';
import { installInputGuards } from './core/input.js';
import { createLoggers, type ServiceLoggers } from './core/logs.js';
import { loadLoginKeys } from './core/passwords.js';
import { loadSchemas } from './core/schemas.js';
import { installServing, serveApp } from './core/serving.js';
import { cachedSessions, dbSessions, redisSessions, withEndings } from './core/sessions.js';
import { createInvalidation, tableTopic } from './core/invalidation.js';
import { userCache } from './core/users.js';
import { deploymentTag } from './core/throttle.js';
import { menuModule } from './modules/menu/index.js';
import { modules as featureModules } from './modules/index.js';
import { uamsMigrations } from './modules/uams/migrations.js';
import { uamsModule } from './modules/uams/index.js';
import { openStore } from './store/db.js';
import type { SeedContext, ServerModule } from './core/module.js';
import { prepareStore } from './core/startup.js';
import { modulePlugin, platformMigrations, platformServices } from './core/platform.js';
import './core/context.js';

export interface BuiltApp {
  app: FastifyInstance;
  /** Passwords generated on this start, to print once. */
  seeded: Pick<SeedContext, 'generated'>;
  loggers: ServiceLoggers;
}

/** Body schemas are strict about types; query strings are coerced (they arrive as text). */
function validatorCompilers() {
  const make = (coerce: boolean) => {
    const ajv = new Ajv({ coerceTypes: coerce ? 'array' : false, useDefaults: true, removeAdditional: false, allErrors: false, verbose: true, strict: false, allowUnionTypes: true });
    (addFormats as unknown as (a: Ajv) => void)(ajv);
    return ajv;
  };
  const body = make(false);
  const query = make(true);
  return ({ schema, httpPart }: { schema: object; httpPart?: string }) => (httpPart === 'body' ? body : query).compile(schema);
}

/** TRUST_PROXY as Fastify takes it: a hop count becomes "trust the nearest N hops" (Fastify's types omit numbers). */
function trustProxyOption(t: Config['trustProxy']): boolean | string[] | ((addr: string, hop: number) => boolean) {
  return typeof t === 'number' ? (_addr, hop) => hop < t : t;
}

export async function buildApp(config: Config): Promise<BuiltApp> {
  const schemas = loadSchemas(config.rootDir);
  const store = await openStore(config);
  const loggers = createLoggers(config.dataDir, { maxBytes: config.logMaxBytes, keep: config.logKeep, instanceId: config.instanceId });
  // every Redis key carries the deployment's tag (sessions, cache, counters)
  const deployment = deploymentTag(config);
  const cache = createCache(config.redisUrl, deployment);
  // what is held in memory of the store, and the channel that drops it on every instance (issue 36)
  const invalidation = createInvalidation(config.redisUrl, deployment, loggers.platform);
  store.watch.listeners.push(async (tables) => {
    for (const t of tables) if (invalidation.heard(tableTopic(t))) await invalidation.publish(tableTopic(t));
  });
  const sessions = withEndings(cachedSessions(config.redisUrl ? redisSessions(config.redisUrl, deployment) : dbSessions(store.db), invalidation), cache, config.sessionTtl);
  const keys = loadLoginKeys(config.dataDir);

  const all: ServerModule[] = [uamsModule(keys, sessions, uamsMigrations()), menuModule(), ...featureModules];
  // migrations and seeds: once per store, one instance at a time (core/startup.ts)
  const seeded = await prepareStore(store, config, schemas, all, platformMigrations);

  const app = Fastify({
    logger: false,
    bodyLimit: 2 * 1024 * 1024,
    trustProxy: trustProxyOption(config.trustProxy),
    // a request must arrive whole within this time; stalled ones are checked for every few seconds. Node takes
    // the limit only when the server is created with it (set afterwards, as Fastify does, it is not enforced)
    requestTimeout: config.requestTimeoutMs,
    http: { requestTimeout: config.requestTimeoutMs, connectionsCheckingInterval: Math.min(5000, config.requestTimeoutMs) },
    // an address the router cannot take (bad %-escape, over-long parameter) answers the envelope too
    frameworkErrors: answerBadAddress,
    clientErrorHandler: answerClientError,
    // ids unique across instances; a client's own X-Request-Id is kept only from a trusted proxy (core/request-id.ts)
    requestIdHeader: false,
    genReqId: requestIds(config.trustProxy),
    // while closing, calls on open connections are still answered (with Connection: close), never a bare 503
    return503OnClosing: false,
  });
  app.setValidatorCompiler(validatorCompilers());
  await invalidation.ready;
  const users = userCache(store.db, invalidation);
  app.decorate('ctx', { config, db: store.db, dialect: store.dialect, schemas, cache, log: loggers.platform, sessions, invalidation, users, storeWatch: store.watch });
  // first, so that every answer carries them, the guard's early 401 included
  await installServing(app);
  app.addHook('onRequest', async (req, reply) => {
    reply.header(REQUEST_ID_HEADER, req.id);
  });
  // /healthz, /readyz, and the count of calls in flight for the drain
  installHealth(app, [() => sql`select 1`.execute(store.db), () => cache.ping(), () => sessions.ping()]);
  installErrorHandling(app);
  installInputGuards(app);
  installAuth(app, sessions);
  // the platform services, once, before the modules that name them in `needs` (core/platform.ts)
  for (const service of platformServices) await app.register(service);

  for (const mod of all) {
    const log = loggers[mod.service];
    await app.register(
      async (scope) => {
        // Each request is logged to the file of the module that served it; never its query string (it may hold a password).
        scope.addHook('onRequest', async (req) => {
          req.log = log.child({ reqId: req.id }) as unknown as typeof req.log;
        });
        scope.addHook('onResponse', async (req, reply) => {
          log.info({ reqId: req.id, ip: req.ip, method: req.method, route: req.routeOptions.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime), user: req.user?.username }, 'request');
        });
        await scope.register(modulePlugin(mod));
      },
      { prefix: mod.prefix },
    );
  }

  // the built browser app, and the not-found answer
  await serveApp(app, config.distDir);

  app.addHook('onClose', async () => {
    await sessions.close();
    await invalidation.close();
    await cache.close();
    await store.close();
    loggers.close();
  });
  return { app, seeded, loggers };
}
