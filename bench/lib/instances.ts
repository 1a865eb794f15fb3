// What the multi-instance benches share: waiting for an instance started as a process of its own to be ready.

/** Resolves once `<base>/readyz` answers 200 (a minute at most). */
export async function ready(base: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${base} did not become ready`);
}
