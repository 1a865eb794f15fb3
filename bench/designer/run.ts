// Designer drag: frame times while dragging one widget on the editable canvas holding 500 widgets vs 1.
// One browser session, alternating rounds; per round the p95 of the frame intervals, then the median of rounds.
//   npx tsx bench/designer/run.ts [--rounds 5] [--steps 120] [--distance 300] [--only <widgetName>] [--profile | --trace] [--n 500]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { buildPage, bundleModules, median, numArg, serve } from '../lib/page';

const here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = numArg('rounds', 5);
const STEPS = numArg('steps', 120);
const DISTANCE = numArg('distance', 300); // screen px, to the right
const SCALE = 0.6; // the entry's canvas scale
const SIZES = [1, 500];
const ONLY = process.argv.includes('--only') ? `&only=${process.argv[process.argv.indexOf('--only') + 1]}` : '';
// --profile: instead of the rounds, one drag at --n widgets under the CPU profiler (unminified build), self time by module and function
const PROFILE = process.argv.includes('--profile');
// --trace: instead of the rounds, frames without input and one drag at --n widgets under Chrome tracing, self time by trace event
const TRACE = process.argv.includes('--trace');
// --n: how many widgets the --profile / --trace drag runs with
const DIAG_N = numArg('n', 500);
const TARGET_RATIO = 1.3;
const TARGET_P95 = 16.7;

type Win = {
  benchReady: () => boolean;
  benchStart: () => void;
  benchStop: () => number[];
  benchFrame: () => Promise<void>;
  benchSel: () => { left: number; top: number; selected: string[]; undo: number };
  benchKinds: () => Record<string, number>;
};

/** Nearest-rank percentile. */
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};



// Main-thread time by kind (CDP Performance.getMetrics, seconds, cumulative)
const METRICS = ['TaskDuration', 'ScriptDuration', 'LayoutDuration', 'RecalcStyleDuration', 'LayoutCount', 'RecalcStyleCount'] as const;
type Metrics = Record<(typeof METRICS)[number], number>;
async function metrics(cdp: CDPSession): Promise<Metrics> {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(METRICS.map((k) => [k, list.find((m) => m.name === k)?.value ?? 0])) as Metrics;
}
const perStep = (a: Metrics, b: Metrics): Metrics =>
  Object.fromEntries(METRICS.map((k) => [k, ((b[k] - a[k]) * (k.endsWith('Count') ? 1 : 1000)) / STEPS])) as Metrics;

interface Round {
  /** wall-clock ms per move (mouse.move + one frame) */
  wall: number;
  drag: number[];
  idle: number[];
  dragCost: Metrics;
  idleCost: Metrics;
}

async function load(page: Page, url: string, n: number) {
  await page.goto(`${url}/index.html?n=${n}${ONLY}`);
  await page.waitForFunction(() => (window as unknown as Win).benchReady(), null, { timeout: 120_000 });
  await page.waitForTimeout(1500); // let charts finish their first animation
}

