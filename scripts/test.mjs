// `npm test`: every check, each its own step, so a failure says which:
//   typecheck  tsc --noEmit over the whole tree (strict)
//   lint       eslint, including the layering rules and "no import circles" (eslint.config.js)
//   vitest     the projects unit, server and e2e (the e2e project also builds Storybook and renders every story)
// typecheck and lint run beside vitest. The last line is the count CI reads: "N passed, N failed[, N skipped]",
// where each static step counts as one test.
// `npm test -- <vitest args>` passes the arguments to vitest and skips the static steps.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';

const out = '.test-results/vitest.json';
mkdirSync('.test-results', { recursive: true });
if (existsSync(out)) rmSync(out);

const extra = process.argv.slice(2);

/** Runs a command; its output is kept and printed when it ends, so parallel steps do not interleave. */
function step(name, cmd, args, { inherit = false } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'], env: process.env });
    let text = '';
    if (!inherit) {
      child.stdout.on('data', (d) => (text += d));
      child.stderr.on('data', (d) => (text += d));
    }
    child.on('close', (code) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      if (!inherit && code !== 0) process.stdout.write(`\n== ${name} ==\n${text.slice(-20_000)}\n`);
      console.log(`step ${name}: ${code === 0 ? 'passed' : 'FAILED'} (${seconds} s)`);
      resolve(code === 0);
    });
  });
}

const statics = extra.length
  ? []
  : [step('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']), step('lint', 'npx', ['eslint', '.', '--max-warnings', '0'])];
const vitestOk = await step('vitest', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...extra], { inherit: true });
const staticResults = await Promise.all(statics);

let passed = staticResults.filter(Boolean).length;
let failed = staticResults.length - passed;
let skipped = 0;
if (existsSync(out)) {
  const report = JSON.parse(readFileSync(out, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A file that fails before any test runs (import error, hook failure) counts as one failure.
  for (const file of report.testResults ?? []) {
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed')) failed += 1;
  }
} else {
  failed += 1;
  console.error('vitest wrote no report');
}
const code = vitestOk && failed === 0 ? 0 : 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(code);
