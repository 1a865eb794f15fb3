// `npm run serve` runs the compiled server (scripts/build-server.mjs → dist-server/), not TypeScript: built the
// same way into a folder of its own, started with plain node (no tsx loader), it answers sign-in and a query on a
// SQLite data source, which runs in the data-source pool's own process (the compiled pool-runner.js beside it).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD, encryptFor } from '../testing/server.js';

const repo = path.resolve(import.meta.dirname, '../..');
let outDir = '';
let dataDir = '';
let child: ChildProcess | undefined;
let output = '';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function call<T = any>(base: string, method: string, p: string, body?: unknown, token?: string): Promise<{ status: number; msg: string; data: T }> {
  const res = await fetch(base + p, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as { status: number; msg: string; data: T };
}

/** Processes whose parent is pid, with their command lines (Linux /proc). */
function childrenOf(pid: number): string[] {
  const out: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' '));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

beforeAll(async () => {
  // inside the repository (.test-results is ignored by git and lint), so the bundle's package imports resolve
  mkdirSync(path.join(repo, '.test-results'), { recursive: true });
  outDir = mkdtempSync(path.join(repo, '.test-results', 'server-build-'));
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs', '--outdir', outDir], { cwd: repo, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'console-compiled-'));
}, 60_000);

afterAll(() => {
  child?.kill('SIGTERM');
  if (outDir) rmSync(outDir, { recursive: true, force: true });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the compiled server', () => {
  it('is what `npm run serve` runs, and `npm run build` builds it', () => {
    const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8'));
    expect(pkg.scripts.serve).toBe('node dist-server/main.js');
    expect(pkg.scripts.build).toContain('node scripts/build-server.mjs');
    expect(readFileSync(path.join(repo, 'scripts', 'start.mjs'), 'utf8')).toContain("'dist-server', 'main.js'");
  });

  it('starts with plain node and runs a SQLite data source query in the compiled pool process', async () => {
    expect(existsSync(path.join(outDir, 'main.js')) && existsSync(path.join(outDir, 'pool-runner.js'))).toBe(true);
    let base = '';
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ADMIN_PASSWORD: TEST_PASSWORD,
        DEMO_PASSWORD: TEST_PASSWORD,
        DEMO_DATA: 'on',
        // the build sits one folder deeper than dist-server/ would: say where the repository's schemas/ are
        SCHEMAS_ROOT: repo,
        DIST_DIR: path.join(dataDir, 'no-dist'),
      };
      for (const k of ['DATABASE_URL', 'REDIS_URL', 'NODE_OPTIONS']) delete env[k];
      output = '';
      let exited = false;
      const started = spawn(process.execPath, [path.join(outDir, 'main.js')], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
      child = started;
      started.stdout!.on('data', (d) => (output += d));
      started.stderr!.on('data', (d) => (output += d));
      started.on('exit', () => (exited = true));
      for (let i = 0; i < 300 && !/已启动/.test(output) && !exited; i++) await new Promise((r) => setTimeout(r, 100));
      if (/已启动/.test(output)) {
        base = `http://127.0.0.1:${port}`;
        break;
      }
      if (exited && /EADDRINUSE/.test(output) && attempt < 3) continue;
      throw new Error(`the compiled server did not start: ${output}`);
    }

    const pem = (await call<string>(base, 'GET', '/api/uams/publicKey')).data;
    const login = await call<{ token: string }>(base, 'POST', '/api/uams/login', { loginType: 'password', area: '+86', mobilePhone: 'admin', password: encryptFor(pem, TEST_PASSWORD) });
    expect(login.status).toBe(0);
    const q = await call<{ rows: Array<{ n: number }> }>(base, 'POST', '/api/gemini/sqlQuery/execute', { queryType: 'SQL', dsName: 'demo_sqlite', script: 'select count(*) as n from district_sales' }, login.data.token);
    expect(q).toMatchObject({ status: 0 });
    expect(q.data.rows[0].n).toBeGreaterThan(0);
    // the statement ran in the pool's process: the compiled runner, started with plain node
    const kids = childrenOf(child!.pid!);
    expect(kids.some((c) => c.includes(path.join(outDir, 'pool-runner.js')))).toBe(true);
    expect(kids.join('\n')).not.toContain('tsx');
  });
});
