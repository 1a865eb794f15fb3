// A picture of a console page for a subscription's mail, taken by a headless Chromium on the server when
// SCREENSHOT_CHROMIUM names one (and playwright-core is installed: a development dependency here, so a production
// install that wants pictures adds it — README). The page is opened on this instance's own address under the
// recipient's session, put into the console's own storage before its scripts run (never in an address, never in a
// framed page of another site); every request to any other address is refused, so an embedded web page can neither
// be reached through this browser nor read the session; the browser is closed after each picture. No browser, or a
// page that will not draw: no picture (null), and the mail goes without.
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
  // the address this instance listens on (any address: its loopback)
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '[::1]' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${host}:${address.port}`;
  const browser = await chromium.launch({ executablePath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] }).catch((err: unknown) => {
    app.ctx.log.warn({ err: String(err).slice(0, 300) }, 'screenshot: the browser did not start');
    return null;
  });
  if (!browser) return null;
  try {
    const context = await browser.newContext({ viewport: { width: Math.min(MAX_SIDE, Math.max(320, size.width)), height: Math.min(MAX_SIDE, Math.max(240, size.height)) } });
    // only the console itself: an iframe, image or script of another address is never fetched from this machine
    await context.route('**/*', (route) => (new URL(route.request().url()).origin === origin ? route.continue() : route.abort()));
    await context.addInitScript(
      ({ t, o }: { t: string; o: string }) => {
        if (window.top === window && window.location.origin === o) window.localStorage.setItem('dsc.token', t);
      },
      { t: token, o: origin },
    );
    const page = await context.newPage();
    await page.goto(`${origin}${path}`, { waitUntil: 'networkidle', timeout: DRAW_TIMEOUT_MS });
    await page.waitForTimeout(SETTLE_MS);
    return await page.screenshot({ type: 'png' });
  } catch (err) {
    app.ctx.log.warn({ err: String(err).slice(0, 300), path }, 'screenshot: the page did not draw');
    return null;
  } finally {
    await browser.close().catch(() => {});
  }
}
