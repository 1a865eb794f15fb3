// Platform services as Fastify plugins (DESIGN §8 "Structure", issue 26 item 2). app.ts registers each once,
// before the modules; each decorates the app instance under its name, and a module says which it uses
// (`needs` in its ServerModule: Fastify refuses to start a module whose service is not registered). A module
// reaches a service as `app.<name>`, never by importing another module.
//   limits   per-address limits (core/limits.ts): app.limits.register(scope, nameSpace) limits the scope's routes
//            that declare config.rateLimit; one Redis client (REDIS_URL) for every module, deployment-tagged keys
//   uploads  the upload pipeline (core/uploads.ts): app.uploads.accept / receive / store / remove / checkRoom —
//            checked files (type by content, size, names, MIN_FREE_DISK_MB) stored under DATA_DIR/files
//   audit    the operation log (core/audit.ts, sys_oper_log): one entry per signed-in write through a module's
//            route, written by one hook after the answer; app.audit.write(entry) for explicit entries; entries
//            older than OPER_LOG_DAYS deleted by 定时任务's clean-up job (app.audit.sweep)
//   secrets  core/secrets.ts's Secrets for this app's key (SECRET_KEY, else the key file under DATA_DIR)
//   sql      the SQL runner over connectors/sql: one pool registry (maxActive across instances with REDIS_URL),
//            the target policy (the platform's own store is no data source), the per-caller source quota, and
//            the stored data sources (core/datasources.ts): source(kind, key) reads one, run(...) runs bound SQL
//            on it within the caller's quota
//   datasets a dataset field's values as a form's options (issue 35 §6): the interface is the platform's, the answers
//            the dataset module's (it provides them when registered), so datav's forms need no import of it
//   versions versions of designed items (core/versions.ts, sys_version): each owning module registers its kind and
//            records a version at each save; the history module lists, shows and restores them
//   recycle  the recycle bin (core/recycle.ts, sys_recycle): a module marks an item deleted and puts it here; it
//            registers how to restore and purge it; the history module lists, restores and purges
//   workspace the kinds of item a workspace export and import carry (core/workspace.ts): each owning module
//            registers how to read, compare, check and write its items; the workspace module runs export and import
//   dicts    the dictionaries (core/dicts.ts, sys_dict_type / sys_dict_data): current() answers every one as the
//            store holds it, cached per instance against a version in the cache (Redis with REDIS_URL);
//            changed() after every write makes every instance read the store again
//   notifier sending to 通知渠道 (answered by the notify module when registered): send(ids, message) tries each
//            channel (retried, logged there), options() names the enabled channels for a picker — so that alerts in
//            the API monitor and 定时任务 reach people without importing the notify module
//   scheduler the durable queue of scheduled runs (core/scheduler.ts): pg-boss on PostgreSQL, in-process on SQLite;
//            each run taken by one instance at a time, retried with back-off, retried elsewhere when its instance stops
import { dictMigrations, dictsService, type DictsService } from './dicts.js';
import { versionMigrations, versionsPlugin } from './versions.js';
import { recycleMigrations, recyclePlugin } from './recycle.js';
import { workspaceMigrations, workspacePlugin } from './workspace.js';
import { menusService, type MenusService } from './menus.js';
import { schedulerMigrations, schedulerPlugin } from './scheduler.js';
import { orgMigrations, orgService, type OrgService } from './org.js';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { DatasetQuery } from '../../common/dataset.js';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { auditMigrations, auditService, installAuditHooks, MODULE_ROUTE_KEY, type AuditService } from './audit.js';
import { BizError } from './envelope.js';
import { connectionSettings, datasources, type ConnectionKind, type DatasourceTable } from './datasources.js';
import { clientKey, limitsService, type LimitsService } from './limits.js';
import { Secrets } from './secrets.js';
import { uploadsService, type UploadsService } from './uploads.js';
import { deploymentTag } from './throttle.js';
import { PoolRegistry, SharedSlots, errorText, type SqlParams, type SqlPlanOptions, type SqlPlanResult, type SqlResult, type SqlStatement } from '../connectors/sql/index.js';
import { SourceQuota } from '../connectors/sql/quota.js';
import type { TargetPolicy } from '../connectors/target.js';
import type { ServerModule } from './module.js';

