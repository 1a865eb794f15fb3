// Permission strings, as browser and server both read them (DESIGN §4): "module:entity:action". "*:*:*" grants
// everything; a "*" segment of a held permission matches any value of that segment. A "*" in the permission
// asked for is a character like any other: asking for "*:*:*" asks whether the user holds everything.
// The server decides (core/auth.ts, per route); the browser only hides what would be refused.
export const ALL_PERMISSIONS = '*:*:*';

/** Does the held permission grant the wanted one? */
export function permissionGrants(held: string, wanted: string): boolean {
  if (held === ALL_PERMISSIONS || held === wanted) return true;
  const h = held.split(':');
  const w = wanted.split(':');
  return h.length === w.length && h.every((seg, i) => seg === '*' || seg === w[i]);
}

/** Does any held permission grant the wanted one? */
export function hasPermission(held: readonly string[], wanted: string): boolean {
  return held.some((p) => permissionGrants(p, wanted));
}

/** Does any held permission grant any of the wanted ones? (a button listing several shows for any of them) */
export function hasAnyPermission(held: readonly string[], wanted: readonly string[]): boolean {
  return wanted.some((w) => hasPermission(held, w));
}
