// Where a connector (SQL data source, FTP, SSH) may connect, judged before it does:
//  - a host name or an IP address, nothing else: no Unix socket path ("/var/run/postgresql" would reach
//    the local database server as a local user), no spaces, no URL;
//  - every address it resolves to passes core/net-guard (no link-local, cloud metadata, multicast…);
//    loopback and private ranges stay allowed, an intranet console connects to intranet databases;
//  - for SQL, not a database the platform keeps itself in (its PostgreSQL store): a data source there
//    would read every account, session and key of the console.
//  - and every connection a driver makes judges the addresses again in its own lookup (targetLookup), so a
//    name cannot pass the check and then resolve elsewhere when the driver connects (DNS rebinding).
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { NET_MSG, NetGuardError, guardedLookup, resolveChecked } from '../core/net-guard.js';

export const TARGET_MSG = {
  badHost: '地址只能是主机名或 IP 地址',
  refused: '不允许连接该地址',
  unresolved: '无法解析该地址',
  platformStore: '不能把平台自身的数据库登记为数据源',
} as const;

export class TargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetError';
  }
}

/** A database the platform itself uses (host, port, database name). */
export interface ReservedDatabase {
  host: string;
  port: number;
  database: string;
}

export interface TargetPolicy {
  reserved?: ReservedDatabase[];
}

/** Host names and IPv4 / IPv6 literals (with or without brackets); no '/', ':' only in IPv6. */
const HOST = /^(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?$/;

export function hostProblem(host: string): boolean {
  const h = host.trim().replace(/^\[|\]$/g, '');
  return !(HOST.test(h) || (h.includes(':') && ipaddr.IPv6.isValid(h)));
}

/** A NetGuardError from a lookup, told as the connectors tell it. */
const asTargetError = (err: unknown) => (err instanceof NetGuardError ? new TargetError(err.message === NET_MSG.refused ? TARGET_MSG.refused : TARGET_MSG.unresolved) : err);

async function addressesOf(host: string, lenient = false): Promise<string[]> {
  try {
    return (await resolveChecked(host.trim())).map((a) => normalize(a.address));
  } catch (err) {
    if (!(err instanceof NetGuardError)) throw err;
    const refused = err.message === NET_MSG.refused;
    if (!refused && lenient) return [];
    throw asTargetError(err);
  }
}

function normalize(address: string): string {
  try {
    const a = ipaddr.process(address.replace(/^\[|\]$/g, ''));
    // every loopback address is one place: 127.0.0.1, ::1, localhost
    return a.range() === 'loopback' ? 'loopback' : a.toNormalizedString();
  } catch {
    return address;
  }
}

type SqlTarget = { port?: number | null; database?: string | null };

/** True when addresses (normalized) reach a database the platform keeps itself in, at target's port and name. */
async function reservedHit(mine: string[], target: SqlTarget, policy: TargetPolicy): Promise<boolean> {
  for (const r of policy.reserved ?? []) {
    if (Number(target.port) !== r.port || String(target.database ?? '') !== r.database) continue;
    const theirs = await addressesOf(r.host).catch(() => [normalize(r.host)]);
    if (mine.some((a) => theirs.includes(a))) return true;
  }
  return false;
}

/**
 * Throws TargetError when host (and, for SQL, port + database) may not be connected to. lenient: a name that
 * does not resolve (yet) passes, for saving a record whose server is not reachable from here today; the
 * connection itself is judged again, strictly, when it is made.
 */
export async function checkTarget(target: { host?: string | null } & SqlTarget, policy: TargetPolicy = {}, lenient = false): Promise<void> {
  const host = String(target.host ?? '').trim();
  if (!host || hostProblem(host)) throw new TargetError(TARGET_MSG.badHost);
  if (await reservedHit(await addressesOf(host, lenient), target, policy)) throw new TargetError(TARGET_MSG.platformStore);
}

/**
 * The addresses to connect to for host, judged as checkTarget judges them, in the resolver's order, for
 * connectors that take an address (the FTP test connects to these, so the name cannot resolve elsewhere
 * between the check and the connection).
 */
export async function checkedAddresses(host: string | null | undefined): Promise<string[]> {
  const h = bareHost(host ?? '');
  if (!h || hostProblem(h)) throw new TargetError(TARGET_MSG.badHost);
  try {
    return (await resolveChecked(h)).map((a) => a.address);
  } catch (err) {
    throw asTargetError(err);
  }
}

/**
 * The lookup a driver's sockets use: the name is resolved and judged as checkTarget judges it, in the lookup
 * whose answer the socket connects to. (An address literal is not looked up; checkTarget judged it for good.)
 */
export function targetLookup(target: SqlTarget, policy: TargetPolicy = {}): LookupFunction {
  const inner = guardedLookup({}, async (_host, found) => {
    if (await reservedHit(found.map((a) => normalize(a.address)), target, policy)) throw new TargetError(TARGET_MSG.platformStore);
  });
  return ((hostname: string, options: unknown, callback: (err: unknown, ...rest: unknown[]) => void) =>
    (inner as (...a: unknown[]) => void)(hostname, options, (err: unknown, ...rest: unknown[]) => callback(err ? asTargetError(err) : null, ...rest))) as LookupFunction;
}

/** A host as a socket takes it: an IPv6 literal without its brackets ([::1] → ::1), never sent as a TLS name. */
export function bareHost(host: string | null | undefined): string {
  return String(host ?? '127.0.0.1').trim().replace(/^\[|\]$/g, '');
}

/**
 * A socket whose connect(port, host) goes through targetLookup (for drivers that call connect themselves); every
 * address the name has is tried in turn, as a plain connect would.
 */
export function targetSocket(target: SqlTarget, policy: TargetPolicy = {}): net.Socket {
  const socket = new net.Socket();
  const lookup = targetLookup(target, policy);
  const connect = socket.connect.bind(socket) as (o: net.TcpSocketConnectOpts) => net.Socket;
  socket.connect = ((port: number, host?: string) => connect({ port, host: bareHost(host), lookup, autoSelectFamily: true })) as typeof socket.connect;
  return socket;
}
