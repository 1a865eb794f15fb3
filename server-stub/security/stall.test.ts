// Security regression, from an outside attack: a client that sends its headers and part of a body, then nothing,
// used to hold its connection (and a buffered body, or an upload's temp file) for ever: Fastify leaves requests
// without a time limit. One client opening many such connections grew the server by 150 MB. Now a request must
// arrive whole within REQUEST_TIMEOUT (2 s here): it is answered 408 and its connection closed. And an address
// the router cannot take answers the envelope with the security headers, not Fastify's echo of the path.
import net from 'node:net';
import { startTestServer, type TestServer } from '../testing/server.js';

describe('stalled requests and addresses the router cannot take', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { REQUEST_TIMEOUT: '2' } });
  });
  afterAll(async () => {
    await s?.close();
  });

  /** Sends head and part of a body, never the rest; answers what came back and when the server closed. */
  function stall(path: string, head: Record<string, string>, part: string): Promise<{ answer: string; closedAfterMs: number }> {
    const u = new URL(s.url);
    return new Promise((resolve, reject) => {
      const started = Date.now();
      let answer = '';
      const socket = net.connect(Number(u.port), u.hostname, () => {
        const lines = [`POST ${path} HTTP/1.1`, `Host: ${u.host}`, ...Object.entries(head).map(([k, v]) => `${k}: ${v}`), '', part];
        socket.write(lines.join('\r\n'));
      });
      socket.on('data', (d) => (answer += d));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve({ answer, closedAfterMs: Date.now() - started }));
      setTimeout(() => {
        socket.destroy();
        reject(new Error('the server kept the stalled connection open for 20 s'));
      }, 20_000).unref();
    });
  }

  it('answers 408 and closes a request whose body stops arriving (sign-in and a published API alike)', async () => {
    const [json, upload] = await Promise.all([
      stall('/api/uams/login', { 'Content-Type': 'application/json', 'Content-Length': '100' }, '{"mobi'),
      stall('/open/api/anything', { 'Content-Type': 'application/json', 'Content-Length': '2000000' }, `{"district":"${'x'.repeat(50_000)}`),
    ]);
    for (const r of [json, upload]) {
      expect(r.answer).toMatch(/^HTTP\/1\.1 408/);
      expect(JSON.parse(r.answer.slice(r.answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 1, msg: '请求超时：请求未在规定时间内发送完整' });
      expect(r.closedAfterMs).toBeLessThan(12_000);
    }
    // the server is well and answers the next caller
    expect((await s.request('GET', '/api/uams/publicKey')).body.status).toBe(0);
  }, 30_000);

  it('answers a broken %-escape and an over-long path parameter with the envelope and the security headers', async () => {
    for (const path of ['/open/api/%zz', `/open/api/${'%3Cscript%3E'.repeat(20)}`, '/files/form/%E0%A4%A']) {
      const res = await fetch(s.url + path, { method: path.startsWith('/open') ? 'POST' : 'GET' });
      const text = await res.text();
      expect([400, 414], path).toContain(res.status);
      expect(JSON.parse(text), path).toEqual({ status: 1, msg: '请求地址不合法', data: null });
      expect(text).not.toMatch(/script|FST_ERR/i);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });
});
