// Per-address limits: who a limit counts (the client address as the app sees it, an IPv6 one by its /64) and
// the `limits` platform service (core/platform.ts, app.limits): one Redis client for the app when REDIS_URL is
// set, counters under the deployment's tag so that every instance of it shares them.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import ipaddr from 'ipaddr.js';
import { BizError } from './envelope.js';

export const MSG_TOO_MANY_REQUESTS = '请求过于频繁，请稍后再试';

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

/** The `limits` platform service. */
export interface LimitsService {
  /** the app's Redis client for counters shared by every instance (null without REDIS_URL); owned by the service */
  redis: Redis | null;
  /**
   * Per-address limits for the routes of `scope` (a module's own scope) that declare config.rateLimit (global:
   * false, so the other routes carry none), answered with the envelope's 429 (请求过于频繁，请稍后再试). With
   * REDIS_URL the counters live in Redis under `rate-limit:<deployment>:<nameSpace>`, shared by every instance.
   */
  register(scope: FastifyInstance, nameSpace: string): Promise<void>;
}

export function limitsService(redis: Redis | null, tag: string): LimitsService {
  return {
    redis,
    async register(scope, nameSpace) {
      await scope.register(rateLimit, {
        global: false,
        keyGenerator: clientKey,
        errorResponseBuilder: () => new BizError(MSG_TOO_MANY_REQUESTS, 429),
        ...(redis ? { redis, nameSpace: `rate-limit:${tag}:${nameSpace}` } : {}),
      });
    },
  };
}
