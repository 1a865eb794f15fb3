// 定时任务 (issue 39 items 1–2): jobs declared by admins — a kind from a fixed list (kinds.ts), never free code — run
// on a cron schedule in a time zone, once per deployment however many instances run.
//
// How a due time runs once: every instance looks for due jobs every JOB_POLL_MS; a job's next due minute is a column
// (next_due), and an instance claims a due time by moving it on with a conditional update (… WHERE next_due = the
// due time it read): one instance's update wins. The winner, in the same store transaction, writes the run's row of
// the run log (等待) and queues the run on the scheduler (core/scheduler.ts: pg-boss on PostgreSQL, in-process on
// SQLite), so the claim and the queued run commit together. Whichever instance takes the run from the queue runs it;
// a try that fails is retried with back-off while the job's retries last, and a try whose instance stops is retried
// on another (the log says so). A job runs no two tries at once unless it allows overlap: a run starts only by
// claiming the job's running slot (running_log), else it is logged 跳过. Missed due times while the deployment was
// down are run once, not once each.
//
// A run acts as the job's owner (the admin who last saved it), checked at every run: an owner deleted, disabled or
// without system:job:edit (or the kind's permission) makes the run fail, never run as someone else.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { ServerModule } from '../../core/module.js';
import { BizError, ok } from '../../core/envelope.js';
import { idQuery } from '../../core/declarations.js';
import { declareTable, listPageRoutes, migration, timestamps, type TableRow } from '../../core/tables.js';
import { refusal } from '../../core/users.js';
import { usersInScope } from '../../core/org.js';
import { hasPermission } from '../../core/permissions.js';
import { EXPIRE_MARGIN_SECONDS, MAX_TIMEOUT_SECONDS, type QueuedRun, type RunContext } from '../../core/scheduler.js';
import { now } from '../../store/columns.js';
import type { Database } from '../../store/schema.js';
import { alertStep, moveAlert, sameMemory, TELL_MARK, type AlertColumns, type AlertMemory } from '../../core/alerting.js';

import { assertCron, describeCron, knownZone, nextDue, nextTimes, wallTime } from './cron.js';
import { KindRefusal, type JobRow } from './kinds.js';
import { kindOf } from './registry.js';

/** Run log states (dictionary JOB_RUN_STATUS). */
export const RUN = { waiting: 0, running: 1, ok: 2, failed: 3, skipped: 4 } as const;
export const JOB_PERM = { list: 'system:job:list', add: 'system:job:add', edit: 'system:job:edit', remove: 'system:job:remove', run: 'system:job:run' } as const;
export const DEFAULT_TZ = 'Asia/Shanghai';
const SEND_COLUMNS = '20261210_01_sys_job_send';

