// Sending one message through one channel (issue 39 item 3): DingTalk and WeCom group robots, a generic webhook
// (JSON, signed with HMAC-SHA256), and e-mail over SMTP. Robot and webhook addresses go through the address
// guard (core/net-guard.ts: never link-local or cloud metadata; loopback only when NOTIFY_ALLOW_LOOPBACK says so)
// with a deadline. A failure throws an Error whose message says why in Chinese and holds no secret.
import { createHmac } from 'node:crypto';
import nodemailer from 'nodemailer';
import { guardedRequest, NetGuardError, resolveChecked, type NetPolicy } from '../../core/net-guard.js';

export type ChannelKind = 'dingtalk' | 'wecom' | 'webhook' | 'email';

/** A message as every kind sends it: a title and plain text (Markdown for the robots). */
export interface Message {
  title: string;
  text: string;
  /** e-mail only: files attached */
  attachments?: Array<{ filename: string; content: Buffer; contentType?: string }>;
}

export interface ChannelTarget {
  kind: ChannelKind;
  /** the robot's or webhook's URL; for e-mail the recipients (comma-separated) */
  target: string;
  /** e-mail only: these recipients instead of the channel's */
  to?: string[];
  /** e-mail only: the SMTP server */
  smtp?: { host: string; port: number; secure: boolean; user: string; from: string };
  /** the robot's signing secret, the webhook's HMAC key, the SMTP password (plain, opened for this send) */
  secret?: string;
}

export const SEND_TIMEOUT_MS = 10_000;

/** The robots answer 200 with an error code in the body: errcode 0 is success. */
function robotAnswer(body: Buffer, who: string): void {
  let answer: { errcode?: number; errmsg?: string };
  try {
    answer = JSON.parse(body.toString('utf8')) as typeof answer;
  } catch {
    throw new Error(`${who}应答无法识别`);
  }
  if (answer.errcode !== 0) throw new Error(`${who}拒绝了消息：${String(answer.errmsg ?? answer.errcode).slice(0, 120)}`);
}

async function post(url: string, payload: unknown, policy: NetPolicy, headers: Record<string, string> = {}) {
  const body = JSON.stringify(payload);
  try {
    const res = await guardedRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
      body,
      timeoutMs: SEND_TIMEOUT_MS,
      maxBytes: 64_000,
      maxRedirects: 0,
      policy,
    });
    if (res.status < 200 || res.status >= 300) throw new Error(`对方应答 HTTP ${res.status}`);
    return res;
  } catch (e) {
    if (e instanceof NetGuardError) throw new Error(e.message.replace(/^接口调用失败：/, '').replace('API接口', '地址'));
    throw e;
  }
}

/** DingTalk's signature: HMAC-SHA256 of "timestamp\nsecret" under the secret, base64, in the query. */
export function dingtalkUrl(url: string, secret: string | undefined, now = Date.now()): string {
  if (!secret) return url;
  const sign = createHmac('sha256', secret).update(`${now}\n${secret}`).digest('base64');
  return `${url}${url.includes('?') ? '&' : '?'}timestamp=${now}&sign=${encodeURIComponent(sign)}`;
}

/** The webhook's signature header: HMAC-SHA256 of "<timestamp>.<body>" under the key, hex. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export async function deliver(to: ChannelTarget, message: Message, policy: NetPolicy): Promise<void> {
  switch (to.kind) {
    case 'dingtalk': {
      const res = await post(dingtalkUrl(to.target, to.secret), { msgtype: 'markdown', markdown: { title: message.title, text: `### ${message.title}\n\n${message.text}` } }, policy);
      return robotAnswer(res.body, '钉钉机器人');
    }
    case 'wecom': {
      const res = await post(to.target, { msgtype: 'markdown', markdown: { content: `### ${message.title}\n${message.text}` } }, policy);
      return robotAnswer(res.body, '企业微信机器人');
    }
    case 'webhook': {
      const timestamp = String(Date.now());
      const payload = { title: message.title, text: message.text, time: new Date().toISOString() };
      const headers: Record<string, string> = { 'x-console-timestamp': timestamp };
      if (to.secret) headers['x-console-signature'] = webhookSignature(to.secret, timestamp, JSON.stringify(payload));
      await post(to.target, payload, policy, headers);
      return;
    }
    case 'email':
      return mail(to, message, policy);
  }
}

/** The recipients of an e-mail channel: addresses separated by commas, semicolons or spaces. */
export function recipients(target: string): string[] {
  return target
    .split(/[,;，；\s]+/)
    .map((a) => a.trim())
    .filter(Boolean);
}
const MAILBOX = /^[^\s@<>()",;]+@[^\s@<>()",;]+\.[^\s@<>()",;]+$/;
export const badMailbox = (a: string) => !MAILBOX.test(a);

/** What an SMTP failure means, in Chinese. */
function smtpReason(e: unknown): string {
  const err = e as { code?: string; responseCode?: number; response?: string; message?: string };
  if (err.code === 'EAUTH') return '邮件服务器拒绝了账号或密码';
  if (err.code === 'ECONNREFUSED') return '无法连接邮件服务器（连接被拒绝）';
  if (err.code === 'ETIMEDOUT' || err.code === 'ECONNECTION' || /timeout/i.test(String(err.message))) return '连接邮件服务器超时';
  if (err.code === 'ESOCKET' && /certificate|self[- ]signed|wrong version/i.test(String(err.message))) return '与邮件服务器的 TLS 连接失败（证书或端口不对）';
  if (err.code === 'EENVELOPE') return `收件人或发件人被拒绝：${String(err.response ?? err.message).slice(0, 120)}`;
  if (err.responseCode) return `邮件服务器拒绝了邮件（${err.responseCode}）：${String(err.response ?? '').slice(0, 120)}`;
  return String(err.message ?? e).slice(0, 160);
}

/** One mail over SMTP (nodemailer), to the server's address as the guard checked it, within the deadline. */
async function mail(to: ChannelTarget, message: Message, policy: NetPolicy): Promise<void> {
  const smtp = to.smtp;
  if (!smtp?.host) throw new Error('请填写邮件服务器');
  let address: string;
  try {
    address = (await resolveChecked(smtp.host, policy))[0].address;
  } catch (e) {
    throw new Error(e instanceof NetGuardError ? e.message.replace(/^接口调用失败：/, '') : '找不到邮件服务器');
  }
  const transport = nodemailer.createTransport({
    host: address,
    port: smtp.port,
    secure: smtp.secure,
    // the certificate is judged for the name typed, not the address connected to
    tls: { servername: smtp.host, minVersion: 'TLSv1.2' },
    auth: smtp.user ? { user: smtp.user, pass: to.secret ?? '' } : undefined,
    connectionTimeout: SEND_TIMEOUT_MS,
    greetingTimeout: SEND_TIMEOUT_MS,
    socketTimeout: SEND_TIMEOUT_MS,
  });
  try {
    await transport.sendMail({
      from: smtp.from || smtp.user,
      to: to.to?.length ? to.to : recipients(to.target),
      subject: message.title,
      text: message.text,
      attachments: message.attachments?.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })),
    });
  } catch (e) {
    throw new Error(smtpReason(e));
  } finally {
    transport.close();
  }
}
