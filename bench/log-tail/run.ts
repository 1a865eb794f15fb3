// bench/log-tail: the log monitor reads from the end of a file, so its newest page must cost the same on a
// 1 GB file as on a 10 MB one, and a search through the whole file must not hold the file in memory.
// One run (npx tsx bench/log-tail/run.ts):
//   1. writes a ~1 GB and a ~10 MB pino request log (the server's own line shape) into a temp DATA_DIR;
//   2. newest page (pageSize 50, no search) of each through the real module code (searchLogs + logFiles),
//      interleaved, median of REPS each, and the same through the real HTTP route; prints the ratios;
//   3. searches a string written only a few times near the start of the 1 GB file (the oldest lines: the
//      scan reads the whole file backwards), sampling process RSS meanwhile; prints baseline, peak, growth
//      and throughput.
// The temp files are removed at the end, whatever happens.
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, statfsSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { logFiles } from '../../server-stub/core/logs.js';
import { searchLogs } from '../../server-stub/modules/monitor/index.js';
import { linesNewestFirst } from '../../server-stub/modules/monitor/reader.js';
import { startTestServer } from '../../server-stub/testing/server.js';

const BIG_BYTES = Number(process.env.BENCH_BIG_MB ?? 1024) * 1024 * 1024;
const SMALL_BYTES = 10 * 1024 * 1024;
const REPS = Number(process.env.BENCH_REPS ?? 200);
const NEEDLE = 'needle-7f3a9c';
const NEEDLE_LINES = 3;
const MB = 1024 * 1024;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (n: number, d = 3) => n.toFixed(d);

const ROUTES = ['/api/sys/var/searchList', '/api/gemini/datasource/searchList', '/api/gemini/api/design/search', '/api/datav/screen/info/get', '/api/uams/session/find', '/api/monitor/log/searchList'];
const METHODS = ['POST', 'POST', 'POST', 'GET', 'GET', 'POST'];
const USERS = ['admin', 'developer', 'devapprover', 'bizapprover'];
const STATUSES = [200, 200, 200, 200, 200, 200, 200, 401, 403, 404];

/**
 * Writes `bytes` of request lines as app.ts logs them (pino JSON, one per line), in 4 MB writes.
 * `needleAt` are line numbers whose msg carries NEEDLE instead of 'request'. Returns the line count.
 */
function writeLog(file: string, service: string, bytes: number, needleAt: Set<number>): number {
  const fd = openSync(file, 'w', 0o600);
  const t0 = Date.parse('2026-11-01T00:00:00Z');
  let written = 0;
  let n = 0;
  try {
    while (written < bytes) {
      const lines: string[] = [];
      let size = 0;
      while (size < 4 * MB && written + size < bytes) {
        const r = (n * 2654435761) >>> 0; // cheap spread of values, deterministic
        const k = r % ROUTES.length;
        const line = `{"level":${r % 50 === 0 ? 40 : 30},"time":"${new Date(t0 + n * 7).toISOString()}","pid":4242,"hostname":"console-1","service":"${service}","reqId":"req-${n.toString(36)}","ip":"10.0.${(r >>> 8) & 255}.${r & 255}","method":"${METHODS[k]}","route":"${ROUTES[k]}","status":${STATUSES[r % STATUSES.length]},"ms":${r % 97},"user":"${USERS[r % USERS.length]}","msg":"${needleAt.has(n) ? NEEDLE : 'request'}"}\n`;
        lines.push(line);
        size += line.length; // ASCII only: characters are bytes
        n++;
      }
      const buf = Buffer.from(lines.join(''), 'latin1');
      writeSync(fd, buf);
      written += buf.length;
    }
  } finally {
    closeSync(fd);
  }
  return n;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** Median times of `a` and `b`, run alternately so that drift of the machine hits both alike. */
async function pairedMedians(a: () => Promise<unknown>, b: () => Promise<unknown>, reps: number) {
  for (let i = 0; i < 20; i++) {
    await a();
    await b();
  }
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < reps; i++) {
    if (i % 2) {
      ta.push(await timed(a));
      tb.push(await timed(b));
    } else {
      tb.push(await timed(b));
      ta.push(await timed(a));
    }
  }
  return { a: median(ta), b: median(tb) };
}

