// Error texts of connector failures, taken without ever throwing (a getter, a Symbol, a revoked Proxy…).
export function describeError(err: unknown, fallback = '未知错误'): string {
  try {
    if (err === undefined || err === null) return fallback;
    if (typeof err === 'string') return err || fallback;
    const message = (err as { message?: unknown }).message;
    if (typeof message === 'string' && message) return message;
    return String(err) || fallback;
  } catch {
    return fallback;
  }
}

/** Failure reasons go to log lines: at most this many characters. */
export const MAX_REASON = 500;

/** Cuts a reason to MAX_REASON characters. */
export function limitText(text: string, max = MAX_REASON): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