export const jobs = declareTable({
  name: 'sys_job',
  migration: '20261209_02_sys_job',
  columns: {
    id: { type: 'id' },
    jobName: { type: 'varchar(64)', notNull: true },
    /** one of JOB_KINDS (dictionary JOB_KIND) */
    kind: { type: 'varchar(16)', notNull: true },
    /** what the kind works on: the published API's name, the dataset's id … */
    target: { type: 'varchar(200)' },
    /** the kind's parameters as JSON (the API's request body …) */
    args: { type: 'text' },
    cron: { type: 'varchar(120)', notNull: true },
    tz: { type: 'varchar(64)', notNull: true, default: DEFAULT_TZ },
    /** 0 enabled, 1 paused (JOB_STATUS) */
    status: { type: 'integer', notNull: true, default: 0 },
    /** 1: a run may start while the previous one runs */
    overlap: { type: 'integer', notNull: true, default: 0 },
    retries: { type: 'integer', notNull: true, default: 1 },
    timeoutSeconds: { type: 'integer', notNull: true, default: 300 },
    /** the account the job runs as: whoever saved it last */
    owner: { type: 'varchar(64)' },
    /** the next due time, in whole minutes since the epoch (null while paused) */
    nextDue: { type: 'integer' },
    /** the run holding the job's running slot (jobs without overlap), and until when it may hold it */
    runningLog: { type: 'integer' },
    runningUntil: { type: 'varchar(19)' },
    lastRun: { type: 'varchar(19)' },
    lastStatus: { type: 'integer' },
    /** consecutive failed runs (0 after a success): the alert rule 任务连续失败 reads it */
    failures: { type: 'integer', notNull: true, default: 0 },
    /** the rule 连续失败告警: told to alertChannels when failures reach alertFailures (0 / null: no rule), and on recovery */
    alertFailures: { type: 'integer' },
    alertChannels: { type: 'json' },
    /** what the rule last told (core/alerting.ts) */
    alertFiring: { type: 'integer', notNull: true, default: 0 },
    alertNotified: { type: 'integer', notNull: true, default: 0 },
    alertLast: { type: 'varchar(19)' },
    /** a subscription (subscription.ts): the users it goes to (ids), its channels (ids), the console's address its link opens */
    sendUsers: { type: 'json', added: SEND_COLUMNS },
    sendChannels: { type: 'json', added: SEND_COLUMNS },
    linkBase: { type: 'varchar(200)', added: SEND_COLUMNS },
    remark: { type: 'varchar(500)' },
    ...timestamps,
  },
  indexes: [
    { name: 'ux_sys_job_name', columns: ['jobName'], unique: true },
    { name: 'ix_sys_job_due', columns: ['status', 'nextDue'] },
  ],
  duplicate: (rec) => `定时任务【${rec.jobName}】已存在`,
});

export const runs = declareTable({
  name: 'sys_job_log',
  migration: '20261209_03_sys_job_log',
  columns: {
    id: { type: 'id' },
    jobId: { type: 'integer', notNull: true },
    /** cron or manual (JOB_TRIGGER) */
    trigger: { type: 'varchar(10)', notNull: true },
    dueTime: { type: 'varchar(19)' },
    startTime: { type: 'varchar(19)' },
    endTime: { type: 'varchar(19)' },
    durationMs: { type: 'integer' },
    /** RUN */
    status: { type: 'integer', notNull: true, default: 0 },
    attempts: { type: 'integer', notNull: true, default: 0 },
    instance: { type: 'varchar(80)' },
    /** when a try under way is taken for dead (its instance stopped) */
    expectedEnd: { type: 'varchar(19)' },
    /** the retries the run was queued with (the queue's limit, whatever the job says since) */
    retries: { type: 'integer', notNull: true, default: 0 },
    message: { type: 'varchar(1000)' },
    createTime: { type: 'time' },
  },
  indexes: [{ name: 'ix_sys_job_log_job', columns: ['jobId', 'createTime'] }],
});

declare module '../../store/schema.js' {
  interface Database {
    sys_job: TableRow<typeof jobs>;
    sys_job_log: TableRow<typeof runs>;
  }
}

/** The clean-up of old logs that used to run daily inside the server: a job every store starts with. */
const CLEAN_UP = { jobName: '清理过期日志', kind: 'cleanLogs', cron: '0 3 * * *' };

const migrations = {
  ...jobs.migrations,
  ...runs.migrations,
  '20261209_04_sys_job_cleanup': migration(async (db) => {
    const time = now();
    await db
      .insertInto('sys_job')
      .values({
        job_name: CLEAN_UP.jobName,
        kind: CLEAN_UP.kind,
        cron: CLEAN_UP.cron,
        tz: DEFAULT_TZ,
        status: 0,
        overlap: 0,
        retries: 1,
        timeout_seconds: 600,
        owner: 'admin',
        next_due: nextDue(CLEAN_UP.cron, DEFAULT_TZ, Date.now()),
        failures: 0,
        remark: '删除超过保留天数的操作日志、登录日志（OPER_LOG_DAYS）、任务运行记录与通知记录（JOB_LOG_DAYS）',
        create_time: time,
        update_time: time,
      })
      .execute();
  }),
};