/** The SQL runner every module that runs SQL on a data source uses (a thin wrapper over connectors/sql). */
export interface SqlService {
  pools: PoolRegistry;
  /** where this app's data sources may point (read once from DATABASE_URL) */
  policy: TargetPolicy;
  /** how many data sources one caller may keep busy at once */
  quota: SourceQuota;
  /** A stored data source / model by id or dsName, within its kind (undefined: none such). */
  source(kind: ConnectionKind, key: { id?: number; dsName?: string }): Promise<DatasourceTable | undefined>;
  /**
   * Runs bound SQL on a stored data source / model through the pools, within the caller's quota (the signed-in
   * user, else the client address); a disabled source or a failure answers 执行失败… (BizError, reason scrubbed).
   */
  run(kind: ConnectionKind, row: DatasourceTable, sqlText: string, params: SqlParams, req: FastifyRequest): Promise<SqlResult>;
  /**
   * Several bound statements on a stored data source in one transaction on one connection, all or nothing (the
   * results in order); for statements the server composes (identifiers from a catalogue, values bound), never for
   * text a user typed. A failure answers 执行失败：<scrubbed reason> (BizError, with `statement`: the failed one,
   * 0-based) with nothing written. A value `{ $earlier: i, column }` is what statement i answered (a new key).
   */
  transaction(kind: ConnectionKind, row: DatasourceTable, statements: SqlStatement[], req: FastifyRequest): Promise<SqlResult[]>;
  /**
   * The plan of bound SQL on a stored data source (EXPLAIN only, read-only, rolled back: connectors/sql/explain.ts),
   * within the same quota as a statement; a failure answers 获取执行计划失败：<scrubbed reason> (BizError).
   */
  explain(kind: ConnectionKind, row: DatasourceTable, sqlText: string, params: SqlParams, opts: SqlPlanOptions, req: FastifyRequest): Promise<SqlPlanResult>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the `audit` platform service */
    audit: AuditService;
    /** the `uploads` platform service */
    uploads: UploadsService;
    /** the `limits` platform service */
    limits: LimitsService;
    /** the `secrets` platform service */
    secrets: Secrets;
    /** the `sql` platform service */
    sql: SqlService;
    /** the `menus` platform service: the menu and permission store (core/menus.ts) */
    menus: MenusService;
    /** the `dicts` platform service: the dictionaries as the store holds them (core/dicts.ts) */
    dicts: DictsService;
    /** the `datasets` platform service: a dataset field's values as options (answered by the dataset module) */
    datasets: DatasetsService;
    /** the `org` platform service: departments, posts and each caller's data scope (core/org.ts) */
    org: OrgService;
    /** the `notifier` platform service: messages to 通知渠道 (answered by the notify module) */
    notifier: NotifyService;
  }
}

/** Where a choice field's options come from: a dataset's field (values), another for the labels, one for cascades. */
export interface DatasetOptionsConfig {
  datasetId: number;
  valueField: string;
  labelField?: string | null;
  parentField?: string | null;
}
export interface DatasetOption {
  value: string;
  label: string;
  parent?: string;
}
export interface DatasetsService {
  /** The field's distinct values (at most DATASET_OPTIONS_MAX), the caller's row rules applied. BizError when it cannot. */
  options(cfg: DatasetOptionsConfig, req: FastifyRequest): Promise<DatasetOption[]>;
  /**
   * A refresh ahead of time: every cached answer of the dataset retired (on every instance), and the questions its
   * charts ask (to be asked again, as whom the caller decides). BizError when there is no such dataset.
   */
  refresh(datasetId: number): Promise<{ name: string; kind: string; queries: DatasetQuery[] }>;
  /** The datasets by name, for a picker. */
  names(): Promise<Array<{ value: string; label: string }>>;
  /** The dataset module answers for the service (until it does, every call is refused). */
  provide(impl: Omit<DatasetsService, 'provide'>): void;
}
export const DATASET_OPTIONS_MAX = 1000;

/** A message to people: a title and plain text (never a secret or a session token). */
export interface NotifyMessage {
  title: string;
  text: string;
  /** files an e-mail carries (a subscription's XLSX); the robots and webhooks get the text only */
  attachments?: Array<{ filename: string; content: Buffer; contentType?: string }>;
}
export interface NotifySendOptions {
  /** e-mail channels: these addresses instead of the channel's own recipients (a subscription's user, by their mail) */
  to?: string[];
}
export interface NotifyService {
  /** Sends to each channel (the disabled and missing ones skipped); answers, per channel tried, why it failed or null. */
  send(channelIds: number[], message: NotifyMessage, options?: NotifySendOptions): Promise<Array<{ channelId: number; error: string | null }>>;
  /** The kind of each enabled channel (email, dingtalk, wecom, webhook), by id. */
  kinds(channelIds: number[]): Promise<Map<number, string>>;
  /** Deletes the send log's entries older than `before` ('YYYY-MM-DD HH:mm:ss'); answers how many (the clean-up job). */
  prune(before: string): Promise<number>;
  /** The enabled channels by name and kind, for a picker (no address, no secret). */
  options(): Promise<Array<{ value: number; label: string }>>;
  /** Whether each id names a channel (a rule's channels are checked on save). */
  exists(channelIds: number[]): Promise<boolean>;
  /** The notify module answers for the service (until it does, sending is refused). */
  provide(impl: Omit<NotifyService, 'provide'>): void;
}

