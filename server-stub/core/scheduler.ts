// The scheduler (issue 39 item 1; DESIGN §8 "Scheduled work"): a durable queue of runs that every instance of a
// deployment works from, each run taken by exactly one instance at a time.
//
// Two engines behind one interface:
//   pg-boss     when the store is PostgreSQL (every deployment of several instances has it): runs are rows of
//               pg-boss's own schema beside the store's, taken with SELECT … FOR UPDATE SKIP LOCKED; a run whose
//               instance stopped is found by pg-boss's expiry (JOB_EXPIRE_CHECK_SECONDS) and retried on another
//               instance; retries wait with back-off. A run is queued inside the caller's store transaction (pg-boss
//               sends through the caller's connection), so that the claim of a due time and the queued run commit
//               together or not at all.
//   in-process  on the embedded SQLite store (one instance by construction): the same semantics over a table of
//               the store (sys_job_queue); runs that were active when the process stopped are retried at the next start.
// Redis (BullMQ) is not used: Redis is optional in a deployment and may keep nothing on disk, while the store is
// always there and durable — a queued run must outlive a restart.
//
// What a run does is the job module's (the handler); the scheduler knows nothing of jobs.
import { hostname } from 'node:os';
import { CompiledQuery, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../store/schema.js';
import { migration } from './tables.js';
import { idColumn } from '../store/columns.js';

/** One queued run, as the job module queues it. */
export interface QueuedRun {
  /** the run's row in the job module's run log */
  logId: number;
  jobId: number;
  /** retries after a failed try (an instance that stopped during a run counts as a failed try) */
  retries: number;
  /** the longest a try may take; a try not ended this long after its start (plus a margin) is taken for dead */
  timeoutSeconds: number;
}

export interface RunContext {
  /** 1 for the first try */
  attempt: number;
  /** this instance's name (INSTANCE_ID, else host and process) */
  instance: string;
}

/** Runs one try; a rejection is a failed try (retried while tries remain). */
export type RunHandler = (run: QueuedRun, ctx: RunContext) => Promise<void>;

export interface SchedulerService {
  readonly engine: 'pg-boss' | 'in-process';
  readonly instance: string;
  /** Sets what a run does and starts taking runs (once, by the job module). */
  work(handler: RunHandler): void;
  /** Queues runs inside the caller's store transaction: they exist once the transaction commits, never otherwise. */
  enqueue(trx: Kysely<Database>, runs: QueuedRun[]): Promise<void>;
  /** Looks for queued runs now (after a commit that queued some) rather than at the next poll. */
  wake(): void;
  /** Runs queued and not finished (tests and the bench). */
  pending(): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the `scheduler` platform service (core/scheduler.ts) */
    scheduler: SchedulerService;
  }
}

/** A try is taken for dead this long after its timeout. */
export const EXPIRE_MARGIN_SECONDS = 5;
/** pg-boss (10) refuses an expiry of a day or more. */
const MAX_EXPIRE_SECONDS = 86_399;
/** The longest timeout a job may have. */
export const MAX_TIMEOUT_SECONDS = MAX_EXPIRE_SECONDS - EXPIRE_MARGIN_SECONDS;
const QUEUE = 'console-job-run';

export interface QueueTable {
  id: import('kysely').Generated<number>;
  data: string;
  retry_limit: number;
  retry_count: number;
  /** epoch ms: not taken before */
  start_after: number;
  /** 'created' or 'active' */
  state: string;
}

declare module '../store/schema.js' {
  interface Database {
    sys_job_queue: QueueTable;
  }
}

export const schedulerMigrations = {
  '20261209_01_sys_job_queue': migration(async (db, dialect) => {
    await idColumn(db.schema.createTable('sys_job_queue'), dialect)
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('retry_limit', 'integer', (c) => c.notNull())
      .addColumn('retry_count', 'integer', (c) => c.notNull())
      .addColumn('start_after', 'bigint', (c) => c.notNull())
      .addColumn('state', 'varchar(10)', (c) => c.notNull())
      .execute();
  }),
};

