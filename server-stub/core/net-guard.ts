// Outgoing HTTP(S) to addresses given by users (API queries; later the API platform): which addresses may be
// reached, and a request that connects only to an address it has checked.
//
// Addresses are compared as addresses (ipaddr.js), never as strings: every spelling the URL parser accepts
// (decimal 2852039166, octal, hex, short forms like 169.254.43518, IPv4-mapped IPv6 [::ffff:a9fe:a9fe], …)
// ends up as the same address, and IPv6 forms that carry an IPv4 address (mapped, translated, NAT64, 6to4,
// Teredo, IPv4-compatible) are judged by that IPv4 address too. Names are resolved first and every address
// they resolve to is judged; the connection then goes to an address from that same lookup (the lookup
// function is the socket's own), so a name cannot resolve to something else between check and connect.
//
// Refused always: unspecified (0.0.0.0/8, ::), link-local (169.254.0.0/16, fe80::/10, where cloud metadata
// lives), multicast and broadcast, the known metadata names and addresses of the big clouds. Loopback and
// private ranges are allowed by default (an intranet console calls intranet APIs); a policy can refuse them.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export const NET_MSG = {
  refused: '不允许访问该地址',
  scheme: 'API接口须以 http:// 或 https:// 开头',
  credentials: 'API接口地址中不能包含账号或密码',
  badUrl: 'API接口地址不合法',
  unresolved: '接口调用失败：无法解析域名',
  tooManyRedirects: '接口调用失败：重定向次数过多',
  timeout: '接口调用失败：请求超时',
  unreachable: '接口调用失败：无法连接',
} as const;

export class NetGuardError extends Error {
  constructor(
    message: string,
    /** why, for logs and tests (never shown to users as is) */
    readonly reason: string,
  ) {
    super(message);
    this.name = 'NetGuardError';
  }
}

export interface NetPolicy {
  /** 127.0.0.0/8 and ::1; default true */
  allowLoopback?: boolean;
  /** RFC 1918, CGNAT 100.64/10, unique-local fc00::/7 (and other non-global ranges); default true */
  allowPrivate?: boolean;
}

/** Host names of cloud metadata services (compared without trailing dots, case-insensitively). */
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.azure.internal',
]);

/** Metadata addresses outside link-local: Alibaba Cloud, Azure WireServer, AWS IPv6 IMDS. */
const METADATA_ADDRESSES = ['100.100.100.200', '168.63.129.16', 'fd00:ec2::254'].map((a) => ipaddr.parse(a).toNormalizedString());

const ALWAYS_REFUSED_V4 = new Set(['unspecified', 'linkLocal', 'multicast', 'broadcast']);
const ALWAYS_REFUSED_V6 = new Set(['unspecified', 'linkLocal', 'multicast']);

/** The IPv4 address an IPv6 address carries (mapped, translated, NAT64, 6to4, Teredo, compatible), if any. */
function embeddedV4(a: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const b = a.toByteArray();
  const v4 = (bytes: number[]) => new ipaddr.IPv4(bytes);
  switch (a.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
    case 'rfc6052': // 64:ff9b::a.b.c.d
      return v4(b.slice(12, 16));
    case '6to4': // 2002:aabb:ccdd::
      return v4(b.slice(2, 6));
    case 'teredo': // 2001:0:server:flags:port:~client
      return v4(b.slice(12, 16).map((x) => x ^ 0xff));
    default:
      // IPv4-compatible ::a.b.c.d (deprecated, still routed by some stacks); not :: and ::1
      if (b.slice(0, 12).every((x) => x === 0) && (b[12] | b[13]) !== 0) return v4(b.slice(12, 16));
      return undefined;
  }
}

function judgeV4(a: ipaddr.IPv4, policy: NetPolicy): string | undefined {
  const range = a.range();
  if (ALWAYS_REFUSED_V4.has(range)) return `${a.toString()} (${range})`;
  if (METADATA_ADDRESSES.includes(a.toString())) return `${a.toString()} (metadata)`;
  if (range === 'loopback') return policy.allowLoopback === false ? `${a.toString()} (loopback)` : undefined;
  if (range !== 'unicast' && policy.allowPrivate === false) return `${a.toString()} (${range})`;
  return undefined;
}

