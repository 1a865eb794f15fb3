// Who a per-address limit counts: the client address as the app sees it, an IPv6 one by its /64.
import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';

/**
 * The address the per-address limits count: `req.ip`, which is the TCP peer unless TRUST_PROXY names the
 * proxies allowed to report the client (then the address those proxies saw). A client can never pick it:
 * the app never trusts X-Forwarded-For blindly (config.trustProxy is never `true`).
 */
export function clientAddress(req: FastifyRequest): string {
  return req.ip ?? req.socket?.remoteAddress ?? '';
}

/**
 * What per-address limits count by: the client address, an IPv6 one by its /64 (one host commonly holds a whole
 * /64, and would otherwise get a fresh count per address it picks).
 */
export function clientKey(req: FastifyRequest): string {
  const address = clientAddress(req);
  try {
    const a = ipaddr.process(address);
    return a.kind() === 'ipv6' ? `${(a as ipaddr.IPv6).toNormalizedString().split(':').slice(0, 4).join(':')}::/64` : a.toString();
  } catch {
    return address;
  }
}
