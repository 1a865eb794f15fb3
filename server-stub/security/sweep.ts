// Helpers of the security sweeps: every route from Fastify's own table, sent over raw HTTP so that a
// path goes out exactly as spelled (fetch would normalise dot segments and slashes).
import http from 'node:http';
import type { RouteEntry } from '../core/auth.js';

export interface RawAnswer {
  http: number;
  body: any;
  text: string;
}

/** One request with the path sent byte for byte as given. */
export function rawRequest(base: string, method: string, path: string, opts: { body?: string | Buffer; token?: string; headers?: Record<string, string>; timeoutMs?: number; localAddress?: string } = {}): Promise<RawAnswer> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      headers['content-length'] = Buffer.byteLength(opts.body);
    }
    const req = http.request({ host: u.hostname, port: u.port, method, path, headers, timeout: opts.timeoutMs ?? 30_000, localAddress: opts.localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: any = null;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ http: res.statusCode ?? 0, body, text });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`timeout: ${method} ${path}`)));
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

/** A concrete path for a route: `:param` and `*` filled with harmless values. */
export function concrete(url: string): string {
  return url.replace(/:[A-Za-z_]+/g, 'x').replace(/\*/g, 'x');
}

/** The same path spelled the ways lenient routers, proxies and file servers read alike. */
export function spellings(path: string): string[] {
  const segs = path.split('/').filter(Boolean);
  const enc = (s: string, i = 0) => s.slice(0, i) + `%${s.charCodeAt(i).toString(16)}` + s.slice(i + 1);
  const join = (xs: string[]) => `/${xs.join('/')}`;
  const withSeg = (i: number, f: (s: string) => string) => join(segs.map((s, j) => (j === i ? f(s) : s)));
  const last = segs.length - 1;
  return [
    path,
    withSeg(0, (s) => enc(s, 0)), // /%61pi/...
    withSeg(0, (s) => enc(s, s.length - 1)), // /ap%69/...
    withSeg(0, (s) => enc(s, 0).toUpperCase()), // /%61PI/...
    withSeg(0, (s) => `%25${s.charCodeAt(0).toString(16)}${s.slice(1)}`), // double encoding
    withSeg(1, (s) => enc(s, 0)),
    withSeg(last, (s) => enc(s, 0)),
    `/${path}`, // //api/...
    join(segs).replace(`/${segs[0]}/`, `/${segs[0]}//`), // /api//x
    join([segs[0], '.', ...segs.slice(1)]), // /api/./x
    join([segs[0], 'zz', '..', ...segs.slice(1)]), // /api/zz/../x
    join([segs[0], '%2e', ...segs.slice(1)]),
    join([segs[0], 'zz', '%2e%2e', ...segs.slice(1)]),
    path.toUpperCase(),
    withSeg(0, (s) => s[0].toUpperCase() + s.slice(1)),
    `${path}/`,
    `${path};jsessionid=1`,
    withSeg(0, (s) => `${s};x=1`),
    `${path}?`,
    `${path}#frag`,
    path.replace(/\//g, '\\'),
    `${path}%20`,
    `${path}%00`,
  ];
}

export function routesOf(table: RouteEntry[], filter: (r: RouteEntry) => boolean = () => true): RouteEntry[] {
  const seen = new Set<string>();
  return table.filter((r) => {
    const k = `${r.method} ${r.url}`;
    if (seen.has(k) || !filter(r)) return false;
    seen.add(k);
    return true;
  });
}