// gc() without a command-line flag: the baseline of a memory figure is taken after a full collection
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

interface Scan {
  ms: number;
  baseRss: number;
  baseHeap: number;
  /** Highest RSS in each tenth of the scan's duration (the scan runs at an even pace: tenths of the file). */
  tenths: number[];
  peakHeap: number;
  /** Heap used after a full collection once the scan is over: what the scan kept. */
  afterHeap: number;
}

/** Runs `fn`, sampling process.memoryUsage() every 5 ms from a baseline taken after a full GC. */
async function measureScan(fn: () => Promise<void>): Promise<Scan> {
  gc();
  await new Promise((r) => setTimeout(r, 100));
  gc();
  const base = process.memoryUsage();
  const samples: { t: number; rss: number; heap: number }[] = [];
  const t0 = performance.now();
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    samples.push({ t: performance.now() - t0, rss: m.rss, heap: m.heapUsed });
  }, 5);
  try {
    await fn();
  } finally {
    clearInterval(sampler);
  }
  const ms = performance.now() - t0;
  const tenths = Array.from({ length: 10 }, () => base.rss);
  for (const x of samples) tenths[Math.min(9, Math.floor((x.t / ms) * 10))] = Math.max(tenths[Math.min(9, Math.floor((x.t / ms) * 10))], x.rss);
  gc();
  return { ms, baseRss: base.rss, baseHeap: base.heapUsed, tenths, peakHeap: Math.max(base.heapUsed, ...samples.map((x) => x.heap)), afterHeap: process.memoryUsage().heapUsed };
}

function report(title: string, s: Scan, bytes: number, lineCount: number) {
  const mb = (n: number) => (n / MB).toFixed(1);
  const peak = Math.max(...s.tenths);
  console.log(`${title}: whole file in ${(s.ms / 1000).toFixed(1)} s → ${(bytes / MB / (s.ms / 1000)).toFixed(1)} MB/s, ${Math.round(lineCount / (s.ms / 1000)).toLocaleString('en')} lines/s`);
  console.log(`  RSS baseline ${mb(s.baseRss)} MB, peak ${mb(peak)} MB, growth ${mb(peak - s.baseRss)} MB; growth by tenth of the scan: ${s.tenths.map((x) => mb(x - s.baseRss)).join(' ')}`);
  console.log(`  heap used ${mb(s.baseHeap)} → peak ${mb(s.peakHeap)} MB, ${mb(s.afterHeap)} MB after GC (kept: ${mb(s.afterHeap - s.baseHeap)} MB)`);
}

const tmp = os.tmpdir();
const fs0 = statfsSync(tmp);
const free = fs0.bavail * fs0.bsize;
if (free < BIG_BYTES + SMALL_BYTES + 512 * MB) {
  console.error(`not enough space in ${tmp}: ${(free / MB).toFixed(0)} MB free, ${((BIG_BYTES + SMALL_BYTES) / MB + 512).toFixed(0)} MB needed`);
  process.exit(1);
}
console.log(`${tmp}: ${(free / 1024 / MB).toFixed(1)} GB free`);

