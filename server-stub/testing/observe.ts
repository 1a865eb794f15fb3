// Counting the store statements a request costs (issue 36): every statement run on behalf of an HTTP request — not by
// timers such as the statistics flush — recorded at the driver (store/watch.ts observers). A test passes
// `setup: observeCalls(seen)` to startTestServer and reads `seen`.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

/** Records the SQL of every store statement run on behalf of an HTTP request (not by timers) into `into`. */
export function observeCalls(into: string[]) {
  return (app: FastifyInstance) => {
    const inCall = new AsyncLocalStorage<true>();
    const server = app.server;
    const handlers = server.listeners('request') as Array<(...args: unknown[]) => void>;
    server.removeAllListeners('request');
    server.on('request', (req, res) => inCall.run(true, () => handlers.forEach((h) => h.call(server, req, res))));
    app.ctx.storeWatch.observers.push((sqlText) => {
      if (inCall.getStore()) into.push(sqlText);
    });
  };
}
