// Permission strings are "module:entity:action". "*:*:*" grants everything; a "*" segment matches any value.
export const ALL_PERMISSIONS = '*:*:*';

function matches(held: string, wanted: string): boolean {
  if (held === ALL_PERMISSIONS || held === wanted) return true;
  const h = held.split(':');
  const w = wanted.split(':');
  return h.length === w.length && h.every((seg, i) => seg === '*' || seg === w[i]);
}

export function hasPermission(held: readonly string[], wanted: string): boolean {
  return held.some((p) => matches(p, wanted));
}
