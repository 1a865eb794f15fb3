// A picture of a console page for a subscription's mail, taken by a headless Chromium on the server when
// SCREENSHOT_CHROMIUM names one (and playwright-core is installed: a development dependency here, so a production
// install that wants pictures adds it — README). The page is opened on this instance's own address under the
// recipient's session, put into the page's storage before its scripts run (never in an address); the browser is
// closed after each picture. No browser, or a page that will not draw: no picture (null), and the mail goes without.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How long a page may take to draw before the picture is given up. */
const DRAW_TIMEOUT_MS = 30_000;
/** Charts animate in: the picture waits this long after the page is quiet. */
const SETTLE_MS = 1500;
const MAX_SIDE = 3840;

export async function screenshot(app: FastifyInstance, path: string, token: string, size: { width: number; height: number }): Promise<Buffer | null> {
  const executablePath = app.ctx.config.screenshotChromium;
  if (!executablePath) return null;
  let chromium: typeof import('playwright-core').chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch {
    app.ctx.log.warn('screenshot: playwright-core is not installed; subscriptions go without pictures');
    return null;
  }
  const address = app.server.address() as AddressInfo | null;
  if (!address || typeof address !== 'object') return null;
  const browser = await chromium.launch({ executablePath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] }).catch((err: unknown) => {
    app.ctx.log.warn({ err: String(err).slice(0, 300) }, 'screenshot: the browser did not start');
    return null;
  });
  if (!browser) return null;
  try {
    const context = await browser.newContext({ viewport: { width: Math.min(MAX_SIDE, Math.max(320, size.width)), height: Math.min(MAX_SIDE, Math.max(240, size.height)) } });
    await context.addInitScript((t: string) => window.localStorage.setItem('dsc.token', t), token);
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${address.port}${path}`, { waitUntil: 'networkidle', timeout: DRAW_TIMEOUT_MS });
    await page.waitForTimeout(SETTLE_MS);
    return await page.screenshot({ type: 'png' });
  } catch (err) {
    app.ctx.log.warn({ err: String(err).slice(0, 300), path }, 'screenshot: the page did not draw');
    return null;
  } finally {
    await browser.close().catch(() => {});
  }
}
