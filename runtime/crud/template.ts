import type { Row } from './types';

/**
 * Fills `{{field}}` (and `{name}` style single braces, as in the messages catalogue) from values, in one pass: a
 * filled-in value that itself holds braces (a name typed as `{id}`) stays as typed.
 */
export function fill(text: string, values: Record<string, unknown>): string {
  return text.replace(/\{\{\s*([\w.$]+)\s*\}\}|\{([\w.]+)\}/g, (_, k2: string | undefined, k1: string | undefined) => stringify(values[(k2 ?? k1)!]));
}

function stringify(v: unknown): string {
  return v === undefined || v === null ? '' : String(v);
}

/** Resolves params whose values may be `{{field}}` templates; a whole-template value keeps its type. */
export function fillParams(params: Record<string, unknown> | undefined, row: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params ?? {})) {
    const whole = typeof v === 'string' ? /^\{\{\s*([\w.$]+)\s*\}\}$/.exec(v) : null;
    out[k] = whole ? row[whole[1]] : typeof v === 'string' ? fill(v, row) : v;
  }
  return out;
}

/** Splits "POST /a/{id}/b" into method and a path with `{field}` filled from the row. */
export function parseCall(call: string, row: Row = {}): { method: 'GET' | 'POST'; path: string } {
  const m = /^(GET|POST)\s+(\S+)$/.exec(call.trim());
  if (!m) throw new Error(`bad call: ${call}`);
  const path = m[2].replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(stringify(row[k])));
  return { method: m[1] as 'GET' | 'POST', path };
}

/** The page address's query as template values: `{{$query.formId}}` in a declaration reads `?formId=`. */
export function routeValues(search: string = typeof window === 'undefined' ? '' : window.location.search): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(search)) out[`$query.${k}`] = v;
  return out;
}

/** The `{{$query.…}}` names a set of params needs that the address lacks. */
export function missingRouteValues(params: Record<string, unknown> | undefined, values: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const v of Object.values(params ?? {})) {
    if (typeof v !== 'string') continue;
    for (const m of v.matchAll(/\{\{\s*\$query\.(\w+)\s*\}\}/g)) if (!values[`$query.${m[1]}`]) out.push(m[1]);
  }
  return out;
}

/**
 * A declared call whose params may read the page address (`{{$query.…}}`), ready to send; null while the address
 * lacks a value it needs (the page then says what is missing, and nothing is asked).
 */
export function routeCall(call: string, params: Record<string, unknown> | undefined, route: Record<string, string>) {
  if (missingRouteValues(params, route).length) return null;
  return { ...parseCall(call), params: fillParams(params, route) };
}