/** pg-boss's schema beside the store's (DATABASE_SCHEMA_queue), or pgboss. */
export const queueSchemaOf = (storeSchema: string | undefined) => (storeSchema ? `${storeSchema}_queue`.slice(0, 50) : 'pgboss');

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/**
 * The loop every engine shares: take up to the free slots' worth of runs, run each, take more as slots free;
 * sleep a poll between empty takes, unless woken.
 */
function workLoop(opts: {
  concurrency: number;
  pollMs: number;
  take: (n: number) => Promise<Array<{ run: QueuedRun; attempt: number; done: (error?: unknown) => Promise<void> }>>;
  handler: () => RunHandler | null;
  instance: string;
  log: FastifyInstance['log'];
}) {
  const active = new Set<Promise<void>>();
  let nap = new AbortController();
  let stopped = false;
  const wake = () => nap.abort();
  const loop = async () => {
    while (!stopped) {
      const handler = opts.handler();
      const free = opts.concurrency - active.size;
      let taken = 0;
      if (handler && free > 0) {
        try {
          const runs = await opts.take(free);
          taken = runs.length;
          for (const r of runs) {
            const p = handler(r.run, { attempt: r.attempt, instance: opts.instance })
              .then(
                () => r.done(),
                (err: unknown) => r.done(err ?? new Error('failed')),
              )
              .catch((err: unknown) => opts.log.error({ err: String(err) }, 'scheduler: recording a run failed'))
              .finally(() => {
                active.delete(p);
                wake();
              });
            active.add(p);
          }
        } catch (err) {
          opts.log.warn({ err: String(err) }, 'scheduler: taking runs failed');
        }
      }
      if (stopped) break;
      if (taken && active.size < opts.concurrency) continue;
      nap = new AbortController();
      await sleep(opts.pollMs, nap.signal);
    }
  };
  const running = loop();
  return {
    wake,
    /** Stops taking runs; waits up to `graceMs` for the runs under way (the rest are retried elsewhere). */
    async stop(graceMs: number) {
      stopped = true;
      wake();
      await running;
      const idle = new AbortController();
      await Promise.race([Promise.allSettled([...active]), sleep(graceMs, idle.signal)]);
      idle.abort();
    },
  };
}

type Take = Parameters<typeof workLoop>[0]['take'];

/** The loop an engine starts once the job module says what a run does (work), over the engine's own `take`. */
function worker(app: FastifyInstance, instance: string, take: Take) {
  let handler: RunHandler | null = null;
  let loop: ReturnType<typeof workLoop> | null = null;
  return {
    work(h: RunHandler) {
      handler = h;
      loop ??= workLoop({ concurrency: app.ctx.config.jobConcurrency, pollMs: app.ctx.config.jobPollMs, instance, log: app.ctx.log, handler: () => handler, take });
    },
    wake: () => loop?.wake(),
    stop: async (graceMs: number) => loop?.stop(graceMs),
  };
}

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

/** pg-boss over the store's PostgreSQL. */
async function pgBossEngine(app: FastifyInstance, instance: string): Promise<SchedulerService & { close(): Promise<void> }> {
  const { config, log } = app.ctx;
  const boss = new PgBoss({
    connectionString: config.databaseUrl!,
    schema: queueSchemaOf(config.databaseSchema),
    application_name: 'console-scheduler',
    max: 3,
    // the expiry of runs whose instance stopped (and pg-boss's archive) — by one instance at a time
    supervise: true,
    maintenanceIntervalSeconds: config.jobExpireCheckSeconds,
    // pg-boss's own cron is not used: due times are the job module's (one row per job, claimed in the store)
    schedule: false,
    migrate: true,
  });
  boss.on('error', (err) => log.warn({ err: String(err) }, 'scheduler (pg-boss) error'));
  await boss.start();
  if (!(await boss.getQueue(QUEUE))) {
    // two instances starting at once both try: the second one's conflict is harmless
    await boss.createQueue(QUEUE, { name: QUEUE, policy: 'standard' }).catch(async (err: unknown) => {
      if (!(await boss.getQueue(QUEUE))) throw err;
    });
  }
  const w = worker(app, instance, async (n) => {
    const jobs = await boss.fetch<QueuedRun>(QUEUE, { batchSize: n, includeMetadata: true });
    return jobs.map((job) => ({
      run: job.data,
      attempt: job.retryCount + 1,
      done: (error?: unknown) => (error === undefined ? boss.complete(QUEUE, job.id) : boss.fail(QUEUE, job.id, { message: reason(error) })),
    }));
  });
  return {
    engine: 'pg-boss',
    instance,
    work: w.work,
    async enqueue(trx, runs) {
      if (!runs.length) return;
      const db = { executeSql: async (text: string, values: unknown[]) => ({ rows: (await trx.executeQuery(CompiledQuery.raw(text, values))).rows as any[] }) };
      // one statement for the lot (a standard queue has no unique key a new run could clash on: none is dropped)
      await boss.insert(
        runs.map((run) => ({
          name: QUEUE,
          data: run,
          retryLimit: run.retries,
          retryDelay: config.jobRetryDelaySeconds,
          retryBackoff: true,
          // pg-boss wants an expiry under a day
          expireInSeconds: Math.min(run.timeoutSeconds + EXPIRE_MARGIN_SECONDS, MAX_EXPIRE_SECONDS),
        })),
        { db },
      );
    },
    wake: w.wake,
    pending: async () => boss.getQueueSize(QUEUE, { before: 'completed' }),
    async close() {
      await w.stop(5000);
      await boss.stop({ graceful: false, wait: true, close: true, timeout: 5000 }).catch(() => {});
    },
  };
}

