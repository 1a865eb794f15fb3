// Preview heap: the read-only stage with a carousel, an API-fed bar chart (re-fetched every second), an active
// ring and a scrolling table, left running. Two figures in one run, each from its own Chromium (side by side,
// independent processes; the measure is heap, not time):
//   - warm:   V8 as shipped, JS heap after a forced GC at 20 min vs at 10 min (after the JIT's warm-up), ≤ 1.05
//   - no-opt: V8 with --max-opt=1 (no optimising compiler), heap at 10 min vs at 1 min, ≤ 1.05
//   npx tsx bench/preview-heap/run.ts [--minutes 20] [--first 1] [--every 1] [--max-opt 1] [--only warm|no-opt] [--diff]
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type CDPSession, type Page } from 'playwright-core';
import { buildPage, bundleModules, numArg, serve } from '../lib/page';

const here = dirname(fileURLToPath(import.meta.url));
// the warm session runs MINUTES and is judged on heap(MINUTES)/heap(MINUTES/2); the no-opt session runs
// MINUTES/2 and is judged on heap(MINUTES/2)/heap(FIRST)
const MINUTES = numArg('minutes', 20);
const HALF = MINUTES / 2;
const FIRST = numArg('first', 1); // the no-opt session's baseline, and the first sample of both
const EVERY = numArg('every', 1); // samples in between, to show the trend
const TARGET = 1.05;
// --diff: a heap snapshot at the two samples each ratio compares, and what grew in between, by constructor
const DIFF = process.argv.includes('--diff');
// --max-opt N: the no-opt session's highest V8 tier (1 = Sparkplug at most, no Maglev / TurboFan)
const MAX_OPT = numArg('max-opt', 1);
if (!(Number.isInteger(MAX_OPT) && MAX_OPT >= 0)) throw new Error('--max-opt takes a tier number: 0 interpreter, 1 Sparkplug, 2 Maglev, 3 TurboFan');
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
if (ONLY !== undefined && ONLY !== 'warm' && ONLY !== 'no-opt') throw new Error('--only takes warm or no-opt');
if (!(FIRST > 0 && EVERY > 0 && HALF > FIRST)) throw new Error('need 0 < --first < --minutes / 2 and --every > 0');

type Stats = { fetches: number; answered: number; ticks: number; charts: number; intervals: number; notices: number; visible: string };
type Win = { benchReady: () => boolean; benchStats: () => Stats; gc?: () => void; performance: Performance & { memory?: { usedJSHeapSize: number } } };



interface Sample {
  minute: number;
  /** CDP Runtime.getHeapUsage().usedSize after gc() and HeapProfiler.collectGarbage */
  used: number;
  /** performance.memory.usedJSHeapSize (precise memory info) after the same collections */
  perfUsed: number;
  nodes: number;
  listeners: number;
  stats: Stats;
}

async function sample(page: Page, cdp: CDPSession, minute: number): Promise<Sample> {
  // gc() (--expose-gc) twice, so objects freed by finalizers of the first pass go too; then DevTools' own collection
  await page.evaluate(() => {
    const w = window as unknown as Win;
    w.gc!();
    w.gc!();
  });
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const perfUsed = await page.evaluate(() => (window as unknown as Win).performance.memory?.usedJSHeapSize ?? NaN);
  const dom = await cdp.send('Memory.getDOMCounters');
  const stats = await page.evaluate(() => (window as unknown as Win).benchStats());
  return { minute, used: usedSize, perfUsed, nodes: dom.nodes, listeners: dom.jsEventListeners, stats };
}

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; location_fields?: string[] } };
  nodes: number[];
  edges: number[];
  strings: string[];
  locations?: number[];
}