/** Why an address is refused under the policy, or undefined when it may be reached. Unparsable → refused. */
export function addressProblem(address: string, policy: NetPolicy = {}): string | undefined {
  const text = String(address).replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(text)) return `${text} (not an address)`;
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv4') return judgeV4(parsed as ipaddr.IPv4, policy);
  const a = parsed as ipaddr.IPv6;
  if (a.zoneId) return `${text} (zone)`;
  const inner = embeddedV4(a);
  if (inner) {
    const p = judgeV4(inner, policy);
    if (p) return `${text} → ${p}`;
  }
  const range = a.range();
  if (ALWAYS_REFUSED_V6.has(range)) return `${text} (${range})`;
  if (METADATA_ADDRESSES.includes(a.toNormalizedString())) return `${text} (metadata)`;
  if (range === 'loopback') return policy.allowLoopback === false ? `${text} (loopback)` : undefined;
  if (!inner && range !== 'unicast' && policy.allowPrivate === false) return `${text} (${range})`;
  return undefined;
}

/** Throws NetGuardError when the address may not be reached. */
export function checkAddress(address: string, policy: NetPolicy = {}): void {
  const problem = addressProblem(address, policy);
  if (problem) throw new NetGuardError(NET_MSG.refused, problem);
}

/** A URL host as compared: brackets off, lower case, trailing dots off. */
export function normalizeHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.+$/, '');
}

/**
 * Parses and checks a URL before any connection: http(s) only, no credentials, no metadata name, and an
 * address literal (in any spelling the URL parser accepts) judged as an address.
 */
export function checkUrl(raw: string | URL, policy: NetPolicy = {}): URL {
  let u: URL;
  try {
    u = new URL(String(raw));
  } catch {
    throw new NetGuardError(NET_MSG.badUrl, 'unparsable URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new NetGuardError(NET_MSG.scheme, `scheme ${u.protocol}`);
  if (u.username || u.password) throw new NetGuardError(NET_MSG.credentials, 'credentials in URL');
  const host = normalizeHost(u.hostname);
  if (!host) throw new NetGuardError(NET_MSG.badUrl, 'empty host');
  if (METADATA_NAMES.has(host)) throw new NetGuardError(NET_MSG.refused, `${host} (metadata name)`);
  if (ipaddr.isValid(host)) checkAddress(host, policy);
  return u;
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name (or takes an address literal) and checks every address; refuses if any is refused. */
export async function resolveChecked(hostname: string, policy: NetPolicy = {}): Promise<ResolvedAddress[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (METADATA_NAMES.has(normalizeHost(host))) throw new NetGuardError(NET_MSG.refused, `${host} (metadata name)`);
  if (ipaddr.isValid(host)) {
    checkAddress(host, policy);
    // in its canonical form: a socket takes 127.0.0.1, not the short or numeric spellings (127.1, 2130706433)
    const parsed = ipaddr.parse(host);
    return [{ address: parsed.toString(), family: parsed.kind() === 'ipv6' ? 6 : 4 }];
  }
  let found: ResolvedAddress[];
  try {
    found = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch (err) {
    throw new NetGuardError(NET_MSG.unresolved, `lookup ${host}: ${(err as NodeJS.ErrnoException)?.code ?? 'failed'}`);
  }
  if (!found.length) throw new NetGuardError(NET_MSG.unresolved, `lookup ${host}: no address`);
  for (const a of found) {
    const problem = addressProblem(a.address, policy);
    if (problem) throw new NetGuardError(NET_MSG.refused, `${host} → ${problem}`);
  }
  return found;
}

/**
 * A `lookup` for sockets (http(s).request, net.connect): resolves through resolveChecked, so the socket
 * connects only to an address that was checked in this very lookup. judge: a further check of what the name
 * resolved to (throws to refuse).
 */
export function guardedLookup(policy: NetPolicy = {}, judge?: (host: string, found: ResolvedAddress[]) => Promise<void> | void): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions | number | undefined, callback: (...args: any[]) => void) => {
    const opts: dns.LookupOptions = typeof options === 'number' ? { family: options } : (options ?? {});
    const answer = (all: ResolvedAddress[]) => {
      const family = opts.family === 'IPv4' ? 4 : opts.family === 'IPv6' ? 6 : Number(opts.family) || 0;
      const fit = family ? all.filter((a) => a.family === family) : all;
      if (!fit.length) {
        const err = Object.assign(new Error(`no IPv${family} address for ${hostname}`), { code: 'ENOTFOUND' });
        return callback(err, opts.all ? [] : undefined);
      }
      if (opts.all) callback(null, fit);
      else callback(null, fit[0].address, fit[0].family);
    };
    resolveChecked(hostname, policy)
      .then(async (all) => {
        await judge?.(hostname, all);
        return all;
      })
      .then(answer, (err) => callback(err, opts.all ? [] : undefined));
  }) as LookupFunction;
}

export interface GuardedRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** whole call, redirects included; default 30 s */
  timeoutMs?: number;
  /** body bytes read at most; the rest is not read (truncated: true); default 1 MB */
  maxBytes?: number;
  /** redirects followed at most, each hop checked like the first; default 5 */
  maxRedirects?: number;
  policy?: NetPolicy;
}

