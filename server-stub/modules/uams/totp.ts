// The second factor for local accounts (issue 38 item 4): TOTP (RFC 6238, any authenticator app) with recovery codes.
//  - The secret is sealed with the deployment's key, bound to the account; a code is accepted once (the last used
//    time step is kept, so a code seen over a shoulder cannot be replayed within its 90 seconds).
//  - Ten recovery codes, shown once, stored as SHA-256 hashes (each is 40 random bits: no slow hash needed); one
//    used is gone.
//  - Sign-in: a proven password of an account that has TOTP, or whose role must have it (认证设置), answers a
//    ticket instead of a session; the session is issued only after the code (or the setup, for an account that
//    must have it and has none yet). Tickets live five minutes in the platform cache (Redis with REDIS_URL: any
//    instance finishes what another began); each code tried counts against the account like a password.
import { createHash, randomBytes } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { Secrets, SecretBinding } from '../../core/secrets.js';
import type { Cache } from '../../core/cache.js';
import { now } from '../../store/columns.js';
import { readSettings } from './settings.js';

export const ISSUER = '数据服务平台';
export const TICKET_SECONDS = 300;
export const RECOVERY_CODES = 10;
export const MSG_BAD_CODE = '动态验证码错误';
export const MSG_TICKET_GONE = '验证已超时，请重新登录';

const binding = (userId: number): SecretBinding => ({ table: 'sys_user_mfa', id: userId });
const sha = (v: string) => createHash('sha256').update(v).digest('hex');
/** Recovery codes are typed by hand: lower case, no look-alikes matter (base32 has no 0/1/8), dashes and spaces ignored. */
const normalise = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

function totpOf(secretBase32: string, label: string) {
  return new OTPAuth.TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secretBase32) });
}

/** What a new enrolment shows: the secret to type, the otpauth URI and its QR code as a PNG data URL. */
export interface Enrolment {
  secret: string;
  uri: string;
  qr: string;
}

export async function newEnrolment(label: string): Promise<Enrolment> {
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  const uri = totpOf(secret, label).toString();
  return { secret, uri, qr: await QRCode.toDataURL(uri, { margin: 1, width: 200 }) };
}

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, () => {
    const s = new OTPAuth.Secret({ size: 5 }).base32.toLowerCase();
    return `${s.slice(0, 4)}-${s.slice(4, 8)}`;
  });
}

/** The time step a six-digit code matches (±1 step of clock drift), or null. */
export function matchStep(secretBase32: string, label: string, code: string): number | null {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secretBase32, label).validate({ token, window: 1 });
  return delta === null ? null : Math.floor(Date.now() / 30_000) + delta;
}

export interface TotpService {
  /** Has the account finished a TOTP setup? */
  enrolled(userId: number): Promise<boolean>;
  /** Must the account have TOTP (its roles are among those 认证设置 names)? */
  required(roles: string[]): Promise<boolean>;
  /** Checks a code (or a recovery code) for an enrolled account: true once per code. */
  verify(userId: number, label: string, code: string): Promise<'code' | 'recovery' | null>;
  /** Stores a finished setup (secret proven by a code) with new recovery codes; answers them. */
  enable(userId: number, secretBase32: string, step: number): Promise<string[]>;
  /** New recovery codes in place of the old ones. */
  regenerate(userId: number): Promise<string[]>;
  /** Recovery codes not yet used. */
  recoveryLeft(userId: number): Promise<number>;
  /** Forgets the account's TOTP (disable, or an admin's reset). */
  remove(userId: number): Promise<void>;
  /** Seals a secret being set up (kept in a ticket or pending row until a code proves it). */
  seal(userId: number, secretBase32: string): string;
  open(userId: number, sealed: string): string | undefined;
  tickets: TicketStore;
}

/** A sign-in waiting for its second step. */
export interface Ticket {
  userId: number;
  /** 'verify': the account has TOTP; 'enroll': it must set it up now */
  stage: 'verify' | 'enroll';
  /** the secret being set up in an 'enroll' ticket, sealed */
  pending?: string;
  /** the account name the person typed (for the sign-in log) */
  account: string;
}

