// Server-side secrets: AES-256-GCM under the server key, each ciphertext bound to the record it was made for.
//
// Key: SECRET_KEY (any string; stretched with scrypt to 32 bytes) or, when unset, a random
// 32-byte key created once in DATA_DIR/secret.key with mode 0600.
//
// Ciphertext: 'enc:v2:' + base64(iv[12] | tag[16] | data). The GCM associated data names what the password
// is for (a SecretBinding): the table, the record id (or "new record"), and the target the password is sent
// to (host, port, account). Decrypting under any other binding fails, so a value copied from the store, or
// from the encrypt button, is useless on another record, another kind of record or another host/port/account.
//
// 'enc:v1:' values (no binding, written before v2) are still read, but only from the store, for the record
// that holds them (openStored), and are re-sealed as v2 when that record is saved. A v1 value in a request is
// refused.
//
// Rules the modules follow (helpers below):
//  - the store holds only ciphertext;
//  - nothing returns a plain password: lists and gets answer MASK ('******');
//  - saving MASK (or nothing) keeps the stored value, unless the target changed (then the password must be
//    typed again);
//  - a ciphertext in a request is accepted only under the binding of that request's record and target.
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { assertPermission } from './auth.js';
import { BizError, ok } from './envelope.js';

export const CIPHER_PREFIX = 'enc:v2:';
/** Unbound ciphertext written before bindings existed: readable from the store only. */
export const LEGACY_PREFIX = 'enc:v1:';
export const MASK = '******';
const KEY_FILE = 'secret.key';
const AAD_TAG = 'data-service-console/secret/v2';

/** Messages of refused passwords (Chinese, shown as is). */
export const SECRET_MSG = {
  foreign: '密码密文与该记录或连接目标不匹配，请重新输入密码',
  legacy: '旧格式的密码密文不能再提交，请重新输入密码',
  targetChanged: '修改了地址、端口或账号，请重新输入密码',
  notString: '密码必须是字符串',
} as const;

/** Is this a ciphertext of ours (any version)? */
export function isEncrypted(value: unknown): value is string {
  return typeof value === 'string' && (value.startsWith(CIPHER_PREFIX) || value.startsWith(LEGACY_PREFIX));
}

/** What a password is for: the record that holds it and the target it is sent to. */
export interface SecretBinding {
  /** the store table, e.g. 'remote_server', 'gemini_datasource' */
  table: string;
  /** the record id; null / undefined for a record not saved yet */
  id?: number | string | null;
  host?: string | null;
  port?: number | string | null;
  account?: string | null;
}

/** Canonical form of a binding: host case-insensitive, port as a number, empty parts as ''. */
export function canonicalBinding(b: SecretBinding): [string, string, string, string, string] {
  const id = b.id === null || b.id === undefined || b.id === '' ? 'new' : String(Number(b.id));
  const host = String(b.host ?? '')
    .trim()
    .toLowerCase();
  const rawPort = b.port === null || b.port === undefined ? '' : String(b.port).trim();
  const port = rawPort !== '' && Number.isFinite(Number(rawPort)) ? String(Number(rawPort)) : rawPort;
  return [b.table, id, host, port, String(b.account ?? '')];
}

/** Do two bindings name the same target (host, port, account)? */
export function sameTarget(a: SecretBinding, b: SecretBinding): boolean {
  const x = canonicalBinding(a);
  const y = canonicalBinding(b);
  return x[2] === y[2] && x[3] === y[3] && x[4] === y[4];
}

function aad(b: SecretBinding): Buffer {
  return Buffer.from(JSON.stringify([AAD_TAG, ...canonicalBinding(b)]), 'utf8');
}

/** Loads (or creates once) the 32-byte server key. */
export function loadSecretKey(opts: { secretKey?: string | null; dataDir: string }): Buffer {
  if (opts.secretKey) return scryptSync(opts.secretKey, 'data-service-console/secret-key/v1', 32);
  mkdirSync(opts.dataDir, { recursive: true });
  const file = join(opts.dataDir, KEY_FILE);
  if (!existsSync(file)) {
    try {
      writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // another process won the race
    }
  }
  try {
    chmodSync(file, 0o600);
  } catch {
    /* read-only fs: keep going */
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`密钥文件无效：${file}`);
  return key;
}

/** The password to store / use for a save, as decided by Secrets.resolveForSave. */
export type SaveDecision =
  /** store this value as it is (kept stored value, '' cleared, or null none) */
  | { store: string | null }
  /** seal this plain text under the record's final binding (for a new record: once its id is known) */
  | { plain: string };

export class Secrets {
  private readonly key: Buffer;

  constructor(key: Buffer | { secretKey?: string | null; dataDir: string }) {
    this.key = Buffer.isBuffer(key) ? key : loadSecretKey(key);
    if (this.key.length !== 32) throw new Error('AES-256 密钥长度必须为 32 字节');
  }