/** The names a module may list in `needs`. */
export type PlatformService = 'audit' | 'datasets' | 'dicts' | 'limits' | 'menus' | 'org' | 'secrets' | 'sql' | 'uploads' | 'versions' | 'recycle' | 'workspace' | 'scheduler' | 'notifier';

/** The platform's own PostgreSQL store is no data source (connectors/target.ts). */
export function targetPolicy(databaseUrl: string | undefined): TargetPolicy {
  if (!databaseUrl) return {};
  try {
    const u = new URL(databaseUrl);
    const named = decodeURIComponent(u.hostname || u.searchParams.get('host') || '127.0.0.1').replace(/^\[|\]$/g, '');
    // a socket path (host=/var/run/postgresql) is this machine: the same server answers on loopback
    const host = named.startsWith('/') ? '127.0.0.1' : named;
    const database = decodeURIComponent(u.pathname.replace(/^\//, '')) || decodeURIComponent(u.username) || 'postgres';
    return { reserved: [{ host, port: Number(u.port) || 5432, database }] };
  } catch {
    return {};
  }
}

/** A statement on one more data source than the caller's quota waits this long for a free share. */
const QUOTA_WAIT_MS = 30_000;

export const limitsPlugin = fp(
  async (app: FastifyInstance) => {
    const { config } = app.ctx;
    const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : null;
    app.decorate('limits', limitsService(redis, deploymentTag(config)));
    if (redis) app.addHook('onClose', async () => redis.disconnect());
  },
  { name: 'limits' },
);


export const auditPlugin = fp(
  async (app: FastifyInstance) => {
    const audit = auditService(app, app.ctx.db, app.ctx.config.operLogDays);
    app.decorate('audit', audit);
    installAuditHooks(app, audit);
    // entries older than OPER_LOG_DAYS go in the clean-up job of 定时任务 (modules/job: 清理过期日志, daily at 03:00)
    app.addHook('onClose', async () => {
      await audit.settled();
    });
  },
  { name: 'audit' },
);

export const menusPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('menus', menusService(app.ctx.db));
  },
  { name: 'menus' },
);

export const dictsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('dicts', dictsService(app.ctx.db, app.ctx.cache, () => app.ctx.schemas.dicts, app.ctx.log));
  },
  { name: 'dicts' },
);

export const datasetsPlugin = fp(
  async (app: FastifyInstance) => {
    let impl: Omit<DatasetsService, 'provide'> | null = null;
    const live = () => {
      if (!impl) throw new BizError('数据集服务未启用');
      return impl;
    };
    app.decorate('datasets', {
      options: (cfg: DatasetOptionsConfig, req: FastifyRequest) => live().options(cfg, req),
      refresh: (id: number) => live().refresh(id),
      names: () => (impl ? impl.names() : Promise.resolve([])),
      provide: (i: Omit<DatasetsService, 'provide'>) => {
        impl = i;
      },
    } satisfies DatasetsService);
  },
  { name: 'datasets' },
);

export const notifierPlugin = fp(
  async (app: FastifyInstance) => {
    let impl: Omit<NotifyService, 'provide'> | null = null;
    const missing = () => new BizError('通知渠道服务未启用');
    app.decorate('notifier', {
      send: (ids, message, options) => (impl ? impl.send(ids, message, options) : Promise.reject(missing())),
      kinds: (ids) => (impl ? impl.kinds(ids) : Promise.resolve(new Map())),
      prune: (before) => (impl ? impl.prune(before) : Promise.resolve(0)),
      options: () => (impl ? impl.options() : Promise.resolve([])),
      exists: (ids) => (impl ? impl.exists(ids) : Promise.resolve(ids.length === 0)),
      provide: (i) => {
        impl = i;
      },
    } satisfies NotifyService);
  },
  { name: 'notifier' },
);

export const orgPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('org', orgService(() => app.ctx));
  },
  { name: 'org' },
);

export const uploadsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('uploads', uploadsService(app));
  },
  { name: 'uploads' },
);

export const secretsService = fp(
  async (app: FastifyInstance) => {
    app.decorate('secrets', new Secrets({ secretKey: app.ctx.config.secretKey, dataDir: app.ctx.config.dataDir }));
  },
  { name: 'secrets' },
);

/** Whose share of the data-source processes a request uses: the signed-in user, else the client (clientKey). */
const callerOf = (req: FastifyRequest) => (req.user ? `user:${req.user.username}` : `addr:${clientKey(req)}`);