/** The same over a table of the embedded store, for the one instance an SQLite store has. */
async function inProcessEngine(app: FastifyInstance, instance: string): Promise<SchedulerService & { close(): Promise<void> }> {
  const { db, config } = app.ctx;
  // runs that were active when the process stopped: a failed try each (retried while tries remain), before the first take
  let recovered = false;
  const recover = async () => {
    for (const row of await db.selectFrom('sys_job_queue').selectAll().where('state', '=', 'active').execute()) await settle(row, new Error('instance stopped'));
    recovered = true;
  };
  async function settle(row: { id: number; retry_limit: number; retry_count: number }, error?: unknown) {
    if (error === undefined || row.retry_count >= row.retry_limit) {
      await db.deleteFrom('sys_job_queue').where('id', '=', row.id).execute();
      return;
    }
    const wait = config.jobRetryDelaySeconds * 1000 * 2 ** row.retry_count;
    await db
      .updateTable('sys_job_queue')
      .set({ state: 'created', retry_count: row.retry_count + 1, start_after: Date.now() + wait })
      .where('id', '=', row.id)
      .execute();
  }
  const w = worker(app, instance, async (n) => {
    if (!recovered) await recover();
    const rows = await db.selectFrom('sys_job_queue').selectAll().where('state', '=', 'created').where('start_after', '<=', Date.now()).orderBy('id').limit(n).execute();
    const taken = [];
    for (const row of rows) {
      const r = await db.updateTable('sys_job_queue').set({ state: 'active' }).where('id', '=', row.id).where('state', '=', 'created').executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) continue;
      taken.push({ run: JSON.parse(row.data) as QueuedRun, attempt: row.retry_count + 1, done: (error?: unknown) => settle(row, error) });
    }
    return taken;
  });
  return {
    engine: 'in-process',
    instance,
    work: w.work,
    async enqueue(trx, runs) {
      if (!runs.length) return;
      await trx
        .insertInto('sys_job_queue')
        .values(runs.map((run) => ({ data: JSON.stringify(run), retry_limit: run.retries, retry_count: 0, start_after: Date.now(), state: 'created' })))
        .execute();
    },
    wake: w.wake,
    pending: async () => Number((await db.selectFrom('sys_job_queue').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0),
    async close() {
      await w.stop(5000);
    },
  };
}

export const schedulerPlugin = fp(
  async (app: FastifyInstance) => {
    const instance = app.ctx.config.instanceId ?? `${hostname()}-${process.pid}`;
    const engine = app.ctx.dialect === 'postgres' && app.ctx.config.databaseUrl ? await pgBossEngine(app, instance) : await inProcessEngine(app, instance);
    app.decorate('scheduler', engine);
    // before the store and the logs close (onClose hooks run last-added-first: app.ts's would run before this one)
    app.addHook('preClose', async () => engine.close());
  },
  { name: 'scheduler' },
);
