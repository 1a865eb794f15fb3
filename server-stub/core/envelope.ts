// The one response shape of DESIGN §4: { status, msg, data }.
export const STATUS = { OK: 0, ERROR: 1, UNSIGNED: 2 } as const;

export interface Envelope<T = unknown> {
  status: number;
  msg: string;
  data: T;
}

export function ok<T>(data: T = null as T, msg = '操作成功'): Envelope<T> {
  return { status: STATUS.OK, msg, data };
}

export function fail(msg: string, data: unknown = null): Envelope {
  return { status: STATUS.ERROR, msg, data };
}

/** A business error: answered as status 1 with its (Chinese) message, HTTP 200 unless told otherwise. */
export class BizError extends Error {
  constructor(
    message: string,
    readonly httpStatus = 200,
  ) {
    super(message);
    this.name = 'BizError';
  }
}

/** Missing or expired session: status 2, HTTP 401, data = where to sign in. */
export class UnsignedError extends Error {
  constructor(
    message = '登录状态已过期，请重新登录',
    /** the session was ended by someone else, and the message says why (answered with X-Session-Ended) */
    readonly ended = false,
  ) {
    super(message);
    this.name = 'UnsignedError';
  }
}

/** The header telling the browser that a 401's message is why the session ended (not a plain expiry). */
export const SESSION_ENDED_HEADER = 'x-session-ended';

export const LOGIN_URL = '/login';

export interface ListData<T> {
  records: T[];
  total: number;
}
