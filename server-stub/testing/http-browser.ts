// A browser without a screen for tests and benches of sign-in flows that cross sites (OpenID Connect): one cookie
// jar per host, as browsers keep them whatever the port, redirects followed by hand so every address is seen.
/** A browser without a screen: one cookie jar per host (as browsers keep them, whatever the port), redirects followed. */
export class Browser {
  jar = new Map<string, Map<string, string>>();
  /** every address the browser was sent to */
  visited: string[] = [];
  private cookies(url: URL) {
    if (!this.jar.has(url.hostname)) this.jar.set(url.hostname, new Map());
    return this.jar.get(url.hostname)!;
  }
  async go(start: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}, stopAt?: (u: URL) => boolean): Promise<{ url: URL; status: number; text: string }> {
    let url = new URL(start);
    let method = init.method ?? 'GET';
    let body = init.body;
    for (let hop = 0; hop < 20; hop++) {
      this.visited.push(url.href);
      if (stopAt?.(url)) return { url, status: 0, text: '' };
      const jar = this.cookies(url);
      const res = await fetch(url, {
        method,
        redirect: 'manual',
        body,
        headers: { ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...(init.headers ?? {}), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair, ...attrs] = c.split(';');
        const [k, v] = [pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim()];
        if (attrs.some((a) => /max-age=0\b/i.test(a.trim())) || /expires=Thu, 01 Jan 1970/i.test(c)) jar.delete(k);
        else jar.set(k, v);
      }
      const loc = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && loc) {
        url = new URL(loc, url);
        if (res.status !== 307) [method, body] = ['GET', undefined];
        continue;
      }
      return { url, status: res.status, text: await res.text() };
    }
    throw new Error('too many redirects');
  }
  /** POST to the console with the jar (the sign-in page's fetch of its handoff) */
  async post(url: string, token?: string) {
    const u = new URL(url);
    const jar = this.cookies(u);
    const res = await fetch(u, { method: 'POST', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), ...(token ? { authorization: `Bearer ${token}` } : {}) } });
    for (const c of res.headers.getSetCookie()) if (/max-age=0\b/i.test(c)) jar.delete(c.slice(0, c.indexOf('=')));
    return res.json() as Promise<{ status: number; msg: string; data: any }>;
  }
}


/** Sends the page's first form with its hidden fields and `fields` (what typing and a script's submit do). */
export async function postForm(b: Browser, page: { url: URL; text: string }, fields: Record<string, string> = {}, stopAt?: (u: URL) => boolean) {
  const action = /<form[^>]*action="([^"]+)"/.exec(page.text)?.[1] ?? page.url.pathname;
  const body = new URLSearchParams();
  for (const m of page.text.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(m[0])?.[1];
    if (name) body.set(name, /value="([^"]*)"/.exec(m[0])?.[1] ?? '');
  }
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  return b.go(new URL(action, page.url).href, { method: 'POST', body: body.toString() }, stopAt);
}
