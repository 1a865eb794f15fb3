// Where a connector (SQL data source, FTP, SSH) may connect, judged before it does:
//  - a host name or an IP address, nothing else: no Unix socket path ("/var/run/postgresql" would reach
//    the local database server as a local user), no spaces, no URL;
//  - every address it resolves to passes core/net-guard (no link-local, cloud metadata, multicast…);
//    loopback and private ranges stay allowed, an intranet console connects to intranet databases;
//  - for SQL, not a database the platform keeps itself in (its PostgreSQL store): a data source there
//    would read every account, session and key of the console.
import ipaddr from 'ipaddr.js';
import { NET_MSG, NetGuardError, resolveChecked } from '../core/net-guard.js';

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

async function addressesOf(host: string, lenient = false): Promise<string[]> {
  try {
    return (await resolveChecked(host.trim())).map((a) => normalize(a.address));
  } catch (err) {
    if (!(err instanceof NetGuardError)) throw err;
    const refused = err.message === NET_MSG.refused;
    if (!refused && lenient) return [];
    throw new TargetError(refused ? TARGET_MSG.refused : TARGET_MSG.unresolved);
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

/**
 * Throws TargetError when host (and, for SQL, port + database) may not be connected to. lenient: a name that
 * does not resolve (yet) passes, for saving a record whose server is not reachable from here today; the
 * connection itself is judged again, strictly, when it is made.
 */
export async function checkTarget(target: { host?: string | null; port?: number | null; database?: string | null }, policy: TargetPolicy = {}, lenient = false): Promise<void> {
  const host = String(target.host ?? '').trim();
  if (!host || hostProblem(host)) throw new TargetError(TARGET_MSG.badHost);
  const mine = await addressesOf(host, lenient);
  for (const r of policy.reserved ?? []) {
    if (Number(target.port) !== r.port || String(target.database ?? '') !== r.database) continue;
    const theirs = await addressesOf(r.host).catch(() => [normalize(r.host)]);
    if (mine.some((a) => theirs.includes(a))) throw new TargetError(TARGET_MSG.platformStore);
  }
}
