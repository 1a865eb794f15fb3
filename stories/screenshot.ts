// Screenshots every story of the built Storybook (storybook-static) in Chromium, for a
// person to look at: `npm run build-storybook && npx tsx stories/screenshot.ts [outDir]`.
import { createReadStream, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright-core';

const root = join(process.cwd(), 'storybook-static');
const outDir = process.argv[2] ?? join(process.cwd(), '.test-results', 'story-shots');
const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.woff2': 'font/woff2', '.ttf': 'font/ttf' };

const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  let file = join(root, path);
  if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
  if (!file.startsWith(root) || !existsSync(file)) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
});

async function main() {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  mkdirSync(outDir, { recursive: true });
  const index = JSON.parse(readFileSync(join(root, 'index.json'), 'utf8')) as { entries: Record<string, { id: string; type: string }> };
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && !m.location().url.endsWith('/favicon.ico') && problems.push(`console: ${m.text()} ${m.location().url}`));
  for (const { id, type } of Object.values(index.entries)) {
    if (type !== 'story') continue;
    await page.goto(`http://127.0.0.1:${port}/iframe.html?id=${id}&viewMode=story`);
    await page.waitForSelector('#storybook-root > *', { timeout: 15_000 });
    await page.waitForTimeout(1500); // charts animate in, monaco loads
    await page.screenshot({ path: join(outDir, `${id}.png`), fullPage: true });
    console.log(`${id}.png`);
  }
  await browser.close();
  server.close();
  if (problems.length) {
    console.error(problems.join('\n'));
    process.exitCode = 1;
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
