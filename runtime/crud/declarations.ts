import type { PageDeclaration } from './types';

// Built-in declarations ship inside the bundle (they are small JSON files).
const files = import.meta.glob<PageDeclaration>('../../schemas/pages/*.page.json', { eager: true, import: 'default' });

export const builtinPages: Record<string, PageDeclaration> = Object.fromEntries(
  Object.entries(files).map(([path, decl]) => [path.replace(/^.*\/([^/]+)\.page\.json$/, '$1'), decl]),
);

/** A stored declaration may arrive as an object or as JSON text. */
export function parseDeclaration(raw: unknown): PageDeclaration {
  return (typeof raw === 'string' ? JSON.parse(raw) : raw) as PageDeclaration;
}