export interface TicketStore {
  issue(t: Ticket): Promise<string>;
  read(ticket: string): Promise<Ticket | undefined>;
  update(ticket: string, t: Ticket): Promise<void>;
  end(ticket: string): Promise<void>;
}

export function totpService(db: Kysely<Database>, secrets: Secrets, cache: Cache): TotpService {
  const row = (userId: number) => db.selectFrom('sys_user_mfa').selectAll().where('user_id', '=', userId).executeTakeFirst();
  const key = (ticket: string) => `mfa-ticket:${sha(ticket)}`;
  const svc: TotpService = {
    async enrolled(userId) {
      return (await row(userId))?.enabled === 1;
    },
    async required(roles) {
      const s = await readSettings(db);
      return s.mfa.enabled && roles.some((r) => s.mfa.roles.includes(r));
    },
    async verify(userId, label, code) {
      const r = await row(userId);
      if (!r || r.enabled !== 1) return null;
      const secret = svc.open(userId, r.secret);
      if (!secret) return null;
      const step = matchStep(secret, label, code);
      if (step !== null) {
        // accepted once: a step at or before the last one used is a replay (the update's condition makes it atomic)
        const done = await db
          .updateTable('sys_user_mfa')
          .set({ last_step: step, update_time: now() })
          .where('user_id', '=', userId)
          .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
          .executeTakeFirst();
        return Number(done.numUpdatedRows) > 0 ? 'code' : null;
      }
      const typed = normalise(code);
      if (typed.length !== 8) return null;
      const hashes = JSON.parse(r.recovery) as string[];
      const h = sha(typed);
      if (!hashes.includes(h)) return null;
      const left = JSON.stringify(hashes.filter((x) => x !== h));
      // used once: the row must still hold the list the code was found in
      const done = await db.updateTable('sys_user_mfa').set({ recovery: left, update_time: now() }).where('user_id', '=', userId).where('recovery', '=', r.recovery).executeTakeFirst();
      return Number(done.numUpdatedRows) > 0 ? 'recovery' : null;
    },
    async enable(userId, secretBase32, step) {
      const codes = newRecoveryCodes();
      const values = { secret: svc.seal(userId, secretBase32), enabled: 1, last_step: step, recovery: JSON.stringify(codes.map((c) => sha(normalise(c)))), update_time: now() };
      await db.deleteFrom('sys_user_mfa').where('user_id', '=', userId).execute();
      await db
        .insertInto('sys_user_mfa')
        .values({ user_id: userId, create_time: now(), ...values })
        .execute();
      return codes;
    },
    async regenerate(userId) {
      const codes = newRecoveryCodes();
      await db
        .updateTable('sys_user_mfa')
        .set({ recovery: JSON.stringify(codes.map((c) => sha(normalise(c)))), update_time: now() })
        .where('user_id', '=', userId)
        .execute();
      return codes;
    },
    async recoveryLeft(userId) {
      const r = await row(userId);
      return r ? (JSON.parse(r.recovery) as string[]).length : 0;
    },
    async remove(userId) {
      await db.deleteFrom('sys_user_mfa').where('user_id', '=', userId).execute();
    },
    seal: (userId, secretBase32) => secrets.encrypt(secretBase32, binding(userId)),
    open: (userId, sealed) => secrets.tryDecrypt(sealed, binding(userId)),
    tickets: {
      async issue(t) {
        const ticket = randomBytes(24).toString('base64url');
        await cache.set(key(ticket), t, TICKET_SECONDS);
        return ticket;
      },
      async read(ticket) {
        if (typeof ticket !== 'string' || ticket.length < 16 || ticket.length > 64) return undefined;
        const t = await cache.get<Ticket>(key(ticket));
        return t && Number.isInteger(t.userId) ? t : undefined;
      },
      async update(ticket, t) {
        await cache.set(key(ticket), t, TICKET_SECONDS);
      },
      async end(ticket) {
        await cache.del(key(ticket));
      },
    },
  };
  return svc;
}
