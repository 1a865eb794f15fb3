// Serving (DESIGN §7): security headers on the app and on every API answer, pre-compressed files chosen by
// Accept-Encoding, hashed assets immutable and index.html revalidated (also for client routes), the
// sandboxed /files/... policy kept, and the store and logs readable by the server's account only.
import { chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_CSP } from '../modules/image/index.js';
import { startTestServer, type TestServer } from '../testing/server.js';
import { LOG_FILE_MODE, SERVICES, logFile } from './logs.js';
import { API_CSP, APP_CSP, APP_CSP_DIRECTIVES, APP_DOCUMENT_CSP, APP_DOCUMENT_CSP_DIRECTIVES, IMMUTABLE, REVALIDATE } from './serving.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request over node:http, so the body arrives exactly as sent (fetch would decode it). */
function get(base: string, p: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, method, path: p, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const json = (a: Answer) => JSON.parse(a.body.toString('utf8'));
const mode = (file: string) => statSync(file).mode & 0o777;

const INDEX = `<!doctype html><html><head><title>数据服务平台</title><script type="module" src="/assets/app-1a2b3c4d.js"></script></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
const ASSET = `export const hello = ${JSON.stringify('数据服务'.repeat(400))};\n`;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** Writes a file of the built app with its .br and .gz copies, as the build does. */
function writeBuilt(file: string, text: string) {
  writeFileSync(file, text);
  writeFileSync(`${file}.br`, zlib.brotliCompressSync(Buffer.from(text)));
  writeFileSync(`${file}.gz`, zlib.gzipSync(Buffer.from(text)));
}

function expectAppHeaders(a: Answer, csp = APP_DOCUMENT_CSP) {
  expect(a.headers['content-security-policy']).toBe(csp);
  // the console may frame its own pages (the embedded page), no other site may
  expect(a.headers['x-frame-options']).toBe('SAMEORIGIN');
  expect(a.headers['x-content-type-options']).toBe('nosniff');
  expect(a.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
}

function expectApiHeaders(a: Answer, what: string) {
  expect(a.headers['cache-control'], what).toBe('no-store');
  expect(a.headers['x-content-type-options'], what).toBe('nosniff');
  expect(a.headers['content-security-policy'], what).toBe(API_CSP);
  expect(a.headers['x-frame-options'], what).toBe('DENY');
  expect(a.headers['content-type'], what).toContain('application/json');
}

describe('serving: headers, compression, caching', () => {
  let s: TestServer;
  const dist = mkdtempSync(path.join(os.tmpdir(), 'dist-serving-'));
  beforeAll(async () => {
    mkdirSync(path.join(dist, 'assets'));
    writeBuilt(path.join(dist, 'index.html'), INDEX);
    writeBuilt(path.join(dist, 'assets', 'app-1a2b3c4d.js'), ASSET);
    writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    s = await startTestServer({ env: { DIST_DIR: dist } });
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('CSP allows what the app needs and nothing it does not', () => {
    expect(APP_CSP).toContain("script-src 'self';");
    expect(APP_CSP).not.toContain("'unsafe-eval'");
    // the app's document differs only by eval (ajv in the page manager, Formily reactions; see serving.ts)
    expect(APP_DOCUMENT_CSP).toContain("script-src 'self' 'unsafe-eval';");
    expect({ ...APP_DOCUMENT_CSP_DIRECTIVES, 'script-src': APP_CSP_DIRECTIVES['script-src'] }).toEqual(APP_CSP_DIRECTIVES);
    expect(APP_DOCUMENT_CSP).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(APP_CSP).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(APP_CSP).toContain("style-src 'self' 'unsafe-inline'");
    expect(APP_CSP).toContain("worker-src 'self'");
    expect(APP_CSP).toContain("img-src 'self' data: blob:");
    expect(APP_CSP).toContain("connect-src 'self'");
    expect(APP_CSP).toContain("object-src 'none'");
    expect(APP_CSP).toContain("base-uri 'self'");
    expect(APP_CSP).toContain("form-action 'self'");
    expect(APP_CSP).toContain("frame-ancestors 'self'");
    expect(APP_DOCUMENT_CSP).toContain("frame-ancestors 'self'");
    expect(API_CSP).toContain("frame-ancestors 'none'");
    expect(APP_CSP).not.toContain('upgrade-insecure-requests');
  });

  it('index.html: security headers, revalidated, brotli or gzip by Accept-Encoding', async () => {
    for (const p of ['/', '/index.html']) {
      const br = await get(s.url, p, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.status, p).toBe(200);
      expectAppHeaders(br);
      expect(br.headers['cache-control']).toBe(REVALIDATE);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toContain('text/html');
      expect(br.headers.vary).toContain('accept-encoding');
      expect(zlib.brotliDecompressSync(br.body).toString()).toBe(INDEX);
    }
    const gz = await get(s.url, '/', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(INDEX);
    const plain = await get(s.url, '/');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(INDEX);
    expect(plain.headers['cache-control']).toBe(REVALIDATE);
  });

  it('hashed assets: immutable for a year, pre-compressed copies served with the original type', async () => {
    const br = await get(s.url, '/assets/app-1a2b3c4d.js', { 'accept-encoding': 'br' });
    expect(br.status).toBe(200);
    expect(br.headers['cache-control']).toBe(IMMUTABLE);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.headers['x-content-type-options']).toBe('nosniff');
    expect(br.body.length).toBeLessThan(Buffer.byteLength(ASSET) / 4);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(ASSET);
    const gz = await get(s.url, '/assets/app-1a2b3c4d.js', { 'accept-encoding': 'gzip, deflate' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe(IMMUTABLE);
    expect(zlib.gunzipSync(gz.body).toString()).toBe(ASSET);
    const plain = await get(s.url, '/assets/app-1a2b3c4d.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe(IMMUTABLE);
    expect(plain.body.toString()).toBe(ASSET);
    // a file without compressed copies is served as it is; not hashed, so revalidated
    const icon = await get(s.url, '/favicon.svg', { 'accept-encoding': 'br, gzip' });
    expect(icon.status).toBe(200);
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.headers['cache-control']).toBe(REVALIDATE);
    // only the app's document may eval: assets (and the workers among them) and other files may not
    expectAppHeaders(icon, APP_CSP);
    expectAppHeaders(br, APP_CSP);
  });

  it('a client-side route gets index.html, revalidated, with the app headers', async () => {
    for (const p of ['/data/datasource?x=1', '/login', '/system/user']) {
      const a = await get(s.url, p, { 'accept-encoding': 'br' });
      expect(a.status, p).toBe(200);
      expectAppHeaders(a);
      expect(a.headers['cache-control'], p).toBe(REVALIDATE);
      expect(a.headers['content-encoding'], p).toBe('br');
      expect(zlib.brotliDecompressSync(a.body).toString()).toBe(INDEX);
    }
    const missing = await get(s.url, '/assets/app-00000000.js', { 'accept-encoding': 'br' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toContain('json');
    expect(missing.headers['cache-control']).toBe('no-store');
  });

  it('every route the app files plugin registers is public', () => {
    const files = s.app.routeTable.filter((r) => r.url === '/*');
    expect(files.length).toBeGreaterThan(0);
    for (const r of files) expect(r.public, `${r.method} ${r.url}`).toBe(true);
  });

  it('API answers: success, validation error, 401, 404, /open — never cached, never sniffed', async () => {
    const auth = { authorization: `Bearer ${s.token}` };
    const publicKey = await get(s.url, '/api/uams/publicKey');
    expect(json(publicKey).status).toBe(0);
    expectApiHeaders(publicKey, 'public success');
    const session = await get(s.url, '/api/uams/session/find', auth);
    expect(session.status).toBe(200);
    expect(json(session).status).toBe(0);
    expectApiHeaders(session, 'signed-in success');
    const unsigned = await get(s.url, '/api/uams/session/find');
    expect(unsigned.status).toBe(401);
    expectApiHeaders(unsigned, '401');
    const nope = await get(s.url, '/api/nope', auth);
    expect(nope.status).toBe(404);
    expect(json(nope)).toMatchObject({ status: 1, msg: '接口不存在' });
    expectApiHeaders(nope, '404');
    const bad = await fetch(`${s.url}/api/uams/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"loginType":' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('cache-control')).toBe('no-store');
    expect(bad.headers.get('x-content-type-options')).toBe('nosniff');
    const open = await get(s.url, '/open/api/nope');
    expect(open.status).toBeGreaterThanOrEqual(400);
    expectApiHeaders(open, '/open');
    // however spelled, a guarded path gets the API headers
    const spelled = await get(s.url, '/API/../api/nope');
    expect(spelled.headers['cache-control']).toBe('no-store');
  });

  it('uploaded files keep their own sandbox policy', async () => {
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(PNG)]), 'a.png');
    const up = await fetch(`${s.url}/api/file/image/uploadImage`, { method: 'POST', body: form, headers: { authorization: `Bearer ${s.token}` } });
    const r = (await up.json()) as { status: number; data: { fileUrl: string }[] };
    expect(r.status).toBe(0);
    const file = await get(s.url, r.data[0].fileUrl);
    expect(file.status).toBe(200);
    expect(file.headers['content-security-policy']).toBe(FILE_CSP);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    // sandboxed, and framed by the console's own pages at most
    expect(file.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('the store, its WAL and shared-memory files, and the logs are owner-only (0600)', async () => {
    await s.request('GET', '/api/uams/session/find');
    const db = path.join(s.dataDir, 'platform.db');
    for (const f of [db, `${db}-wal`, `${db}-shm`]) {
      expect(existsSync(f), f).toBe(true);
      expect(mode(f).toString(8), f).toBe('600');
    }
    for (const service of SERVICES) expect(mode(logFile(s.dataDir, service)).toString(8), service).toBe(LOG_FILE_MODE.toString(8));
  });
});

describe('serving: a data folder left world-readable by an older version', () => {
  it('narrows the store and the logs to 0600 on start', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'console-old-'));
    mkdirSync(path.join(dataDir, 'logs'));
    const db = path.join(dataDir, 'platform.db');
    const old = [db, ...SERVICES.map((x) => logFile(dataDir, x))];
    for (const f of old) {
      closeSync(openSync(f, 'a', 0o644));
      chmodSync(f, 0o644);
    }
    const s = await startTestServer({ env: { DATA_DIR: dataDir } });
    try {
      for (const f of [...old, `${db}-wal`, `${db}-shm`]) expect(mode(f).toString(8), f).toBe('600');
    } finally {
      await s.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