/** The title's centre, hovered; then `STEPS` moves of DISTANCE / STEPS px, each followed by one frame. */
async function drag(page: Page) {
  const box = (await page.locator('[data-widget-id="sel"]').boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.evaluate(() => (window as unknown as Win).benchFrame());
  return async () => {
    await page.mouse.down();
    for (let i = 1; i <= STEPS; i++) {
      await page.mouse.move(x + (DISTANCE * i) / STEPS, y);
      await page.evaluate(() => (window as unknown as Win).benchFrame());
    }
    await page.mouse.up();
    await page.evaluate(() => (window as unknown as Win).benchFrame()); // the frame that commits the move to the store
  };
}

async function round(page: Page, cdp: CDPSession, url: string, n: number): Promise<Round> {
  await load(page, url, n);
  // the same number of frames without input: the background load (timers, charts) alone
  let m0 = await metrics(cdp);
  await page.evaluate(() => (window as unknown as Win).benchStart());
  for (let i = 0; i <= STEPS + 1; i++) await page.evaluate(() => (window as unknown as Win).benchFrame());
  const idle = await page.evaluate(() => (window as unknown as Win).benchStop());
  let m1 = await metrics(cdp);
  const idleCost = perStep(m0, m1);

  const before = await page.evaluate(() => (window as unknown as Win).benchSel());
  const run = await drag(page);
  m0 = await metrics(cdp);
  await page.evaluate(() => (window as unknown as Win).benchStart());
  const t0 = performance.now();
  await run();
  const wall = (performance.now() - t0) / STEPS;
  const frames = await page.evaluate(() => (window as unknown as Win).benchStop());
  m1 = await metrics(cdp);
  const after = await page.evaluate(() => (window as unknown as Win).benchSel());
  // the drag must really have moved the title (snapping may shift it by a few px) and made one undo step
  const moved = after.left - before.left;
  if (Math.abs(moved - DISTANCE / SCALE) > 20 || after.undo !== before.undo + 1 || after.selected.join() !== 'sel')
    throw new Error(`drag at n=${n} did not move the title as expected: ${JSON.stringify({ before, after })}`);
  return { wall, drag: frames, idle, dragCost: perStep(m0, m1), idleCost };
}

/** Self time of one drag at --n widgets under the CPU profiler, by bundled module (Rolldown's //#region markers) and by function. */
async function profile(page: Page, cdp: CDPSession, url: string, outDir: string) {
  await load(page, url, DIAG_N);
  const run = await drag(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await page.evaluate(() => (window as unknown as Win).benchStart());
  await run();
  const frames = await page.evaluate(() => (window as unknown as Win).benchStop());
  const { profile: prof } = await cdp.send('Profiler.stop');

  const moduleIn = bundleModules(outDir);
  const pkgOf = (mod: string) => {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(mod);
    return m ? m[1] : mod.replace(/^(\.\.\/)+/, '');
  };
  const moduleOf = (cf: { url: string; lineNumber: number; functionName: string }) => {
    if (!cf.url) return cf.functionName || '(native)';
    const file = cf.url.split('/').pop()!;
    return moduleIn(file, cf.lineNumber) ?? file;
  };
  const nodes = new Map(prof.nodes.map((nd) => [nd.id, nd]));
  const self = new Map<number, number>();
  prof.samples!.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas![i] ?? 0) / 1000));
  const byPkg = new Map<string, number>();
  const byFn = new Map<string, number>();
  let total = 0;
  for (const [id, ms] of self) {
    const cf = nodes.get(id)!.callFrame;
    if (cf.functionName === '(idle)') continue;
    total += ms;
    const mod = moduleOf(cf);
    byPkg.set(pkgOf(mod), (byPkg.get(pkgOf(mod)) ?? 0) + ms);
    const key = `${cf.functionName || '(anonymous)'}  [${mod.replace(/^(\.\.\/)+/, '')}:${cf.lineNumber + 1}]`;
    byFn.set(key, (byFn.get(key) ?? 0) + ms);
  }
  const top = (m: Map<string, number>, k: number) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([name, ms]) => `    ${ms.toFixed(1).padStart(7)} ms  ${((100 * ms) / total).toFixed(1).padStart(5)} %  ${name}`);
  console.log(`\nCPU profile of one drag at ${DIAG_N} (${STEPS} moves; frames p95 ${pct(frames, 95).toFixed(1)} ms; busy ${total.toFixed(0)} ms, idle excluded)`);
  console.log('  self time by package / module:');
  console.log(top(byPkg, 12).join('\n'));
  console.log('  self time by function:');
  console.log(top(byFn, 25).join('\n'));
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { type?: string } };
}

interface Traced {
  wall: number;
  frames: number[];
  /** renderer main thread: busy ms and self ms per trace event */
  busy: number;
  self: Map<string, number>;
  mousemove: number[];
  /** busy ms of the other renderer / compositor threads, by thread name */
  threads: Map<string, number>;
}

