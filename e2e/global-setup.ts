// vitest globalSetup for the e2e project:
//  1. builds the browser app (`npx vite build`) when dist/index.html is missing or older than any
//     source under runtime/, widgets/, designer/, common/, schemas/ or index.html — always when CI=true;
//     a lock directory keeps two engineers' runs from building into dist/ at once;
//  2. starts the real server (`npx tsx server-stub/main.ts`) on a free port with a fresh temp
//     DATA_DIR, ADMIN_PASSWORD='Admin@12345' and LOGINS_PER_MINUTE=1000 (every test file signs in from 127.0.0.1:
//     the production limit of 20 a minute would turn a fast run's next sign-in away), SCREENSHOT_CHROMIUM (a screen's
//     subscription carries its picture), NOTIFY_ALLOW_LOOPBACK=1 (the
//     suite's robots and SMTP server listen on this machine), waits until it answers;
//  3. provides `baseURL` and `adminPassword` to the tests (inject('baseURL')), and stops the
//     server on teardown, keeping its log files in .test-results/e2e-server-logs/ (a failure seen
//     only in CI can then be read from the server's side too).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    adminPassword: string;
    /** The server's temp DATA_DIR (SQLite data sources must name files inside DATA_DIR/sqlite). */
    dataDir: string;
    /** Password of the seeded role accounts (developer, devapprover, bizapprover, designer). */
    demoPassword: string;
  }
}

export const ADMIN_PASSWORD = 'Admin@12345';
export const DEMO_PASSWORD = 'Demo@12345';
const root = path.resolve(import.meta.dirname, '..');
const SOURCES = ['runtime', 'widgets', 'designer', 'common', 'schemas', 'index.html'];
const LOCK = path.join(root, '.test-results', 'build.lock');

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of readdirSync(p)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    max = Math.max(max, newestMtime(path.join(p, name)));
  }
  return max;
}

export function buildIsStale(): boolean {
  if (process.env.CI === 'true') return true;
  const index = path.join(root, 'dist', 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(root, s)) > built);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function withBuildLock(fn: () => void): Promise<void> {
  mkdirSync(path.dirname(LOCK), { recursive: true });
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // someone else is building; a lock older than 10 minutes is stale
      if (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > 600_000) rmSync(LOCK, { recursive: true, force: true });
      if (Date.now() - started > 600_000) throw new Error('等待他人构建超时（.test-results/build.lock）');
      await sleep(1000);
    }
  }
  try {
    fn();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

async function ensureBuilt(): Promise<void> {
  if (!buildIsStale()) return;
  await withBuildLock(() => {
    if (!buildIsStale() && process.env.CI !== 'true') return; // built by whoever held the lock
    console.log('[e2e] 构建前端：npx vite build');
    // Locally, old chunks stay in dist/ so a browser test someone else is running keeps loading its pages.
    const keep = process.env.CI === 'true' ? [] : ['--no-emptyOutDir'];
    // vitest runs with NODE_ENV=test, which would make Vite bundle React's development build: test what ships
    const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', ...keep], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
    if (r.status !== 0) throw new Error(`vite build 失败（退出码 ${r.status}）`);
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function waitUntilUp(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`服务端启动失败（退出码 ${child.exitCode}）：\n${log()}`);
    try {
      const res = await fetch(`${url}/api/uams/publicKey`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(300);
  }
  throw new Error(`服务端 90 秒内未就绪：\n${log()}`);
}

/**
 * Starts a deployment of the real server (`npx tsx server-stub/main.ts`) on a free port with `env` over the e2e
 * defaults; answers its URL and how to stop it (its log files copied to `keepLogs` first). The e2e run's own
 * server, and a second deployment for a test that moves work between two (e2e/workspace.test.ts).
 */
export async function startDeployment(env: Record<string, string> = {}, keepLogs?: string): Promise<{ baseURL: string; dataDir: string; stop(): Promise<void>; kill(): Promise<void> }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dsc-e2e-'));
  let output = '';
  const child = spawn('npx', ['tsx', 'server-stub/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOGINS_PER_MINUTE: '1000', NOTIFY_ALLOW_LOOPBACK: '1', SCREENSHOT_CHROMIUM: '/usr/bin/chromium', ADMIN_PASSWORD, DEMO_PASSWORD, DEMO_DATA: 'off', DIST_DIR: path.join(root, 'dist'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // own process group, so teardown stops npx and tsx's children together
  });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const baseURL = `http://127.0.0.1:${port}`;
  try {
    await waitUntilUp(baseURL, child, () => output.slice(-4000));
  } catch (e) {
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
    throw e;
  }
  const stop = async () => {
    if (child.pid && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await Promise.race([new Promise((r) => child.once('exit', r)), sleep(5000)]);
      if (child.exitCode === null && child.pid) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    const logs = path.join(dataDir, 'logs');
    if (keepLogs) {
      rmSync(keepLogs, { recursive: true, force: true });
      if (existsSync(logs)) cpSync(logs, keepLogs, { recursive: true });
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  /** Ends the instance at once, as a crash or `kill -9` would: no drain, no shutdown of its own. */
  const kill = async () => {
    if (child.pid && child.exitCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      await Promise.race([gone, sleep(5000)]);
    }
  };
  return { baseURL, dataDir, stop, kill };
}

export default async function setup(project: TestProject) {
  await ensureBuilt();
  const { baseURL, dataDir, stop } = await startDeployment({}, path.join(root, '.test-results', 'e2e-server-logs'));
  project.provide('baseURL', baseURL);
  project.provide('adminPassword', ADMIN_PASSWORD);
  project.provide('dataDir', dataDir);
  project.provide('demoPassword', DEMO_PASSWORD);

  return stop;
}
