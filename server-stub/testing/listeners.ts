// Listeners that play the far end of 通知渠道 in server tests: an SMTP server (smtp-server) that keeps every mail it
// accepts, and an HTTP listener that plays the robots and the webhook.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** An SMTP server that wants an account and keeps every mail it accepts (plain text, no TLS: a test on loopback). */
export async function startSmtp() {
  const mails: Array<{ from: string; to: string[]; raw: string }> = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, done) {
      if (auth.username === 'alert@corp.example' && auth.password === 'mail-pass') return done(null, { user: auth.username });
      return done(new Error('Invalid username or password'));
    },
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (d: Buffer) => (raw += d.toString('utf8')));
      stream.on('end', () => {
        mails.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw });
        done();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.server.address() as AddressInfo).port;
  return { port, mails, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A robot: answers each request with the next queued answer (errcode 0 when none is queued). */
export async function startRobot() {
  const received: Received[] = [];
  const answers: Array<{ status?: number; body: unknown }> = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(text || 'null') });
      const a = answers.shift() ?? { body: { errcode: 0, errmsg: 'ok' } };
      res.writeHead(a.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, answers, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A mail's Subject as people read it (RFC 2047 encoded words decoded, folded lines joined). */
export function subjectOf(raw: string): string {
  const m = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw);
  if (!m) return '';
  const bytes = (enc: string, text: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1');
  // adjacent encoded words are one run of bytes (a character may be split between two of them)
  return m[1]!
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/(?:=\?UTF-8\?[BQ]\?[^?]*\?=\s*)+/gi, (run) => {
      const parts = [...run.matchAll(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi)].map((w) => bytes(w[1]!, w[2]!));
      return Buffer.concat(parts).toString('utf8') + (/\s$/.test(run) ? ' ' : '');
    })
    .trim();
}

/** A mail's attached files (base64 parts with a file name), as the MIME parts nodemailer writes. */
export function attachmentsOf(raw: string): Array<{ filename: string; contentType: string; content: Buffer }> {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) return [];
  const out: Array<{ filename: string; contentType: string; content: Buffer }> = [];
  for (const part of raw.split(`--${boundary}`)) {
    const [head = '', ...rest] = part.split(/\r?\n\r?\n/);
    const unfolded = head.replace(/\r?\n[ \t]/g, ' ');
    // filename="…", or RFC 2231's numbered pieces (filename*0*=utf-8''%E8…; filename*1*=…)
    const pieces = [...unfolded.matchAll(/filename\*\d*\*?=(?:utf-8'')?([^;\s]+)/gi)].map((m) => m[1]!);
    const plain = /filename="([^"]+)"/i.exec(unfolded)?.[1];
    if ((!pieces.length && !plain) || !/Content-Transfer-Encoding: base64/i.test(unfolded)) continue;
    const filename = pieces.length ? decodeURIComponent(pieces.join('')) : subjectOf(`Subject: ${plain}`);
    out.push({ filename, contentType: /Content-Type: ([^;\s]+)/i.exec(unfolded)?.[1] ?? '', content: Buffer.from(rest.join('\n\n').replace(/[^A-Za-z0-9+/=]/g, ''), 'base64') });
  }
  return out;
}

/** A mail's plain text as people read it (its text/plain part, base64 or quoted-printable decoded). */
export function textOf(raw: string): string {
  const at = raw.search(/Content-Type: text\/plain/i);
  if (at < 0) return '';
  const part = raw.slice(at);
  const [head = '', body = ''] = part.split(/\r?\n\r?\n/);
  const end = body.search(/\r?\n--/);
  const content = end < 0 ? body : body.slice(0, end);
  if (/Content-Transfer-Encoding: base64/i.test(head)) return Buffer.from(content.replace(/\s/g, ''), 'base64').toString('utf8');
  if (/quoted-printable/i.test(head)) return Buffer.from(content.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');
  return content;
}
