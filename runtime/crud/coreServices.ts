// Binds the renderer to the app's request layer, dictionaries and permissions. Where custom pages come from is the
// app's to say: it hands CrudPage a `loadPage` (runtime/pages/customPage.ts).
import { download, get, post, request, upload, type Envelope } from '../core/request';
import { useDicts } from '../core/dicts';
import { hasPermission } from '../core/permission';
import type { CallOptions, CrudServices, DictItem } from './services';

function withQuery(path: string, params?: Record<string, unknown>): string {
  if (!params) return path;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) v.forEach((x) => q.append(k, String(x)));
    else q.append(k, String(v));
  }
  const s = q.toString();
  return s ? `${path}${path.includes('?') ? '&' : '?'}${s}` : path;
}

export const coreServices: CrudServices = {
  request<T>(method: 'GET' | 'POST', path: string, opts: CallOptions = {}) {
    const config = opts.timeoutMs || opts.silent ? { ...(opts.timeoutMs ? { timeout: opts.timeoutMs } : {}), ...(opts.silent ? { silent: true } : {}) } : undefined;
    // POST calls such as /remote/ftp/delete?id carry their parameters in the query string
    return method === 'GET' ? get<T>(path, opts.params, config) : post<T>(withQuery(path, opts.params), opts.body, config);
  },
  async requestAnswer<T>(method: 'GET' | 'POST', path: string, opts: CallOptions = {}) {
    // the same rules of the request layer (errors, session box); the message is read from the envelope
    const res = await request.request<Envelope<T>>({
      method,
      url: method === 'GET' ? path : withQuery(path, opts.params),
      params: method === 'GET' ? opts.params : undefined,
      data: method === 'GET' ? undefined : opts.body,
      ...(opts.timeoutMs ? { timeout: opts.timeoutMs } : {}),
    });
    return { data: res.data.data, msg: typeof res.data.msg === 'string' ? res.data.msg : '' };
  },
  upload<T>(path: string, form: FormData, onProgress?: (percent: number) => void) {
    return upload<T>(path, form, onProgress);
  },
  useDict(type: string | undefined): DictItem[] {
    // no type → no lookup (useDicts skips an empty list)
    const { dicts } = useDicts(type ? [type] : []);
    return (type ? (dicts[type] ?? []) : []) as DictItem[];
  },
  hasPermission,
  async fetchBlob(path, params) {
    // silent: a list of pictures never says why one is missing (the cell shows its placeholder)
    const res = await request.get<Blob>(path, { params, responseType: 'blob', silent: true });
    if (res.data.type.includes('json')) throw new Error('not a file');
    return res.data;
  },
  download(method, path, params) {
    // a POST export takes the list's query as its JSON body (arrays such as groupIds stay arrays)
    return method === 'POST' ? download(path, undefined, undefined, { method, body: params ?? {} }) : download(path, params, undefined, { method });
  },
};
