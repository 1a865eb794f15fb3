// The list with 500 rows × 30 columns (issue 24 §5): first render of 500 rows vs 50, and the frame times while
// scrolling through the 500 — as shipped (a virtual list above 100 rows) and, in the same run, the plain table
// (virtual list off) to show what the virtual list buys. One Chromium, alternating rounds, medians.
//   npx tsx bench/list-render/run.ts [--rounds 6] [--mounts 4] [--step 100]
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { buildPage, median, numArg, serve } from '../lib/page';

const here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = numArg('rounds', 3);
const MOUNTS = numArg('mounts', 4); // first renders per configuration per round
const STEP = numArg('step', 100); // px scrolled in every frame (a mouse wheel's notch)
const TARGET_FIRST = 2;
const TARGET_P95 = 16.7;

type Mode = 'auto' | 'plain';
type W = {
  benchMount(n: number, mode: Mode): Promise<number>;
  benchRows(): { rows: number; virtual: boolean };
  benchAtEnd(): boolean;
  benchScroll(step: number): Promise<{ gaps: number[]; steps: number }>;
  benchFrame(): Promise<void>;
  benchStart(): void;
  benchStop(): number[];
};
const w = (page: Page) => ({
  mount: (n: number, mode: Mode) => page.evaluate(([n, m]) => (window as unknown as W).benchMount(n as number, m as Mode), [n, mode] as const),
  rows: () => page.evaluate(() => (window as unknown as W).benchRows()),
  atEnd: () => page.evaluate(() => (window as unknown as W).benchAtEnd()),
  scroll: (step: number) => page.evaluate((s) => (window as unknown as W).benchScroll(s), step),
  frame: () => page.evaluate(() => (window as unknown as W).benchFrame()),
  start: () => page.evaluate(() => (window as unknown as W).benchStart()),
  stop: () => page.evaluate(() => (window as unknown as W).benchStop()),
});

/** Nearest-rank percentile. */
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};

// the plain table at 500 takes seconds to mount: once per round is enough to compare
const FIRST: Array<{ key: string; n: number; mode: Mode; mounts: number }> = [
  { key: '50 rows', n: 50, mode: 'auto', mounts: MOUNTS },
  { key: '500 virtual', n: 500, mode: 'auto', mounts: MOUNTS },
  { key: '500 plain', n: 500, mode: 'plain', mounts: 1 },
];
const SCROLL: Array<{ key: string; mode: Mode }> = [
  { key: '500 virtual', mode: 'auto' },
  { key: '500 plain', mode: 'plain' },
];

/** The same number of frames without input, on the page as mounted: what the machine's load alone costs. */
async function idleFrames(page: Page, count: number) {
  const b = w(page);
  await b.start();
  for (let i = 0; i < count; i++) await b.frame();
  return b.stop();
}

/**
 * Mounts 500 rows, then scrolls STEP px in every frame until the last row is in view, driven inside the page
 * (a round trip from here per step would leave idle frames between the steps and flatter the p95).
 */
async function scrollRound(page: Page, mode: Mode) {
  const b = w(page);
  await b.mount(500, mode);
  const shape = await b.rows();
  for (let i = 0; i < 5; i++) await b.frame();
  const { gaps, steps } = await b.scroll(STEP);
  if (!(await b.atEnd())) throw new Error(`${mode}: not at the last row after scrolling`);
  const idle = await idleFrames(page, steps);
  return { gaps, steps, shape, idle };
}