async function takeSnapshot(cdp: CDPSession): Promise<Snapshot> {
  const chunks: string[] = [];
  const onChunk = (e: { chunk: string }) => chunks.push(e.chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  return JSON.parse(chunks.join('')) as Snapshot;
}

type CodeOwners = Map<number, { label: string; size: number }>;

/**
 * Each function's own compiled code (a closure's `code` edge that is not a shared builtin), by the code object's
 * id, with the function's name and, from the unminified bundle, its source module and line.
 */
function codeByFunction(snap: Snapshot, moduleAt: (line: number) => string | undefined): CodeOwners {
  const f = snap.snapshot.meta.node_fields;
  const ef = snap.snapshot.meta.edge_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [iType, iName, iId, iSize, iEdges] = ['type', 'name', 'id', 'self_size', 'edge_count'].map((k) => f.indexOf(k));
  const [eName, eTo] = ['name_or_index', 'to_node'].map((k) => ef.indexOf(k));
  const first = new Map<number, number>();
  for (let i = 0, e = 0; i < snap.nodes.length; i += f.length) {
    first.set(i, e);
    e += snap.nodes[i + iEdges] * ef.length;
  }
  const child = (node: number, name: string) => {
    const from = first.get(node)!;
    for (let e = from; e < from + snap.nodes[node + iEdges] * ef.length; e += ef.length) if (snap.strings[snap.edges[e + eName]] === name) return snap.edges[e + eTo];
    return undefined;
  };
  const lineOf = new Map<number, number>();
  const lf = snap.snapshot.meta.location_fields ?? [];
  const [lObj, lLine] = ['object_index', 'line'].map((k) => lf.indexOf(k));
  for (let i = 0; snap.locations && i < snap.locations.length; i += lf.length) lineOf.set(snap.locations[i + lObj], snap.locations[i + lLine]);
  const owners: CodeOwners = new Map();
  const sharers = new Map<number, number>();
  for (let i = 0; i < snap.nodes.length; i += f.length) {
    if (types[snap.nodes[i + iType]] !== 'closure') continue;
    const code = child(i, 'code');
    if (code === undefined) continue;
    sharers.set(code, (sharers.get(code) ?? 0) + 1);
    if (owners.has(snap.nodes[code + iId])) continue;
    const stream = child(code, 'instruction_stream');
    const line = lineOf.get(i);
    const where = line === undefined ? '' : ` [${(moduleAt(line) ?? '?').replace(/^(\.\.\/)+/, '')}:${line + 1}]`;
    owners.set(snap.nodes[code + iId], {
      label: `${snap.strings[snap.nodes[i + iName]] || '(anonymous)'}${where}`,
      size: snap.nodes[code + iSize] + (stream === undefined ? 0 : snap.nodes[stream + iSize]),
    });
  }
  // code many closures share is a builtin (the interpreter's entry), not a function's own
  for (let i = 0; i < snap.nodes.length; i += f.length) if ((sharers.get(i) ?? 0) > 50) owners.delete(snap.nodes[i + iId]);
  return owners;
}

function printNewCode(a: CodeOwners, b: CodeOwners) {
  const grown = new Map<string, { size: number; count: number }>();
  for (const [id, o] of b) {
    if (a.has(id)) continue;
    const g = grown.get(o.label) ?? { size: 0, count: 0 };
    g.size += o.size;
    g.count++;
    grown.set(o.label, g);
  }
  const total = [...grown.values()].reduce((t, g) => t + g.size, 0);
  console.log(`  functions' own code new since the first snapshot: ${(total / 1024).toFixed(1)} KB in ${[...grown.values()].reduce((t, g) => t + g.count, 0)} code objects; the largest:`);
  for (const [label, g] of [...grown].sort((x, y) => y[1].size - x[1].size).slice(0, 30)) console.log(`    ${(g.size / 1024).toFixed(1).padStart(8)} KB  ${String(g.count).padStart(3)}  ${label.slice(0, 110)}`);
  // the same code by source module, to see which part of the page runs late
  const byModule = new Map<string, { size: number; count: number }>();
  for (const [label, g] of grown) {
    const mod = /\[(.*):\d+\]$/.exec(label)?.[1] ?? '(no source)';
    const m = byModule.get(mod) ?? { size: 0, count: 0 };
    m.size += g.size;
    m.count += g.count;
    byModule.set(mod, m);
  }
  console.log('  the same by source module:');
  for (const [mod, g] of [...byModule].sort((x, y) => y[1].size - x[1].size).slice(0, 40)) console.log(`    ${(g.size / 1024).toFixed(1).padStart(8)} KB  ${String(g.count).padStart(3)}  ${mod}`);
}

/** Self size and count per constructor (objects, closures) or per kind (code, strings, arrays…). */
function heapByKind(snap: Snapshot): Map<string, { size: number; count: number }> {
  const f = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [iType, iName, iSize] = ['type', 'name', 'self_size'].map((k) => f.indexOf(k));
  const out = new Map<string, { size: number; count: number }>();
  for (let i = 0; i < snap.nodes.length; i += f.length) {
    const type = types[snap.nodes[i + iType]];
    const name = snap.strings[snap.nodes[i + iName]];
    // compiled code is split by what V8 names it (bytecode, baseline / optimised code of a function, regexp…)
    const key =
      type === 'object' || type === 'native' ? name : type === 'closure' ? `closure ${name || '(anonymous)'}` : type === 'code' ? `(code) ${name.replace(/\d+/g, '#').slice(0, 70)}` : `(${type})`;
    const e = out.get(key) ?? { size: 0, count: 0 };
    e.size += snap.nodes[i + iSize];
    e.count++;
    out.set(key, e);
  }
  return out;
}

function printDiff(a: Map<string, { size: number; count: number }>, b: Map<string, { size: number; count: number }>) {
  const keys = new Set([...a.keys(), ...b.keys()]);
  const rows = [...keys].map((k) => ({ k, ds: (b.get(k)?.size ?? 0) - (a.get(k)?.size ?? 0), dc: (b.get(k)?.count ?? 0) - (a.get(k)?.count ?? 0) }));
  const total = rows.reduce((t, r) => t + r.ds, 0);
  const sum = (m: Map<string, { size: number }>, skip?: string) => [...m].reduce((t, [k, v]) => (skip && k.startsWith(skip) ? t : t + v.size), 0);
  console.log(
    `  heap snapshots: ${(sum(a) / 1048576).toFixed(2)} → ${(sum(b) / 1048576).toFixed(2)} MB (ratio ${(sum(b) / sum(a)).toFixed(3)}); ` +
      `without compiled code (code): ${(sum(a, '(code)') / 1048576).toFixed(2)} → ${(sum(b, '(code)') / 1048576).toFixed(2)} MB (ratio ${(sum(b, '(code)') / sum(a, '(code)')).toFixed(3)})`,
  );
  console.log(`  what grew, last vs first snapshot (self size; total ${(total / 1024).toFixed(1)} KB):`);
  const code = rows.filter((r) => r.k.startsWith('(code)'));
  console.log(`    compiled code (code) in all: ${(code.reduce((t, r) => t + r.ds, 0) / 1024).toFixed(1)} KB, ${code.reduce((t, r) => t + r.dc, 0)} objects`);
  for (const r of rows.sort((x, y) => y.ds - x.ds).slice(0, 25)) console.log(`    ${(r.ds / 1024).toFixed(1).padStart(8)} KB  ${String(r.dc).padStart(7)} objects  ${r.k.slice(0, 80)}`);
}

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(2)} MB`;

interface Session {
  name: 'warm' | 'no-opt';
  /** extra V8 flags */
  maxOpt?: number;
  /** sample times in minutes; the ratio is heap(last)/heap(base) */
  marks: number[];
  base: number;
}

function marksUpTo(end: number): number[] {
  const marks = new Set([FIRST, end]);
  for (let m = FIRST + EVERY; m < end - 1e-9; m += EVERY) marks.add(Math.round(m * 1e6) / 1e6);
  if (end === MINUTES) marks.add(HALF);
  return [...marks].sort((a, b) => a - b);
}

const row = (s: Sample) =>
  `  ${s.minute.toFixed(2).padStart(6)}  ${mb(s.used).padStart(10)}  ${mb(s.perfUsed).padStart(18)}  ${String(s.nodes).padStart(9)}  ${String(s.listeners).padStart(9)}  ${String(s.stats.ticks).padStart(5)}  ${String(s.stats.answered).padStart(7)}  ${String(s.stats.charts).padStart(6)}  ${String(s.stats.intervals).padStart(6)}`;
const HEADER = '  minute  heap (CDP)   performance.memory  DOM nodes  listeners  ticks  fetches  charts  timers';

/** One Chromium with the page, sampled at the session's marks; the report is printed by the caller. */
async function runSession(url: string, session: Session, mainJs: string, moduleIn: (file: string, line: number) => string | undefined) {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', `--js-flags=--expose-gc${session.maxOpt === undefined ? '' : ` --max-opt=${session.maxOpt}`}`, '--enable-precise-memory-info'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const cdp = await page.context().newCDPSession(page);
    await page.goto(`${url}/index.html`);
    await page.waitForFunction(() => (window as unknown as Win).benchReady(), null, { timeout: 60_000 });
    const start = Date.now();
    const at = (minute: number) => new Promise((r) => setTimeout(r, Math.max(0, start + minute * 60_000 - Date.now())));
    const samples: Sample[] = [];
    const snaps: Array<{ kinds: Map<string, { size: number; count: number }>; code: CodeOwners }> = [];
    for (const m of session.marks) {
      await at(m);
      const s = await sample(page, cdp, m);
      samples.push(s);
      if (DIFF && (m === session.base || m === session.marks[session.marks.length - 1])) {
        const snap = await takeSnapshot(cdp);
        snaps.push({ kinds: heapByKind(snap), code: codeByFunction(snap, (line) => moduleIn(mainJs, line)) });
      }
      console.log(`${`[${session.name}]`.padEnd(8)}${row(s)}`);
      if (errors.length) throw new Error(`${session.name}: page errors: ${errors.join('; ')}`);
    }
    const first = samples[0];
    const last = samples[samples.length - 1];
    if (last.stats.visible !== 'visible' || last.stats.answered <= first.stats.answered || last.stats.notices > 0)
      throw new Error(`${session.name}: the page did not keep refreshing: ${JSON.stringify(last.stats)}`);
    return { samples, snaps };
  } finally {
    await browser.close();
  }
}

async function main() {
  const out = mkdtempSync(join(tmpdir(), 'bench-preview-heap-'));
  try {
    // --diff names functions: an unminified build
    await buildPage(here, out, !DIFF);
    const moduleIn = bundleModules(out);
    const mainJs = readdirSync(join(out, 'assets')).filter((x) => x.endsWith('.js')).sort((x, y) => statSync(join(out, 'assets', y)).size - statSync(join(out, 'assets', x)).size)[0];
    const server = await serve(out);
    const sessions: Session[] = [
      { name: 'warm' as const, marks: marksUpTo(MINUTES), base: HALF },
      { name: 'no-opt' as const, maxOpt: MAX_OPT, marks: marksUpTo(HALF), base: FIRST },
    ].filter((s) => ONLY === undefined || s.name === ONLY);
    try {
      console.log(`preview heap (Chromium, carousel + API bar chart refreshed every 1 s + active ring + scrolling table), ${sessions.map((s) => s.name).join(' and ')} side by side, ${new Date().toISOString()}`);
      console.log(HEADER);
      const results = await Promise.all(sessions.map((s) => runSession(server.url, s, mainJs, moduleIn)));
      const verdicts: string[] = [];
      sessions.forEach((session, i) => {
        const { samples, snaps } = results[i];
        const at = (m: number) => samples.find((s) => s.minute === m)!;
        const base = at(session.base);
        const last = samples[samples.length - 1];
        const ratio = last.used / base.used;
        const title =
          session.name === 'warm'
            ? `warm: V8 as shipped, ${MINUTES} min; judged on ${MINUTES} vs ${HALF} min (after the JIT's warm-up)`
            : `no-opt: V8 --max-opt=${session.maxOpt} (no optimising compiler), ${HALF} min; judged on ${HALF} vs ${FIRST} min`;
        console.log(`\n${title}`);
        console.log(HEADER);
        for (const s of samples) console.log(row(s));
        const verdict = `ratio heap(${last.minute} min)/heap(${base.minute} min): ${ratio.toFixed(3)} (CDP usedSize), ${(last.perfUsed / base.perfUsed).toFixed(3)} (performance.memory) (target ≤ ${TARGET}) — ${ratio <= TARGET ? 'target met' : 'TARGET MISSED'}`;
        console.log(`  ${verdict}`);
        verdicts.push(`${session.name.padEnd(6)} ${verdict}`);
        if (session.base !== samples[0].minute)
          console.log(`  (not judged: heap(${last.minute} min)/heap(${samples[0].minute} min) ${(last.used / samples[0].used).toFixed(3)}, which includes the JIT's warm-up)`);
        console.log(`  DOM nodes ${base.nodes} → ${last.nodes}, listeners ${base.listeners} → ${last.listeners}; ${last.stats.answered - base.stats.answered} API refreshes in between`);
        if (DIFF) {
          printDiff(snaps[0].kinds, snaps[1].kinds);
          printNewCode(snaps[0].code, snaps[1].code);
        }
      });
      console.log('\nsummary');
      for (const v of verdicts) console.log(`  ${v}`);
    } finally {
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