/** Runs `body` under Chrome tracing; self time per trace event on the page's renderer main thread, busy time of the others. */
async function traced(browser: Browser, page: Page, body: () => Promise<void>): Promise<Traced> {
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8', 'blink', 'cc', 'gpu', 'viz'] });
  await page.evaluate(() => (window as unknown as Win).benchStart());
  const t0 = Date.now();
  await body();
  const wall = Date.now() - t0;
  const frames = await page.evaluate(() => (window as unknown as Win).benchStop());
  const { traceEvents: events } = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
  const threadName = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threadName.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph !== 'X' || e.dur === undefined) continue;
    const k = `${e.pid}:${e.tid}`;
    if (!byThread.has(k)) byThread.set(k, []);
    byThread.get(k)!.push(e);
  }
  // self time: complete events nested by time on one thread
  const selfOf = (key: string) => {
    const list = (byThread.get(key) ?? []).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    const self = new Map<string, number>();
    const stack: Array<{ e: TraceEvent; end: number }> = [];
    let busy = 0;
    for (const e of list) {
      while (stack.length && stack[stack.length - 1].end <= e.ts) stack.pop();
      const end = e.ts + e.dur!;
      const parent = stack[stack.length - 1];
      if (parent) self.set(parent.e.name, (self.get(parent.e.name) ?? 0) - (Math.min(end, parent.end) - e.ts) / 1000);
      else busy += e.dur! / 1000;
      self.set(e.name, (self.get(e.name) ?? 0) + e.dur! / 1000);
      stack.push({ e, end });
    }
    return { self, busy };
  };
  // the page's renderer main thread: the busiest CrRendererMain
  const mains = [...threadName].filter(([, n]) => n === 'CrRendererMain').map(([k]) => ({ k, ...selfOf(k) }));
  const main = mains.sort((a, b) => b.busy - a.busy)[0];
  const pid = main.k.split(':')[0];
  const threads = new Map<string, number>();
  for (const [k, name] of threadName)
    if (k !== main.k && (k.startsWith(`${pid}:`) || /Viz|Gpu|Compositor/i.test(name))) threads.set(name, (threads.get(name) ?? 0) + selfOf(k).busy);
  const mousemove = (byThread.get(main.k) ?? []).filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'mousemove').map((e) => e.dur! / 1000);
  return { wall, frames, busy: main.busy, self: main.self, mousemove, threads };
}

/** The same number of frames without input, then one drag, at --n widgets, each under Chrome tracing. */
async function trace(browser: Browser, page: Page, url: string) {
  await load(page, url, DIAG_N);
  const idle = await traced(browser, page, async () => {
    for (let i = 0; i <= STEPS + 1; i++) await page.evaluate(() => (window as unknown as Win).benchFrame());
  });
  const run = await drag(page);
  const moving = await traced(browser, page, run);
  const col = (ms: number | undefined) => ((ms ?? 0) / STEPS).toFixed(2).padStart(9);
  console.log(`\nChrome trace at ${DIAG_N} widgets: ${STEPS} moves (each mouse.move + one frame) vs ${STEPS} frames without input`);
  console.log(`  wall ms per step: drag ${(moving.wall / STEPS).toFixed(1)}, no input ${(idle.wall / STEPS).toFixed(1)}; frame p95: drag ${pct(moving.frames, 95).toFixed(1)}, no input ${pct(idle.frames, 95).toFixed(1)}`);
  console.log(`  mousemove EventDispatch: ${moving.mousemove.length} events, median ${median(moving.mousemove).toFixed(2)} ms`);
  console.log('  renderer main thread, self ms per step:     drag   no input');
  console.log(`    ${'(busy, all events)'.padEnd(38)}${col(moving.busy)}${col(idle.busy)}`);
  for (const [name, ms] of [...moving.self].sort((a, b) => b[1] - a[1]).slice(0, 18)) console.log(`    ${name.slice(0, 38).padEnd(38)}${col(ms)}${col(idle.self.get(name))}`);
  console.log('  other threads (renderer, compositor, viz), busy ms per step:');
  for (const [name, ms] of [...moving.threads].filter(([, ms]) => ms > 0).sort((a, b) => b[1] - a[1]).slice(0, 6))
    console.log(`    ${name.slice(0, 38).padEnd(38)}${col(ms)}${col(idle.threads.get(name))}`);
}

