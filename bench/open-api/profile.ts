// Summarises a V8 CPU profile (node --cpu-prof; bench/open-api/run.ts writes one with BENCH_CPU_PROF=<dir>): the
// functions with the most self time, and the share of a few groups (store, Redis, logging, validation, GC).
//   npx tsx bench/open-api/profile.ts <file.cpuprofile> [top=20]
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
const file = process.argv[2];
const top = Number(process.argv[3] ?? 20);
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<string, number>();
let total = 0;
let idle = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  const n = byId.get(id)!;
  const { functionName, url, lineNumber } = n.callFrame;
  if (functionName === '(idle)') {
    idle += dt;
    return;
  }
  total += dt;
  const where = url ? `${url.includes('node_modules') ? url.slice(url.lastIndexOf('node_modules/') + 13) : path.basename(url)}:${lineNumber + 1}` : '';
  const key = `${functionName || '(anonymous)'} ${where}`.trim();
  self.set(key, (self.get(key) ?? 0) + dt);
});
const pct = (v: number) => ((100 * v) / total).toFixed(1).padStart(5);
console.log(`busy ${(total / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s; self time of the busy part:`);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)} %  ${k}`);
const groups: Record<string, RegExp> = {
  'kysely + better-sqlite3 + pg': /kysely\/|better-sqlite3|pg\/|pg-protocol/,
  ioredis: /ioredis/,
  'pino / logs': /pino|sonic-boom/,
  'ajv / validation': /ajv/,
  '(garbage collector)': /^\(garbage collector\)/,
  'writev / net': /^writev|^writeBuffer|^writeGeneric/,
};
console.log('groups:');
for (const [g, re] of Object.entries(groups)) {
  let v = 0;
  for (const [k, t] of self) if (re.test(k)) v += t;
  console.log(`${pct(v)} %  ${g}`);
}
