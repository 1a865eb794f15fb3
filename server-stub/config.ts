// Settings come only from the environment (README has the table).
import net from 'node:net';
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL schema to use for the platform store (tests use a fresh one). */
  databaseSchema?: string;
  redisUrl?: string;
  adminPassword?: string;
  secretKey?: string;
  /** Session lifetime in seconds. */
  sessionTtl: number;
  /** When false, every signed-in user holds every permission (spec: "permission switch"). */
  permissionSwitch: boolean;
  /** Seed demo data (a SQLite demo data source, variables) on first start. */
  demoData: boolean;
  /** Password for the demo users; generated when unset. */
  demoPassword?: string;
  /** Where the built browser app lives. */
  distDir: string;
  /** Repository root: schemas/ is read from here. */
  rootDir: string;
  /**
   * Which proxies may name the client address (X-Forwarded-For): false (default: none, the TCP peer is
   * the client), a hop count, or addresses / CIDRs. Never a blanket true: any client could then pick the
   * address that sign-in limits and logs see.
   */
  trustProxy: false | number | string[];
  /** Log files rotate past this size (LOG_MAX_BYTES, default 20 MB) … */
  logMaxBytes: number;
  /** … keeping this many rotated files (LOG_KEEP, default 5). */
  logKeep: number;
  /** The log monitor's search answers what it found after this long (LOG_SEARCH_MS, default 3000). */
  logSearchMs: number;
  /** Names this instance's log files <service>-<INSTANCE_ID>.log when several share DATA_DIR (letters, digits, - and _). */
  instanceId?: string;
  /**
   * INSTANCE_ADDRESS: the addresses this instance is known by in the log monitor's "server ip" filter, when
   * its interfaces' own addresses are not the ones people use (NAT, containers, several instances on one host).
   */
  instanceAddresses?: string[];
  /**
   * EMBED_TOKEN_ORIGINS: the other sites (origins, comma-separated) an embedded page with authentication may
   * hand the session token to. The console's own origin always may; any other site gets the page, never the
   * token, since a token in a foreign address is the account.
   */
  embedTokenOrigins: string[];
  /**
   * NOTIFY_ALLOW_LOOPBACK: notification channels (通知渠道) may post to this machine (127.0.0.0/8, ::1). Off by default:
   * a robot or webhook address is the admin's, and loopback is where the console's own services listen.
   */
  notifyAllowLoopback: boolean;
  /**
   * CONSOLE_URL: the console's address as people open it (https://console.example.com), for the links that
   * subscriptions send. Unset: the address the subscription was saved from.
   */
  consoleUrl: string;
  /**
   * SCREENSHOT_CHROMIUM: a Chromium on this machine (/usr/bin/chromium) that takes the picture of a screen a
   * subscription mails (playwright-core installed beside it). Unset: subscriptions of screens carry the XLSX only.
   */
  screenshotChromium: string;
  /** JOB_LOG_DAYS (default 30): 定时任务's run log keeps this many days (the log clean-up job deletes older runs). */
  jobLogDays: number;
  /**
   * JOB_POLL_MS (default 2000): how often each instance looks for due jobs and for queued runs (core/scheduler.ts).
   * JOB_EXPIRE_CHECK_SECONDS (default 30): how often a run whose instance stopped is looked for (then retried on
   * another). JOB_CONCURRENCY (default 8): runs one instance works on at once. JOB_RETRY_DELAY_SECONDS (default 10):
   * the wait before a failed try's retry, doubled at each further try.
   */
  jobPollMs: number;
  jobExpireCheckSeconds: number;
  jobConcurrency: number;
  jobRetryDelaySeconds: number;
  /**
   * ALERT_REPEAT_MINUTES (default 60): an alert rule tells its channels at most once in this many minutes while it
   * fires (its recovery is told too). ALERT_CHECK_SECONDS (default 30): how often the API monitor's rules are looked at.
   */
  alertRepeatMinutes: number;
  alertCheckSeconds: number;
  /**
   * SQL_SOURCES_PER_CALLER: data sources one caller (a signed-in user, else a client address) may keep busy at
   * once (connectors/sql/quota.ts), so that no one caller can hold every data-source process.
   */
  sqlSourcesPerCaller: number;
  /**
   * TABLE_COUNT_ESTIMATE_ROWS: a page on a PostgreSQL / MySQL table answers the catalogue's row estimate instead of
   * counting when nothing filters the list and the estimate is above this (default 200000).
   */
  tableCountEstimateRows: number;
  /**
   * REQUEST_TIMEOUT (seconds, default 60): a request whose headers and body have not all arrived by then is
   * answered 408 and its connection closed, so a client that stalls mid-body cannot hold memory, a temp file
   * and a socket for ever. (Waiting for the answer, e.g. a long query, is not limited by it.)
   */
  requestTimeoutMs: number;
  /**
   * MIN_FREE_DISK_MB (default 100; 0 turns it off): uploads and public form entries are refused while the disk
   * holding DATA_DIR has less room than this, so that outside callers cannot fill the disk the store, the logs
   * and the sessions write to.
   */
  minFreeDiskBytes: number;
  /**
   * DATASET_FILE_MAX_MB (default 100) and DATASET_FILE_MAX_ROWS (default 2000000): an Excel / CSV file uploaded as a
   * dataset (kept in DuckDB under DATA_DIR/duckdb), and the rows such a dataset may hold after appends.
   */
  datasetFileMaxBytes: number;
  datasetFileMaxRows: number;
  /** OPER_LOG_DAYS (default 180): operation-log entries (sys_oper_log) older than this many days are deleted by 定时任务's clean-up job (daily at 03:00 unless an admin changes it). */
  operLogDays: number;
  /** versions kept per designed item (besides every published one): VERSIONS_KEPT */
  versionsKept: number;
  /** days a deleted item stays in the recycle bin: RECYCLE_DAYS */
  recycleDays: number;
  /**
   * LOGINS_PER_MINUTE (default 20): sign-in calls one client address may make per minute (the public-key call
   * three times that). Raise it where many people reach the console through one address (a NAT, a proxy not
   * named in TRUST_PROXY); the per-account lock after 5 wrong passwords holds whatever this is.
   */
  loginsPerMinute: number;
  /**
   * PLAN_REASON_ROWS (default 100000): approving an API whose plan estimates more rows than this (returned, or read
   * by a full scan) requires the approver to write a reason, kept in the audit (modules/apiplatform/plan.ts).
   */
  planReasonRows: number;
  /** PLAN_LARGE_TABLE_ROWS (default 10000): a full scan of a table of more rows than this is warned of in a plan. */
  planLargeTableRows: number;
  /** SHUTDOWN_GRACE (seconds, default 25): on SIGTERM the instance drains and exits within this (core/health.ts). */
  shutdownGraceMs: number;
  /** SHUTDOWN_DELAY (seconds, default 2; 0 allowed): a draining instance keeps answering, not ready, this long first. */
  shutdownDelayMs: number;
}

