// @vitest-environment node
// `npm run build-storybook` works on a closed network: the static build succeeds, holds a story for every
// widget kind, and nothing in it points at a CDN.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const CDN = /https?:\/\/(unpkg\.com|cdn\.jsdelivr\.net|cdnjs\.cloudflare\.com|fonts\.googleapis\.com|fonts\.gstatic\.com|gw\.alipayobjects\.com)/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

describe('storybook build', () => {
  it('builds offline with a story per widget kind and no CDN address', { timeout: 240_000 }, () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'storybook-'));
    try {
      const r = spawnSync('npx', ['storybook', 'build', '-o', out, '--quiet', '--disable-telemetry'], { cwd: root, encoding: 'utf8', timeout: 230_000 });
      expect(r.status, r.stderr.slice(-2000)).toBe(0);
      const index = JSON.parse(readFileSync(path.join(out, 'index.json'), 'utf8')) as { entries: Record<string, { title: string; importPath: string }> };
      const imports = Object.values(index.entries).map((e) => e.importPath).join('\n');
      const kinds = readdirSync(path.join(root, 'schemas', 'widgets')).filter((f) => f.endsWith('.widget.json')).map((f) => f.replace('.widget.json', ''));
      expect(kinds.length).toBeGreaterThanOrEqual(6);
      for (const kind of kinds) expect(imports, `no story for ${kind}`).toContain(kind);
      const withCdn = files(out).filter((f) => /\.(html|js|css)$/.test(f) && CDN.test(readFileSync(f, 'utf8')));
      expect(withCdn).toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