  /** Encrypts under the binding: only the same binding decrypts it. */
  encrypt(plain: string, binding: SecretBinding): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(aad(binding));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return CIPHER_PREFIX + Buffer.concat([iv, tag, data]).toString('base64');
  }

  /**
   * Decrypts a v2 value under the binding. Throws on anything else: another binding, another key, tampered
   * text, and v1 values unless `legacy` (only for a value read from the store for the record that holds it).
   */
  decrypt(value: string, binding: SecretBinding, opts: { legacy?: boolean } = {}): string {
    const legacy = typeof value === 'string' && value.startsWith(LEGACY_PREFIX);
    if (!isEncrypted(value)) throw new Error('不是加密后的文本');
    if (legacy && !opts.legacy) throw new Error(SECRET_MSG.legacy);
    const raw = Buffer.from(value.slice((legacy ? LEGACY_PREFIX : CIPHER_PREFIX).length), 'base64');
    if (raw.length < 28) throw new Error('密文无效');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    if (!legacy) decipher.setAAD(aad(binding));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  /** Decrypt, or undefined when the value does not open under this key and binding. */
  tryDecrypt(value: string | null | undefined, binding: SecretBinding, opts: { legacy?: boolean } = {}): string | undefined {
    if (value == null || value === '') return undefined;
    try {
      return this.decrypt(value, binding, opts);
    } catch {
      return undefined;
    }
  }

  /** The plain password of a stored value, for the record (and target) that holds it; v1 accepted. */
  openStored(stored: string | null | undefined, binding: SecretBinding): string | undefined {
    return this.tryDecrypt(stored, binding, { legacy: true });
  }

  /**
   * A password that came in a request (save, connection test) → its plain text, or undefined for "none"
   * (missing, '' or MASK). A ciphertext must open under the request's own binding; otherwise, and for v1
   * values, this throws an Error with a Chinese message (the caller answers it as a refusal).
   */
  openIncoming(incoming: unknown, binding: SecretBinding): string | undefined {
    if (incoming === undefined || incoming === null || incoming === '' || incoming === MASK) return undefined;
    if (typeof incoming !== 'string') throw new Error(SECRET_MSG.notString);
    if (incoming.startsWith(LEGACY_PREFIX)) throw new Error(SECRET_MSG.legacy);
    if (!incoming.startsWith(CIPHER_PREFIX)) return incoming;
    const plain = this.tryDecrypt(incoming, binding);
    if (plain === undefined) throw new Error(SECRET_MSG.foreign);
    return plain;
  }

  /**
   * What to store for a password field on save.
   *  - MASK / missing: keep the stored value when the target is unchanged (a v1 value is re-sealed as v2),
   *    refuse when the target changed (the password must be typed again); nothing stored → null.
   *  - '': cleared.
   *  - plain text, or a ciphertext that opens under `next` (this record, this target): { plain }, which the
   *    caller seals under the record's binding as saved (for a new record, with the id it was given).
   * `stored` is the record as it is in the store (undefined for a new record); `next` the binding of the
   * request: the record's id (null for a new record) and its target after the save. Throws an Error with a
   * Chinese message to refuse.
   */
  resolveForSave(incoming: unknown, stored: { value: string | null | undefined; binding: SecretBinding } | undefined, next: SecretBinding): SaveDecision {
    if (incoming === '') return { store: '' };
    const typed = this.openIncoming(incoming, next);
    if (typed !== undefined) return { plain: typed };
    if (!stored || !stored.value) return { store: stored?.value ?? null };
    if (!sameTarget(stored.binding, next)) throw new Error(SECRET_MSG.targetChanged);
    if (stored.value.startsWith(LEGACY_PREFIX)) {
      const plain = this.openStored(stored.value, stored.binding);
      return plain === undefined ? { store: stored.value } : { plain };
    }
    return { store: stored.value };
  }
}

/** What a list / get answers in place of a stored password. */
export function maskPassword(stored: string | null | undefined): string {
  return stored ? MASK : '';
}

/** The forms a secret may take inside an error text: as is, UTF-8 round-tripped, URL-encoded. */
function secretForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  // a lone surrogate goes out on the wire (and comes back in messages) as U+FFFD
  const wellFormed = Buffer.from(secret, 'utf8').toString('utf8');
  forms.add(wellFormed);
  for (const f of [secret, wellFormed]) {
    try {
      forms.add(encodeURIComponent(f));
    } catch {
      /* not encodable (lone surrogate): no URL-encoded form to remove */
    }
  }
  return [...forms].filter((f) => f.length > 0).sort((a, b) => b.length - a.length);
}

/**
 * Removes every occurrence of the given secrets from a message (error texts from drivers).
 * Never throws: whatever the secret or the message, the answer is a string without the secret.
 */
/** Below this length a secret is only masked as a whole token (see scrub). */
const SHORT_SECRET = 4;