function positive(v: string | undefined, dflt: number): number {
  const n = Number(v);
  return v !== undefined && v !== '' && Number.isFinite(n) && n > 0 ? Math.floor(n) : dflt;
}

function nonNegative(v: string | undefined, dflt: number): number {
  const n = Number(v);
  return v !== undefined && v.trim() !== '' && Number.isFinite(n) && n >= 0 ? Math.floor(n) : dflt;
}

function parseTrustProxy(v: string | undefined): false | number | string[] {
  const t = (v ?? '').trim();
  if (!t || /^(0|off|false|no)$/i.test(t)) return false;
  if (/^\d+$/.test(t)) return Number(t);
  return t.split(',').map((x) => x.trim()).filter(Boolean);
}

/** Origins (scheme://host[:port]) of http(s) addresses; anything else is left out. */
function originsOf(v: string | undefined): string[] {
  const out = new Set<string>();
  for (const part of (v ?? '').split(',')) {
    try {
      const u = new URL(part.trim());
      if (u.protocol === 'http:' || u.protocol === 'https:') out.add(u.origin);
    } catch {
      /* not an address: ignored */
    }
  }
  return [...out];
}

/** An instance id becomes part of a file name: only a short run of safe characters is accepted. */
export const INSTANCE_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

function instanceIdOf(v: string | undefined): string | undefined {
  const t = (v ?? '').trim();
  if (!t) return undefined;
  if (!INSTANCE_ID_PATTERN.test(t)) throw new Error('INSTANCE_ID: 1–32 letters, digits, - or _');
  return t;
}

