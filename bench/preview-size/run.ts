// Preview size: the JavaScript a browser downloads to preview a screen holding one widget of every kind the screen
// designer offers, against a screen holding one title. One run: builds the app (vite build, as shipped), starts the
// real server on a temp store, signs in, creates both screens through the API, then opens each preview in a fresh
// browser context with the cache off and sums the Script responses as transferred (brotli, headers included).
//   npx tsx bench/preview-size/run.ts [--keep-build <dir> | --use-build <dir>]   (--use-build: an app built beforehand, e.g. outside the browser lock)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ADMIN_PASSWORD = 'Admin@12345';

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => ok(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startServer(dist: string, dataDir: string) {
  const port = await freePort();
  let log = '';
  const child = spawn('npx', ['tsx', 'server-stub/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOGINS_PER_MINUTE: '1000', ADMIN_PASSWORD, DEMO_DATA: 'off', DIST_DIR: dist, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; await sleep(300)) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}:\n${log.slice(-3000)}`);
    if (await fetch(`${url}/api/uams/publicKey`).then((r) => r.ok, () => false)) {
      return { url, stop: () => child.pid && process.kill(-child.pid, 'SIGTERM') };
    }
  }
  if (child.pid) process.kill(-child.pid, 'SIGTERM');
  throw new Error(`server not up in 90 s:\n${log.slice(-3000)}`);
}

type Request = { get: (u: string, q?: object) => Promise<unknown>; post: (u: string, b: object) => Promise<unknown> };
const api = (page: Page) => ({
  get: <T>(u: string, q: object = {}) => page.evaluate(([u, q]) => (window as unknown as { __DSC__: { request: Request } }).__DSC__.request.get(u as string, q as object), [u, q] as const) as Promise<T>,
  post: <T>(u: string, b: object) => page.evaluate(([u, b]) => (window as unknown as { __DSC__: { request: Request } }).__DSC__.request.post(u as string, b as object), [u, b] as const) as Promise<T>,
});

async function login(page: Page, url: string) {
  await page.goto(`${url}/login`);
  await page.getByPlaceholder('账号').fill('admin');
  await page.getByPlaceholder('密码').fill(ADMIN_PASSWORD);
  await page.getByPlaceholder('密码').press('Enter');
  await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 60_000 });
  await page.getByTestId('user-menu').waitFor({ timeout: 60_000 });
}

interface Script {
  path: string;
  bytes: number;
}

/** Opens the preview in a fresh context (signed in, cache off) and returns the scripts it downloaded until every widget drew. */
async function measure(browser: Browser, url: string, pageId: number, widgets: number, state: NonNullable<Parameters<Browser['newContext']>[0]>['storageState']): Promise<Script[]> {
  const context = await browser.newContext({ storageState: state, viewport: { width: 1600, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const scripts = new Map<string, string>();
  const out: Script[] = [];
  cdp.on('Network.responseReceived', (e) => e.type === 'Script' && scripts.set(e.requestId, new URL(e.response.url).pathname));
  cdp.on('Network.loadingFinished', (e) => {
    const path = scripts.get(e.requestId);
    if (path) out.push({ path, bytes: e.encodedDataLength });
  });
  await page.goto(`${url}/datav/screen/preview?pageId=${pageId}`);
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid=preview-stage] [data-widget-id]').length === n && !document.querySelector('[data-widget-loading]'),
    widgets,
    { timeout: 120_000 },
  );
  await page.waitForLoadState('networkidle');
  const failed = await page.locator('[data-widget-failed]').count();
  const drawn = await page.locator('[data-testid=preview-stage] [data-widget]').count();
  await context.close();
  if (failed || errors.length) throw new Error(`preview of ${pageId}: ${failed} kinds failed to load; errors: ${errors.join('; ')}`);
  if (drawn < widgets) throw new Error(`preview of ${pageId}: ${drawn} of ${widgets} widgets drew`);
  return out;
}

const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
const sum = (xs: Script[]) => xs.reduce((n, s) => n + s.bytes, 0);

async function main() {
  const useAt = process.argv.indexOf('--use-build');
  const keepAt = useAt > 0 ? useAt : process.argv.indexOf('--keep-build');
  const dist = keepAt > 0 ? resolve(process.argv[keepAt + 1]) : mkdtempSync(join(tmpdir(), 'bench-preview-dist-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-preview-data-'));
  if (useAt < 0) {
    console.log(`building the app into ${dist} …`);
    const built = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', dist, '--emptyOutDir'], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
    if (built.status !== 0) throw new Error('vite build failed');
  }
  const server = await startServer(dist, dataDir);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const page = await browser.newPage();
    await login(page, server.url);
    const r = api(page);
    const catalogue = await r.get<Array<{ widgetType: string; widgetName?: string }>>('/datav/screen/widget/catalogue');
    const kinds = catalogue.filter((c) => c.widgetType === 'C' && c.widgetName).map((c) => c.widgetName!);
    const screen = async (name: string, names: string[]) => {
      const p = await r.post<{ id: number }>('/datav/screen/info/save', { pageName: name, width: 1920, height: 1080 });
      for (const [i, widgetName] of names.entries()) await r.post('/datav/screen/widget/add', { pageId: p.id, widgetName, left: (i % 8) * 240, top: Math.floor(i / 8) * 210 });
      return p.id;
    };
    const every = await screen('每种部件各一', kinds);
    const title = await screen('一个标题', ['singleLineTitle']);
    const state = await page.context().storageState();
    await page.close();

    const one = await measure(browser, server.url, title, 1, state);
    const all = await measure(browser, server.url, every, kinds.length, state);
    const onlyAll = all.filter((s) => !one.some((o) => o.path === s.path)).sort((a, b) => b.bytes - a.bytes);
    const onlyOne = one.filter((s) => !all.some((o) => o.path === s.path));
    console.log(`\npreview JavaScript transferred (Chromium, cache off, brotli as served; ${kinds.length} screen kinds)`);
    console.log(`  one title            : ${kb(sum(one))} in ${one.length} files; largest:`);
    for (const s of [...one].sort((a, b) => b.bytes - a.bytes).slice(0, 6)) console.log(`    ${String(s.bytes).padStart(8)}  ${s.path}`);
    console.log(`  one of every kind    : ${kb(sum(all))} in ${all.length} files`);
    console.log(`  ratio every / title  : ${(sum(all) / sum(one)).toFixed(2)}`);
    console.log(`  only in every-kind   : ${kb(sum(onlyAll))} in ${onlyAll.length} files; largest:`);
    for (const s of onlyAll.slice(0, 8)) console.log(`    ${String(s.bytes).padStart(8)}  ${s.path}`);
    if (onlyOne.length) console.log(`  only in one-title    : ${onlyOne.map((s) => s.path).join(', ')}`);
  } finally {
    await browser.close();
    server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (keepAt < 0) rmSync(dist, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
