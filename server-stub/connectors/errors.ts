// Error texts of connector failures, taken without ever throwing (a getter, a Symbol, a revoked Proxy…).
import { ok, type Envelope } from '../core/envelope.js';

export function describeError(err: unknown, fallback = '未知错误'): string {
  try {
    if (err === undefined || err === null) return fallback;
    if (typeof err === 'string') return err || fallback;
    const message = (err as { message?: unknown }).message;
    if (typeof message === 'string' && message) return message;
    return String(err) || fallback;
  } catch {
    return fallback;
  }
}

/** Failure reasons go to log lines: at most this many characters. */
export const MAX_REASON = 500;

/** Cuts a reason to MAX_REASON characters. */
export function limitText(text: string, max = MAX_REASON): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/*
 * Why a connection test failed, in the words the dialogs show (issue 20): one mapping for SQL data sources,
 * FTP and SSH. The driver's own text goes only to the log (scrubbed); the answer names one of these reasons,
 * or a refusal of our own that is already written for the user (a target the policy refuses, a bad field).
 */
export const CONNECT_REASON = {
  unreachable: '无法连接',
  refused: '连接被拒绝',
  auth: '账号或密码错误',
  noDatabase: '数据库不存在',
  timeout: '等待超时',
} as const;

/** A failure whose message is already the reason a user reads (Chinese, no driver text, no secret). */
export class ConnectReasonError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectReasonError';
  }
}

/** The connection test gave up waiting (the peer accepted the connection and never answered, or never answered at all). */
export class ConnectTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(readonly seconds: number) {
    super(`${CONNECT_REASON.timeout}（${seconds}秒内没有应答）`);
    this.name = 'ConnectTimeoutError';
  }
}

/** What a connection test takes besides its settings (FTP, SSH; SQL tests wait maxWaitTime instead). */
export interface ConnectTestOptions {
  /** seconds; default REMOTE_TEST_SECONDS */
  timeout?: number;
  /** receives the scrubbed server text (for the log) and the reason to answer */
  onError?: ConnectFailureReporter;
}

/** How long an FTP or SSH connection test waits, in seconds, when not told otherwise. */
export const REMOTE_TEST_SECONDS = 10;

/** A connection test's deadline in milliseconds: opts.timeout seconds when positive, else REMOTE_TEST_SECONDS. */
export function testDeadlineMs(opts: ConnectTestOptions): number {
  return Math.round((opts.timeout && opts.timeout > 0 ? opts.timeout : REMOTE_TEST_SECONDS) * 1000);
}

/**
 * Every connection test's deadline (SQL, FTP, SSH): work's outcome, or a ConnectTimeoutError naming `seconds`
 * after ms. work's late rejection is not left unhandled; the timer never outlives the call.
 */