/** A comma-separated list of IP addresses; anything else refuses the start. */
function addressesOf(v: string | undefined): string[] | undefined {
  const list = (v ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  if (!list.length) return undefined;
  const bad = list.find((a) => net.isIP(a) === 0);
  if (bad !== undefined || list.length > 32) throw new Error('INSTANCE_ADDRESS: up to 32 IP addresses separated by commas');
  return list;
}

// the repository: one level above this file, or above dist-server/main.js, the compiled server it is bundled into
const rootDir = path.resolve(import.meta.dirname, '..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const ttl = Number(env.SESSION_TTL ?? 8 * 3600);
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? path.join(rootDir, 'data')),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    redisUrl: env.REDIS_URL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    secretKey: env.SECRET_KEY || undefined,
    sessionTtl: Number.isFinite(ttl) && ttl > 0 ? ttl : 8 * 3600,
    permissionSwitch: !/^(0|off|false|no)$/i.test(env.PERMISSION_SWITCH ?? 'on'),
    demoPassword: env.DEMO_PASSWORD || undefined,
    demoData: !/^(0|off|false|no)$/i.test(env.DEMO_DATA ?? 'on'),
    distDir: path.resolve(env.DIST_DIR ?? path.join(rootDir, 'dist')),
    // SCHEMAS_ROOT: a folder holding another schemas/ (tests use it to prove a bad file refuses the start).
    rootDir: env.SCHEMAS_ROOT ? path.resolve(env.SCHEMAS_ROOT) : rootDir,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    logMaxBytes: positive(env.LOG_MAX_BYTES, 20 * 1024 * 1024),
    logKeep: positive(env.LOG_KEEP, 5),
    logSearchMs: positive(env.LOG_SEARCH_MS, 3000),
    instanceId: instanceIdOf(env.INSTANCE_ID),
    instanceAddresses: addressesOf(env.INSTANCE_ADDRESS),
    embedTokenOrigins: originsOf(env.EMBED_TOKEN_ORIGINS),
    notifyAllowLoopback: ['1', 'true', 'on', 'yes'].includes(String(env.NOTIFY_ALLOW_LOOPBACK ?? '').toLowerCase()),
    screenshotChromium: env.SCREENSHOT_CHROMIUM && path.isAbsolute(env.SCREENSHOT_CHROMIUM) ? env.SCREENSHOT_CHROMIUM : '',
    consoleUrl: /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(env.CONSOLE_URL ?? '') ? env.CONSOLE_URL!.replace(/\/+$/, '') : '',
    sqlSourcesPerCaller: positive(env.SQL_SOURCES_PER_CALLER, 4),
    jobLogDays: positive(env.JOB_LOG_DAYS, 30),
    jobPollMs: Math.max(100, positive(env.JOB_POLL_MS, 2000)),
    jobExpireCheckSeconds: positive(env.JOB_EXPIRE_CHECK_SECONDS, 30),
    jobConcurrency: Math.min(64, positive(env.JOB_CONCURRENCY, 8)),
    jobRetryDelaySeconds: Math.min(3600, positive(env.JOB_RETRY_DELAY_SECONDS, 10)),
    alertRepeatMinutes: positive(env.ALERT_REPEAT_MINUTES, 60),
    alertCheckSeconds: positive(env.ALERT_CHECK_SECONDS, 30),
    tableCountEstimateRows: positive(env.TABLE_COUNT_ESTIMATE_ROWS, 200_000),
    requestTimeoutMs: positive(env.REQUEST_TIMEOUT, 60) * 1000,
    minFreeDiskBytes: nonNegative(env.MIN_FREE_DISK_MB, 100) * 1024 * 1024,
    operLogDays: positive(env.OPER_LOG_DAYS, 180),
    versionsKept: positive(env.VERSIONS_KEPT, 50),
    recycleDays: positive(env.RECYCLE_DAYS, 30),
    datasetFileMaxBytes: positive(env.DATASET_FILE_MAX_MB, 100) * 1024 * 1024,
    datasetFileMaxRows: positive(env.DATASET_FILE_MAX_ROWS, 2_000_000),
    loginsPerMinute: positive(env.LOGINS_PER_MINUTE, 20),
    planReasonRows: positive(env.PLAN_REASON_ROWS, 100_000),
    planLargeTableRows: positive(env.PLAN_LARGE_TABLE_ROWS, 10_000),
    shutdownGraceMs: positive(env.SHUTDOWN_GRACE, 25) * 1000,
    shutdownDelayMs: nonNegative(env.SHUTDOWN_DELAY, 2) * 1000,
  };
}

/**
 * Why a start of several instances (INSTANCE_ID set) must be refused, or null. Instances of one deployment must
 * seal secrets with the same key (else one cannot open what another stored), and on PostgreSQL they must share
 * sessions, the cache and the counters through Redis.
 */
export function startRefusal(config: Config): string | null {
  if (!config.instanceId) return null;
  if (!config.secretKey) return '多实例部署（已设置 INSTANCE_ID）必须设置 SECRET_KEY，且各实例取值相同，否则一个实例无法解开另一个实例保存的密码';
  if (config.databaseUrl && !config.redisUrl) return '多实例部署（已设置 INSTANCE_ID）使用 PostgreSQL 时必须设置 REDIS_URL，各实例经 Redis 共享会话、缓存和计数';
  return null;
}