const minute = (ms = Date.now()) => Math.floor(ms / 60_000);
const later = (seconds: number) => now(new Date(Date.now() + seconds * 1000));
const noop = () => undefined;
const reasonOf = (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 500);

/** Where the rule 连续失败告警 keeps what it last told. */
const JOB_ALERT_COLUMNS: AlertColumns = { table: 'sys_job', key: 'id', firing: 'alert_firing', notified: 'alert_notified', lastNotified: 'alert_last' };

function jobPlugin(app: FastifyInstance) {
  const { db, config, log } = app.ctx;
  const scheduler = app.scheduler;

  type Queued = { id: number; retries: number; timeout_seconds: number };
  /** Queues runs of `jobs` (a due time's, or 立即运行's) inside `trx`: their rows in the run log, and the queue's. */
  async function queueRuns(trx: Kysely<Database>, list: Queued[], trigger: 'cron' | 'manual', dueTime: string | null) {
    if (!list.length) return;
    const time = now();
    const logs = await trx
      .insertInto('sys_job_log')
      .values(list.map((job) => ({ job_id: job.id, trigger, due_time: dueTime, status: RUN.waiting, attempts: 0, retries: job.retries, create_time: time })))
      .returning(['id', 'job_id'])
      .execute();
    const byJob = new Map(list.map((j) => [j.id, j]));
    await scheduler.enqueue(
      trx,
      logs.map((l) => ({ logId: l.id, jobId: l.job_id, retries: byJob.get(l.job_id)!.retries, timeoutSeconds: byJob.get(l.job_id)!.timeout_seconds })),
    );
  }

  /** Claims at most this many due jobs in one transaction. */
  const CLAIM_BATCH = 200;

  /**
   * Claims and queues every due time that has come. Jobs due at the same minute on the same schedule move on
   * together: one conditional update per batch (… WHERE next_due = the due minute RETURNING id) — whichever
   * instance's update takes a row claims it; the other's finds it moved. Instances go through the batches in
   * their own random order, so that they share the work rather than queue behind each other.
   */
  async function tick() {
    try {
      const current = minute();
      const due = await db.selectFrom('sys_job').select(['id', 'cron', 'tz', 'next_due']).where('status', '=', 0).where('next_due', '<=', current).execute();
      const groups = new Map<string, { cron: string; tz: string; due: number; ids: number[] }>();
      for (const j of due) {
        const key = `${j.next_due} ${j.tz} ${j.cron}`;
        const g = groups.get(key) ?? { cron: j.cron, tz: j.tz, due: j.next_due!, ids: [] };
        g.ids.push(j.id);
        groups.set(key, g);
      }
      const batches = [...groups.values()].flatMap((g) => Array.from({ length: Math.ceil(g.ids.length / CLAIM_BATCH) }, (_, i) => ({ ...g, ids: g.ids.slice(i * CLAIM_BATCH, (i + 1) * CLAIM_BATCH) })));
      for (let i = batches.length - 1; i > 0; i--) {
        const k = Math.floor(Math.random() * (i + 1));
        [batches[i], batches[k]] = [batches[k]!, batches[i]!];
      }
      let queued = 0;
      for (const batch of batches) {
        await db
          .transaction()
          .execute(async (trx) => {
            const next = nextDue(batch.cron, batch.tz, Date.now());
            const won = await trx
              .updateTable('sys_job')
              .set({ next_due: next })
              .where('id', 'in', batch.ids)
              .where('next_due', '=', batch.due)
              .where('status', '=', 0)
              .returning(['id', 'retries', 'timeout_seconds'])
              .execute();
            await queueRuns(trx, won, 'cron', now(new Date(batch.due * 60_000)));
            queued += won.length;
          })
          .catch((err: unknown) => log.warn({ jobs: batch.ids.length, err: reasonOf(err) }, 'job: queueing due runs failed'));
        if (queued) scheduler.wake();
      }
      await sweepStale();
    } catch (err) {
      log.warn({ err: reasonOf(err) }, 'job: looking for due jobs failed');
    }
  }

  /** A final try whose instance stopped (no retry will come): its run failed. Looked at every expiry check. */
  let lastSweep = 0;
  async function sweepStale() {
    if (Date.now() - lastSweep < config.jobExpireCheckSeconds * 1000) return;
    lastSweep = Date.now();
    const cutoff = now(new Date(Date.now() - 2 * config.jobExpireCheckSeconds * 1000));
    const stale = await db
      .selectFrom('sys_job_log as l')
      .select(['l.id', 'l.job_id', 'l.instance', 'l.attempts', 'l.retries'])
      .where('l.status', '=', RUN.running)
      .where('l.expected_end', '<', cutoff)
      .execute();
    for (const s of stale) {
      if (s.attempts <= s.retries) continue; // a retry will come
      await finish(s.job_id, s.id, RUN.failed, `实例 ${s.instance ?? ''} 在运行中停止，重试次数已用完，本次运行未完成`, null);
    }
  }

  /** Ends a run: its log row, the job's last run, its consecutive failures and its running slot. */
  async function finish(jobId: number, logId: number, status: number, message: string | null, startedMs: number | null) {
    const time = now();
    await db
      .updateTable('sys_job_log')
      .set({ status, end_time: time, duration_ms: startedMs == null ? null : Math.round(Date.now() - startedMs), message: message?.slice(0, 1000) ?? null })
      .where('id', '=', logId)
      .execute();
    if (status === RUN.skipped) return;
    await db
      .updateTable('sys_job')
      .set((eb) => ({ last_run: time, last_status: status, failures: status === RUN.failed ? eb('failures', '+', 1) : 0 }))
      .where('id', '=', jobId)
      .execute();
    await alertOn(jobId, message);
  }

  /** The rule 连续失败告警 after a run: a firing or a recovery told once (the compare-and-set update wins on one instance). */
  async function alertOn(jobId: number, message: string | null) {
    const job = await db.selectFrom('sys_job').selectAll().where('id', '=', jobId).executeTakeFirst();
    if (!job?.alert_failures || job.alert_failures < 1) return;
    const mem: AlertMemory = { firing: job.alert_firing, notified: job.alert_notified, lastNotified: job.alert_last };
    const { next, tell } = alertStep(mem, job.failures >= job.alert_failures, now(), now(new Date(Date.now() - config.alertRepeatMinutes * 60_000)));
    if (sameMemory(mem, next)) return;
    const won = await moveAlert(db, JOB_ALERT_COLUMNS, jobId, mem, next);
    const channels = Array.isArray(jobs.toApi(job).alertChannels) ? (jobs.toApi(job).alertChannels as number[]) : [];
    if (!won || !tell || !channels.length) return;
    const text =
      tell === 'recover'
        ? `任务【${job.job_name}】已恢复：最近一次运行成功。时间：${now()}`
        : `任务【${job.job_name}】已连续失败 ${job.failures} 次（告警阈值 ${job.alert_failures} 次）。最近一次：${message ?? ''}。时间：${now()}`;
    await app.notifier.send(channels, { title: `${TELL_MARK[tell]}定时任务 ${job.job_name}`, text }).catch((err: unknown) => log.warn({ job: jobId, err: reasonOf(err) }, 'job: alert not sent'));
  }

  /** The owner as the run acts: refused (KindRefusal, never retried) when deleted, disabled or short of a permission. */
  async function ownerOf(job: JobRow) {
    const user = job.owner ? await db.selectFrom('sys_user').select('id').where('username', '=', job.owner).executeTakeFirst() : undefined;
    const loaded = user ? await app.ctx.users.load(user.id) : null;
    if (!loaded) throw new KindRefusal(`任务所有者【${job.owner ?? ''}】不存在`);
    const refused = refusal(loaded.user);
    if (refused) throw new KindRefusal(`任务所有者【${job.owner}】不能运行任务：${refused}`);
    const kind = kindOf(job.kind);
    for (const perm of [JOB_PERM.edit, ...(kind?.perm ? [kind.perm] : [])]) {
      if (!hasPermission(loaded.permissions, perm)) throw new KindRefusal(`任务所有者【${job.owner}】已没有权限（${perm}），任务未运行`);
    }
    return loaded;
  }

  /** Frees the job's running slot if this run holds it. */
  const release = (jobId: number, logId: number) =>
    db.updateTable('sys_job').set({ running_log: null, running_until: null }).where('id', '=', jobId).where('running_log', '=', logId).execute();

  /** One try of one run (the scheduler's handler). */
  async function runOnce(q: QueuedRun, ctx: RunContext) {
    const entry = await db.selectFrom('sys_job_log').selectAll().where('id', '=', q.logId).executeTakeFirst();
    // already finished (its completion reached the log, not the queue) or removed: never twice
    if (!entry || entry.status === RUN.ok || entry.status === RUN.failed || entry.status === RUN.skipped) return;
    const job = (await db.selectFrom('sys_job').selectAll().where('id', '=', q.jobId).executeTakeFirst()) as JobRow | undefined;
    if (!job) return finish(q.jobId, q.logId, RUN.failed, '任务已删除', null);
    if (job.status === 1 && entry.trigger === 'cron') return finish(job.id, q.logId, RUN.skipped, '任务已暂停，本次跳过', null);
    if (!job.overlap) {
      // the slot is held until the try settles, or for its timeout and the expiry margin when its instance stops
      const claimed = await db
        .updateTable('sys_job')
        .set({ running_log: q.logId, running_until: later(job.timeout_seconds + EXPIRE_MARGIN_SECONDS) })
        .where('id', '=', job.id)
        .where((eb) => eb.or([eb('running_log', 'is', null), eb('running_until', '<', now())]))
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return finish(job.id, q.logId, RUN.skipped, '上一次运行尚未结束，本次跳过（任务不允许并发）', null);
    }
    const note =
      entry.status === RUN.running
        ? `实例 ${entry.instance ?? ''} 在运行中停止，由实例 ${ctx.instance} 重新运行（第 ${ctx.attempt} 次尝试）`
        : ctx.attempt > 1
          ? `第 ${ctx.attempt} 次尝试`
          : '';
    const started = Date.now();
    await db
      .updateTable('sys_job_log')
      .set({ status: RUN.running, start_time: now(), instance: ctx.instance, attempts: ctx.attempt, expected_end: later(job.timeout_seconds + EXPIRE_MARGIN_SECONDS), message: note || null })
      .where('id', '=', q.logId)
      .execute();
    const prefix = note ? `${note}；` : '';
    let work: Promise<string> | null = null;
    try {
      const kind = kindOf(job.kind);
      if (!kind) throw new KindRefusal(`未知的任务类型：${job.kind}`);
      const owner = kind.system ? null : await ownerOf(job);
      let timer: NodeJS.Timeout | undefined;
      work = kind.run(app, job, owner, { runId: q.logId });
      const outcome = await Promise.race([
        work,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`运行超过 ${job.timeout_seconds} 秒，已超时`)), job.timeout_seconds * 1000);
        }),
      ]).finally(() => clearTimeout(timer));
      await finish(job.id, q.logId, RUN.ok, `${prefix}${outcome}`, started);
    } catch (e) {
      const last = e instanceof KindRefusal || ctx.attempt > q.retries;
      const wait = config.jobRetryDelaySeconds * 2 ** (ctx.attempt - 1);
      if (last) await finish(job.id, q.logId, RUN.failed, `${prefix}${reasonOf(e)}`, started);
      else {
        await db
          .updateTable('sys_job_log')
          .set({ status: RUN.waiting, message: `${prefix}${reasonOf(e)}；约 ${wait} 秒后重试` })
          .where('id', '=', q.logId)
          .execute();
        throw e;
      }
    } finally {
      // a try past its timeout keeps the slot while its work goes on (or until the slot's time runs out)
      if (work) void work.then(noop, noop).then(() => release(job.id, q.logId).catch(noop));
      else await release(job.id, q.logId);
    }
  }

  scheduler.work(runOnce);
  let ticking: Promise<void> | null = null;
  const timer = setInterval(() => {
    ticking ??= tick().finally(() => (ticking = null));
  }, config.jobPollMs);
  timer.unref();
  // before the store and the logs close
  app.addHook('preClose', async () => {
    clearInterval(timer);
    await ticking;
  });

  // ------------------------------------------------------------------ the page's calls

  listPageRoutes(app, jobs, {
    page: 'job',
    notFound: '定时任务不存在',
    async beforeSave(rec, stored, req) {
      const kind = kindOf(rec.kind);
      if (!kind) throw new BizError('请选择任务类型');
      if (![0, 1].includes(rec.status)) throw new BizError('状态只能是启用或暂停');
      if (![0, 1].includes(rec.overlap)) throw new BizError('允许并发只能是是或否');
      if (!Number.isInteger(rec.timeoutSeconds) || rec.timeoutSeconds < 10 || rec.timeoutSeconds > MAX_TIMEOUT_SECONDS) throw new BizError(`超时须为 10–${MAX_TIMEOUT_SECONDS} 秒`);
      if (rec.alertChannels != null && (!Array.isArray(rec.alertChannels) || rec.alertChannels.length > 10 || !rec.alertChannels.every((x: unknown) => Number.isInteger(x) && (x as number) > 0)))
        throw new BizError('告警通知渠道不合法');
      rec.tz = String(rec.tz ?? DEFAULT_TZ).trim() || DEFAULT_TZ;
      if (!knownZone(rec.tz)) throw new BizError(`未知的时区：${String(rec.tz).slice(0, 60)}`);
      rec.cron = String(rec.cron ?? '').trim().replace(/\s+/g, ' ');
      assertCron(rec.cron, rec.tz);
      // what the kind needs of its owner at every run, the one saving it needs now
      if (kind.perm && !hasPermission(req.user!.permissions, kind.perm)) throw new BizError(`没有权限（${kind.perm}）保存此类任务`);
      if (rec.kind !== 'subscription') Object.assign(rec, { sendUsers: null, sendChannels: null, linkBase: null });
      await kind.check(app, rec, req);
      rec.alertFailures = rec.alertFailures ? Number(rec.alertFailures) : null;
      rec.alertChannels = Array.isArray(rec.alertChannels) ? rec.alertChannels : [];
      if (rec.alertFailures && !rec.alertChannels.length) throw new BizError('请选择告警通知的渠道');
      if (!(await app.notifier.exists(rec.alertChannels))) throw new BizError('所选通知渠道不存在');
      // a changed rule starts quiet
      if (!stored || stored.alert_failures !== rec.alertFailures) Object.assign(rec, { alertFiring: 0, alertNotified: 0 });
      // whoever saves a job is the account it runs as from now on
      rec.owner = req.user!.username;
      rec.nextDue = rec.status === 1 ? null : nextDue(rec.cron, rec.tz, Date.now());
      if (stored && stored.kind !== rec.kind) rec.failures = 0;
    },
    decorate: async (records) =>
      records.map((r) => ({
        ...r,
        cronText: describeCron(r.cron),
        nextRun: r.status === 0 && r.nextDue != null ? wallTime(r.nextDue * 60_000, r.tz) : null,
      })),
  });

  listPageRoutes(app, runs, { page: 'jobLog', notFound: '运行记录不存在', filters: { jobId: { type: ['integer', 'null'], minimum: 1, title: '任务' } } });

  // the dialog's explanation of a cron expression: what it means and the next five times, or why it is refused
  app.get<{ Querystring: { cron?: string; tz?: string } }>(
    '/job/cron',
    {
      config: { perm: JOB_PERM.list },
      schema: { querystring: { type: 'object', properties: { cron: { type: 'string', maxLength: 200, title: 'Cron 表达式' }, tz: { type: 'string', maxLength: 64, title: '时区' } } } },
    },
    async (req) => {
      const tz = (req.query.tz ?? '').trim() || DEFAULT_TZ;
      const cron = (req.query.cron ?? '').trim().replace(/\s+/g, ' ');
      assertCron(cron, tz);
      const next = nextTimes(cron, tz, Date.now(), 5).map((t) => wallTime(t, tz));
      return ok({ description: describeCron(cron), lines: next.map((t, i) => `第 ${i + 1} 次：${t}`), tz });
    },
  );

  // 立即运行: one run now, queued like a due one (the schedule is unchanged)
  app.post<{ Querystring: { id: number } }>('/job/run', { config: { perm: JOB_PERM.run }, schema: { querystring: idQuery } }, async (req) => {
    const job = await db.selectFrom('sys_job').select(['id', 'retries', 'timeout_seconds']).where('id', '=', req.query.id).executeTakeFirst();
    if (!job) throw new BizError('定时任务不存在');
    await db.transaction().execute((trx) => queueRuns(trx, [job], 'manual', now()));
    scheduler.wake();
    return ok(null, '已开始运行，结果见运行记录');
  });

  // 暂停 / 恢复: a paused job has no next due time; resumed, its next one counts from now (missed ones are not run)
  const setStatus = (status: 0 | 1) => async (req: { query: { id: number } }) => {
    const job = await db.selectFrom('sys_job').select(['id', 'cron', 'tz', 'status']).where('id', '=', req.query.id).executeTakeFirst();
    if (!job) throw new BizError('定时任务不存在');
    if (job.status === status) return ok(null, status === 0 ? '任务已是启用状态' : '任务已是暂停状态');
    await db
      .updateTable('sys_job')
      .set({ status, next_due: status === 0 ? nextDue(job.cron, job.tz, Date.now()) : null, update_time: now() })
      .where('id', '=', job.id)
      .execute();
    return ok(null, status === 0 ? '已恢复' : '已暂停');
  };
  app.post<{ Querystring: { id: number } }>('/job/pause', { config: { perm: JOB_PERM.run }, schema: { querystring: idQuery } }, setStatus(1));
  app.post<{ Querystring: { id: number } }>('/job/resume', { config: { perm: JOB_PERM.run }, schema: { querystring: idQuery } }, setStatus(0));

  // the dialog's choices of what a kind works on
  app.get<{ Querystring: { kind?: string } }>(
    '/job/targets',
    { config: { perm: JOB_PERM.list }, schema: { querystring: { type: 'object', properties: { kind: { type: 'string', maxLength: 32, title: '任务类型' } } } } },
    async (req) => ok((await kindOf(req.query.kind ?? 'api')?.targets?.(app)) ?? []),
  );
  // a subscription's recipients: users with a mailbox (the address itself is not answered)
  // (within the caller's data scope: the ones a subscription of theirs may go to)
  app.get('/job/users', { config: { perm: JOB_PERM.list } }, async (req) => {
    const base = db.selectFrom('sys_user').where('deleted', '=', 0).where('status', '=', 0).where('email', 'is not', null).where('email', '<>', '');
    const rows = await usersInScope(base, await app.org.scopeOf(req.user)).select(['id', 'username', 'nick_name']).orderBy('username').limit(2000).execute();
    return ok(rows.map((r) => ({ value: r.id, label: r.nick_name && r.nick_name !== r.username ? `${r.nick_name}（${r.username}）` : r.username })));
  });
  app.get('/job/channels', { config: { perm: JOB_PERM.list } }, async () => ok(await app.notifier.options()));
}

export const jobModule: ServerModule = {
  name: 'job',
  prefix: '/api/job',
  service: 'admin',
  migrations,
  needs: ['scheduler', 'audit', 'notifier', 'datasets', 'org'],
  plugin: async (app) => jobPlugin(app),
};
