// One test per rule of the error catalogue (spec part 1 §8). A fake axios adapter stands in for
// the network so each case controls the exact response; the interceptors under test are the real ones.
import { AxiosError, AxiosHeaders, type AxiosAdapter, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from './browser';
import { setFeedback } from './feedback';
import { call, download, get, post, request, saver, FIXED_HEADERS, isSessionBoxOpen, SIGNED_OUT_KEY } from './request';
import { logout } from './session';
import { getToken, setToken } from './token';
import { loadChunk } from './chunk';

type Reply = { status?: number; statusText?: string; data?: unknown; headers?: Record<string, string> };
let seen: InternalAxiosRequestConfig[] = [];

function respond(reply: Reply | ((c: InternalAxiosRequestConfig) => Reply | Promise<Reply>)): AxiosAdapter {
  return async (config) => {
    seen.push(config);
    const r = typeof reply === 'function' ? await reply(config) : reply;
    const res: AxiosResponse = {
      data: r.data,
      status: r.status ?? 200,
      statusText: r.statusText ?? 'OK',
      headers: new AxiosHeaders(r.headers ?? {}),
      config,
      request: {},
    };
    if (res.status >= 400) throw new AxiosError(`Request failed with status code ${res.status}`, 'ERR_BAD_RESPONSE', config, {}, res);
    return res;
  };
}

const fb = {
  error: vi.fn(),
  success: vi.fn(),
  warning: vi.fn(),
  info: vi.fn(),
  loading: vi.fn(() => () => {}),
};
let confirms: Array<{ title?: unknown; content?: unknown; okText?: unknown; cancelText?: unknown; onOk?: () => void; onCancel?: () => void }> = [];

beforeEach(() => {
  seen = [];
  confirms = [];
  Object.values(fb).forEach((f) => f.mockClear());
  setFeedback({ message: fb as never, modal: { confirm: (p) => confirms.push(p as never) } });
  vi.spyOn(browser, 'assign').mockImplementation(() => {});
  vi.spyOn(browser, 'currentAddress').mockReturnValue('/data/model?x=1');
  localStorage.clear();
});
afterEach(() => {
  vi.restoreAllMocks();
  // close any box a test left open
  confirms.forEach((c) => c.onCancel?.());
});

describe('request layer', () => {
  it('sends base /api, 120 s timeout, the bearer token and the fixed headers; resolves to data', async () => {
    setToken('tok-1');
    request.defaults.adapter = respond({ data: { status: 0, msg: '', data: { a: 1 } } });
    await expect(get('/uams/session/find', { q: 1 })).resolves.toEqual({ a: 1 });
    const c = seen[0];
    expect(c.baseURL).toBe('/api');
    expect(c.timeout).toBe(120_000);
    expect(c.params).toEqual({ q: 1 });
    expect(c.headers.get('Authorization')).toBe('Bearer tok-1');
    for (const [k, v] of Object.entries(FIXED_HEADERS)) expect(c.headers.get(k)).toBe(v);
  });

  it('status 2 → exactly one session-expired box, however many calls fail together; re-login goes to data', async () => {
    request.defaults.adapter = respond({ data: { status: 2, msg: '未登录', data: '/login' } });
    const results = await Promise.allSettled([get('/a'), get('/b'), post('/c')]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(confirms).toHaveLength(1);
    expect(confirms[0]).toMatchObject({
      title: '系统提示',
      content: '登录状态已过期，您可以继续留在该页面，或者重新登录',
      okText: '重新登录',
      cancelText: '取消',
    });
    expect(isSessionBoxOpen()).toBe(true);
    setToken('old');
    confirms[0].onOk?.();
    expect(browser.assign).toHaveBeenCalledWith('/login');
    expect(getToken()).toBeNull();
    expect(isSessionBoxOpen()).toBe(false);
  });

  it('a session ended by an administrator: the box says why, and the sign-in page finds it', async () => {
    sessionStorage.removeItem(SIGNED_OUT_KEY);
    request.defaults.adapter = respond({ status: 401, statusText: 'Unauthorized', headers: { 'x-session-ended': '1' }, data: { status: 2, msg: '已被管理员强制退出，请重新登录', data: '/login' } });
    await get('/a').catch(() => {});
    expect(confirms[0]).toMatchObject({ content: '已被管理员强制退出，请重新登录' });
    expect(sessionStorage.getItem(SIGNED_OUT_KEY)).toBe('已被管理员强制退出，请重新登录');
    confirms[0].onCancel?.();
    // a plain expiry keeps the spec's words and leaves nothing for the sign-in page
    sessionStorage.removeItem(SIGNED_OUT_KEY);
    request.defaults.adapter = respond({ status: 401, statusText: 'Unauthorized', data: { status: 2, msg: '登录状态已过期，请重新登录', data: '/login' } });
    await get('/b').catch(() => {});
    expect(confirms[1]).toMatchObject({ content: '登录状态已过期，您可以继续留在该页面，或者重新登录' });
    expect(sessionStorage.getItem(SIGNED_OUT_KEY)).toBeNull();
    confirms[1].onCancel?.();
  });

  it('HTTP 401 → the same single box; after cancel a new failure may show it again', async () => {
    request.defaults.adapter = respond({ status: 401, statusText: 'Unauthorized', data: { status: 2, msg: '', data: '/login' } });
    await Promise.allSettled([get('/a'), get('/b'), get('/c')]);
    expect(confirms).toHaveLength(1);
    confirms[0].onCancel?.();
    await get('/d').catch(() => {});
    expect(confirms).toHaveLength(2);
    expect(fb.error).not.toHaveBeenCalled();
  });

  it('the logout response sends the browser to the URL in data', async () => {
    setToken('tok');
    request.defaults.adapter = respond({ data: { status: 0, msg: '', data: '/login' } });
    await expect(logout()).resolves.toBe('/login');
    expect(browser.assign).toHaveBeenCalledWith('/login');
    expect(getToken()).toBeNull();
  });

  it('a failed logout goes to the login page with a redirect back to the current address', async () => {
    setToken('tok');
    request.defaults.adapter = respond({ status: 500, data: { status: 1, msg: 'x', data: null } });
    const url = await logout();
    expect(url).toBe('/login?redirect=%2Fdata%2Fmodel%3Fx%3D1');
    expect(browser.assign).toHaveBeenCalledWith(url);
    expect(confirms).toHaveLength(0);
  });

  it('non-zero status → msg shown as an error and the promise rejects with it', async () => {
    request.defaults.adapter = respond({ data: { status: 1, msg: '账号或密码错误', data: null } });
    await expect(post('/uams/login', {})).rejects.toThrow('账号或密码错误');
    expect(fb.error).toHaveBeenCalledWith('账号或密码错误');
  });

  it('HTTP 404 → 接口不存在 plus the status text', async () => {
    request.defaults.adapter = respond({ status: 404, statusText: 'Not Found', data: 'nope' });
    await expect(get('/missing')).rejects.toThrow();
    expect(fb.error).toHaveBeenCalledWith('接口不存在：Not Found');
  });

  it('HTTP 500 → 服务器异常', async () => {
    request.defaults.adapter = respond({ status: 500, statusText: 'Internal Server Error', data: { status: 1, msg: 'boom' } });
    await expect(get('/x')).rejects.toThrow();
    expect(fb.error).toHaveBeenCalledWith('服务器异常');
  });

  it('other HTTP errors with a body show its msg', async () => {
    request.defaults.adapter = respond({ status: 400, statusText: 'Bad Request', data: { status: 1, msg: '名称不能为空' } });
    await expect(post('/x', {})).rejects.toThrow('名称不能为空');
    expect(fb.error).toHaveBeenCalledWith('名称不能为空');
  });

  it('timeout → 服务器请求超时', async () => {
    request.defaults.adapter = async (config) => {
      throw new AxiosError('timeout of 120000ms exceeded', 'ECONNABORTED', config);
    };
    await expect(get('/slow')).rejects.toThrow('服务器请求超时');
    expect(fb.error).toHaveBeenCalledWith('服务器请求超时');
  });

  it('a network failure only rejects (no message)', async () => {
    request.defaults.adapter = async (config) => {
      throw new AxiosError('Network Error', 'ERR_NETWORK', config);
    };
    await expect(get('/down')).rejects.toThrow();
    expect(fb.error).not.toHaveBeenCalled();
  });

  it('download: saves the blob with a 300 s timeout and the server file name', async () => {
    const save = vi.spyOn(saver, 'save').mockImplementation(() => {});
    request.defaults.adapter = respond({
      data: new Blob(['a,b\n1,2'], { type: 'text/csv' }),
      headers: { 'content-disposition': "attachment; filename*=UTF-8''%E6%95%B0%E6%8D%AE.csv" },
    });
    await expect(download('/export', { id: 1 })).resolves.toBe(true);
    expect(seen[0].timeout).toBe(300_000);
    expect(seen[0].responseType).toBe('blob');
    expect(save.mock.calls[0][1]).toBe('数据.csv');
    expect(fb.loading).toHaveBeenCalled();
    await download('/export', undefined, 'x.csv', { method: 'POST', body: { search: 'a' } });
    expect(seen[1]).toMatchObject({ method: 'post', url: '/export' });
    expect(save.mock.calls[1][1]).toBe('x.csv');
  });

  it('download failure → 下载文件出现错误，请联系管理员！', async () => {
    request.defaults.adapter = respond({ status: 500, data: new Blob(['x']) });
    await expect(download('/export')).resolves.toBe(false);
    expect(fb.error).toHaveBeenCalledWith('下载文件出现错误，请联系管理员！');
    expect(fb.error).toHaveBeenCalledTimes(1);
  });

  it('a downloaded blob that is really JSON shows its msg as success or error', async () => {
    const save = vi.spyOn(saver, 'save').mockImplementation(() => {});
    const json = (body: unknown) => new Blob([JSON.stringify(body)], { type: 'application/json' });
    request.defaults.adapter = respond({ data: json({ status: 1, msg: '没有可导出的数据', data: null }) });
    await download('/export');
    expect(fb.error).toHaveBeenCalledWith('没有可导出的数据');
    request.defaults.adapter = respond({ data: json({ status: 0, msg: '已提交导出任务', data: null }) });
    await download('/export');
    expect(fb.success).toHaveBeenCalledWith('已提交导出任务');
    expect(save).not.toHaveBeenCalled();
  });

  it('call(): GET sends the payload as query; POST sends body and pulls "?names" into the query', async () => {
    request.defaults.adapter = respond({ data: { status: 0, msg: '', data: 'ok' } });
    await call('GET /gemini/datasource/info/get?id', { id: 7 });
    expect(seen[0]).toMatchObject({ method: 'get', url: '/gemini/datasource/info/get', params: { id: 7 } });
    await call('POST /sys/var/delete?id', { id: 3 });
    expect(seen[1]).toMatchObject({ method: 'post', url: '/sys/var/delete', params: { id: 3 } });
    expect(seen[1].data).toBeUndefined();
    await call('POST /gemini/datasource/search', { pageNum: 1, pageSize: 10 });
    expect(JSON.parse(seen[2].data as string)).toEqual({ pageNum: 1, pageSize: 10 });
    await expect(call('bad spec')).rejects.toThrow('调用声明格式错误');
  });

  it('a failed lazy chunk is reported as ChunkLoadError; a slow one times out the same way', async () => {
    await expect(loadChunk(() => Promise.reject(new Error('Failed to fetch dynamically imported module')))).rejects.toMatchObject({
      name: 'ChunkLoadError',
    });
    await expect(loadChunk(() => new Promise(() => {}), 20)).rejects.toMatchObject({ name: 'ChunkLoadError' });
    await expect(loadChunk(() => Promise.resolve(5))).resolves.toBe(5);
  });
});
