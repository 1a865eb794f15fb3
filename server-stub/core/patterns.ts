// Patterns that come from declarations (a page's field `pattern`, an `x-validator` pattern) run on the
// server and in every browser that opens the page. One that can backtrack catastrophically (`^(a+)+$`)
// would block the event loop on a 30-character value, so each is checked once with recheck (a ReDoS
// checker) and refused when vulnerable, or when the checker cannot decide in time.
import { checkSync } from 'recheck';

const verdicts = new Map<string, string | null>();
const MAX_PATTERN_LENGTH = 500;

/** Why this declared pattern may not be used, or null when it is safe. Cached per pattern text. */
export function patternFault(source: string): string | null {
  const known = verdicts.get(source);
  if (known !== undefined) return known;
  let fault: string | null = null;
  if (source.length > MAX_PATTERN_LENGTH) fault = `正则表达式过长（最多 ${MAX_PATTERN_LENGTH} 个字符）`;
  else {
    try {
      new RegExp(source);
    } catch {
      fault = '不是合法的正则表达式';
    }
  }
  if (!fault) {
    const d = checkSync(source, '', { timeout: 2000 });
    if (d.status === 'vulnerable') fault = '可能导致灾难性回溯（ReDoS），请改写正则表达式';
    else if (d.status !== 'safe') fault = '无法确认正则表达式是否安全，请简化后重试';
  }
  verdicts.set(source, fault);
  return fault;
}

/** The compiled pattern, or an Error naming the fault (a declaration must not run an unsafe one). */
export function safeRegExp(source: string): RegExp {
  const fault = patternFault(source);
  if (fault) throw new Error(`正则表达式 ${source} ${fault}`);
  return new RegExp(source);
}
