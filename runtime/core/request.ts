// The one axios instance. Every rule of the error catalogue (spec part 1 §8) lives here,
// so pages only deal with the envelope's `data` or a rejected promise.
import axios, { AxiosError, type AxiosRequestConfig, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { browser } from './browser';
import { getFeedback } from './feedback';
import { t } from './messages';
import { getToken, removeToken } from './token';

/** The response body of every call. status 0 ok, 1 error, 2 unsigned. */
export interface Envelope<T = unknown> {
  status: number;
  msg: string;
  data: T;
}

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Show no error message (the caller handles failure, e.g. dicts fall back). The 401 box still shows. */
    silent?: boolean;
    /** Neither messages nor the session-expired box (used by logout). */
    quiet?: boolean;
  }
}

export const TIMEOUT = 120_000;
export const DOWNLOAD_TIMEOUT = 300_000;
export const LOGOUT_PATH = '/uams/logout';

/** The spec's fixed headers (accept, HttpOnly, Secure, application id). The server ignores them. */
export const FIXED_HEADERS = {
  Accept: 'application/json, text/plain, */*',
  HttpOnly: 'true',
  Secure: 'true',
  'Application-Id': 'data-service-platform',
} as const;

export const request = axios.create({ baseURL: '/api', timeout: TIMEOUT, headers: { ...FIXED_HEADERS } });

request.interceptors.request.use((config: InternalAxiosRequestConfig) => {
  const token = getToken();
  if (token) config.headers.set('Authorization', `Bearer ${token}`);
  return config;
});

// Only one "session expired" box at a time, however many calls fail together.
let expiredBoxOpen = false;

export function isSessionBoxOpen(): boolean {
  return expiredBoxOpen;
}

/** Where the sign-in page finds why the last session ended (shown once there, then forgotten). */
export const SIGNED_OUT_KEY = 'signedOutReason';

/**
 * The server's reason a session ended when someone else ended it (账号已停用, 已被管理员强制退出 …: the answer carries
 * X-Session-Ended), kept for the sign-in page; null for a plain expiry (the box then says what the spec says).
 */
function rememberWhy(res: AxiosResponse | undefined): string | null {
  const msg = (res?.data as Partial<Envelope> | undefined)?.msg;
  const ended = String(res?.headers?.['x-session-ended'] ?? '') === '1';
  const why = ended && typeof msg === 'string' && msg.trim() ? msg.trim().slice(0, 100) : null;
  try {
    if (why) sessionStorage.setItem(SIGNED_OUT_KEY, why);
  } catch {
    // no session storage (private mode): the box below still says it
  }
  return why;
}

