import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CIPHER_PREFIX, MASK, Secrets, isEncrypted, loadSecretKey, maskPassword, scrub } from './secrets.js';

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

  it('round-trips, with a recognisable prefix and a fresh IV each time', () => {
    const s = new Secrets({ dataDir: dir });
    const c1 = s.encrypt('p@ss 密码');
    const c2 = s.encrypt('p@ss 密码');
    expect(c1.startsWith(CIPHER_PREFIX)).toBe(true);
    expect(isEncrypted(c1)).toBe(true);
    expect(c1).not.toBe(c2);
    expect(c1).not.toContain('p@ss');
    expect(s.decrypt(c1)).toBe('p@ss 密码');
  });

  it('refuses tampered text and another key', () => {
    const s = new Secrets({ dataDir: dir });
    const other = new Secrets({ secretKey: 'other', dataDir: dir });
    const c = s.encrypt('x');
    const raw = Buffer.from(c.slice(CIPHER_PREFIX.length), 'base64');
    raw[raw.length - 1] ^= 1;
    expect(() => s.decrypt(CIPHER_PREFIX + raw.toString('base64'))).toThrow();
    expect(() => other.decrypt(c)).toThrow();
    expect(other.tryDecrypt(c)).toBeUndefined();
    expect(() => s.decrypt('plain')).toThrow();
  });

  it('sealPassword: plain → cipher, MASK/undefined keep stored, own cipher kept, foreign cipher re-sealed', () => {
    const s = new Secrets({ dataDir: dir });
    const stored = s.encrypt('old');
    const sealed = s.sealPassword('new', stored)!;
    expect(isEncrypted(sealed)).toBe(true);
    expect(s.decrypt(sealed)).toBe('new');
    expect(s.sealPassword(MASK, stored)).toBe(stored);
    expect(s.sealPassword(undefined, stored)).toBe(stored);
    expect(s.sealPassword(stored, null)).toBe(stored);
    expect(s.sealPassword('', stored)).toBe('');
    const foreign = CIPHER_PREFIX + 'AAAA';
    const resealed = s.sealPassword(foreign, null)!;
    expect(s.decrypt(resealed)).toBe(foreign);
  });

  it('plainPassword: incoming plain wins, MASK falls back to stored, encrypted incoming is decrypted', () => {
    const s = new Secrets({ dataDir: dir });
    const stored = s.encrypt('old');
    expect(s.plainPassword('typed', stored)).toBe('typed');
    expect(s.plainPassword(MASK, stored)).toBe('old');
    expect(s.plainPassword(undefined, stored)).toBe('old');
    expect(s.plainPassword(s.encrypt('enc'), stored)).toBe('enc');
  });

  it('masks and scrubs', () => {
    expect(maskPassword('enc:v1:xx')).toBe(MASK);
    expect(maskPassword('')).toBe('');
    expect(scrub('password "s3cr&t" failed s3cr%26t', 's3cr&t')).toBe(`password "${MASK}" failed ${MASK}`);
  });
});
