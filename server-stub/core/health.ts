// Health, readiness and drain of one instance behind a load balancer (DESIGN §8 "Several instances").
//  - GET /healthz: the process answers (200).
//  - GET /readyz: the store and Redis answer within a moment and the instance is not draining (200), else 503.
// Both are public and say nothing more than ok / not ready: no version, path, host or error text.
// Draining (SIGTERM, main.ts): /readyz turns 503 at once, every answer asks its client to close the connection,
// and the instance goes on answering what reaches it until it stops listening; then Fastify's close waits for
// the calls it accepted, flushes (call statistics in preClose) and closes the pools, the store and the logs.
import type { Socket } from 'node:net';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface Lifecycle {
  /** set by drain(): readiness fails, answers carry Connection: close */
  draining: boolean;
  /** calls being answered now */
  inFlight: number;
  /** open client connections */
  connections: Set<Socket>;
}

declare module 'fastify' {
  interface FastifyInstance {
    lifecycle: Lifecycle;
  }
}

/** How long one readiness probe waits for the store or Redis. */
const PROBE_MS = 2000;

const within = <T>(p: Promise<T>, ms: number): Promise<T> =>
  Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);

/**
 * Registers /healthz and /readyz and counts calls in flight. `probes` are the shared things readiness needs
 * (the store, Redis); each rejects or throws when its thing does not answer.
 */
export function installHealth(app: FastifyInstance, probes: Array<() => Promise<unknown>>): void {
  const lifecycle: Lifecycle = { draining: false, inFlight: 0, connections: new Set() };
  app.decorate('lifecycle', lifecycle);
  app.server.on('connection', (socket: Socket) => {
    lifecycle.connections.add(socket);
    socket.once('close', () => lifecycle.connections.delete(socket));
  });
  app.addHook('onRequest', async (req, reply) => {
    lifecycle.inFlight++;
    reply.raw.once('close', () => lifecycle.inFlight--);
    // a client of a draining instance opens its next connection elsewhere
    if (lifecycle.draining && req.raw.httpVersionMajor < 2) reply.header('connection', 'close');
  });
  const answer = { config: { public: true }, logLevel: 'silent' as const };
  app.get('/healthz', answer, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 0, msg: 'ok', data: null };
  });
  app.get('/readyz', answer, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    let ready = !lifecycle.draining;
    if (ready) {
      try {
        await within(Promise.all(probes.map((p) => p())), PROBE_MS);
      } catch {
        ready = false;
      }
    }
    if (!ready || lifecycle.draining) return reply.code(503).send({ status: 1, msg: '未就绪', data: null });
    return { status: 0, msg: 'ok', data: null };
  });
}

export interface DrainOptions {
  /** SHUTDOWN_DELAY: how long a draining instance keeps listening (not ready) so balancers stop sending it calls */
  delayMs: number;
  /** SHUTDOWN_GRACE: the whole drain must end within this; past it the process is ended anyway */
  graceMs: number;
  /** logs a line (the platform log) */
  note?: (msg: string) => void;
}

/** A draining instance with no call in flight for this long closes the connections left (idle keep-alive ones). */
const QUIET_MS = 500;

/**
 * Drains and closes the app: not ready at once, keeps answering for delayMs, then closes (stops listening, waits
 * for the calls it accepted, flushes, closes pools, store and logs). Answers true when it closed within graceMs.
 */
export async function drain(app: FastifyInstance, o: DrainOptions): Promise<boolean> {
  app.lifecycle.draining = true;
  o.note?.('draining: not ready, closing');
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), o.graceMs);
    timer.unref();
  });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const { lifecycle } = app;
  const work = (async () => {
    if (o.delayMs > 0) await sleep(Math.min(o.delayMs, o.graceMs));
    // Stop accepting connections, but leave open ones be: http's own close() would also drop every connection
    // that is not answering a call now, among them one just accepted whose request is still on its way (its
    // client would see ECONNRESET). Connections end by themselves after their answer (Connection: close).
    // (its callback waits for every connection to end: not awaited here)
    net.Server.prototype.close.call(app.server, () => undefined);
    for (let quietSince = 0; lifecycle.connections.size > 0; await sleep(20)) {
      if (lifecycle.inFlight > 0) quietSince = 0;
      else if (!quietSince) quietSince = Date.now();
      // what stays open with nothing asked for a while is an idle keep-alive connection: closed by app.close()
      else if (Date.now() - quietSince >= QUIET_MS) break;
    }
    await app.close();
    return true as const;
  })();
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