const dataDir = mkdtempSync(path.join(tmp, 'bench-log-tail-'));
let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
try {
  mkdirSync(path.join(dataDir, 'logs'), { recursive: true, mode: 0o700 });
  // big: platform.log (needles in the first 1 % of lines, i.e. ~99 % of the file read backwards before them);
  // small: admin.log. Two services of one DATA_DIR, so the HTTP route reads the same files.
  const bigFile = path.join(dataDir, 'logs', 'platform.log');
  const smallFile = path.join(dataDir, 'logs', 'admin.log');
  const t = performance.now();
  const estLines = Math.floor(BIG_BYTES / 250);
  const needles = new Set(Array.from({ length: NEEDLE_LINES }, (_, i) => Math.floor((estLines / 100) * (i + 1) / NEEDLE_LINES)));
  const bigLines = writeLog(bigFile, 'platform', BIG_BYTES, needles);
  const smallLines = writeLog(smallFile, 'admin', SMALL_BYTES, new Set());
  const bigSize = statSync(bigFile).size;
  const smallSize = statSync(smallFile).size;
  console.log(`wrote ${(bigSize / MB).toFixed(0)} MB (${bigLines.toLocaleString('en')} lines) and ${(smallSize / MB).toFixed(1)} MB (${smallLines.toLocaleString('en')} lines) in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  // 2a. the module's own code, as the route calls it
  const bigFiles = logFiles(dataDir, 'platform');
  const smallFiles = logFiles(dataDir, 'admin');
  const newest = (files: string[]) => async () => {
    const page = await searchLogs(files, { pageNum: 1, pageSize: 50 }, 3000);
    if (page.records.length !== 50 || !page.more || page.partial) throw new Error(`unexpected page: ${page.records.length} records, more ${page.more}, partial ${page.partial}`);
  };
  const mod = await pairedMedians(newest(bigFiles), newest(smallFiles), REPS);
  const modRatio = mod.a / mod.b;
  console.log(`newest page, searchLogs: 1 GB ${fmt(mod.a)} ms, 10 MB ${fmt(mod.b)} ms (medians of ${REPS}) → ratio ${fmt(modRatio, 2)}`);

  // 2b. the real HTTP route on a server whose DATA_DIR holds both files (its own request lines go to
  // admin.log / auth.log and stay small; LOG_MAX_BYTES high so the 1 GB file is never rotated away)
  server = await startTestServer({ env: { DATA_DIR: dataDir, LOG_MAX_BYTES: String(8 * 1024 * MB) } });
  const s = server;
  const viaHttp = (serveName: string) => async () => {
    const r = await s.request('POST', '/api/monitor/log/searchList', { serveName, pageSize: 50 });
    if (r.body.status !== 0 || r.body.data.records.length !== 50) throw new Error(`route: ${r.body.msg}`);
  };
  const http = await pairedMedians(viaHttp('platform'), viaHttp('admin'), REPS);
  const httpRatio = http.a / http.b;
  console.log(`newest page, HTTP route: 1 GB ${fmt(http.a)} ms, 10 MB ${fmt(http.b)} ms (medians of ${REPS}) → ratio ${fmt(httpRatio, 2)}`);
  await server.close();
  server = undefined;

  // 3. a rare string near the start of the 1 GB file: the scan runs through (almost) the whole file.
  // First the bare reader (lines only), then the real search (each line parsed and formatted, as the route does).
  let lines = 0;
  const bare = await measureScan(async () => {
    for await (const l of linesNewestFirst(bigFiles, Date.now() + 30 * 60 * 1000, { timedOut: false })) lines += l.length > 0 ? 1 : 0;
  });
  if (lines !== bigLines) throw new Error(`reader saw ${lines} lines of ${bigLines}`);
  report('reader alone (linesNewestFirst)', bare, bigSize, bigLines);
  let found: Awaited<ReturnType<typeof searchLogs>> | undefined;
  const scan = await measureScan(async () => {
    found = await searchLogs(bigFiles, { pageNum: 1, pageSize: 50, search: NEEDLE }, 30 * 60 * 1000);
  });
  if (!found || found.partial || found.records.length !== NEEDLE_LINES || !found.records.every((r) => r.msg.startsWith(NEEDLE))) throw new Error(`search found ${found?.records.length} of ${NEEDLE_LINES} (partial ${found?.partial})`);
  report(`search '${NEEDLE}' (${found.records.length} lines found)`, scan, bigSize, bigLines);
  console.log(`\nnewest page ratio 1 GB / 10 MB: ${fmt(modRatio, 2)} (module), ${fmt(httpRatio, 2)} (HTTP) — target ≤ 2: ${Math.max(modRatio, httpRatio) <= 2 ? 'met' : 'MISSED'}`);
} finally {
  await server?.close().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
}
