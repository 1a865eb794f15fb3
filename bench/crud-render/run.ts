// npx tsx bench/crud-render/run.ts — declared CRUD page vs the same page hand-written with antd,
// both in one Chromium: first render and re-render after a sort, medians over repeated runs.
import { createServer } from 'node:http';
import { readFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { chromium } from 'playwright-core';

const here = resolve(import.meta.dirname);
const RUNS = Number(process.env.RUNS ?? 25);
const WARMUP = 4;

const out = mkdtempSync(join(tmpdir(), 'crud-bench-'));
await build({ root: here, base: './', logLevel: 'error', plugins: [react()], build: { outDir: out, emptyOutDir: true, minify: true } });

const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
const server = createServer((req, res) => {
  const file = join(out, decodeURIComponent((req.url ?? '/').split('?')[0]) === '/' ? 'index.html' : decodeURIComponent(req.url!.split('?')[0]));
  if (!file.startsWith(out) || !existsSync(file)) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as { port: number }).port;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => document.title === 'ready');
  type R = { first: number; sort: number };
  const run = (kind: 'declared' | 'hand') => page.evaluate((k) => (window as unknown as { runOnce(k: string): Promise<R> }).runOnce(k), kind);
  for (let i = 0; i < WARMUP; i++) { await run('declared'); await run('hand'); }
  const res: Record<'declared' | 'hand', R[]> = { declared: [], hand: [] };
  for (let i = 0; i < RUNS; i++) {
    // alternate the order so neither side always runs on a warmer heap
    const order: ('declared' | 'hand')[] = i % 2 ? ['hand', 'declared'] : ['declared', 'hand'];
    for (const k of order) res[k].push(await run(k));
  }
  const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
  const d = { first: median(res.declared.map((r) => r.first)), sort: median(res.declared.map((r) => r.sort)) };
  const h = { first: median(res.hand.map((r) => r.first)), sort: median(res.hand.map((r) => r.sort)) };
  const fmt = (n: number) => n.toFixed(1).padStart(7);
  console.log(`crud-render: 12 columns × 100 rows, ${RUNS} runs each (after ${WARMUP} warm-up), medians in ms`);
  console.log(`                 declared     hand    ratio`);
  console.log(`first render     ${fmt(d.first)}  ${fmt(h.first)}    ${(d.first / h.first).toFixed(3)}`);
  console.log(`sort re-render   ${fmt(d.sort)}  ${fmt(h.sort)}    ${(d.sort / h.sort).toFixed(3)}`);
  const total = (d.first + d.sort) / (h.first + h.sort);
  // runs i of both sides are adjacent in time, so their ratio cancels most of the machine's load swings
  const paired = median(res.declared.map((r, i) => (r.first + r.sort) / (res.hand[i].first + res.hand[i].sort)));
  console.log(`ratio of medians (first + sort): ${total.toFixed(3)}`);
  console.log(`median of paired ratios (first + sort): ${paired.toFixed(3)}  (target ≤ 1.15) ${paired <= 1.15 ? 'OK' : 'OVER'}`);
} finally {
  await browser.close();
  server.close();
  rmSync(out, { recursive: true, force: true });
}
