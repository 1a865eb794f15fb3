// What the two sweeps share (sweep-dialogs, sweep-mobile): the menu as the app itself loads it, the pages it
// routes to, a page's faults (uncaught errors, console errors) and waiting until a page has settled.
import type { Page } from 'playwright-core';
import { buildRoutes, type MenuEntry } from '../../runtime/shell/menu';
import { login } from './browser';

export interface Stop {
  name: string;
  path: string;
}

/**
 * Signs in and answers the menu tree the shell received from its own menu call (GET /api/menu/routes/get), so a
 * new menu entry is swept without touching the sweeps.
 */
export async function loginAndReadMenu(page: Page, baseURL: string, user: string, password: string): Promise<MenuEntry[]> {
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/menu/routes/get', { timeout: 30_000 });
  await login(page, baseURL, user, password);
  const body = await (await answer).json();
  if (body.status !== 0 || !Array.isArray(body.data)) throw new Error(`菜单调用失败：${JSON.stringify(body).slice(0, 200)}`);
  return body.data as MenuEntry[];
}

/** Every page a user reaches from the menu: routed entries the menu shows (hidden ones need a record to open). */
export function menuStops(menus: MenuEntry[]): Stop[] {
  return buildRoutes(menus)
    .filter((r) => !r.entry.hidden && r.entry.type !== 'F')
    .map((r) => ({ name: r.title, path: r.path }));
}

/**
 * Collects what a person would call "the page broke": uncaught errors (pageerror, also unhandled promise
 * rejections) and console messages of type error. Nothing is allowed: a refusal by the server reaches the user as
 * a message, never as a console error (every refusal is answered with HTTP 200 and status 1, see README).
 */
export function watchFaults(page: Page): { faults: string[]; take(): string[] } {
  const faults: string[] = [];
  page.on('pageerror', (e) => faults.push(`pageerror @ ${page.url()}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') faults.push(`console.error @ ${page.url()}: ${m.text()}`);
  });
  return { faults, take: () => faults.splice(0, faults.length) };
}

/** The shell's view of the current address (kept-alive views of other addresses are hidden). */
export const currentView = (page: Page) => page.locator('[data-view]:visible').first();

/** Opens `path` and waits until its view is there and nothing in it is loading any more. */
export async function visit(page: Page, baseURL: string, path: string): Promise<void> {
  await page.goto(`${baseURL}${path}`);
  await settled(page);
}

/** Waits until the current view shows and no spinner turns in it; then two frames so layout is final. */
export async function settled(page: Page): Promise<void> {
  await currentView(page).waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined);
  await page
    .waitForFunction(
      () => {
        const view = [...document.querySelectorAll<HTMLElement>('[data-view]')].find((v) => v.style.display !== 'none');
        return Boolean(view) && !view!.querySelector('.ant-spin-spinning, .ant-skeleton-active');
      },
      undefined,
      { timeout: 30_000 },
    )
    .catch(() => undefined);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}
