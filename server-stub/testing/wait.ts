// Waiting in server tests for what happens after an answer (a scheduled run, a write on another instance).

/** Asks `probe` every 100 ms until `until` accepts its answer; resolves with that answer (throws after `ms`). */
export async function waitFor<T>(probe: () => Promise<T>, until: (t: T) => boolean, ms = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const t = await probe();
    if (until(t)) return t;
    if (Date.now() - started > ms) throw new Error(`not seen within ${ms} ms: ${JSON.stringify(t).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
