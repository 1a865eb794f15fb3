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

/** Verdicts by pattern text, oldest first; bounded, so distinct patterns sent again and again cannot fill memory. */
const verdicts = new Map<string, string | null>();
const MAX_VERDICTS = 2000;
const MAX_PATTERN_LENGTH = 500;
const CHECK = { timeout: 2000 } as const;

function remember(source: string, fault: string | null): string | null {
  if (verdicts.size >= MAX_VERDICTS) verdicts.delete(verdicts.keys().next().value!);
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

/** Judges the patterns not judged yet without blocking the event loop; patternFault() then answers at once. */
export async function judgePatterns(sources: Iterable<string>): Promise<void> {
  const fresh = [...new Set(sources)].filter((src) => typeof src === 'string' && src && !verdicts.has(src));
  // one at a time: a request full of patterns waits for its own checks, it does not fan out
  for (const source of fresh) {
    const shape = shapeFault(source);
    remember(source, shape ?? verdictOf(await check(source, '', CHECK)));
  }
}

/** The compiled pattern, or an Error naming the fault (a declaration must not run an unsafe one). */
export function safeRegExp(source: string): RegExp {
  const fault = patternFault(source);
  if (fault) throw new Error(`正则表达式 ${source} ${fault}`);
  return new RegExp(source);
}
