// What the browser benchmarks share: a Vite build of a bench folder's entry page, a static server for it on
// loopback, and the median.
import react from '@vitejs/plugin-react';
import { createReadStream, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { build } from 'vite';

/** A numeric command-line option: `--name value`, or `dflt`. */
export function numArg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Builds `root`'s index.html into outDir (unminified when a profile should name functions). */
export async function buildPage(root: string, outDir: string, minify = true) {
  await build({
    root,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 10_000, minify },
  });
}

/**
 * Which source module a line of an unminified build comes from (Rolldown heads each module with a `// <path>`
 * comment): `(file, line) => module`, line 0-based, file the asset's name.
 */
export function bundleModules(outDir: string): (file: string, line: number) => string | undefined {
  const regions = new Map<string, Array<{ from: number; mod: string }>>();
  for (const f of readdirSync(join(outDir, 'assets')).filter((x) => x.endsWith('.js'))) {
    const list: Array<{ from: number; mod: string }> = [];
    readFileSync(join(outDir, 'assets', f), 'utf8')
      .split('\n')
      .forEach((l, i) => {
        const m = /^\/\/ (\S+\/\S+\.[cm]?[jt]sx?)$/.exec(l);
        if (m) list.push({ from: i, mod: m[1] });
      });
    regions.set(f, list);
  }
  return (file, line) => regions.get(file)?.findLast((x) => x.from <= line)?.mod;
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg' };

/** Serves dir on 127.0.0.1 (a free port); paths outside it answer 404. */
export function serve(dir: string) {
  const server = createServer((req, res) => {
    let file = join(dir, normalize(new URL(req.url ?? '/', 'http://x').pathname));
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!file.startsWith(dir) || !existsSync(file)) return void res.writeHead(404).end();
    // cross-origin isolated: the page's clocks (performance.now, requestAnimationFrame times) then resolve to
    // microseconds instead of the 100 µs Chromium coarsens them to, which made one 60 Hz frame read 16.6–16.8 ms
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
    });
    createReadStream(file).pipe(res);
  });
  return new Promise<{ url: string; close: () => void }>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => server.close() })),
  );
}

export interface RoundsResult {
  /** every sample per size */
  all: Record<number, number[]>;
  /** each round's median per size */
  perRound: Record<number, number[]>;
}

/**
 * Builds `dir` into a temp folder and serves it, opens one headless Chromium page and runs `round(page, url, size)` for each size
 * in turn, alternating the order every round so neither size always runs warmer; one uncounted warm-up
 * round first (the largest size unless `warmUp` names another). Page errors fail the run.
 */
export async function alternateRounds(
  dir: string,
  opts: { sizes: number[]; rounds: number; viewport: { width: number; height: number }; /** the uncounted warm-up round's size (default the largest) */ warmUp?: number },
  round: (page: import('playwright-core').Page, url: string, size: number) => Promise<number[]>,
): Promise<RoundsResult> {
  const { chromium } = await import('playwright-core');
  const outDir = mkdtempSync(join(tmpdir(), 'bench-'));
  await buildPage(dir, outDir);
  const server = await serve(outDir);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const page = await browser.newPage({ viewport: opts.viewport });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const all: Record<number, number[]> = Object.fromEntries(opts.sizes.map((n) => [n, []]));
    const perRound: Record<number, number[]> = Object.fromEntries(opts.sizes.map((n) => [n, []]));
    await round(page, server.url, opts.warmUp ?? Math.max(...opts.sizes)); // warm-up (JIT, caches), not counted
    for (let r = 0; r < opts.rounds; r++) {
      for (const n of r % 2 ? [...opts.sizes].reverse() : opts.sizes) {
        const s = await round(page, server.url, n);
        all[n].push(...s);
        perRound[n].push(median(s));
      }
    }
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    return { all, perRound };
  } finally {
    await browser.close();
    server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** Prints each size's median (and its rounds') and the ratio large / small against its target. */
export function printRatio(title: string, r: RoundsResult, small: number, large: number, label: (n: number) => string, target: number) {
  const m = (n: number) => median(r.all[n]);
  console.log(title);
  for (const n of [small, large]) console.log(`  ${label(n).padEnd(11)}: median ${m(n).toFixed(2)} ms  (round medians ${r.perRound[n].map((x) => x.toFixed(2)).join(', ')})`);
  console.log(`  ratio ${large}/${small}: ${(m(large) / m(small)).toFixed(2)} (target ≤ ${target})`);
}
