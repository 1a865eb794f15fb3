// The one reading of a request path that security decisions may use when no route matched: what a
// lenient router, proxy or file server could take the URL to mean. Percent-encoding is undone (twice,
// for double encoding), `;` parameters dropped, backslashes and repeated slashes folded, dot segments
// resolved, case folded. Matched routes are never judged by their spelling (see auth.ts).

const MAX_DECODE_ROUNDS = 3;

function decodeOnce(s: string): string {
  // a malformed escape decodes byte by byte where it can; what cannot be decoded stays as written
  return s.replace(/(%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-9a-f]{2})/gi, (_, h: string) => {
        const c = parseInt(h, 16);
        return c < 0x80 ? String.fromCharCode(c) : `%${h}`;
      });
    }
  });
}

/** The canonical form of a URL's path (query string removed), lower-case, for matching prefixes. */
export function canonicalPath(url: string): string {
  let p = url.split(/[?#]/, 1)[0];
  for (let i = 0; i < MAX_DECODE_ROUNDS; i++) {
    const next = decodeOnce(p);
    if (next === p) break;
    p = next;
  }
  const out: string[] = [];
  for (const raw of p.replace(/\\/g, '/').split('/')) {
    const seg = raw.split(';', 1)[0].replace(/[\s\0]+$/g, '');
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return `/${out.join('/')}`.toLowerCase();
}

/** Does this path, however spelled, point into a namespace served only to callers the guard admits? */
export function isGuardedPath(url: string): boolean {
  const p = canonicalPath(url);
  return /^\/(api|open)(\/|$)/.test(p);
}