function showSessionExpired(loginUrl: unknown, res?: AxiosResponse): void {
  const why = rememberWhy(res);
  if (expiredBoxOpen) return;
  expiredBoxOpen = true;
  const url = typeof loginUrl === 'string' && loginUrl ? loginUrl : '/login';
  getFeedback().modal.confirm({
    title: t('systemPrompt'),
    content: why ?? t('sessionExpired'),
    okText: t('relogin'),
    cancelText: t('cancel'),
    onOk: () => {
      expiredBoxOpen = false;
      removeToken();
      browser.assign(url);
    },
    onCancel: () => {
      expiredBoxOpen = false;
    },
  });
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly httpStatus?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function isLogout(config: AxiosRequestConfig): boolean {
  return (config.url ?? '').split('?')[0].endsWith(LOGOUT_PATH);
}

function onResponse(response: AxiosResponse): AxiosResponse | Promise<never> {
  const { config } = response;
  // Downloads are judged by download() itself.
  if (config.responseType === 'blob' || config.responseType === 'arraybuffer') return response;
  const body = response.data as Envelope | undefined;
  if (!body || typeof body !== 'object' || typeof body.status !== 'number') return response;
  if (body.status === 2) {
    if (!config.quiet) showSessionExpired(body.data, response);
    else rememberWhy(response);
    return Promise.reject(new ApiError(t('sessionExpired'), 2, response.status));
  }
  if (body.status !== 0) {
    const msg = body.msg || t('serverError');
    if (!config.silent && !config.quiet) getFeedback().message.error(msg);
    return Promise.reject(new ApiError(msg, body.status, response.status));
  }
  if (isLogout(config)) {
    removeToken();
    browser.assign(typeof body.data === 'string' && body.data ? body.data : '/login');
  }
  return response;
}

function onError(error: AxiosError<Partial<Envelope>>): Promise<never> {
  const config: AxiosRequestConfig = error.config ?? {};
  const res = error.response;
  const show = (msg: string) => {
    if (!config.silent && !config.quiet) getFeedback().message.error(msg);
  };
  if (axios.isCancel(error)) return Promise.reject(error);
  if (res?.status === 401 || res?.data?.status === 2) {
    if (!config.quiet) showSessionExpired(res?.data?.data, res);
    else rememberWhy(res);
    return Promise.reject(new ApiError(t('sessionExpired'), 2, res?.status));
  }
  let msg: string | undefined;
  if (res?.status === 404) msg = `${t('apiNotFound')}：${res.statusText || 'Not Found'}`;
  else if (res?.status === 500) msg = t('serverError');
  else if (res && typeof res.data?.msg === 'string' && res.data.msg) msg = res.data.msg;
  else if (error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT' || /timeout/i.test(error.message)) msg = t('timeout');
  // Anything else (network down, aborted) only stops loading indicators: no message.
  if (msg) show(msg);
  return Promise.reject(new ApiError(msg ?? error.message, res?.data?.status, res?.status));
}

request.interceptors.response.use(onResponse, onError);

/** GET path?params → envelope data. */
export async function get<T = unknown>(path: string, params?: Record<string, unknown>, config?: AxiosRequestConfig): Promise<T> {
  const res = await request.get<Envelope<T>>(path, { ...config, params });
  return res.data.data;
}

/** POST path (JSON body) → envelope data. */
export async function post<T = unknown>(path: string, body?: unknown, config?: AxiosRequestConfig): Promise<T> {
  const res = await request.post<Envelope<T>>(path, body, config);
  return res.data.data;
}

/**
 * A declared call, e.g. "POST /gemini/datasource/search" or "GET /gemini/datasource/info/get?id".
 * GET sends the payload as query. POST sends it as JSON body, except names listed after "?"
 * (no "=") which go to the query: "POST /sys/var/delete?id" + {id: 3} → POST /sys/var/delete?id=3.
 */
export async function call<T = unknown>(spec: string, payload?: unknown, config?: AxiosRequestConfig): Promise<T> {
  const m = /^\s*(GET|POST|PUT|DELETE|PATCH)\s+(\S+)\s*$/i.exec(spec);
  if (!m) throw new Error(`调用声明格式错误：${spec}`);
  const method = m[1].toUpperCase();
  const [path, queryPart] = m[2].split('?');
  const names = (queryPart ?? '').split(/[&,]/).filter((n) => n && !n.includes('='));
  const fixed = Object.fromEntries(
    (queryPart ?? '')
      .split('&')
      .filter((p) => p.includes('='))
      .map((p) => p.split('=').map(decodeURIComponent) as [string, string]),
  );
  const isObject = payload !== null && typeof payload === 'object' && !Array.isArray(payload);
  let params: Record<string, unknown> = { ...fixed };
  let data: unknown;
  if (method === 'GET' || method === 'DELETE') {
    params = { ...params, ...(isObject ? (payload as Record<string, unknown>) : {}) };
  } else if (isObject && names.length) {
    const rest: Record<string, unknown> = { ...(payload as Record<string, unknown>) };
    for (const n of names) {
      params[n] = rest[n];
      delete rest[n];
    }
    data = Object.keys(rest).length ? rest : undefined;
  } else {
    data = payload;
  }
  const res = await request.request<Envelope<T>>({ ...config, method, url: path, params, data });
  return res.data.data;
}

/** Multipart upload (FormData) → envelope data; onProgress gets 0..100. */
export async function upload<T = unknown>(path: string, formData: FormData, onProgress?: (percent: number) => void): Promise<T> {
  const res = await request.post<Envelope<T>>(path, formData, {
    timeout: DOWNLOAD_TIMEOUT,
    onUploadProgress: (e) => {
      if (onProgress && e.total) onProgress(Math.round((e.loaded * 100) / e.total));
    },
  });
  return res.data.data;
}

/** Form-encoded POST (the spec's helper). */
export async function postForm<T = unknown>(path: string, body: Record<string, string | number | boolean>): Promise<T> {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(body)) form.append(k, String(v));
  const res = await request.post<Envelope<T>>(path, form, { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
  return res.data.data;
}

/** The caller's name wins; else the server's Content-Disposition name; else "download". */
function filenameFrom(res: AxiosResponse, given?: string): string {
  if (given) return given;
  const cd = String(res.headers['content-disposition'] ?? '');
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(cd);
  if (star) return decodeURIComponent(star[1].trim().replace(/"/g, ''));
  const plain = /filename="?([^";]+)"?/i.exec(cd);
  return plain ? decodeURIComponent(plain[1]) : 'download';
}

/** Saves a blob through a temporary link (kept separate so tests can watch it). */
export const saver = {
  save(blob: Blob, filename: string): void {
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = filename;
    document.body.appendChild(a);
    a.click();
    a.remove();
    URL.revokeObjectURL(url);
  },
};

// Blob.text() is missing in some environments (older jsdom); FileReader is everywhere.
function blobText(blob: Blob): Promise<string> {
  if (typeof blob.text === 'function') return blob.text();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

/**
 * GET a file and save it. Shows a loading text meanwhile. A blob that is really JSON is an
 * envelope: its msg is shown as success (status 0) or error. Any failure shows the download error.
 * Resolves true when a file was saved. GET by default; pass { method: 'POST', body } for exports
 * that take a query body.
 */
export async function download(
  path: string,
  params?: Record<string, unknown>,
  filename?: string,
  options: { method?: 'GET' | 'POST'; body?: unknown } = {},
): Promise<boolean> {
  const fb = getFeedback();
  const hide = fb.message.loading('正在下载数据，请稍候', 0);
  try {
    const res = await request.request<Blob>({
      method: options.method ?? 'GET',
      url: path,
      params,
      data: options.body,
      responseType: 'blob',
      timeout: DOWNLOAD_TIMEOUT,
      silent: true,
    });
    const blob = res.data;
    // a JSON answer is the envelope of a refusal, unless the server sends it as a file (an export in JSON)
    const attached = /^\s*attachment/i.test(String(res.headers?.['content-disposition'] ?? ''));
    if (blob.type.includes('application/json') && !attached) {
      const body = JSON.parse(await blobText(blob)) as Envelope;
      if (body.status === 0) fb.message.success(body.msg || '操作成功');
      else fb.message.error(body.msg || t('downloadError'));
      return false;
    }
    saver.save(blob, filenameFrom(res, filename));
    return true;
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 2)) fb.message.error(t('downloadError'));
    return false;
  } finally {
    if (typeof hide === 'function') hide();
  }
}
