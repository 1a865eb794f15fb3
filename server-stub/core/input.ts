// Guards every request's input before any route sees it, so no handler has to remember to:
//  - JSON bodies nested deeper than MAX_DEPTH are refused before parsing (deep recursion in a handler,
//    in ajv or in JSON.stringify must never be reachable);
//  - a NUL or an unpaired UTF-16 surrogate in any string or key of the body, the query or the path
//    parameters is refused (NUL ends strings in C drivers and in SQLite's LIKE; lone surrogates break
//    URI and TLS encoders), with the field named;
//  - prototype keys (`__proto__`, `constructor.prototype`) are refused by Fastify's own JSON parser.
import type { FastifyInstance } from 'fastify';
import { BizError } from './envelope.js';

export const MAX_DEPTH = 64;

/** Depth of the deepest array/object in JSON text, counted without parsing (strings skipped). */
export function jsonDepth(text: string, stopAbove = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91 /* { [ */) {
      if (++depth > max) {
        max = depth;
        if (max > stopAbove) return max;
      }
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function badText(s: string): boolean {
  return s.includes('\0') || LONE_SURROGATE.test(s);
}

/** The dotted path of the first string or key holding a NUL or a lone surrogate, or null. */
export function findBadText(value: unknown, at = ''): string | null {
  if (typeof value === 'string') return badText(value) ? at || '(值)' : null;
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findBadText(value[i], `${at}[${i}]`);
      if (hit) return hit;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    const here = at ? `${at}.${k}` : k;
    if (badText(k)) return here.replace(/\0/g, '\\0');
    const hit = findBadText(v, here);
    if (hit) return hit;
  }
  return null;
}

const refuse = (where: string) => new BizError(`${where} 包含不允许的字符（空字符或不成对的代理字符）`, 400);

export function installInputGuards(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (jsonDepth(text, MAX_DEPTH) > MAX_DEPTH) return done(new BizError(`请求体嵌套层级过深（最多 ${MAX_DEPTH} 层）`, 400), undefined);
    parseJson(req, text, (err, parsed) => {
      if (err) return done(err, undefined);
      const bad = findBadText(parsed);
      if (bad) return done(refuse(`字段 ${bad}`), undefined);
      done(null, parsed);
    });
  });
  app.addHook('preValidation', async (req) => {
    const q = findBadText(req.query);
    if (q) throw refuse(`查询参数 ${q}`);
    const p = findBadText(req.params);
    if (p) throw refuse(`路径参数 ${p}`);
  });
}

/**
 * A body field that holds a JSON object, sent as the object or as its JSON text: the object, or a refusal
 * (status 1) with the caller's words for text that is not JSON and for a value that is not an object.
 */
export function jsonObjectField(value: unknown, msg: { notJson: string; notObject: string }): Record<string, unknown> {
  let o: unknown = value;
  if (typeof value === 'string') {
    try {
      o = JSON.parse(value);
    } catch {
      throw new BizError(msg.notJson);
    }
  }
  if (!o || typeof o !== 'object' || Array.isArray(o)) throw new BizError(msg.notObject);
  return o as Record<string, unknown>;
}
