// Password encryption: RSA-OAEP (SHA-256) under the server's public key, base64 out.
// WebCrypto exists only in secure contexts; on plain http node-forge does it (loaded lazily).
import { get } from './request';

function pemBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) [^-]+-----/g, '').replace(/\s+/g, '');
}

function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

export function webCryptoAvailable(): boolean {
  return typeof globalThis.crypto?.subtle?.importKey === 'function' && globalThis.isSecureContext !== false;
}

export async function encryptWithWebCrypto(pem: string, plain: string): Promise<string> {
  const der = Uint8Array.from(atob(pemBody(pem)), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey('spki', der, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  const out = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(plain));
  return toBase64(new Uint8Array(out));
}

export async function encryptWithForge(pem: string, plain: string): Promise<string> {
  const mod = await import('node-forge');
  const forge = (mod as unknown as { default?: typeof mod }).default ?? mod;
  const key = forge.pki.publicKeyFromPem(pem);
  const bytes = key.encrypt(forge.util.encodeUtf8(plain), 'RSA-OAEP', {
    md: forge.md.sha256.create(),
    mgf1: { md: forge.md.sha256.create() },
  });
  return forge.util.encode64(bytes);
}

export async function encryptWithKey(pem: string, plain: string): Promise<string> {
  return webCryptoAvailable() ? encryptWithWebCrypto(pem, plain) : encryptWithForge(pem, plain);
}

/** Fetches the public key (GET /api/uams/publicKey) and encrypts `plain` with it. */
export async function encryptPassword(plain: string): Promise<string> {
  const pem = await get<string>('/uams/publicKey');
  return encryptWithKey(pem, plain);
}
