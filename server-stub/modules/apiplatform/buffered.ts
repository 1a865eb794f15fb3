// What the published calls count (statistics, per-minute counters, per-day usage) is buffered in memory and
// written every few seconds and once more before the store and the logs close, so counting costs a call no store
// write of its own. Counting is best effort: a failed write is logged, never thrown into a call.
import type { FastifyInstance } from 'fastify';

export const FLUSH_MS = 5000;

/**
 * Runs `write` every FLUSH_MS and before close; answers the flush to call when the buffer must be in the store now
 * (a screen reading the figures). `what` names the figures in the warning of a failed write.
 */
export function periodicFlush(app: FastifyInstance, what: string, write: () => Promise<void>): () => Promise<void> {
  const { log } = app.ctx;
  const once = async () => {
    try {
      await write();
    } catch (err) {
      try {
        log.warn({ err: (err as Error).message }, `${what} not written`);
      } catch {
        /* the log is closed too: the figures are best effort */
      }
    }
  };
  // one write at a time, in order: a flush called while the timer's write is under way (its buffer already taken,
  // its rows not yet in the store) resolves only after that write, so the caller reads every figure
  let queue: Promise<void> = Promise.resolve();
  const flush = () => (queue = queue.then(once));
  const timer = setInterval(() => void flush(), FLUSH_MS);
  timer.unref();
  app.addHook('preClose', async () => {
    clearInterval(timer);
    await flush();
  });
  return flush;
}
