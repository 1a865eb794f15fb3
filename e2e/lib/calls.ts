// What browser tests share besides the browser: HTTP calls to the server under test, signing in through the
// real login call, and waiting for an antd message (with a screenshot and the messages shown when it fails).
import { inject } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { encryptFor } from '../../server-stub/testing/server';
import { shot } from './browser';

export interface Answer {
  http: number;
  status: number;
  msg: string;
  data: any;
}

/** GET without a body, POST with one; `path` is absolute on the server (e.g. /api/…, /open/api/…). */
export async function call(path: string, body?: unknown, token?: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${inject('baseURL')}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { http: res.status, ...((await res.json()) as Omit<Answer, 'http'>) };
}

/** The answer's data, or an error naming the call and the server's message. */
export async function must(path: string, body?: unknown, token?: string): Promise<any> {
  const r = await call(path, body, token);
  if (r.status !== 0) throw new Error(`${path}: ${r.msg}`);
  return r.data;
}

export async function signIn(user: string, password: string): Promise<string> {
  const pem = await must('/api/uams/publicKey');
  return (await must('/api/uams/login', { mobilePhone: user, password: encryptFor(pem, password) })).token;
}

/**
 * Waits for an antd message; on timeout saves `<prefix>-failed-<text>.png` and lists the messages shown.
 * A message once waited for is marked and not matched again: two saves in a row each wait for their own
 * 保存成功, instead of the second finding the first's, still fading out, and moving on before its save is done.
 */
export async function toast(page: Page, text: string | RegExp, opts: { prefix?: string; exact?: boolean } = {}) {
  const prefix = opts.prefix ?? 'e2e';
  try {
    const notice = page.locator('.ant-message .ant-message-notice:not([data-e2e-seen])').filter({ has: page.getByText(text, { exact: opts.exact }) }).first();
    await notice.waitFor({ timeout: 30_000 });
    await notice.evaluate((el) => el.setAttribute('data-e2e-seen', ''), undefined, { timeout: 1000 }).catch(() => undefined);
  } catch (e) {
    await shot(page, `${prefix}-failed-${String(text).slice(0, 20)}`);
    throw new Error(`等不到提示「${text}」，当前提示：${(await page.locator('.ant-message').allTextContents()).join(' | ')}`, { cause: e });
  }
}

/**
 * Resolves once the antd modal holding `inside` has finished opening. Its zoom first lays the box out unscaled
 * and transparent (rc-motion's prepare step), then scales it up from small: a click aimed in those frames can
 * land where the button no longer is and be lost (seen on a loaded 2-core machine: the box stayed open).
 */
export async function opened(inside: Locator): Promise<void> {
  await inside.evaluate(
    (el) =>
      new Promise<void>((done) => {
        const modal = el.closest('.ant-modal') ?? el;
        const moving = () => /(^|\s)ant-zoom/.test(modal.className) || modal.getAnimations().some((a) => a.playState === 'running');
        const check = () => (moving() ? requestAnimationFrame(check) : done());
        check();
      }),
  );
}

/** Answers the modal.confirm showing `text` (确定 unless another button is named), once it has opened. */
export async function confirmBox(page: Page, text: string, button: RegExp = /确\s?定/) {
  const box = page.locator('.ant-modal-confirm:visible', { hasText: text }).last();
  await box.waitFor();
  await opened(box);
  await box.getByRole('button', { name: button }).click();
}
