// The buffered figures' flush: a flush asked for while the timer's write is under way answers only once that
// write is in the store (the monitor and the statistics flush before they read).
import type { FastifyInstance } from 'fastify';
import { periodicFlush } from './buffered.js';

describe('periodicFlush', () => {
  it('answers a flush only after the write already under way, and keeps writing after a failed one', async () => {
    const warned: string[] = [];
    const app = { ctx: { log: { warn: (_o: unknown, m: string) => warned.push(m) } }, addHook: () => undefined } as unknown as FastifyInstance;
    let buffer = 0;
    let stored = 0;
    let fail = false;
    const flush = periodicFlush(app, 'test figures', async () => {
      // as the real writes do: nothing buffered, nothing to wait for
      if (!buffer) return;
      const n = buffer;
      buffer = 0;
      await new Promise((r) => setTimeout(r, 50));
      if (fail) throw new Error('store down');
      stored += n;
    });
    buffer = 3;
    void flush(); // the timer's write: it takes the buffer, its rows reach the store 50 ms later
    await flush(); // a screen about to read the figures
    expect(stored).toBe(3);
    fail = true;
    buffer = 2;
    await flush();
    expect(warned).toEqual(['test figures not written']);
    fail = false;
    buffer = 4;
    await flush();
    expect(stored).toBe(7);
  });
});
