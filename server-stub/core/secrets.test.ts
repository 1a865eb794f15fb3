import { createCipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CIPHER_PREFIX, LEGACY_PREFIX, MASK, SECRET_MSG, Secrets, isEncrypted, loadSecretKey, maskPassword, sameTarget, scrub, type SecretBinding } from './secrets.js';

const FTP1: SecretBinding = { table: 'remote_server', id: 1, host: '10.0.0.5', port: 21, account: 'ftpuser' };

/** A value as the code before bindings wrote it: enc:v1: + base64(iv | tag | data), no associated data. */
function legacyCipher(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return LEGACY_PREFIX + Buffer.concat([iv, c.getAuthTag(), data]).toString('base64');
}

describe('secrets (AES-256-GCM under the server key)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'secrets-'));

  it('creates the key file once, mode 0600, and reuses it', () => {
    const a = loadSecretKey({ dataDir: dir });
    const file = join(dir, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const b = loadSecretKey({ dataDir: dir });
    expect(a.equals(b)).toBe(true);
    expect(readFileSync(file, 'utf8')).not.toContain('undefined');
  });

  it('SECRET_KEY wins over the key file', () => {
    const k1 = loadSecretKey({ secretKey: 'abc', dataDir: dir });
    const k2 = loadSecretKey({ dataDir: dir });
    expect(k1.equals(k2)).toBe(false);
    expect(k1.length).toBe(32);
  });

  it('round-trips under its binding, with a recognisable prefix and a fresh IV each time', () => {
    const s = new Secrets({ dataDir: dir });
    const c1 = s.encrypt('p@ss 密码', FTP1);
    const c2 = s.encrypt('p@ss 密码', FTP1);
    expect(c1.startsWith(CIPHER_PREFIX)).toBe(true);
    expect(isEncrypted(c1)).toBe(true);
    expect(c1).not.toBe(c2);
    expect(c1).not.toContain('p@ss');
    expect(s.decrypt(c1, FTP1)).toBe('p@ss 密码');
    // the binding is canonical: host case, port as text or number
    expect(s.decrypt(c1, { ...FTP1, host: '10.0.0.5 ', port: '21' })).toBe('p@ss 密码');
  });

  it('a value opens only under the binding it was made for: record, table, host, port, account', () => {
    const s = new Secrets({ dataDir: dir });
    const c = s.encrypt('secret', FTP1);
    const others: SecretBinding[] = [
      { ...FTP1, id: 2 },
      { ...FTP1, id: null },
      { ...FTP1, table: 'gemini_datasource' },
      { ...FTP1, host: '127.0.0.1' },
      { ...FTP1, port: 2121 },
      { ...FTP1, account: 'root' },
      { ...FTP1, account: 'FTPUSER' },
    ];
    for (const b of others) {
      expect(() => s.decrypt(c, b), JSON.stringify(b)).toThrow();
      expect(s.tryDecrypt(c, b)).toBeUndefined();
      expect(() => s.openIncoming(c, b)).toThrow(SECRET_MSG.foreign);
    }
    // a "new record" value opens for a new record with the same target only
    const fresh = s.encrypt('typed', { ...FTP1, id: null });
    expect(s.openIncoming(fresh, { ...FTP1, id: undefined })).toBe('typed');
    expect(() => s.openIncoming(fresh, FTP1)).toThrow(SECRET_MSG.foreign);
  });

  it('refuses tampered text and another key', () => {
    const s = new Secrets({ dataDir: dir });
    const other = new Secrets({ secretKey: 'other', dataDir: dir });
    const c = s.encrypt('x', FTP1);
    const raw = Buffer.from(c.slice(CIPHER_PREFIX.length), 'base64');
    raw[raw.length - 1] ^= 1;
    expect(() => s.decrypt(CIPHER_PREFIX + raw.toString('base64'), FTP1)).toThrow();
    expect(() => other.decrypt(c, FTP1)).toThrow();
    expect(other.tryDecrypt(c, FTP1)).toBeUndefined();
    expect(() => s.decrypt('plain', FTP1)).toThrow();
  });

  it('v1 values (before bindings): read from the store only, refused in a request, re-sealed on save', () => {
    const key = loadSecretKey({ dataDir: dir });
    const s = new Secrets(key);
    const v1 = legacyCipher(key, 'old-secret');
    expect(isEncrypted(v1)).toBe(true);
    expect(s.openStored(v1, FTP1)).toBe('old-secret');
    expect(() => s.decrypt(v1, FTP1)).toThrow();
    expect(() => s.openIncoming(v1, FTP1)).toThrow(SECRET_MSG.legacy);
    expect(() => s.resolveForSave(v1, undefined, { ...FTP1, id: null })).toThrow(SECRET_MSG.legacy);
    const d = s.resolveForSave(MASK, { value: v1, binding: FTP1 }, FTP1);
    expect(d).toEqual({ plain: 'old-secret' });
  });

  it('resolveForSave: MASK keeps, a changed target needs the password again, plain and own ciphertext sealed', () => {
    const s = new Secrets({ dataDir: dir });
    const stored = s.encrypt('old', FTP1);
    const keep = { value: stored, binding: FTP1 };
    expect(s.resolveForSave(MASK, keep, FTP1)).toEqual({ store: stored });
    expect(s.resolveForSave(undefined, keep, FTP1)).toEqual({ store: stored });
    expect(s.resolveForSave(null, keep, { ...FTP1, host: '10.0.0.5' })).toEqual({ store: stored });
    expect(() => s.resolveForSave(MASK, keep, { ...FTP1, host: '127.0.0.1' })).toThrow(SECRET_MSG.targetChanged);
    expect(() => s.resolveForSave(MASK, keep, { ...FTP1, port: 2121 })).toThrow(SECRET_MSG.targetChanged);
    expect(() => s.resolveForSave(undefined, keep, { ...FTP1, account: 'x' })).toThrow(SECRET_MSG.targetChanged);
    expect(s.resolveForSave('', keep, FTP1)).toEqual({ store: '' });
    expect(s.resolveForSave('new', keep, { ...FTP1, host: '127.0.0.1' })).toEqual({ plain: 'new' });
    expect(s.resolveForSave(stored, keep, FTP1)).toEqual({ plain: 'old' });
    expect(() => s.resolveForSave(stored, undefined, { ...FTP1, id: null })).toThrow(SECRET_MSG.foreign);
    expect(() => s.resolveForSave(CIPHER_PREFIX + 'AAAA', undefined, FTP1)).toThrow(SECRET_MSG.foreign);
    expect(s.resolveForSave(MASK, undefined, { ...FTP1, id: null })).toEqual({ store: null });
    expect(() => s.resolveForSave(42, undefined, FTP1)).toThrow(SECRET_MSG.notString);
    expect(sameTarget({ table: 'a', host: 'H', port: '21' }, { table: 'b', host: 'h', port: 21 })).toBe(true);
  });

  it('masks and scrubs', () => {
    expect(maskPassword('enc:v2:xx')).toBe(MASK);
    expect(maskPassword('')).toBe('');
    expect(scrub('password "s3cr&t" failed s3cr%26t', 's3cr&t')).toBe(`password "${MASK}" failed ${MASK}`);
    expect(scrub('502 Command not allowed: S3CR.T*', 's3cr.t*')).toBe(`502 Command not allowed: ${MASK}`); // echoed in upper case
    // a short password is masked where it stands alone, never inside words (that would spell it out)
    expect(scrub('before: login b failed for IP 10.0.0.1', 'b')).toBe(`before: login ${MASK} failed for IP 10.0.0.1`);
    expect(scrub('password p rejected (IP)', 'p')).toBe(`password ${MASK} rejected (IP)`);
  });

  it('scrub never throws: lone surrogates, NUL, huge secrets, odd messages', () => {
    const lone = '\ud800';
    expect(() => encodeURIComponent(lone)).toThrow(URIError); // what used to escape from scrub
    expect(scrub(`auth failed for ${lone}`, lone)).toBe(`auth failed for ${MASK}`);
    // on the wire a lone surrogate becomes U+FFFD: that form is removed too
    expect(scrub('auth failed for pw\ufffdx', `pw${lone}x`)).toBe(`auth failed for ${MASK}`);
    expect(scrub('a\0b failed', 'a\0b')).toBe(`${MASK} failed`);
    const big = 'x'.repeat(100_000);
    expect(scrub(`bad ${big}`, big)).toBe(`bad ${MASK}`);
    expect(scrub(undefined as unknown as string, 'p')).toBe('undefined');
    expect(scrub({ toString: () => { throw new Error('boom'); } }, 'p')).toBe('未知错误');
    expect(scrub('plain', null, undefined, '')).toBe('plain');
  });
});
