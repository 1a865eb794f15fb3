// Sample images ship with the widget; data rows name them as `builtin:carousel/<file>`
// so the declaration stays plain JSON and the bundler still fingerprints the files.
const files = import.meta.glob('./assets/*.svg', { eager: true, query: '?url', import: 'default' }) as Record<string, string>;

const PREFIX = 'builtin:carousel/';

export function resolveImageUrl(url: unknown): string {
  const s = url == null ? '' : String(url);
  if (!s.startsWith(PREFIX)) return s;
  return files[`./assets/${s.slice(PREFIX.length)}`] ?? '';
}
