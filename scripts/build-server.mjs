// Compiles the server for `npm run serve` / `npm start`: server-stub/main.ts and the data-source pool's runner
// (server-stub/connectors/sql/pool-runner.ts, started in a process of its own) become dist-server/main.js and
// dist-server/pool-runner.js, plain ES modules for Node 20. Packages stay imports from node_modules; the server's
// own code and common/ are bundled in.
// dist-server/ sits one level under the repository, as server-stub/ does: the server finds schemas/, dist/ and
// data/ from there (server-stub/config.ts), and pool-process.ts starts ./pool-runner.js beside itself.
//   node scripts/build-server.mjs [--outdir DIR]   (a test builds into a folder of its own, DIR inside the repository)
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const i = process.argv.indexOf('--outdir');
const outDir = i > 0 ? path.resolve(process.argv[i + 1]) : path.join(root, 'dist-server');

rmSync(outDir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['server-stub/main.ts', 'server-stub/connectors/sql/pool-runner.ts'],
  entryNames: '[name]',
  outdir: outDir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  packages: 'external',
  logLevel: 'warning',
});
