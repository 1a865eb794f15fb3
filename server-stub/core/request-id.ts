// X-Request-Id: every answer carries the id of its call, unique across instances (a random UUID), and every log
// line of the call names it. An id sent by the client is kept only when the TCP peer is a trusted proxy
// (TRUST_PROXY), so that a proxy's id follows the call through; anyone else cannot choose the id its call is
// logged under. A kept id must be short plain text (it goes into log lines).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import type { Config } from '../config.js';

export const REQUEST_ID_HEADER = 'x-request-id';
const ACCEPTED = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

const NAMED: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** Whether the TCP peer is a proxy TRUST_PROXY names (a hop count trusts the nearest hop, whoever it is). */
export function peerTrusted(trust: Config['trustProxy']): (address: string | undefined) => boolean {
  if (trust === false) return () => false;
  if (typeof trust === 'number') return () => trust >= 1;
  const list = new net.BlockList();
  for (const entry of trust.flatMap((t) => NAMED[t] ?? [t])) {
    const [addr, bits] = entry.split('/');
    const family = net.isIPv6(addr) ? 'ipv6' : 'ipv4';
    if (!net.isIP(addr)) continue;
    if (bits !== undefined) list.addSubnet(addr, Number(bits), family);
    else list.addAddress(addr, family);
  }
  return (address) => {
    if (!address) return false;
    const plain = address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
    return list.check(plain, net.isIPv6(plain) ? 'ipv6' : 'ipv4');
  };
}

/** Fastify's genReqId: the trusted proxy's id when it sent a usable one, else a new UUID. */
export function requestIds(trust: Config['trustProxy']): (req: IncomingMessage) => string {
  const trusted = peerTrusted(trust);
  return (req) => {
    const sent = req.headers[REQUEST_ID_HEADER];
    if (typeof sent === 'string' && ACCEPTED.test(sent) && trusted(req.socket?.remoteAddress)) return sent;
    return randomUUID();
  };
}
