// @vitest-environment node
// The renderer stays generic: no field a built-in page declares appears in runtime/crud's source.
// (A page-specific need belongs in the declaration, e.g. a column's `altField`, not in a branch here.)
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
// Names every list has, which the runtime may rightly know: the row key, the list query, shared formats, the
// envelope's message, the pager's current page, a tree's default parent field, a call's path, and the words of
// the libraries it renders with (antd's icon and a dropdown's trigger, Formily's component and hidden, the DOM event's target).
const BASE = ['id', 'search', 'status', 'password', 'properties', 'size', 'api', 'remark', 'name', 'title', 'msg', 'current', 'parentId', 'path', 'icon', 'component', 'hidden', 'target', 'trigger'];

/** Every key of the declaration language itself (schemas/meta/page.schema.json): the renderer's own vocabulary. */
function declarationWords(): string[] {
  const meta = JSON.parse(readFileSync(path.join(root, 'schemas', 'meta', 'page.schema.json'), 'utf8'));
  const out = new Set<string>();
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(walk);
    const o = node as Record<string, unknown>;
    if (o.properties && typeof o.properties === 'object') for (const k of Object.keys(o.properties)) out.add(k);
    Object.values(o).forEach(walk);
  };
  walk(meta);
  return [...out];
}
const GENERIC = new Set([...BASE, ...declarationWords()]);

/** Source without its comments: a field named in prose is no branch on it. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

function declaredFields(): string[] {
  const dir = path.join(root, 'schemas', 'pages');
  const names = new Set<string>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.page.json'))) {
    const page = JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
    for (const c of page.columns ?? []) if (c.field) names.add(c.field);
    for (const k of Object.keys(page.dialog?.schema?.properties ?? {})) names.add(k);
    for (const k of page.search?.fields ?? []) names.add(k);
  }
  return [...names].filter((n) => !GENERIC.has(n));
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.(ts|tsx)$/.test(e.name) && !/\.test\.|test-utils/.test(e.name) ? [p] : [];
  });
}

describe('runtime/crud is generic', () => {
  it('names no field of a built-in page', () => {
    const fields = declaredFields();
    expect(fields).toContain('apiComment');
    const hits: string[] = [];
    for (const file of sources(path.join(root, 'runtime', 'crud'))) {
      const text = code(readFileSync(file, 'utf8'));
      for (const f of fields) if (new RegExp(`\\b${f}\\b`).test(text)) hits.push(`${path.relative(root, file)}: ${f}`);
    }
    expect(hits).toEqual([]);
  });

  it("names no path of the lowcode module: a custom page's calls and permissions come in its declaration", () => {
    const hits = sources(path.join(root, 'runtime', 'crud')).filter((file) => /lowcode/i.test(readFileSync(file, 'utf8')));
    expect(hits.map((f) => path.relative(root, f))).toEqual([]);
  });
});