const fmt = (m: Metrics) =>
  `task ${m.TaskDuration.toFixed(2)}, script ${m.ScriptDuration.toFixed(2)}, layout ${m.LayoutDuration.toFixed(2)} (${m.LayoutCount.toFixed(1)}×), style ${m.RecalcStyleDuration.toFixed(2)} (${m.RecalcStyleCount.toFixed(1)}×)`;
const medianMetrics = (list: Metrics[]): Metrics => Object.fromEntries(METRICS.map((k) => [k, median(list.map((m) => m[k]))])) as Metrics;

async function main() {
  const out = mkdtempSync(join(tmpdir(), 'bench-designer-'));
  try {
    await buildPage(here, out, !PROFILE);
    const server = await serve(out);
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Performance.enable');
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const rounds: Record<number, Round[]> = { 1: [], 500: [] };
      if (PROFILE) await profile(page, cdp, server.url, out);
      else if (TRACE) await trace(browser, page, server.url);
      else {
        await round(page, cdp, server.url, 1); // warm-up (JIT, caches), not counted
        for (let r = 0; r < ROUNDS; r++) for (const n of r % 2 ? [...SIZES].reverse() : SIZES) rounds[n].push(await round(page, cdp, server.url, n));
      }
      if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
      if (PROFILE || TRACE) return;

      const p95 = (n: number) => median(rounds[n].map((r) => pct(r.drag, 95)));
      const line = (n: number) => {
        const rs = rounds[n];
        return [
          `  ${String(n).padStart(3)} widget${n > 1 ? 's' : ' '}: drag p95 ${p95(n).toFixed(2)} ms (round p95s ${rs.map((r) => pct(r.drag, 95).toFixed(1)).join(', ')}; ` +
            `median frame ${median(rs.flatMap((r) => r.drag)).toFixed(2)} ms, longest ${Math.max(...rs.flatMap((r) => r.drag)).toFixed(1)} ms, ` +
            `${(100 * (rs.flatMap((r) => r.drag).filter((x) => x > 25).length / rs.flatMap((r) => r.drag).length)).toFixed(1)} % frames > 25 ms; ` +
            `${median(rs.map((r) => r.drag.length / STEPS)).toFixed(2)} frames and ${median(rs.map((r) => r.wall)).toFixed(1)} ms wall per move); ` +
            `no-input p95 ${median(rs.map((r) => pct(r.idle, 95))).toFixed(2)} ms`,
          `      main thread per move (ms): ${fmt(medianMetrics(rs.map((r) => r.dragCost)))}`,
          `      same per frame, no input : ${fmt(medianMetrics(rs.map((r) => r.idleCost)))}`,
        ].join('\n');
      };
      const ratio = p95(500) / p95(1);
      // targets are judged on the figures as printed (2 decimals): rAF timestamps put a 60 Hz frame at 16.7 ms ± float noise
      const met = (x: number, target: number) => Math.round(x * 100) / 100 <= target;
      // without isolation the frame times are coarsened to 0.1 ms (see bench/lib/page.ts)
      const isolated = await page.evaluate(() => crossOriginIsolated);
      console.log(`drag frame times (Chromium, ${ROUNDS} rounds per size, ${STEPS} moves over ${DISTANCE} px, one frame each${ONLY ? `, ${ONLY.slice(1)}` : ''}; clock ${isolated ? 'precise (cross-origin isolated)' : 'coarsened to 0.1 ms'})`);
      console.log(line(1));
      console.log(line(500));
      await load(page, server.url, 500);
      const kinds = await page.evaluate(() => (window as unknown as Win).benchKinds());
      console.log(`  the 500 widgets: ${Object.keys(kinds).length} kinds (${Object.entries(kinds).map(([k, c]) => `${k} ${c}`).join(', ')})`);
      console.log(`  ratio p95 500/1: ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO}) — ${met(ratio, TARGET_RATIO) ? 'target met' : 'TARGET MISSED'}`);
      console.log(`  p95 at 500     : ${p95(500).toFixed(2)} ms (target ≤ ${TARGET_P95} ms) — ${met(p95(500), TARGET_P95) ? 'target met' : 'TARGET MISSED'}`);
    } finally {
      await browser.close();
      server.close();
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
