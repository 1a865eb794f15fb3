// Storybook, built as `npm run build-storybook` builds it, on a closed network: the static build succeeds, holds a
// story for every widget kind, nothing in it points at a CDN, and every story renders in Chromium without a page
// error or a console error. A screenshot of each story is kept in .test-results/story-shots/ for a person to look at.
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBrowser, launchBrowser, newPage } from './lib/browser';

const root = path.resolve(import.meta.dirname, '..');
const SHOTS = path.join(root, '.test-results', 'story-shots');
const CDN = /https?:\/\/(unpkg\.com|cdn\.jsdelivr\.net|cdnjs\.cloudflare\.com|fonts\.googleapis\.com|fonts\.gstatic\.com|gw\.alipayobjects\.com)/;
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.woff2': 'font/woff2', '.ttf': 'font/ttf', '.png': 'image/png', '.webm': 'video/webm' };

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

/** Serves the static build on loopback, nothing outside it. */
function serve(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const rel = path.normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    // the browser asks for /favicon.ico by itself; the build has none, and that is no fault of a story
    if (rel === '/favicon.ico') return void res.writeHead(204).end();
    let file = path.join(dir, rel);
    if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!file.startsWith(dir + path.sep) || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
}

describeBrowser('Storybook', () => {
  let out = '';
  let browser: Browser | undefined;
  let served: { server: Server; url: string } | undefined;
  let index: { entries: Record<string, { id: string; type: string; title: string; name: string; importPath: string }> } = { entries: {} };

  beforeAll(async () => {
    out = mkdtempSync(path.join(os.tmpdir(), 'storybook-'));
    const r = spawnSync('npx', ['storybook', 'build', '-o', out, '--quiet', '--disable-telemetry'], { cwd: root, encoding: 'utf8', timeout: 240_000 });
    if (r.status !== 0) throw new Error(`storybook build failed:\n${(r.stderr || r.stdout).slice(-3000)}`);
    index = JSON.parse(readFileSync(path.join(out, 'index.json'), 'utf8'));
    served = await serve(out);
    browser = await launchBrowser();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    served?.server.close();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it('holds a story for every widget kind and no CDN address', () => {
    const imports = Object.values(index.entries).map((e) => e.importPath).join('\n');
    // a kind is a folder widgets/<kind>/ with its declaration; its story sits beside it
    const kinds = readdirSync(path.join(root, 'widgets')).filter((k) => existsSync(path.join(root, 'widgets', k, `${k}.widget.json`)));
    expect(kinds.length).toBeGreaterThanOrEqual(17);
    for (const kind of kinds) expect(imports, `no story for ${kind}`).toContain(`./widgets/${kind}/${kind}.stories.tsx`);
    const withCdn = files(out).filter((f) => /\.(html|js|css)$/.test(f) && CDN.test(readFileSync(f, 'utf8')));
    expect(withCdn).toEqual([]);
  });

  it('lays out the word cloud in Chromium: words on the canvas, and in the picture the designer shows', async () => {
    const story = (suffix: string) => Object.values(index.entries).find((e) => e.title === '部件/词云' && e.id.endsWith(suffix))!.id;
    const page = await newPage(browser!, { viewport: { width: 800, height: 600 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
    await page.goto(`${served!.url}/iframe.html?id=${encodeURIComponent(story('--default'))}&viewMode=story`);
    // the words are drawn: at least 3% of the chart's canvas is painted (it is transparent where there is no word)
    const painted = () =>
      page.evaluate(() => {
        const canvas = document.querySelector<HTMLCanvasElement>('[data-widget="wordCloud"] canvas');
        const ctx = canvas?.getContext('2d');
        if (!canvas || !ctx) return 0;
        const px = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        let n = 0;
        for (let i = 3; i < px.length; i += 4) if (px[i] > 0) n++;
        return n / (canvas.width * canvas.height);
      });
    await expect.poll(painted, { timeout: 10_000 }).toBeGreaterThan(0.03);
    // the designer's canvas draws the chart as one SVG picture: the words are in it once laid out
    await page.goto(`${served!.url}/iframe.html?id=${encodeURIComponent(story('--as-picture'))}&viewMode=story`);
    const picture = () => page.evaluate(() => decodeURIComponent(document.querySelector('[data-widget="wordCloud"] img')?.getAttribute('src') ?? ''));
    await expect.poll(picture, { timeout: 10_000 }).toContain('数据治理');
    expect(await picture()).toContain('大屏');
    await page.close();
    expect(problems).toEqual([]);
  });

  it('renders every story without a page error or a console error', { timeout: 600_000 }, async () => {
    const stories = Object.values(index.entries).filter((e) => e.type === 'story');
    expect(stories.length).toBeGreaterThan(10);
    mkdirSync(SHOTS, { recursive: true });
    const page = await newPage(browser!, { viewport: { width: 1280, height: 900 } });
    let current = '';
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`${current}: pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`${current}: console: ${m.text()} (${m.location().url})`);
    });
    for (const { id } of stories) {
      current = id;
      await page.goto(`${served!.url}/iframe.html?id=${encodeURIComponent(id)}&viewMode=story`);
      await page.waitForSelector('#storybook-root > *', { timeout: 20_000 });
      // a widget kind's code loads on first use (widgets/kindCode.ts): look at the story once it has drawn
      await page.waitForFunction(() => !document.querySelector('#storybook-root [data-widget-loading]'), null, { timeout: 20_000 });
      if (await page.locator('#storybook-root [data-widget-failed]').count()) problems.push(`${id}: a widget kind's code did not load`);
      // charts draw in, monaco loads: give each story a moment to show what it shows
      await page.waitForTimeout(400);
      await page.screenshot({ path: path.join(SHOTS, `${id}.png`) });
    }
    await page.close();
    expect(problems).toEqual([]);
  });
});
