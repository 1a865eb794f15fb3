// Helpers for browser tests (playwright-core driving Debian's Chromium).
//
//   import { describeBrowser, launchBrowser, login, shot } from './lib/browser';
//   describeBrowser('数据源', () => {
//     let browser: Browser; let page: Page;
//     beforeAll(async () => { browser = await launchBrowser(); page = await browser.newPage(); });
//     afterAll(() => browser?.close());
//     it('...', async () => {
//       await login(page, inject('baseURL'), 'admin', inject('adminPassword'));
//       await shot(page, 'datasource-list');   // → .test-results/screens/datasource-list.png
//     });
//   });
//
// Without /usr/bin/chromium the suite is skipped with the reason printed, unless REQUIRE_BROWSER=1
// (CI), where it fails instead.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { describe, it } from 'vitest';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENS_DIR = path.resolve(import.meta.dirname, '..', '..', '.test-results', 'screens');

export function browserMissingReason(): string | null {
  return existsSync(CHROMIUM) ? null : `未找到 Chromium（${CHROMIUM}），跳过浏览器测试；安装 chromium 与 fonts-noto-cjk 后重试`;
}

/** describe() that skips (or fails under REQUIRE_BROWSER=1) when Chromium is missing. */
export function describeBrowser(name: string, fn: () => void): void {
  const missing = browserMissingReason();
  if (!missing) {
    describe(name, fn);
    return;
  }
  if (process.env.REQUIRE_BROWSER === '1') {
    describe(name, () => {
      it('需要浏览器', () => {
        throw new Error(missing);
      });
    });
    return;
  }
  console.warn(`[e2e] ${name}: ${missing}`);
  describe.skip(name, fn);
}

/** Headless Chromium; extraArgs e.g. ['--host-resolver-rules=MAP console.test 127.0.0.1']. */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', ...extraArgs],
  });
}

/** A fresh page (own context: own localStorage) with a desktop viewport and Chinese locale. */
export async function newPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  // Reduced motion turns antd's motion off (App.tsx): a dialog is where it will stay the moment it shows, so a
  // click aimed at it cannot miss while it zooms in.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN', reducedMotion: 'reduce', ...options });
  return context.newPage();
}

/** Signs in through the login page and waits until the shell shows (the user menu is there). */
export async function login(page: Page, baseURL: string, user: string, password: string): Promise<void> {
  await page.goto(`${baseURL}/login`);
  await page.getByPlaceholder('账号').fill(user);
  await page.getByPlaceholder('密码').fill(password);
  await page.getByPlaceholder('密码').press('Enter');
  await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 30_000 });
  await page.getByTestId('user-menu').waitFor({ timeout: 30_000 });
}

/** Saves a full-page PNG to .test-results/screens/<name>.png and returns its path. */
export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  const file = path.join(SCREENS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Brings a preview's tools into sight: they hide until the pointer comes near their corner (issue 35 §7). */
export async function showPreviewTools(page: Page): Promise<void> {
  const size = page.viewportSize() ?? { width: 1440, height: 900 };
  // once they are there (after the page's data), and by a move the page sees even when the pointer was there
  await page.getByTestId('preview-tools').waitFor({ state: 'attached' });
  await page.mouse.move(size.width - 60, 30);
  await page.mouse.move(size.width - 40, 16);
  await page.locator('[data-testid="preview-tools"][data-shown="true"]').waitFor();
}