export function scrub(message: unknown, ...secrets: Array<string | null | undefined>): string {
  let out: string;
  try {
    out = typeof message === 'string' ? message : String(message);
  } catch {
    return '未知错误';
  }
  for (const s of secrets) {
    if (typeof s !== 'string' || s.length < 1) continue;
    try {
      for (const form of secretForms(s)) {
        const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        if (form.length < SHORT_SECRET) {
          // a secret of a few characters is masked only where it stands alone: masking it inside words
          // ("IP" for the password "p") would spell out which letters it is made of
          out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'gu'), MASK);
          continue;
        }
        out = out.split(form).join(MASK);
        // case-insensitive too (some servers echo what they were sent in upper case); a regex only for sizes it takes
        if (form.length <= 1024) out = out.replace(new RegExp(escaped, 'gi'), MASK);
      }
    } catch {
      return '连接失败（错误信息已隐藏）';
    }
  }
  return out;
}

/** Secrets.openIncoming with its refusal answered as status 1 (Chinese message). */
export function openIncoming(secrets: Secrets, incoming: unknown, binding: SecretBinding): string | undefined {
  try {
    return secrets.openIncoming(incoming, binding);
  } catch (err) {
    throw new BizError((err as Error).message);
  }
}

/** The record and target typed in a password dialog, as the encrypt button sends them ('' / null when absent). */
export interface DialogTarget {
  id: number | null;
  host: string;
  port: number | string;
  username: string;
}

export interface EncryptRouteOptions {
  secrets: Secrets;
  /** the route's own permission (config.perm) */
  perm: string;
  /** the caller needs one of these too (adding or editing a record) */
  editPerms: string[];
  /** the query parameter that names the host, and its schema */
  host: { name: string; maxLength: number; title: string };
  /** the binding of the dialog's record and target */
  binding: (t: DialogTarget) => SecretBinding;
}

/**
 * The encrypt button, GET /encrypt?pwd=…&id=…&<host>=…&port=…&username=…: answers the password sealed for the
 * record being edited (id; none for a new record) and the target typed in the dialog, so that only that record
 * and target can use it. MASK is refused ('请输入密码'), and so is a ciphertext made for another binding.
 */
export function encryptRoute(app: FastifyInstance, o: EncryptRouteOptions): void {
  app.get<{ Querystring: { pwd: string; id?: number; port?: number | string; username?: string; [host: string]: string | number | undefined } }>(
    '/encrypt',
    {
      config: { perm: o.perm },
      schema: {
        querystring: {
          type: 'object',
          required: ['pwd'],
          properties: {
            pwd: { type: 'string', minLength: 1, maxLength: 500, title: '密码' },
            id: { type: 'integer', minimum: 1, maximum: 2147483647, title: '编号' },
            [o.host.name]: { type: 'string', maxLength: o.host.maxLength, title: o.host.title },
            port: { type: ['integer', 'string'], maxLength: 10, title: '端口' },
            username: { type: 'string', maxLength: 100, title: '账号' },
          },
        },
      },
    },
    async (req) => {
      assertPermission(req, ...o.editPerms);
      const q = req.query;
      if (q.pwd === MASK) throw new BizError('请输入密码');
      const binding = o.binding({ id: q.id ?? null, host: (q[o.host.name] as string | undefined) ?? '', port: q.port ?? '', username: q.username ?? '' });
      return ok(o.secrets.encrypt(openIncoming(o.secrets, q.pwd, binding)!, binding));
    },
  );
}

/** A row of a connection table as the secret needs it: its id, the target's host column, port and account. */
export type TargetRow = { id?: number | string | null; port?: number | string | null; username?: string | null } & { [column: string]: unknown };

export interface TargetSecretOptions {
  /** the store table (the binding's table) */
  table: string;
  /** the column that names the host (ip, host_name) */
  host: string;
  /** the column that holds the sealed password (password, pwd) */
  password: string;
  /** the encrypt button's query parameter for the host, and its schema */
  hostParam: EncryptRouteOptions['host'];
}

/**
 * The password of a connection table (data sources and models, FTP and ETL servers): one piece for what both
 * sides do with it — the binding a row's password is sealed under (this table, the row, its host, port and
 * account), the stored password opened for the row's own target (a connection test), and the encrypt button
 * under the table's permissions.
 */
export function targetSecret(o: TargetSecretOptions) {
  const binding = (row: TargetRow): SecretBinding => ({ table: o.table, id: row.id ?? null, host: row[o.host] as string | null | undefined, port: row.port, account: row.username });
  return {
    binding,
    /** the stored password of row, opened for its own binding only; '' when there is none or it does not open */
    openStored: (secrets: Secrets, row: TargetRow): string => secrets.openStored(row[o.password] as string | null | undefined, binding(row)) ?? '',
    /** GET /encrypt under `${perm}:list`, for callers who may add or edit (`${perm}:add` / `${perm}:edit`) */
    encryptRoute: (app: FastifyInstance, secrets: Secrets, perm: string): void =>
      encryptRoute(app, {
        secrets,
        perm: `${perm}:list`,
        editPerms: [`${perm}:add`, `${perm}:edit`],
        host: o.hostParam,
        binding: (t) => binding({ id: t.id, [o.host]: t.host, port: t.port, username: t.username }),
      }),
  };
}
