// `npm start`: build the browser app (dist/) and the compiled server (dist-server/, scripts/build-server.mjs) when
// either is missing or older than its sources, then run the compiled server (what `npm run serve` runs).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'dist', 'index.html');

function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(p).filter((n) => n !== 'node_modules' && n !== 'generated').map((n) => newest(path.join(p, n))));
}

const sources = ['runtime', 'widgets', 'designer', 'schemas', 'index.html', 'vite.config.ts'].map((p) => newest(path.join(root, p)));
if (!existsSync(built) || Math.max(...sources) > statSync(built).mtimeMs) {
  console.log('正在构建前端…');
  // always the production bundle, whatever NODE_ENV the caller's shell has
  const r = spawnSync('npx', ['vite', 'build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const server = path.join(root, 'dist-server', 'main.js');
const serverSources = ['server-stub', 'common', 'scripts/build-server.mjs', 'package-lock.json'].map((p) => newest(path.join(root, p)));
if (!existsSync(server) || Math.max(...serverSources) > statSync(server).mtimeMs) {
  console.log('正在构建服务端…');
  const b = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const r = spawnSync(process.execPath, [server], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 0);
