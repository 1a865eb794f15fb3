// Addresses built from data (a record's field in a link column, a menu entry's link, an iframe source)
// become links only when they cannot run code: http(s), mailto, or a path inside this app. Anything
// else (javascript:, data:, vbscript:, blob:, scheme-relative //host, odd spellings) is shown as text.
// The check uses the browser's own URL parser, so what is judged is what the browser would follow.

const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** The address to use as a link target, or null when it must not become one. */
export function safeHref(raw: unknown, opts: { allowMailto?: boolean } = {}): string | null {
  if (typeof raw !== 'string') return null;
  // browsers drop leading/trailing C0 controls and spaces, and tabs/newlines anywhere
  // eslint-disable-next-line no-control-regex
  const text = raw.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  if (!text) return null;
  if (text.startsWith('/')) {
    // an in-app path; '//host' and '/\host' are other hosts
    return /^\/[/\\]/.test(text) ? null : text;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null; // relative text without a leading slash: not an address we can judge
  }
  if (!ALLOWED_PROTOCOLS.has(url.protocol)) return null;
  if (url.protocol === 'mailto:' && opts.allowMailto === false) return null;
  return url.href;
}

/** For frames and windows: http(s) and in-app paths only. */
export function safeFrameSrc(raw: unknown): string | null {
  return safeHref(raw, { allowMailto: false });
}