export async function withinDeadline<T>(work: Promise<T>, ms: number, seconds: number = ms / 1000): Promise<T> {
  work.catch(() => undefined); // lost the race against the timer: its rejection is not unhandled
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([work, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new ConnectTimeoutError(seconds)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Errors whose message is ours and written for the user: shown as they are. */
const OWN_ERRORS = new Set(['ConnectReasonError', 'TargetError']);
/** SqlConnectorError codes whose message is ours (a refused target, a bad setting such as a missing SQLite file). */
const OWN_SQL_CODES = new Set(['CONFIG', 'REFUSED']);
/** target.ts's TARGET_MSG.unresolved (not imported: target.ts is a connector like the rest, this file their base). */
const UNRESOLVED = '无法解析该地址';

const UNREACHABLE: Record<string, string> = {
  ENOTFOUND: '找不到该主机',
  EAI_AGAIN: '找不到该主机',
  EAI_NONAME: '找不到该主机',
  EHOSTUNREACH: '主机不可达',
  ENETUNREACH: '网络不可达',
  EHOSTDOWN: '主机不可达',
  ENETDOWN: '网络不可达',
  EADDRNOTAVAIL: '地址不可用',
  ECONNRESET: '连接被对方断开',
  EPIPE: '连接被对方断开',
};
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'WAIT_TIMEOUT', 'PROTOCOL_SEQUENCE_TIMEOUT']);
/** PostgreSQL SQLSTATEs and MySQL / MariaDB codes of a refused sign-in. */
const AUTH_CODES = new Set(['28P01', '28000', 'ER_ACCESS_DENIED_ERROR', 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR', 'ER_NOT_SUPPORTED_AUTH_MODE']);
const NO_DATABASE_CODES = new Set(['3D000', 'ER_BAD_DB_ERROR']);

/**
 * The reason of a failed connection test: 无法连接 / 连接被拒绝 / 账号或密码错误 / 数据库不存在 / 等待超时（N秒…）,
 * or our own refusal's text. waitSeconds is the test's deadline (maxWaitTime, or 10 s for FTP / SSH). Never throws.
 */
export function connectionReason(err: unknown, waitSeconds: number): string {
  const timeout = `${CONNECT_REASON.timeout}（${waitSeconds}秒内没有应答）`;
  try {
    if (err instanceof ConnectTimeoutError) return err.message;
    const e = (err && typeof err === 'object' ? err : {}) as { name?: unknown; code?: unknown; level?: unknown; message?: unknown };
    const name = typeof e.name === 'string' ? e.name : '';
    const code = e.code === undefined || e.code === null ? '' : String(e.code);
    const message = typeof e.message === 'string' ? e.message : typeof err === 'string' ? err : '';
    if ((OWN_ERRORS.has(name) || (name === 'SqlConnectorError' && OWN_SQL_CODES.has(code))) && message) {
      // a name that does not resolve (target.ts) is a host the console cannot reach
      return message === UNRESOLVED ? `${CONNECT_REASON.unreachable}：${message}` : message;
    }
    if (TIMEOUT_CODES.has(code) || e.level === 'client-timeout' || /time(d)? ?out/i.test(message)) return timeout;
    if (code === 'ECONNREFUSED') return `${CONNECT_REASON.refused}（该地址和端口上没有服务在监听）`;
    if (UNREACHABLE[code]) return `${CONNECT_REASON.unreachable}：${UNREACHABLE[code]}`;
    // ssh2 tells a refused sign-in by its level; FTP servers answer 530 (not logged in)
    if (AUTH_CODES.has(code) || e.level === 'client-authentication' || (name === 'FTPError' && code === '530')) return CONNECT_REASON.auth;
    // MySQL / MariaDB answer an account without rights on a database so whether it exists or not
    if (code === 'ER_DBACCESS_DENIED_ERROR') return `${CONNECT_REASON.noDatabase}或账号没有该数据库的权限`;
    if (code === '42501') return '账号没有访问该数据库的权限';
    if (NO_DATABASE_CODES.has(code)) return CONNECT_REASON.noDatabase;
    if (name === 'FTPError' && code === '550') return '根目录不存在或无权访问';
    return CONNECT_REASON.unreachable;
  } catch {
    return CONNECT_REASON.unreachable;
  }
}

/** What a connection test reports on failure: the scrubbed driver text (for the log) and the reason (for the answer). */
export type ConnectFailureReporter = (detail: string, reason: string) => void;

/** Calls the reporter, never throwing (a failing reporter must not fail the test or end the process). */
export function reportConnectFailure(report: ConnectFailureReporter | undefined, detail: () => string, err: unknown, waitSeconds: number): void {
  try {
    report?.(detail(), connectionReason(err, waitSeconds));
  } catch {
    /* a failing reporter must not fail the call */
  }
}

/** The answer's message of a connection test (spec: 连接成功 / 连接失败), with the reason after a failure. */
export function connectionTestMessage(good: boolean, reason: string | undefined): string {
  return good ? '连接成功' : reason ? `连接失败：${reason}` : '连接失败';
}

/**
 * A route's connection test: `test` runs it with a reporter; a failure's detail goes to the log (with `target`,
 * which names what was tried), its reason to the answer. Data false after a failure, as the spec has it
 * (连接失败：等待超时（3秒内没有应答）, 连接失败：账号或密码错误, …).
 */
export async function answerConnectionTest(
  log: { warn(obj: object, msg: string): void },
  target: Record<string, unknown>,
  test: (report: ConnectFailureReporter) => Promise<boolean>,
): Promise<Envelope<boolean>> {
  let reason = '';
  const good = await test((detail, why) => {
    reason = why;
    log.warn({ ...target, reason: detail }, 'connection test failed');
  });
  return ok(good, connectionTestMessage(good, reason));
}
