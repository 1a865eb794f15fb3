// bench/versions/versions.ts: versions of designed items (issue 37 item 1), over HTTP against the compiled server
// (npx tsx bench/versions/versions.ts; README.md beside it).
//   restore   恢复 of a 200-widget screen's first version (POST /api/history/restore: every widget checked as the
//             designer's save checks it, written in one transaction, then kept as a new version); median of
//             BENCH_ROUNDS (7) restores alternating between two versions. Target ≤ 1 s.
//   growth    1,000 saves of a 30-widget screen (one widget moved each time, as the designer's Ctrl+S does) with
//             VERSIONS_KEPT above 1,000: the bytes the store keeps per save as whole snapshots (what is stored), and
//             what a jsondiffpatch delta per save and a gzip'd snapshot would take instead (measured on the same
//             versions, read back through GET /api/history/get), to choose between them.
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { create } from 'jsondiffpatch';
import { median, startServer } from '../dataset/setup.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const SAVES = Number(process.env.BENCH_SAVES ?? 1000);
const D = '/api/datav/screen';

const s = await startServer({ VERSIONS_KEPT: String(SAVES + 10) });
try {
  /** A screen of `n` widgets laid out on a grid (cloned from one added by the server), saved once. */
  const screenOf = async (name: string, n: number) => {
    const page = await s.call<{ id: number }>('POST', `${D}/info/save`, { pageName: name });
    const one = await s.call<any>('POST', `${D}/widget/add`, { pageId: page.id, widgetName: 'barChart' });
    const widgets = Array.from({ length: n }, (_, i) => ({ ...structuredClone(one), id: i ? randomUUID() : one.id, widgetProps: { ...one.widgetProps, viewProps: { ...one.widgetProps.viewProps, left: (i % 10) * 190, top: Math.floor(i / 10) * 110, width: 180, height: 100, title: `图表${i + 1}` } } }));
    await s.call('POST', `${D}/widget/update`, { pageId: page.id, widgets });
    return { id: page.id, widgets };
  };
  const versions = (id: number) => s.call<{ records: Array<{ id: number; size: number; number: number }> }>('GET', `/api/history/list?kind=screen&key=${id}`);

  // ---- restore of a 200-widget screen
  const big = await screenOf('两百组件', 200);
  for (let i = 1; i <= 2; i++) {
    big.widgets[0].widgetProps.viewProps.left += 10;
    await s.call('POST', `${D}/widget/update`, { pageId: big.id, widgets: big.widgets });
  }
  const bigVersions = (await versions(big.id)).records;
  const first = bigVersions[bigVersions.length - 2].id; // the 200-widget save (version 2; version 1 is the empty screen)
  const second = bigVersions[bigVersions.length - 3].id;
  const times: number[] = [];
  for (let r = 0; r < ROUNDS + 1; r++) {
    const t0 = performance.now();
    await s.call('POST', '/api/history/restore', { id: r % 2 ? second : first });
    if (r) times.push(performance.now() - t0);
  }
  const snapshotBytes = bigVersions[bigVersions.length - 2].size;
  console.log(`restore of a 200-widget screen (${(snapshotBytes / 1024).toFixed(0)} KB snapshot): median ${median(times).toFixed(0)} ms, fastest ${Math.min(...times).toFixed(0)} ms, slowest ${Math.max(...times).toFixed(0)} ms over ${ROUNDS} (target ≤ 1000 ms: ${median(times) <= 1000 ? 'met' : 'NOT met'})`);

  // ---- store growth per 1,000 saves of a 30-widget screen
  const small = await screenOf('三十组件', 30);
  const t0 = performance.now();
  for (let i = 0; i < SAVES; i++) {
    const w = small.widgets[i % 30];
    w.widgetProps.viewProps.left = (w.widgetProps.viewProps.left + 7) % 1700;
    await s.call('POST', `${D}/widget/update`, { pageId: small.id, widgets: small.widgets });
  }
  const saveMs = (performance.now() - t0) / SAVES;
  const kept = (await versions(small.id)).records.filter((v) => v.number > 2).reverse();
  const stored = kept.reduce((n, v) => n + v.size, 0);
  const diffpatch = create({ objectHash: (o: any, i?: number) => String(o?.id ?? `$$index:${i}`) });
  let deltas = 0;
  let gz = 0;
  let prev: unknown = (await s.call<{ content: unknown }>('GET', `/api/history/get?id=${(await versions(small.id)).records.find((v) => v.number === 2)!.id}`)).content;
  for (const v of kept) {
    const content = (await s.call<{ content: unknown }>('GET', `/api/history/get?id=${v.id}`)).content;
    deltas += Buffer.byteLength(JSON.stringify(diffpatch.diff(prev, content) ?? {}));
    gz += gzipSync(JSON.stringify(content)).length;
    prev = content;
  }
  const per = (bytes: number) => `${(bytes / kept.length / 1024).toFixed(2)} KB/save, ${((bytes / kept.length) * 1000 / 1024 / 1024).toFixed(1)} MB per 1,000 saves`;
  console.log(`${kept.length} saves of a 30-widget screen (${saveMs.toFixed(1)} ms per save, version kept included):`);
  console.log(`  whole snapshots (stored)   ${per(stored)}`);
  console.log(`  gzip'd snapshots           ${per(gz)}  (${(stored / gz).toFixed(1)}× smaller)`);
  console.log(`  jsondiffpatch deltas       ${per(deltas)}  (${(stored / deltas).toFixed(0)}× smaller; a restore must replay every delta since a snapshot)`);
  console.log(`  kept by default: the newest VERSIONS_KEPT (50) per item → at most ${((stored / kept.length) * 50 / 1024 / 1024).toFixed(2)} MB per screen`);
} finally {
  await s.stop();
}
