import { generateKeyPairSync, privateDecrypt, constants } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encryptWithForge, encryptWithWebCrypto } from './crypto';

const { publicKey, privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

const decrypt = (b64: string) =>
  privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(b64, 'base64')).toString('utf8');

describe('password encryption (RSA-OAEP SHA-256)', () => {
  it('WebCrypto output decrypts on the server side', async () => {
    expect(decrypt(await encryptWithWebCrypto(publicKey, 'Admin@12345'))).toBe('Admin@12345');
  });
  it('the node-forge fallback (plain http) gives the same plaintext, UTF-8 included', async () => {
    expect(decrypt(await encryptWithForge(publicKey, '密码Admin@1'))).toBe('密码Admin@1');
  });
});
