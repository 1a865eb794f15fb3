// Server-side secrets: AES-256-GCM under the server key.
//
// Key: SECRET_KEY (any string; stretched with scrypt to 32 bytes) or, when unset, a random
// 32-byte key created once in DATA_DIR/secret.key with mode 0600.
// Ciphertext: 'enc:v1:' + base64(iv[12] | tag[16] | data) — the prefix makes "already encrypted"
// detectable, so a value that comes back from the browser encrypted is stored as is.
//
// Rules the modules follow (helpers below):
//  - the store holds only ciphertext (sealPassword on save);
//  - nothing returns a plain password: lists and gets answer MASK ('******');
//  - saving MASK (or nothing) keeps the stored value.
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CIPHER_PREFIX = 'enc:v1:';
export const MASK = '******';
const KEY_FILE = 'secret.key';

export function isEncrypted(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(CIPHER_PREFIX);
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

export class Secrets {
  private readonly key: Buffer;

  constructor(key: Buffer | { secretKey?: string | null; dataDir: string }) {
    this.key = Buffer.isBuffer(key) ? key : loadSecretKey(key);
    if (this.key.length !== 32) throw new Error('AES-256 密钥长度必须为 32 字节');
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return CIPHER_PREFIX + Buffer.concat([iv, tag, data]).toString('base64');
  }

  /** Throws on a value that is not ours (wrong key, tampered, not encrypted). */
  decrypt(value: string): string {
    if (!isEncrypted(value)) throw new Error('不是加密后的文本');
    const raw = Buffer.from(value.slice(CIPHER_PREFIX.length), 'base64');
    if (raw.length < 28) throw new Error('密文无效');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  /** Decrypt, or undefined when the value cannot be decrypted under this key. */
  tryDecrypt(value: string | null | undefined): string | undefined {
    if (value == null || value === '') return undefined;
    try {
      return this.decrypt(value);
    } catch {
      return undefined;
    }
  }

  /** Encrypts a plain value; an already encrypted value of ours is kept as is. */
  seal(value: string): string {
    if (isEncrypted(value) && this.tryDecrypt(value) !== undefined) return value;
    return this.encrypt(value);
  }

  /**
   * The value to store for a password field on save.
   * incoming MASK / undefined / null → keep the stored one; '' → '' (cleared) ; otherwise sealed.
   */
  sealPassword(incoming: unknown, stored: string | null | undefined): string | null {
    if (incoming === undefined || incoming === null || incoming === MASK) return stored ?? null;
    if (typeof incoming !== 'string') throw new Error('密码必须是字符串');
    if (incoming === '') return '';
    return this.seal(incoming);
  }

  /** The plain password for a connection: incoming plain text wins, MASK/empty falls back to the stored one. */
  plainPassword(incoming: unknown, stored: string | null | undefined): string {
    if (typeof incoming === 'string' && incoming !== '' && incoming !== MASK) {
      return isEncrypted(incoming) ? (this.tryDecrypt(incoming) ?? '') : incoming;
    }
    return this.tryDecrypt(stored ?? '') ?? '';
  }
}

/** What a list / get answers in place of a stored password. */
export function maskPassword(stored: string | null | undefined): string {
  return stored ? MASK : '';
}

/** Removes every occurrence of the given secrets from a message (error texts from drivers). */
export function scrub(message: string, ...secrets: Array<string | null | undefined>): string {
  let out = message;
  for (const s of secrets) {
    if (!s || s.length < 1) continue;
    out = out.split(s).join(MASK);
    const enc = encodeURIComponent(s);
    if (enc !== s) out = out.split(enc).join(MASK);
  }
  return out;
}