export const sqlService = fp(
  async (app: FastifyInstance) => {
    const { config } = app.ctx;
    const { secrets } = app;
    const policy = targetPolicy(config.databaseUrl);
    const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : null;
    const tag = deploymentTag(config);
    const sqliteRoot = `${config.dataDir}/sqlite`;
    // with REDIS_URL a data source's maxActive is counted across every instance too (connectors/sql/slots.ts)
    const pools = new PoolRegistry(policy, redis ? new SharedSlots({ redis, prefix: `sql-active:${tag}:` }) : undefined);
    // with REDIS_URL a caller's share is counted across every instance of the deployment (quota.ts leases)
    const quota = new SourceQuota({ maxSources: config.sqlSourcesPerCaller, waitMs: QUOTA_WAIT_MS, ...(redis ? { shared: { redis, prefix: `sql-sources:${tag}:` } } : {}) });
    const service: SqlService = {
      pools,
      policy,
      quota,
      async source(kind, key) {
        const store = datasources.on(app.ctx.db, { scope: kind });
        if (key.id) return (await store.get(key.id)) as DatasourceTable | undefined;
        if (key.dsName) return (await store.findBy('dsName', key.dsName)) as DatasourceTable | undefined;
        return undefined;
      },
      async run(kind, row, sqlText, params, req) {
        if (row.status === 0) throw new BizError(`【${row.ds_name}】已停用`);
        const settings = connectionSettings(row, secrets, sqliteRoot);
        const source = `${kind}:${row.id}`;
        try {
          return await quota.run(callerOf(req), source, () => pools.execute(source, settings, sqlText, params));
        } catch (err) {
          const msg = errorText(err, settings);
          req.log.warn({ id: row.id, reason: msg }, 'sql execution failed');
          throw new BizError(`执行失败：${msg}`);
        }
      },
      async transaction(kind, row, statements, req) {
        if (row.status === 0) throw new BizError(`【${row.ds_name}】已停用`);
        const settings = connectionSettings(row, secrets, sqliteRoot);
        const source = `${kind}:${row.id}`;
        try {
          return await quota.run(callerOf(req), source, () => pools.transaction(source, settings, statements));
        } catch (err) {
          const msg = errorText(err, settings);
          req.log.warn({ id: row.id, reason: msg }, 'sql transaction failed');
          // which statement failed (0-based), for a caller that can name the line it wrote
          const at = (err as { statement?: unknown })?.statement;
          throw Object.assign(new BizError(`执行失败：${msg}`), typeof at === 'number' ? { statement: at } : {});
        }
      },
      async explain(kind, row, sqlText, params, opts, req) {
        if (row.status === 0) throw new BizError(`【${row.ds_name}】已停用`);
        const settings = connectionSettings(row, secrets, sqliteRoot);
        const source = `${kind}:${row.id}`;
        try {
          return await quota.run(callerOf(req), source, () => pools.explain(source, settings, sqlText, params, opts));
        } catch (err) {
          const msg = errorText(err, settings);
          req.log.warn({ id: row.id, reason: msg }, 'sql plan failed');
          throw new BizError(`获取执行计划失败：${msg}`);
        }
      },
    };
    app.decorate('sql', service);
    app.addHook('onClose', async () => {
      service.quota.close();
      await service.pools.closeAll();
      redis?.disconnect();
    });
  },
  { name: 'sql', dependencies: ['secrets'] },
);

/** The platform services' own tables (the operation log, the dictionaries), migrated with the modules' (app.ts, core/startup.ts). */
export const platformMigrations = { ...auditMigrations, ...dictMigrations, ...orgMigrations, ...versionMigrations, ...recycleMigrations, ...workspaceMigrations, ...schedulerMigrations };

/** Every platform service, in the order app.ts registers them. */
export const platformServices = [secretsService, sqlService, limitsPlugin, uploadsPlugin, menusPlugin, dictsPlugin, orgPlugin, datasetsPlugin, auditPlugin, versionsPlugin, recyclePlugin, workspacePlugin, notifierPlugin, schedulerPlugin];

/**
 * A module's plugin as app.ts registers it: its own encapsulated scope as ever, named after the module and
 * depending on the services of its `needs`, so that registering it without them fails at start
 * ("The dependency 'sql' of plugin 'model' is not registered"). Each of its routes carries the module's name
 * (route config `module`), which the operation log records.
 */
export function modulePlugin(mod: Pick<ServerModule, 'name' | 'needs' | 'plugin'>): FastifyPluginAsync {
  const plugin: FastifyPluginAsync = async (scope, opts) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), [MODULE_ROUTE_KEY]: mod.name } as typeof route.config;
    });
    await mod.plugin(scope, opts);
  };
  return fp(plugin, { name: mod.name, dependencies: mod.needs ?? [], encapsulate: true });
}