async function main() {
  const outDir = mkdtempSync(join(tmpdir(), 'bench-list-'));
  await buildPage(here, outDir);
  const server = await serve(outDir);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const load = [loadavg()[0]];
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/index.html`);
    await page.waitForFunction(() => document.title === 'ready');
    const b = w(page);

    // warm-up (JIT, styles), not counted
    for (const c of FIRST) await b.mount(c.n, c.mode);
    await b.mount(50, 'auto');
    await scrollRound(page, 'auto');

    const first: Record<string, number[]> = Object.fromEntries(FIRST.map((c) => [c.key, []]));
    const firstRounds: Record<string, number[]> = Object.fromEntries(FIRST.map((c) => [c.key, []]));
    const p95: Record<string, number[]> = Object.fromEntries(SCROLL.map((c) => [c.key, []]));
    const over: Record<string, number[]> = Object.fromEntries(SCROLL.map((c) => [c.key, []]));
    const idleP95: Record<string, number[]> = Object.fromEntries(SCROLL.map((c) => [c.key, []]));
    const shapes: Record<string, string> = {};
    for (let r = 0; r < ROUNDS; r++) {
      // alternate the order every round so no configuration always runs warmer
      for (const c of r % 2 ? [...FIRST].reverse() : FIRST) {
        const xs: number[] = [];
        for (let m = 0; m < c.mounts; m++) xs.push(await b.mount(c.n, c.mode));
        first[c.key].push(...xs);
        firstRounds[c.key].push(median(xs));
        const s = await b.rows();
        shapes[c.key] = `${s.rows} row elements${s.virtual ? ' (virtual)' : ''}`;
      }
      for (const c of r % 2 ? [...SCROLL].reverse() : SCROLL) {
        const { gaps, steps, idle } = await scrollRound(page, c.mode);
        p95[c.key].push(pct(gaps, 95));
        idleP95[c.key].push(pct(idle, 95));
        over[c.key].push((gaps.filter((g) => g > TARGET_P95).length / gaps.length) * 100);
        if (r === 0) shapes[`scroll ${c.key}`] = `${steps} steps of ${STEP} px, ${gaps.length} frames`;
      }
      load.push(loadavg()[0]);
    }
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);

    const f = (k: string) => median(first[k]);
    const fmt = (x: number) => x.toFixed(1).padStart(7);
    console.log(`list-render: 30 columns (selection, index, dictionaries, formats, ellipsis, fixed actions), Chromium 1600×900, ${ROUNDS} rounds`);
    console.log(`load average (1 min) during the run: ${Math.min(...load).toFixed(2)}–${Math.max(...load).toFixed(2)} on ${cpus().length} cores`);
    console.log(`\nfirst render (mount → rows painted), ${MOUNTS} mounts per round (the plain table's 500: 1), median ms:`);
    for (const c of FIRST) console.log(`  ${c.key.padEnd(12)}: ${fmt(f(c.key))}  (round medians ${firstRounds[c.key].map((x) => x.toFixed(1)).join(', ')})  ${shapes[c.key]}`);
    const rv = f('500 virtual') / f('50 rows');
    const rp = f('500 plain') / f('50 rows');
    console.log(`  ratio 500 virtual / 50: ${rv.toFixed(2)} (target ≤ ${TARGET_FIRST}) ${rv <= TARGET_FIRST ? 'OK' : 'OVER'}`);
    console.log(`  ratio 500 plain   / 50: ${rp.toFixed(2)} (without the virtual list)`);
    console.log(`\nscrolling through 500 rows (${STEP} px in every frame: the virtual list's box scrolled, window.scrollBy for the plain table), frame intervals by requestAnimationFrame:`);
    for (const c of SCROLL) {
      const m = median(p95[c.key]);
      console.log(`  ${c.key.padEnd(12)}: p95 ${m.toFixed(2)} ms (round p95s ${p95[c.key].map((x) => x.toFixed(1)).join(', ')}); frames over ${TARGET_P95} ms: ${median(over[c.key]).toFixed(1)} %; without input p95 ${median(idleP95[c.key]).toFixed(2)} ms  — ${shapes[`scroll ${c.key}`]}`);
    }
    const pv = median(p95['500 virtual']);
    console.log(`  virtual p95 ${pv.toFixed(2)} ms (target ≤ ${TARGET_P95}) ${pv <= TARGET_P95 ? 'OK' : 'OVER'}; plain / virtual p95: ${(median(p95['500 plain']) / pv).toFixed(2)}`);
  } finally {
    await browser.close();
    server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