export interface GuardedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
  /** the URL that answered (after redirects) */
  url: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * One HTTP(S) call to a user-given URL: every hop checked (URL, then the addresses its name resolves to,
 * connecting only to those), redirects followed by hand, the body read up to maxBytes, one deadline for all.
 * Throws NetGuardError (Chinese message) for every refusal and failure.
 */
export async function guardedRequest(url: string | URL, opts: GuardedRequestOptions = {}): Promise<GuardedResponse> {
  const policy = opts.policy ?? {};
  const maxBytes = opts.maxBytes ?? 1_000_000;
  const maxRedirects = opts.maxRedirects ?? 5;
  const signal = AbortSignal.timeout(opts.timeoutMs ?? 30_000);
  let method = (opts.method ?? 'GET').toUpperCase();
  let body = opts.body;
  let headers: Record<string, string> = { ...(opts.headers ?? {}) };
  let current = checkUrl(url, policy);
  for (let hop = 0; ; hop++) {
    const res = await send(current, method, headers, body, policy, signal);
    const location = res.headers.location;
    if (REDIRECTS.has(res.statusCode ?? 0) && location) {
      res.destroy();
      if (hop >= maxRedirects) throw new NetGuardError(NET_MSG.tooManyRedirects, `more than ${maxRedirects} redirects`);
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        throw new NetGuardError(NET_MSG.badUrl, 'unparsable redirect');
      }
      current = checkUrl(next, policy);
      if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')) {
        // as browsers do: the next hop is a GET without the body
        method = 'GET';
        body = undefined;
        headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !/^content-(type|length)$/i.test(k)));
      }
      continue;
    }
    const { data, truncated } = await readCapped(res, maxBytes, signal);
    return { status: res.statusCode ?? 0, headers: res.headers, body: data, truncated, url: current.toString() };
  }
}

function failure(err: unknown, signal: AbortSignal): NetGuardError {
  if (err instanceof NetGuardError) return err;
  if (signal.aborted) return new NetGuardError(NET_MSG.timeout, 'timeout');
  const e = err as NodeJS.ErrnoException;
  return new NetGuardError(NET_MSG.unreachable, e?.code ?? e?.message ?? 'failed');
}

function send(u: URL, method: string, headers: Record<string, string>, body: string | Buffer | undefined, policy: NetPolicy, signal: AbortSignal): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    try {
      const lib = u.protocol === 'https:' ? https : http;
      const req = lib.request(
        {
          protocol: u.protocol,
          hostname: u.hostname.replace(/^\[|\]$/g, ''),
          port: u.port || undefined,
          path: `${u.pathname}${u.search}`,
          method,
          headers: { 'accept-encoding': 'identity', ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) },
          lookup: guardedLookup(policy),
          agent: false, // no pooled socket from an unchecked connection
          signal,
        },
        resolve,
      );
      req.on('error', (err) => reject(failure(err, signal)));
      req.end(body);
    } catch (err) {
      reject(failure(err, signal));
    }
  });
}

function readCapped(res: http.IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<{ data: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (truncated: boolean) => {
      if (done) return;
      done = true;
      resolve({ data: Buffer.concat(chunks), truncated });
    };
    res.on('data', (chunk: Buffer) => {
      if (done) return;
      const room = maxBytes - size;
      if (chunk.length > room) {
        if (room > 0) chunks.push(chunk.subarray(0, room));
        size = maxBytes;
        finish(true);
        res.destroy(); // stop reading: the rest is never buffered
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    res.on('end', () => finish(false));
    res.on('error', (err) => {
      if (!done) {
        done = true;
        reject(failure(err, signal));
      }
    });
    res.on('close', () => {
      if (!done) {
        done = true;
        reject(failure(new Error('connection closed'), signal));
      }
    });
  });
}
