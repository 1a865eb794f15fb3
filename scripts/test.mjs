// `npm test`: runs every vitest project (unit, server, e2e) once and ends with the
// count line CI reads: "N passed, N failed[, N skipped]".
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';

const out = '.test-results/vitest.json';
mkdirSync('.test-results', { recursive: true });
if (existsSync(out)) rmSync(out);

const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...process.argv.slice(2)];
const run = spawnSync('npx', args, { stdio: 'inherit', env: process.env });

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(out)) {
  const report = JSON.parse(readFileSync(out, 'utf8'));
  passed = report.numPassedTests ?? 0;
  failed = report.numFailedTests ?? 0;
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A file that fails before any test runs (import error, hook failure) counts as one failure.
  for (const file of report.testResults ?? []) {
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed')) failed += 1;
  }
} else {
  failed = 1;
  console.error('vitest wrote no report');
}
const code = run.status === 0 && failed === 0 ? 0 : 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(code);
