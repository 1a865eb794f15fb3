// Passwords: scrypt hashes at rest; RSA-OAEP (SHA-256) on the wire (DESIGN §4).
import { constants, createPrivateKey, createPublicKey, generateKeyPairSync, privateDecrypt, randomBytes, scrypt, timingSafeEqual, type KeyObject } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;
const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

export async function hashPassword(plain: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(plain, salt, 32, SCRYPT);
  return `scrypt$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Checks a password. Costs one scrypt whatever `stored` holds (a malformed hash too): the time taken says nothing. */
export async function verifyPassword(plain: string, stored: string): Promise<boolean> {
  const [kind, salt, hash] = stored.split('$');
  const given = kind === 'scrypt' && salt && hash ? Buffer.from(hash, 'base64') : null;
  const wellFormed = given !== null && given.length >= 16 && given.length <= 64;
  const expected = wellFormed ? given : randomBytes(32);
  const key = await scryptAsync(plain, wellFormed ? Buffer.from(salt, 'base64') : randomBytes(16), expected.length, SCRYPT);
  return wellFormed && timingSafeEqual(key, expected);
}

/**
 * A well-formed hash that no password matches (its "key" is random bytes, not scrypt output): checking an
 * unknown account against it takes as long as checking a real one.
 */
export function unmatchableHash(): string {
  return `scrypt$${randomBytes(16).toString('base64')}$${randomBytes(32).toString('base64')}`;
}

export interface LoginKeys {
  publicPem: string;
  decrypt(base64: string): string;
}

/** The login key pair lives in DATA_DIR so a restart keeps open login pages working. */
export function loadLoginKeys(dataDir: string): LoginKeys {
  const dir = path.join(dataDir, 'keys');
  const file = path.join(dir, 'login-rsa.pem');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    // written whole under another name, then linked in place: of several instances starting at once on a shared
    // DATA_DIR the first link wins and every instance reads that one key (a plain write could mix or replace keys)
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(tmp, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    try {
      linkSync(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      rmSync(tmp, { force: true });
    }
  }
  const privateKey: KeyObject = createPrivateKey(readFileSync(file, 'utf8'));
  const publicPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
  return {
    publicPem,
    decrypt(base64: string) {
      const out = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(base64, 'base64'));
      return out.toString('utf8');
    },
  };
}

/** A readable random password for first start (printed once). */
export function generatePassword(): string {
  return `${randomBytes(9).toString('base64url')}A1!`;
}
