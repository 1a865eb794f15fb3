// Patterns that come from declarations (a page's field `pattern`, an `x-validator` pattern) run on the
// server and in every browser that opens the page. One that can backtrack catastrophically (`^(a+)+$`)
// would block the event loop on a 30-character value, so each is checked once with recheck (a ReDoS
// checker) and refused when vulnerable, or when the checker cannot decide in time.
//
// The check takes up to 2 s. Patterns that arrive with a request (a form field's own pattern, an admin's
// page) are judged with judgePatterns() first: recheck's asynchronous check runs outside the event loop,
// so other requests go on meanwhile. The synchronous path (it blocks while it checks) is left for the
// declarations read at start-up and for a verdict nobody asked for ahead.
import { check, checkSync, type Diagnostics } from 'recheck';
import { BizError } from './envelope.js';

/** Verdicts by pattern text, oldest first; bounded, so distinct patterns sent again and again cannot fill memory. */
const verdicts = new Map<string, string | null>();
const MAX_VERDICTS = 20_000;
/** New (not yet judged) patterns one request may bring: a form has far fewer fields. */
export const MAX_NEW_PATTERNS = 100;
const MAX_PATTERN_LENGTH = 500;
const CHECK = { timeout: 2000 } as const;

/** Patterns of declarations the server serves (built in, or saved by an admin): their verdicts are never evicted. */
const pinned = new Set<string>();

function remember(source: string, fault: string | null): string | null {
  if (!verdicts.has(source) && verdicts.size >= MAX_VERDICTS) {
    for (const k of verdicts.keys()) {
      if (pinned.has(k)) continue;
      verdicts.delete(k);
      break;
    }
  }
  verdicts.set(source, fault);
  return fault;
}

/** What is wrong before any backtracking analysis: length and syntax. */
function shapeFault(source: string): string | null {
  if (source.length > MAX_PATTERN_LENGTH) return `正则表达式过长（最多 ${MAX_PATTERN_LENGTH} 个字符）`;
  try {
    new RegExp(source);
  } catch {
    return '不是合法的正则表达式';
  }
  return null;
}

function verdictOf(d: Diagnostics): string | null {
  if (d.status === 'vulnerable') return '可能导致灾难性回溯（ReDoS），请改写正则表达式';
  return d.status === 'safe' ? null : '无法确认正则表达式是否安全，请简化后重试';
}

/** Why this declared pattern may not be used, or null when it is safe. Cached per pattern text. */
export function patternFault(source: string): string | null {
  const known = verdicts.get(source);
  if (known !== undefined) return known;
  return remember(source, shapeFault(source) ?? verdictOf(checkSync(source, '', CHECK)));
}

/**
 * Judges the patterns not judged yet without blocking the event loop, and answers every pattern's verdict.
 * The caller uses these answers (not patternFault() later), so a verdict evicted in between by other
 * requests never sends it back to the blocking check. More than MAX_NEW_PATTERNS new ones are refused.
 */
export async function judgePatterns(sources: Iterable<string>, maxNew: number = MAX_NEW_PATTERNS): Promise<Map<string, string | null>> {
  const all = [...new Set(sources)].filter((src) => typeof src === 'string' && src);
  const out = new Map<string, string | null>();
  const fresh = all.filter((src) => !verdicts.has(src));
  if (fresh.length > maxNew) throw new BizError(`一次提交的正则表达式过多（新的最多 ${MAX_NEW_PATTERNS} 个）`);
  for (const source of all) if (verdicts.has(source)) out.set(source, verdicts.get(source)!);
  // one at a time: a request full of patterns waits for its own checks, it does not fan out
  for (const source of fresh) {
    const shape = shapeFault(source);
    out.set(source, remember(source, shape ?? verdictOf(await check(source, '', CHECK))));
  }
  return out;
}

/** The compiled pattern, or an Error naming the fault (a declaration must not run an unsafe one). */
export function safeRegExp(source: string): RegExp {
  const fault = patternFault(source);
  if (fault) throw new Error(`正则表达式 ${source} ${fault}`);
  return new RegExp(source);
}

/** Judges (off the event loop) and keeps for good the patterns of a declaration the server will serve. */
export async function pinPatterns(sources: Iterable<string>): Promise<Map<string, string | null>> {
  const list = [...sources];
  const answers = await judgePatterns(list, Infinity);
  for (const src of list) pinned.add(src);
  return answers;
}

/** At start-up (nothing is served yet, blocking is fine): the built-in declarations' patterns, kept for good. */
export function pinPatternsNow(sources: Iterable<string>): void {
  for (const src of sources) {
    patternFault(src);
    pinned.add(src);
  }
}

/** Every `pattern` string anywhere in a declaration. */
export function patternsIn(node: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 64 || node === null || typeof node !== 'object') return out;
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (k === 'pattern' && typeof v === 'string') out.push(v);
    else patternsIn(v, out, depth + 1);
  }
  return out;
}
