// A pino JSON line made readable: `2026-11-23 15:01:02.123 INFO  [req-7] 127.0.0.1 POST /api/x 200 12ms request`.
// Credentials never leave: authorization / cookie headers and tokens are dropped entirely, values the
// logger redacted stay `******`, and a `Bearer …` in free text is masked.

export const MAX_RAW_CHARS = 2000;

export interface LogRecord {
  time: string;
  level: string;
  ip: string;
  method: string;
  url: string;
  status: number | null;
  ms: number | null;
  reqId: string;
  msg: string;
  line: string;
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields dropped from the line whatever their value. */
const DROP = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-?key|token|access_?token|refresh_?token|secret)$/i;
/** Fields whose value is always shown as `******`. */
const MASK = /(password|passwd|pwd)$/i;
/** pino's own fields and the ones the line already shows. */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'service', 'v', 'msg', 'reqId', 'ip', 'method', 'route', 'url', 'status', 'ms', 'req', 'res', 'responseTime']);

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `2026-11-23 15:01:02.123` in the server's local time; the text as it is when it is not a date. */
export function formatTime(t: unknown): string {
  const d = typeof t === 'number' || typeof t === 'string' ? new Date(t) : null;
  if (!d || Number.isNaN(d.getTime())) return t == null ? '' : String(t);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

export function maskText(s: string): string {
  return s.replace(/\b(Bearer|Basic)\s+[^\s"',;]+/gi, '$1 ******');
}

/** A copy without credentials (see DROP / MASK), any depth. */
function scrub(v: unknown, depth = 0): unknown {
  if (depth > 6) return '…';
  if (Array.isArray(v)) return v.map((x) => scrub(x, depth + 1));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (DROP.test(k)) continue;
      out[k] = MASK.test(k) ? '******' : scrub(x, depth + 1);
    }
    return out;
  }
  return typeof v === 'string' ? maskText(v) : v;
}

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function truncate(s: string, max = MAX_RAW_CHARS) {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** One line of a log file as a record; a line that is not a JSON object is shown as it is. */
export function toRecord(raw: string): LogRecord {
  let o: Record<string, any> | null = null;
  if (raw.startsWith('{')) {
    try {
      const parsed = JSON.parse(raw);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) o = parsed;
    } catch {
      o = null;
    }
  }
  if (!o) {
    const text = truncate(maskText(raw));
    return { time: '', level: '', ip: '', method: '', url: '', status: null, ms: null, reqId: '', msg: text, line: text };
  }
  const req = o.req && typeof o.req === 'object' ? o.req : {};
  const res = o.res && typeof o.res === 'object' ? o.res : {};
  const level = typeof o.level === 'number' ? (LEVELS[o.level] ?? `L${o.level}`) : str(o.level).toUpperCase();
  // never a query string: it may hold a password or a key
  const url = maskText(str(o.url ?? o.route ?? req.url).split('?')[0]);
  const rec: LogRecord = {
    time: formatTime(o.time),
    level,
    ip: str(o.ip ?? req.remoteAddress),
    method: str(o.method ?? req.method),
    url,
    status: num(o.status ?? res.statusCode),
    ms: num(o.ms ?? o.responseTime),
    reqId: str(o.reqId ?? req.id),
    msg: '',
    line: '',
  };
  const rest0: Record<string, unknown> = Object.fromEntries(Object.entries(o).filter(([k]) => !SHOWN.has(k)));
  // what pino's req / res serializers hold beyond the fields shown (headers, …)
  const { method: _m, url: _u, id: _i, remoteAddress: _a, remotePort: _p, ...reqRest } = req;
  const { statusCode: _s, ...resRest } = res;
  if (Object.keys(reqRest).length) rest0.req = reqRest;
  if (Object.keys(resRest).length) rest0.res = resRest;
  const extra = scrub(rest0) as Record<string, unknown>;
  const rest = Object.entries(extra).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  rec.msg = truncate([maskText(str(o.msg)), ...rest].filter(Boolean).join(' '));
  const parts = [
    rec.time,
    rec.level.padEnd(5),
    rec.reqId ? `[${rec.reqId}]` : '',
    rec.ip,
    rec.method,
    rec.url,
    rec.status ?? '',
    rec.ms != null ? `${rec.ms}ms` : '',
    rec.msg,
  ];
  rec.line = truncate(parts.filter((p) => p !== '').join(' '));
  return rec;
}
